/* Separable FIR on the CPU: a horizontal pass over padded rows and a
 * vertical pass over whole rows, both written as "row += tap * row" loops
 * over contiguous floats so that the compiler vectorises them. */
#include <stdlib.h>
#include <string.h>

#include "cpu_backend.h"

float *
gb_fir_taps_float (double sigma, gb_taps_mode mode, int *radius)
{
  int r = gb_fir_radius (sigma);
  double *d = malloc ((size_t) (r + 1) * sizeof *d);
  float *f = malloc ((size_t) (r + 1) * sizeof *f);
  if (!d || !f)
    {
      free (d);
      free (f);
      return NULL;
    }
  if (mode == GB_TAPS_INCREMENTAL)
    gb_fir_taps_incremental (sigma, d, r);
  else
    gb_fir_taps_direct (sigma, d, r);
  for (int k = 0; k <= r; k++)
    f[k] = (float) d[k];
  free (d);
  *radius = r;
  return f;
}

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

/* Horizontal: copy the row with replicated borders into scratch (so the
 * pass also works in place), then accumulate shifted views of it. */
static void
fir_h_item (void *ctx, long item, void *scratch)
{
  const fir_pass *p = ctx;
  const int w = p->src->width, c = p->src->channels, r = p->radius;
  float *pad = scratch;
  const float **rows = (const float **) (pad + (size_t) (w + 2 * r) * c);
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

/* Vertical: each output row sums whole input rows, clamped at the top and
 * bottom; columns are processed in blocks that stay in L1. */
enum { V_COLUMN_BLOCK = 1024 };

static void
fir_v_item (void *ctx, long item, void *scratch)
{
  const fir_pass *p = ctx;
  const int h = p->src->height, r = p->radius;
  const size_t n = (size_t) p->src->width * p->src->channels;
  const float **rows = scratch;
  int y0 = (int) item * p->rows_per_item;
  int y1 = y0 + p->rows_per_item;
  if (y1 > h)
    y1 = h;

  for (int y = y0; y < y1; y++)
    {
      float *out = p->dst->data + (size_t) y * p->dst->stride;
      for (size_t x0 = 0; x0 < n; x0 += V_COLUMN_BLOCK)
        {
          size_t len = n - x0 < V_COLUMN_BLOCK ? n - x0 : V_COLUMN_BLOCK;
          for (int k = -r; k <= r; k++)
            {
              int yy = y + k;
              yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
              rows[k + r] = p->src->data + (size_t) yy * p->src->stride + x0;
            }
          fir_accumulate (out + x0, rows, p->taps, r, len);
        }
    }
}

static gb_status
run_pass (int vertical, const gb_image *src, const gb_image *dst,
          const float *taps, int radius, int threads,
          const gb_progress_span *progress)
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
  if (vertical)
    return gb_parallel_for (items, fir_v_item, &p, rows_bytes, threads,
                            progress);
  size_t pad_bytes = (size_t) (src->width + 2 * radius) * src->channels
                     * sizeof (float);
  /* Keep the pointer table aligned after the padded row. */
  pad_bytes = (pad_bytes + sizeof (void *) - 1) & ~(sizeof (void *) - 1);
  return gb_parallel_for (items, fir_h_item, &p, pad_bytes + rows_bytes,
                          threads, progress);
}

gb_status
gb_cpu_fir (const gb_params *params, const gb_image *src,
            const gb_image *dst, const gb_progress_span *progress)
{
  gb_status st = GB_OK;
  int rx = 0, ry = 0;
  float *tx = NULL, *ty = NULL, *tmp = NULL;
  int do_x = params->sigma_x > 0.0, do_y = params->sigma_y > 0.0;
  gb_progress_span half = { 0 }, *ph = NULL, *pv = NULL;
  gb_progress_span second = { 0 };

  if (!do_x && !do_y)
    {
      gb_image_copy (src, dst);
      return GB_OK;
    }
  if (do_x && !(tx = gb_fir_taps_float (params->sigma_x, params->taps, &rx)))
    return GB_ERR_NO_MEMORY;
  if (do_y && !(ty = gb_fir_taps_float (params->sigma_y, params->taps, &ry)))
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

  gb_image v_src = *src;
  if (do_y && (do_x || (src->data == dst->data)))
    {
      /* The vertical pass needs its input intact while it writes: it reads
       * from a temporary with the horizontal result (or a copy). */
      size_t n = (size_t) src->width * src->channels;
      tmp = malloc (n * (size_t) src->height * sizeof (float));
      if (!tmp)
        {
          st = GB_ERR_NO_MEMORY;
          goto out;
        }
      v_src.data = tmp;
      v_src.stride = n;
      if (!do_x)
        gb_image_copy (src, &v_src);
    }

  if (do_x)
    {
      st = run_pass (0, src, do_y ? &v_src : dst, tx, rx, params->threads, ph);
      if (st != GB_OK)
        goto out;
    }
  if (do_y)
    st = run_pass (1, &v_src, dst, ty, ry, params->threads, pv);

out:
  free (tmp);
  free (tx);
  free (ty);
  return st;
}
