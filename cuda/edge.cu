/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Edge-aware recursive Gaussian on the GPU (Algorithms A and C): the
 * driver.  The domain transform's spacings are computed once per call
 * (rows' spacings stored transposed), then each iteration filters rows
 * (as the columns of the image transposed) and columns; the passes write
 * their output in the layout the next pass reads (run_iterations), so the
 * image is transposed only at the start (by the spacings kernel).  The
 * kernels, by what they do, are in edge_spacings.cu, edge_cols.cu
 * (Algorithm C) and edge_exact.cu (Algorithm A in exact blocks). */
#include <stdio.h>

#include "cuda_internal.h"
#include "edge_parts.h"
#include "../engine/pixel_math.h"
#include "../engine/coefficients.h"

namespace {

/* One pass over the columns: Algorithm C in one kernel (exact == 0), or
 * the exact blocks in three (st: room for their states).  tout: the
 * output transposed, only where exact and gb_cuda_edge_pair_fits (...,
 * true). */
gb_status
launch_pass (int C, const float *in, float *out, const float *dt, float *st,
             int lines, int L, int blocks, int exact, float warmup,
             double sigma, int hold, bool tout, cudaStream_t s)
{
  if (!exact || blocks == 1)   /* one block: Algorithm A as it stands */
    return gb_cuda_edge_cols (C, false, in, out, dt, st, lines, L, blocks,
                              warmup, sigma, hold, s);
  return gb_cuda_edge_exact (C, in, out, dt, st, lines, L, blocks, warmup,
                             sigma, hold, tout, s);
}

gb_status
run_iterations (int C, const gb_params *p, float *a, float *b, float *dty,
                float *dtxT, float *states, int w, int h, int blocks_x,
                int blocks_y, cudaStream_t s, float **result)
{
  gb_status st;
  const int n = p->iterations * ((p->sigma_x > 0) + (p->sigma_y > 0));
  const auto rows = [&] (int i) {
    return p->sigma_x > 0 && (p->sigma_y <= 0 || i % 2 == 0);
  };
  /* Where the first pass filters rows, the spacings kernel also writes
   * the image transposed into b (it has each tile of it in hand). */
  const bool flip_first = n > 0 && rows (0);
  const float rx2 = (float) gb_edge_ratio2 (p->sigma_x, p->range_sigma),
              ry2 = (float) gb_edge_ratio2 (p->sigma_y, p->range_sigma);
  if ((st = gb_cuda_edge_spacings (C, a, w, h, rx2, ry2, p->perceptual, dty,
                                   dtxT, flip_first ? b : nullptr, s))
      != GB_OK)
    return st;
  const int hold = gb_research_of (p)->edge_interpolation == GB_EDGE_HOLD;
  const int exact = p->algorithm != GB_ALGO_EDGE_PARTITIONED;
  /* The passes, rows then columns each iteration (an axis of sigma 0
   * has none).  A pass reads its lines as columns: the rows' from the
   * image transposed (h x w, `flipped'), the columns' from it as it is.
   * Where the exact blocks' final can, a pass writes its output in the
   * layout of the pass after it (as it is after the last), so that the
   * image is transposed once where rows and columns alternate (2048 x
   * 2048 RGBA, 2 iterations: once instead of four times), by the
   * spacings kernel; else the transposes go between the passes. */
  float *cur = flip_first ? b : a, *other = flip_first ? a : b;
  bool flipped = flip_first;
  const auto swap = [&] { float *t = cur; cur = other; other = t; };
  const auto transpose = [&] {
    st = flipped ? gb_cuda_transpose (cur, other, h, w, C, s)
                 : gb_cuda_transpose (cur, other, w, h, C, s);
    swap ();
    flipped = !flipped;
    return st;
  };
  for (int i = 0; i < n; i++)
    {
      const bool r = rows (i);
      const int it = 1 + i / (n / p->iterations);
      if (flipped != r && transpose () != GB_OK)
        return st;
      const double si = gb_dt_iteration_sigma (r ? p->sigma_x : p->sigma_y,
                                               it, p->iterations);
      const int lines = r ? h : w, L = r ? w : h, nb = r ? blocks_x : blocks_y;
      const bool next_flipped = i + 1 < n && rows (i + 1);
      const bool tout = next_flipped != flipped
                        && exact && gb_cuda_edge_pair_fits (C, L, nb, true);
      if ((st = launch_pass (C, cur, other, r ? dtxT : dty, states, lines, L,
                             nb, exact, (float) (p->kappa * si), si, hold,
                             tout, s)) != GB_OK)
        return st;
      swap ();
      flipped = flipped != tout;
    }
  if (flipped && transpose () != GB_OK)
    return st;
  *result = cur;
  return GB_OK;
}

} // namespace

int
gb_cuda_edge_blocks (const gb_params *p, int lines, int L, int channels,
                     int sm_count)
{
  /* Algorithm C: about 1024 threads per multiprocessor, blocks no shorter
   * than 64 pixels: every block after the first re-filters a warm-up of
   * kappa sigma, so short blocks spend most of their time warming up.
   *
   * Algorithm A's exact blocks need no warm-up; a block costs its states
   * (16-40 floats), which the carries walk one chain per thread.  Blocks
   * of at most 40 pixels (RGBA 32), at least 32 a line, none shorter than
   * 16 pixels.  At most 40: the final's two lanes a block keep 1 KB of
   * shared memory a pixel of block length (RGBA), and up to 44 KB five
   * thread blocks of them fit a multiprocessor (48 pixels: four; and
   * writing its output transposed, which saves run_iterations its
   * transposes, it no longer fits).  RGBA 32: six fit (34 KB a thread
   * block with the transposed pitch), as many as its registers allow
   * (PAIR_MIN_BLOCKS);
   * fewer channels take less shared memory a pixel.  Within those
   * limits the block count changed the time by a few per cent at most,
   * and more blocks than fit the spare planes of gb_cuda_edge_run cost a
   * cudaMalloc a call.
   * blocks_per_stripe overrides either (1: Algorithm A line by line). */
  if (p->algorithm != GB_ALGO_EDGE_PARTITIONED)
    {
      /* No empty blocks: a block after the first must start inside the
       * line. */
      int n = gb_research_of (p)->blocks_per_stripe;
      if (n <= 0)
        {
          const int most = channels == 4 ? 32 : 40;   /* pixels a block */
          const int at_least = L / 16 < 32 ? L / 16 : 32;
          n = (L + most - 1) / most > at_least ? (L + most - 1) / most
                                                : at_least;
        }
      n = n < 1 ? 1 : n;
      return n < L ? n : (L > 1 ? L : 1);
    }
  int want = (int) ((long) sm_count * 1024 / (lines > 0 ? lines : 1));
  int most = L / 64 > 1 ? L / 64 : 1;
  return gb_edge_blocks (p, want < 1 ? 1 : (want > most ? most : want));
}

gb_status
gb_cuda_edge_run (const gb_params *p, float *a, float *b, float *c, int w, int h,
             int channels, int sm_count, cudaStream_t s, float **result)
{
  /* c holds both spacing planes when the image has two channels or more;
   * a grey image's c has room for one, the other is allocated.  The exact
   * blocks' states go after the planes where they fit, else in memory of
   * their own. */
  float *dty = c, *dtxT = nullptr, *extra = nullptr, *states = nullptr;
  size_t plane = (size_t) w * h;
  int bx = gb_cuda_edge_blocks (p, h, w, channels, sm_count);
  int by = gb_cuda_edge_blocks (p, w, h, channels, sm_count);
  size_t need = 0;
  if (p->algorithm != GB_ALGO_EDGE_PARTITIONED)
    {
      size_t per_block = (size_t) 2 * (4 * channels + 4);
      size_t nx = (size_t) h * bx * per_block, ny = (size_t) w * by * per_block;
      need = nx > ny ? nx : ny;
    }
  size_t spare = channels >= 2 ? (size_t) (channels - 2) * plane : 0;
  size_t own = (channels >= 2 ? 0 : plane) + (need > spare ? need : 0);
  if (own > 0)
    GB_CUDA_TRY (cudaMalloc ((void **) &extra, own * sizeof (float)),
                 GB_ERR_CUDA_NO_MEMORY);
  dtxT = channels >= 2 ? c + plane : extra;
  if (need > 0)
    states = need <= spare ? c + 2 * plane : extra + (channels >= 2 ? 0 : plane);
  gb_status st;
  st = run_iterations (channels < 1 || channels > 4 ? 4 : channels, p, a, b,
                       dty, dtxT, states, w, h, bx, by, s, result);
  cudaError_t e = cudaStreamSynchronize (s);
  if (st == GB_OK && e != cudaSuccess)
    st = gb_cuda_fail (e, GB_ERR_CUDA_LAUNCH, "edge-aware filter");
  cudaFree (extra);
  return st;
}

namespace {

/* A host image's rows to or from contiguous device memory. */
gb_status
copy_image (const gb_image *img, float *d, bool upload, cudaStream_t s)
{
  gb_status st = gb_cuda_copy_fault ();
  if (st != GB_OK)
    return st;
  const size_t row = sizeof (float) * (size_t) img->width * img->channels;
  const size_t pitch = sizeof (float) * img->stride;
  if (upload)
    GB_CUDA_TRY (cudaMemcpy2DAsync (d, row, img->data, pitch, row,
                                    img->height, cudaMemcpyHostToDevice, s),
                 GB_ERR_CUDA_COPY);
  else
    GB_CUDA_TRY (cudaMemcpy2DAsync (img->data, pitch, d, row, row,
                                    img->height, cudaMemcpyDeviceToHost, s),
                 GB_ERR_CUDA_COPY);
  return GB_OK;
}

/* One pass as run_iterations runs it on the whole image: the spacings
 * from the original (in b), the image in a, the lines as columns. */
gb_status
edge_pass_locked (const gb_params *p, int iteration, int vertical,
                  int whole_lines, const gb_image *img,
                  const gb_image *original, gb_report *r)
{
  const int w = img->width, h = img->height, C = img->channels;
  const size_t plane = (size_t) w * h;
  const size_t bytes = sizeof (float) * plane * C;
  cudaStream_t s = gb_ctx.streams[0];
  gb_status st = gb_cuda_ensure_float_locked (bytes, 1);
  if (st != GB_OK)
    return st;
  const int lines = vertical ? w : h, L = vertical ? h : w;
  const int blocks = gb_cuda_edge_blocks (p, whole_lines, L, C,
                                          gb_ctx.sm_count);
  const int exact = p->algorithm != GB_ALGO_EDGE_PARTITIONED;
  /* c holds both spacing planes where the image has two channels or
   * more, and the exact blocks' states after them where they fit. */
  size_t need = 0;
  if (exact)
    need = (size_t) lines * blocks * 2 * (4 * C + 4);
  const size_t spare = C >= 2 ? (size_t) (C - 2) * plane : 0;
  const size_t own = (C >= 2 ? 0 : plane) + (need > spare ? need : 0);
  float *extra = nullptr;
  if (own > 0)
    GB_CUDA_TRY (cudaMalloc ((void **) &extra, own * sizeof (float)),
                 GB_ERR_CUDA_NO_MEMORY);
  float *dty = gb_ctx.d_c;
  float *dtxT = C >= 2 ? gb_ctx.d_c + plane : extra;
  float *states = nullptr;
  if (need > 0)
    states = need <= spare ? gb_ctx.d_c + 2 * plane
                           : extra + (C >= 2 ? 0 : plane);
  const double t0 = gb_now ();
  st = copy_image (original, gb_ctx.d_b, true, s);
  if (st == GB_OK)
    st = gb_cuda_edge_spacings (C, gb_ctx.d_b, w, h,
                                (float) gb_edge_ratio2 (p->sigma_x,
                                                        p->range_sigma),
                                (float) gb_edge_ratio2 (p->sigma_y,
                                                        p->range_sigma),
                                p->perceptual, dty, dtxT, nullptr, s);
  if (st == GB_OK)
    st = copy_image (img, gb_ctx.d_a, true, s);
  const double t1 = gb_now ();
  const double si = gb_dt_iteration_sigma (vertical ? p->sigma_y
                                                    : p->sigma_x,
                                           iteration, p->iterations);
  const int hold = gb_research_of (p)->edge_interpolation == GB_EDGE_HOLD;
  float *result = gb_ctx.d_b;
  if (st == GB_OK && vertical)
    st = launch_pass (C, gb_ctx.d_a, gb_ctx.d_b, dty, states, lines, L,
                      blocks, exact, (float) (p->kappa * si), si, hold, false,
                      s);
  else if (st == GB_OK)
    {
      /* Rows as the columns of the image transposed, and back. */
      st = gb_cuda_transpose (gb_ctx.d_a, gb_ctx.d_b, w, h, C, s);
      if (st == GB_OK)
        st = launch_pass (C, gb_ctx.d_b, gb_ctx.d_a, dtxT, states, lines, L,
                          blocks, exact, (float) (p->kappa * si), si, hold,
                          false, s);
      if (st == GB_OK)
        st = gb_cuda_transpose (gb_ctx.d_a, gb_ctx.d_b, h, w, C, s);
    }
  cudaError_t e = cudaStreamSynchronize (s);
  if (st == GB_OK && e != cudaSuccess)
    st = gb_cuda_fail (e, GB_ERR_CUDA_LAUNCH, "edge-aware pass");
  const double t2 = gb_now ();
  if (st == GB_OK)
    st = copy_image (img, result, false, s);
  e = cudaStreamSynchronize (s);
  if (st == GB_OK && e != cudaSuccess)
    st = gb_cuda_fail (e, GB_ERR_CUDA_COPY, "edge-aware pass download");
  cudaFree (extra);
  if (r)
    {
      r->seconds_upload += t1 - t0;
      r->seconds_compute += t2 - t1;
      r->seconds_download += gb_now () - t2;
    }
  return st;
}

} // namespace

extern "C" gb_status
gb_cuda_edge_pass (const gb_params *params, int iteration, int vertical,
                   int whole_lines, const gb_image *img,
                   const gb_image *original, gb_report *report)
{
  gb_cuda_lock ();
  gb_cuda_clear_error ();
  gb_status st = gb_cuda_init_locked ();
  if (gb_cuda_simulated (st))
    st = gb_cuda_simulated_failure ();
  else if (st == GB_OK)
    {
      cudaSetDevice (gb_ctx.device);
      st = edge_pass_locked (params, iteration, vertical, whole_lines, img,
                             original, report);
      if (st != GB_OK)
        gb_cuda_reset_locked ();   /* start afresh next time */
    }
  if (report && st != GB_OK && gb_cuda_last_error ()[0])
    snprintf (report->reason, sizeof report->reason, "%s",
              gb_cuda_last_error ());
  gb_cuda_unlock ();
  return st;
}
