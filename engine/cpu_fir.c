/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Separable FIR on the CPU: a horizontal pass over padded rows and a
 * vertical pass over blocks of columns, both in place and both written as
 * "row += tap * row" loops over contiguous floats so that the compiler
 * vectorises them. */
#include <stdlib.h>
#include <string.h>

#include "coefficients.h"
#include "cpu_backend.h"

void
gb_image_copy (const gb_image *src, const gb_image *dst)
{
  size_t row = (size_t) src->width * (size_t) src->channels * sizeof (float);
  if (src->data == dst->data && src->stride == dst->stride)
    return;
  for (int y = 0; y < src->height; y++)
    memcpy (dst->data + (size_t) y * dst->stride,
            src->data + (size_t) y * src->stride, row);
}

typedef struct
{
  const gb_image *src;
  const gb_image *dst;
  const float *taps;
  int radius;
  int rows_per_item;
} fir_pass;

/* out[i] = sum over k = -radius..radius of taps[|k|] * rows[radius + k][i],
 * summed in that order, from the far left tap to the far right one.  The
 * GPU kernels sum in the same order, so the two backends agree to a few
 * ulps (a symmetric t * (a + b) form would halve the multiplications but
 * round differently from the GPU's). */
static void
fir_accumulate (float *restrict out, const float *restrict const *rows,
                const float *restrict taps, int radius, size_t n)
{
  const float *restrict first = rows[0];
  const float t_first = taps[radius];
  for (size_t i = 0; i < n; i++)
    out[i] = t_first * first[i];
  for (int k = 1; k <= 2 * radius; k++)
    {
      const float *restrict a = rows[k];
      const float t = taps[k < radius ? radius - k : k - radius];
      for (size_t i = 0; i < n; i++)
        out[i] += t * a[i];
    }
}

/* Bytes of the padded row in the horizontal pass's scratch, rounded up so
 * that the table of row pointers after it is aligned. */
static size_t
pad_bytes (int w, int r, int c)
{
  size_t b = (size_t) (w + 2 * r) * c * sizeof (float);
  return (b + sizeof (void *) - 1) & ~(sizeof (void *) - 1);
}

/* Horizontal: copy the row with replicated borders into scratch (so the
 * pass also works in place), then accumulate shifted views of it. */
static void
fir_h_item (void *ctx, long item, void *scratch)
{
  const fir_pass *p = ctx;
  const int w = p->src->width, c = p->src->channels, r = p->radius;
  float *pad = scratch;
  const float **rows = (const float **) ((char *) scratch
                                         + pad_bytes (w, r, c));
  int y0 = (int) item * p->rows_per_item;
  int y1 = y0 + p->rows_per_item;
  if (y1 > p->src->height)
    y1 = p->src->height;

  for (int y = y0; y < y1; y++)
    {
      const float *in = p->src->data + (size_t) y * p->src->stride;
      float *out = p->dst->data + (size_t) y * p->dst->stride;
      for (int x = 0; x < r; x++)
        for (int ch = 0; ch < c; ch++)
          {
            pad[(size_t) x * c + ch] = in[ch];
            pad[(size_t) (w + r + x) * c + ch] = in[(size_t) (w - 1) * c + ch];
          }
      memcpy (pad + (size_t) r * c, in, (size_t) w * c * sizeof (float));
      for (int k = 0; k <= 2 * r; k++)
        rows[k] = pad + (size_t) k * c;
      fir_accumulate (out, rows, p->taps, r, (size_t) w * c);
    }
}

/* Vertical, in place: a block of columns walks down the image keeping the
 * 2r + 1 input rows it needs in a ring (row y + r is copied in before row
 * y is overwritten), so no copy of the whole image is needed.  The rows
 * are summed in the same order as ever, so results are unchanged. */
typedef struct
{
  const gb_image *img;
  const float *taps;
  int radius;
  size_t block;        /* floats per column block */
} fir_v_pass;

static void
fir_v_item (void *ctx, long item, void *scratch)
{
  const fir_v_pass *p = ctx;
  const gb_image *img = p->img;
  const int h = img->height, r = p->radius, K = 2 * r + 1;
  const size_t n = (size_t) img->width * img->channels;
  const size_t x0 = (size_t) item * p->block;
  const size_t len = n - x0 < p->block ? n - x0 : p->block;
  float *ring = scratch;
  const float **rows = (const float **) (ring + (size_t) K * p->block);
#define ROW(y) (img->data + (size_t) (y) * img->stride + x0)
#define SLOT(y) (ring + (size_t) ((y) % K) * p->block)
  for (int y = 0; y < r && y < h; y++)
    memcpy (SLOT (y), ROW (y), len * sizeof (float));
  for (int y = 0; y < h; y++)
    {
      if (y + r < h)
        memcpy (SLOT (y + r), ROW (y + r), len * sizeof (float));
      for (int k = -r; k <= r; k++)
        {
          int yy = y + k;
          rows[k + r] = SLOT (yy < 0 ? 0 : yy >= h ? h - 1 : yy);
        }
      fir_accumulate (ROW (y), rows, p->taps, r, len);
    }
#undef ROW
#undef SLOT
}

static gb_status
run_v_pass (const gb_image *img, const float *taps, int radius, int threads,
            const gb_progress_span *progress)
{
  const size_t n = (size_t) img->width * img->channels;
  const size_t K = 2 * (size_t) radius + 1;
  /* Blocks of at most 1024 floats, enough of them for every thread, and a
   * ring of at most 1 MiB per thread (sigma 1500 has 9001 rows). */
  size_t block = n / (4 * (size_t) gb_threads_for (threads));
  block = block < 16 ? 16 : block > 1024 ? 1024 : block;
  if (block * K > (256u << 10))
    block = (256u << 10) / K < 16 ? 16 : (256u << 10) / K;
  block = (block + 15) & ~(size_t) 15;
  fir_v_pass p = { img, taps, radius, block };
  long items = (long) ((n + block - 1) / block);
  size_t ring = K * block * sizeof (float);
  ring = (ring + sizeof (void *) - 1) & ~(sizeof (void *) - 1);
  return gb_parallel_for (items, fir_v_item, &p,
                          ring + K * sizeof (float *), threads, progress);
}

static gb_status
run_h_pass (const gb_image *src, const gb_image *dst, const float *taps,
            int radius, int threads, const gb_progress_span *progress)
{
  int n_threads = gb_threads_for (threads);
  fir_pass p = { src, dst, taps, radius, 1 };
  /* Enough items for even load and smooth progress, few enough to keep the
   * per-item overhead small. */
  long want = (long) n_threads * 16;
  p.rows_per_item = src->height / (int) (want < src->height ? want : src->height);
  if (p.rows_per_item < 1)
    p.rows_per_item = 1;
  long items = (src->height + p.rows_per_item - 1) / p.rows_per_item;
  size_t rows_bytes = (size_t) (2 * radius + 1) * sizeof (float *);
  return gb_parallel_for (items, fir_h_item, &p,
                          pad_bytes (src->width, radius, src->channels)
                          + rows_bytes, threads, progress);
}

gb_status
gb_cpu_fir (const gb_params *params, const gb_image *src,
            const gb_image *dst, const gb_progress_span *progress)
{
  gb_status st = GB_OK;
  int rx = 0, ry = 0;
  float *tx = NULL, *ty = NULL;
  int do_x = params->sigma_x > 0.0, do_y = params->sigma_y > 0.0;
  gb_progress_span half = { 0 }, *ph = NULL, *pv = NULL;
  gb_progress_span second = { 0 };
  const gb_taps_mode taps = gb_research_of (params)->taps;

  if (!do_x && !do_y)
    {
      gb_image_copy (src, dst);
      return GB_OK;
    }
  if (do_x && !(tx = gb_fir_taps_float (params->sigma_x, taps, &rx)))
    return GB_ERR_NO_MEMORY;
  if (do_y && !(ty = gb_fir_taps_float (params->sigma_y, taps, &ry)))
    {
      st = GB_ERR_NO_MEMORY;
      goto out;
    }
  if (progress && progress->fn)
    {
      half = *progress;
      second = *progress;
      if (do_x && do_y)
        {
          half.span = progress->span / 2;
          second.base = progress->base + half.span;
          second.span = progress->span - half.span;
        }
      ph = &half;
      pv = do_x ? &second : &half;
    }

  /* Rows src -> dst (each row is copied into padded scratch first), then
   * columns in place in dst. */
  if (do_x)
    st = run_h_pass (src, dst, tx, rx, params->threads, ph);
  else
    gb_image_copy (src, dst);
  if (st == GB_OK && do_y)
    st = run_v_pass (dst, ty, ry, params->threads, pv);

out:
  free (tx);
  free (ty);
  return st;
}
