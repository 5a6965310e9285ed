/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One pass of the edge-aware filter over the columns in one kernel, a
 * thread a block of a line: Algorithm C (a block after the first, before
 * the last, starts from Algorithm B's estimate, walking back or forward
 * until the transformed distance reaches kappa sigma), Algorithm A where a
 * line is one block, or the exact blocks' final from their entry states. */
#include <cuda_pipeline.h>

#include "edge_common.cuh"
#include "edge_parts.h"

namespace {

/* What edge_cols_kernel's thread does with its block:
 *   WARMUP   Algorithm C: a block after the first starts from Algorithm
 *            B's estimate (a kappa sigma warm-up); with one block per
 *            line, Algorithm A;
 *   FINAL    exact blocks, last kernel: a block starts from its true
 *            entry states (edge_carry_kernel) and writes the output (where
 *            edge_final_pair_kernel's shared memory would not fit). */
enum { WARMUP, FINAL };

/* One block of one column, both directions in one thread: in/out are
 * [L][lines][C], dt is [L][lines]; st holds the block states (FINAL). */
template <int C, int MODE, bool HOLD>
__global__ void __launch_bounds__ (EDGE_THREADS, EDGE_MIN_BLOCKS)
edge_cols_kernel (const float *__restrict__ in, float *__restrict__ out,
                  const float *__restrict__ dt, const float *__restrict__ st,
                  int lines, int L, int blocks, float warmup, dt_k k)
{
  /* The anticausal sweep adds to the causal part this thread wrote: it
   * copies each batch's causal part into `causal' while the batch's
   * inputs load (asynchronous copies of this thread's own earlier
   * stores; no other thread touches its slots): read back pixel by pixel
   * where it was added, each read stalled the sweep. */
  __shared__ __align__ (16) float causal[EB][EDGE_THREADS][C];
  const int n = lines * blocks;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const int line = t % lines, blk = t / lines;
  const int s = (int) ((long) L * blk / blocks);
  const int e = (int) ((long) L * (blk + 1) / blocks);
  if (e <= s)
    return;
  const size_t pitch = (size_t) lines * C;
  const float *f = in + (size_t) line * C;
  float *o = out + (size_t) line * C;
  const float *d = dt + line;
#define F(idx, ch) __ldg (f + (size_t) (idx) * pitch + (ch))
#define DT(idx) __ldg (d + (size_t) (idx) * lines)

  /* Causal, both subfilters at once, from the line's first pixel (the
   * first block), Algorithm B's estimate (WARMUP) or the true state
   * (FINAL) before pixel s.  Inputs and spacings are read EB at a time,
   * all in flight before use.  The anticausal sweep below mirrors this
   * loop; one templated sweep for both directions measured 15 % slower,
   * so the two stay written out. */
  int m = s;
  cplx g[2][C];
  {
    float fp[C];
    if (MODE == WARMUP)
      for (float acc = 0.f; blk > 0 && m > 0 && acc < warmup; m--)
        acc += DT (m);
    else if (blk > 0)
      m = s - 1;
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      fp[ch] = F (m, ch);
    if (MODE == FINAL && blk > 0)
      {
        cplx unused[2];
        state_get<C> (st, blk, 0, lines, line, g, unused);
      }
    else
#pragma unroll
      for (int i = 0; i < 2; i++)
#pragma unroll
        for (int ch = 0; ch < C; ch++)
          g[i][ch] = cscale (k.ss[i], fp[ch]);
    if (m == s)
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        o[(size_t) s * pitch + ch] = g[0][ch].re + g[1][ch].re;
    sweep sw = sweep_at (f, d, pitch, lines, m + 1);
    for (int x0 = m + 1; x0 < e; x0 += EB)
      {
        float fb[EB][C], db[EB];
        load_batch<C> (sw, e - x0, fb, db);
#pragma unroll
        for (int b = 0; b < EB; b++)
          if (x0 + b < e)
            {
#pragma unroll
              for (int i = 0; i < 2; i++)
                {
                  step_k sk = step_factors (k, hold_is<HOLD> {}, i, db[b]);
#pragma unroll
                  for (int ch = 0; ch < C; ch++)
                    g[i][ch] = cstep (sk.bd, g[i][ch], sk.P, fb[b][ch], sk.Q,
                                      fp[ch]);
                }
#pragma unroll
              for (int ch = 0; ch < C; ch++)
                fp[ch] = fb[b][ch];
              if (x0 + b >= s)
#pragma unroll
                for (int ch = 0; ch < C; ch++)
                  o[(size_t) (x0 + b) * pitch + ch] = g[0][ch].re
                                                      + g[1][ch].re;
            }
      }
  }

  /* Anticausal, added to the causal part this thread wrote; from the
   * line's last pixel (the last block), a warm-up or the true state
   * after pixel e - 1. */
  m = e - 1;
  if (MODE == WARMUP)
    for (float acc = 0.f; blk < blocks - 1 && m < L - 1 && acc < warmup;)
      acc += DT (++m);
  else if (blk < blocks - 1)
    m = e;
  float fn[C];
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    fn[ch] = F (m, ch);
  if (MODE == FINAL && blk < blocks - 1)
    {
      cplx unused[2];
      state_get<C> (st, blk, pass_floats<C>, lines, line, g, unused);
    }
  else
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        g[i][ch] = cscale (cmul (k.b[i], k.ss[i]), fn[ch]);
  if (m == e - 1)
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      o[(size_t) m * pitch + ch] += g[0][ch].re + g[1][ch].re;
  for (int x0 = m - 1; x0 >= s; x0 -= EB)
    {
      float fb[EB][C], db[EB];
#pragma unroll
      for (int b = 0; b < EB; b++)
        if (x0 - b >= s)
          {
            db[b] = DT (x0 - b + 1);
            load_px<C> (f + (size_t) (x0 - b) * pitch, fb[b]);
            if (x0 - b < e)
              copy_px_async<C> (&causal[b][threadIdx.x][0],
                                 o + (size_t) (x0 - b) * pitch);
          }
      __pipeline_commit ();
#pragma unroll
      for (int b = 0; b < EB; b++)
        if (x0 - b >= s)
          {
#pragma unroll
            for (int i = 0; i < 2; i++)
              {
                step_k sk = step_factors (k, hold_is<HOLD> {}, i, db[b]);
#pragma unroll
                for (int ch = 0; ch < C; ch++)
                  g[i][ch] = cstep (sk.bd, g[i][ch], sk.R, fb[b][ch], sk.S,
                                    fn[ch]);
              }
#pragma unroll
            for (int ch = 0; ch < C; ch++)
              fn[ch] = fb[b][ch];
            if (x0 - b < e)
              {
                __pipeline_wait_prior (0);
#pragma unroll
                for (int ch = 0; ch < C; ch++)
                  o[(size_t) (x0 - b) * pitch + ch]
                    = causal[b][threadIdx.x][ch]
                      + (g[0][ch].re + g[1][ch].re);
              }
          }
    }
#undef F
#undef DT
}

template <int C>
gb_status
launch_cols (bool final, const float *in, float *out, const float *dt,
             const float *st, int lines, int L, int blocks, float warmup,
             const dt_k &k, cudaStream_t s)
{
  const int threads = EDGE_THREADS;
  const long n = (long) lines * blocks;
  const unsigned grid = (unsigned) ((n + threads - 1) / threads);
  if (final)
    (k.hold ? edge_cols_kernel<C, FINAL, true>
            : edge_cols_kernel<C, FINAL, false>)<<<grid, threads, 0, s>>> (
        in, out, dt, st, lines, L, blocks, warmup, k);
  else
    (k.hold ? edge_cols_kernel<C, WARMUP, true>
            : edge_cols_kernel<C, WARMUP, false>)<<<grid, threads, 0, s>>> (
        in, out, dt, st, lines, L, blocks, warmup, k);
  return gb_cuda_check_launch (final ? "edge_cols_kernel (final)"
                                     : "edge_cols_kernel");
}

} // namespace

gb_status
gb_cuda_edge_cols (int channels, bool final, const float *in, float *out,
                   const float *dt, const float *st, int lines, int L,
                   int blocks, float warmup, double sigma, int hold,
                   cudaStream_t s)
{
  const dt_k k = to_kernel (sigma, hold);
  switch (channels)
    {
    case 1: return launch_cols<1> (final, in, out, dt, st, lines, L, blocks, warmup, k, s);
    case 2: return launch_cols<2> (final, in, out, dt, st, lines, L, blocks, warmup, k, s);
    case 3: return launch_cols<3> (final, in, out, dt, st, lines, L, blocks, warmup, k, s);
    default: return launch_cols<4> (final, in, out, dt, st, lines, L, blocks, warmup, k, s);
    }
}
