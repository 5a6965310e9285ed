/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Edge-aware recursive Gaussian on the GPU (Algorithms A and C).
 *
 * The domain transform's spacings are computed once per call (rows' spacings
 * stored transposed), then each iteration filters rows (as the columns of the
 * image transposed) and columns; Algorithm A's passes write their output in
 * the layout the next pass reads (run_iterations), so the image is
 * transposed only at the start (by the spacings kernel).  A column kernel
 * thread owns one block of one line.  Algorithm C: a block after the first
 * (before the last) starts
 * from Algorithm B's estimate, walking back (forward) until the transformed
 * distance reaches kappa * sigma.  Algorithm A runs in exact blocks: the
 * recursion is first-order (per subfilter, complex) with per-pixel factors, so
 * a block's end state is its partial result from zero plus the product of its
 * steps' b^delta times its entry state; partials (a thread per block, one
 * forward sweep for both directions), carries (a thread per line, direction,
 * subfilter and channel) and finals (two lanes per block, one a direction)
 * give Algorithm A's result within float rounding (blocks_per_stripe 1: line
 * by line).  Complex arithmetic in single precision, powers b^delta in polar
 * form (the paper's Section IV-C). */
#include <math.h>

#include <initializer_list>

#include <cuda_pipeline.h>

#include "cuda_internal.h"
#include "device_util.cuh"
#include "../engine/pixel_math.h"
#include "../engine/coefficients.h"

namespace {

struct cplx
{
  float re, im;
};

/* The arithmetic is written as explicit fused multiply-adds: left to the
 * compiler, most of the partial kernel's float instructions were separate
 * multiplies and adds, and the kernels are bound by float issue, not
 * memory. */
__device__ __forceinline__ cplx
cmul (cplx a, cplx b)
{
  return { fmaf (a.re, b.re, -a.im * b.im), fmaf (a.re, b.im, a.im * b.re) };
}

/* c + a b */
__device__ __forceinline__ cplx
cmadd (cplx a, cplx b, cplx c)
{
  return { fmaf (a.re, b.re, fmaf (-a.im, b.im, c.re)),
           fmaf (a.re, b.im, fmaf (a.im, b.re, c.im)) };
}

/* One step of a recursion, bd g + P f + Q f2, with the terms in g last so
 * that the chain from one step to the next is two instructions deep. */
__device__ __forceinline__ cplx
cstep (cplx bd, cplx g, cplx P, float f, cplx Q, float f2)
{
  cplx u = { fmaf (P.re, f, Q.re * f2), fmaf (P.im, f, Q.im * f2) };
  return cmadd (bd, g, u);
}

__device__ __forceinline__ cplx
cadd (cplx a, cplx b)
{
  return { a.re + b.re, a.im + b.im };
}

__device__ __forceinline__ cplx
cscale (cplx a, float s)
{
  return { a.re * s, a.im * s };
}

/* The hardware's 2^x and 1/x alone.  __expf and __fdividef wrap them in
 * tests for subnormal arguments and results (a compare and two
 * predicated multiplies or selects each, per subfilter and pixel); here
 * 1 <= delta <= GB_EDGE_DT_MAX, and a power under 2^-126 is an edge that
 * no sum can tell from zero. */
__device__ __forceinline__ float
ex2_ftz (float x)
{
  float y;
  asm ("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

__device__ __forceinline__ float
rcp_ftz (float x)
{
  float y;
  asm ("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

/* b^delta = 2^(delta log2|b|) cis (delta arg b), with the hardware's fast
 * exp and sincos: where delta is large (an edge) the result is tiny and its
 * phase error does not matter. */
__device__ __forceinline__ cplx
cpow (float log2r, float theta, float delta)
{
  float s, c, r = ex2_ftz (delta * log2r);
  __sincosf (delta * theta, &s, &c);
  return { r * c, r * s };
}

struct dt_k
{
  cplx a[2], b[2], r1[2], ss[2];
  cplx ab[2], bss[2];   /* a b and b ss, for the hold factors */
  cplx inv_r0[2], r1b[2];   /* 1 / r0 and r1 b, for the linear ones */
  float log2r[2], theta[2];   /* log2 |b|, arg b */
  int hold;
};

struct step_k
{
  cplx bd, P, Q, R, S;
};

/* The hold flag as the kernels know it: when compiling, so that their
 * steps hold no branch on it.  With k.hold tested at every step, each
 * subfilter's factors were a branch of their own that the compiler could
 * not interleave with the rest of the step. */
template <bool B>
struct hold_is
{
  __host__ __device__ constexpr operator bool () const { return B; }
};

/* What a step's factors are made of: b^delta, R and Q, and w, of which
 * S takes a multiple (ya w, ya = a b when holding, else a):
 *   hold (h = (delta - 1) / 2, b^delta = b (b^h)^2: one power):
 *     R = b ss (1 - b^h), Q = b^h R, w = (b^h)^2;
 *   linear (q = (b^delta - 1) / (r0 delta), with 1 / r0 from the host and
 *   an approximate reciprocal of delta, 1 <= delta <= GB_EDGE_DT_MAX):
 *     R = q - r1 b, Q = r1 b^delta - q, w = b^delta;
 * and in both, P = a + R and S = ya w + Q.  fin (bd, R, Q, w, ya) makes
 * the factors from them, in each branch, so that ya is a constant there
 * (one fin after the branch made it a select a step).  hold: k.hold, or
 * a hold_is. */
__device__ __forceinline__ cplx
hold_power (const dt_k &k, int i, float delta)   /* b^h */
{
  return cpow (k.log2r[i], k.theta[i], fmaf (0.5f, delta, -0.5f));
}

__device__ __forceinline__ cplx
linear_q (const dt_k &k, int i, cplx bd, float delta)
{
  return cscale (cmul ({ bd.re - 1.f, bd.im }, k.inv_r0[i]), rcp_ftz (delta));
}

template <class H, class Fin>
__device__ __forceinline__ auto
with_step_parts (const dt_k &k, H hold, int i, float delta, Fin fin)
{
  if (hold)
    {
      cplx bh = hold_power (k, i, delta);
      cplx w = cmul (bh, bh);
      cplx R = cmadd ({ -k.bss[i].re, -k.bss[i].im }, bh, k.bss[i]);
      return fin (cmul (k.b[i], w), R, cmul (bh, R), w, k.ab[i]);
    }
  cplx bd = cpow (k.log2r[i], k.theta[i], delta);
  cplx q = linear_q (k, i, bd, delta);
  cplx c2 = cmadd ({ -k.r1[i].re, -k.r1[i].im }, bd, q);
  return fin (bd, { q.re - k.r1b[i].re, q.im - k.r1b[i].im },
              { -c2.re, -c2.im }, bd, k.a[i]);
}

/* The same factors as engine/cpu_edge.c's step_factors. */
template <class H>
__device__ __forceinline__ step_k
step_factors (const dt_k &k, H hold, int i, float delta)
{
  return with_step_parts (k, hold, i, delta,
                          [&] (cplx bd, cplx R, cplx Q, cplx w, cplx ya) {
                            return step_k { bd, cadd (k.a[i], R), Q, R,
                                            cmadd (ya, w, Q) };
                          });
}

/* One direction's share of step_factors, for kernels whose lanes run
 * both directions in the same instructions (edge_final_pair_kernel): a
 * causal step takes (P, Q) = (R + a, Q), an anticausal one (R, S) =
 * (R, ya w + Q).  So X = R + x0 and Y = y0 w + Q with x0 = a, y0 = 0
 * causally and x0 = 0, y0 = ya anticausally: the same values, without
 * computing the other direction's pair and selecting.  With R and Q
 * written out (with_step_parts), each lane's constants take in those
 * of R and Q:
 *   hold:   X = (x0 + b ss) - b ss b^h,  Y = b ss b^h + (y0 - b ss) w;
 *   linear: X = q + (x0 - r1 b),          Y = (y0 + r1) b^delta - q;
 * two float instructions fewer a subfilter and step than computing R and
 * Q first when holding, six when linear. */
struct dir_k
{
  cplx x1[2], y1[2];
};

struct step_xy
{
  cplx bd, X, Y;
};

template <class H>
__device__ __forceinline__ dir_k
dir_factors (const dt_k &k, H hold, int dir)
{
  dir_k d;
  for (int i = 0; i < 2; i++)
    {
      const cplx ya = hold ? k.ab[i] : k.a[i];
      const cplx x0 = dir ? cplx { 0.f, 0.f } : k.a[i];
      const cplx y0 = dir ? ya : cplx { 0.f, 0.f };
      d.x1[i] = hold ? cadd (x0, k.bss[i])
                     : cplx { x0.re - k.r1b[i].re, x0.im - k.r1b[i].im };
      d.y1[i] = hold ? cplx { y0.re - k.bss[i].re, y0.im - k.bss[i].im }
                     : cadd (y0, k.r1[i]);
      /* Opaque to the compiler, so that it keeps them: at the final's 80
       * registers it chose to recompute them from dir at every step (a
       * select and a subtraction each, 698 instructions for the four
       * steps above). */
      asm ("" : "+f"(d.x1[i].re), "+f"(d.x1[i].im), "+f"(d.y1[i].re),
           "+f"(d.y1[i].im));
    }
  return d;
}

template <class H>
__device__ __forceinline__ step_xy
step_dir (const dt_k &k, H hold, const dir_k &d, int i, float delta)
{
  if (hold)
    {
      const cplx bh = hold_power (k, i, delta);
      const cplx w = cmul (bh, bh);
      return { cmul (k.b[i], w),
               cmadd ({ -k.bss[i].re, -k.bss[i].im }, bh, d.x1[i]),
               cmadd (d.y1[i], w, cmul (k.bss[i], bh)) };
    }
  const cplx bd = cpow (k.log2r[i], k.theta[i], delta);
  const cplx q = linear_q (k, i, bd, delta);
  return { bd, cadd (q, d.x1[i]),
           cmadd (d.y1[i], bd, { -q.re, -q.im }) };
}

/* Spacings: dt_y[y][x] between (x, y-1) and (x, y); dt_xT[x][y] between
 * (x-1, y) and (x, y), stored transposed for the row passes.  A thread
 * block covers a tile of SP_TILE x SP_TILE pixels: each pixel's
 * perceptual colour is computed once into shared memory with the row
 * above and the column to the left (the sRGB curve is a power; computing
 * it for each neighbour again made this kernel compute-bound), and the
 * transposed plane is written through shared memory so that both planes'
 * writes are whole rows.  Where the first pass filters rows, imgT gets
 * the image transposed (w x h) from the same tiles, instead of a
 * transpose kernel reading the image again after this one. */
constexpr int SP_TILE = 32, SP_ROWS = 8;   /* blockDim (SP_TILE, SP_ROWS) */

/* gb_edge_perceptual, with the sRGB curve's power through the hardware's
 * log2 and exp2 (__powf: a relative error near 1e-7, far below what a
 * spacing can tell), which is faster.  Falling back to
 * gb_edge_perceptual outside the power's range kept powf in the kernel
 * and was slower. */
__device__ __forceinline__ float
perceptual_fast (float premultiplied, float alpha, int perceptual)
{
  const float v = alpha > GB_EDGE_ALPHA_MIN ? premultiplied / alpha : 0.0f;
  if (perceptual)
    return 255.0f * gb_clamp01 (v);
  if (!(v > 0.0f))
    return 0.0f;
  if (v >= 1.0f)
    return 255.0f;
  return 255.0f * (v > GB_SRGB_ENCODE_KNEE ? 1.055f * __powf (v, 1.0f / 2.4f)
                                               - 0.055f
                                           : 12.92f * v);
}

template <int C, bool TRANSPOSE>
__global__ void
spacings_kernel (const float *__restrict__ img, int w, int h, float rx2,
                 float ry2, int perceptual_input, float *__restrict__ dty,
                 float *__restrict__ dtxT, float *__restrict__ imgT)
{
  constexpr int NC = C >= 3 ? 3 : 1;
  constexpr bool ALPHA = C == 2 || C == 4;
  constexpr int T1 = SP_TILE + 1;
  __shared__ float pc[T1][T1][NC];          /* [y - y0 + 1][x - x0 + 1] */
  __shared__ float sxT[SP_TILE][SP_TILE + 1];
  /* The tile's pixels as read, [y - y0][x - x0], a row one pixel longer
   * than the tile so that a warp reading down a column of it hits every
   * bank once (RGBA: 8 float4 a phase, 132 floats a row apart). */
  __shared__ __align__ (16) float raw[TRANSPOSE ? SP_TILE : 1]
                                     [TRANSPOSE ? (SP_TILE + 1) * C : 1];
  const int x0 = blockIdx.x * SP_TILE, y0 = blockIdx.y * SP_TILE;
  const int tx = threadIdx.x, ty = threadIdx.y;
  /* A thread's pixels of the tile and its border (at most NQ), all
   * loaded before any is converted (one at a time was slower). */
  constexpr int NQ = (T1 * T1 + SP_TILE * SP_ROWS - 1) / (SP_TILE * SP_ROWS);
  const int q0 = ty * SP_TILE + tx;
  auto at = [&] (int j, int &xx, int &yy) {
    const int q = q0 + j * SP_TILE * SP_ROWS;
    xx = x0 - 1 + q % T1;
    yy = y0 - 1 + q / T1;
    return q < T1 * T1 && xx >= 0 && yy >= 0 && xx < w && yy < h;
  };
  float v[NQ][C];
#pragma unroll
  for (int j = 0; j < NQ; j++)
    {
      int xx, yy;
      if (at (j, xx, yy))
        load_px<C> (img + ((size_t) yy * w + xx) * C, v[j]);
    }
#pragma unroll
  for (int j = 0; j < NQ; j++)
    {
      int xx, yy;
      if (!at (j, xx, yy))
        continue;
      const float a = ALPHA ? v[j][C - 1] : 1.0f;
#pragma unroll
      for (int k = 0; k < NC; k++)
        pc[yy - y0 + 1][xx - x0 + 1][k]
          = perceptual_fast (v[j][k], a, perceptual_input);
      if constexpr (TRANSPOSE)
        if (xx >= x0 && yy >= y0)
          store_px<C> (&raw[yy - y0][(xx - x0) * C], v[j]);
    }
  __syncthreads ();
  for (int r = ty; r < SP_TILE; r += SP_ROWS)
    {
      const int x = x0 + tx, y = y0 + r;
      if (x >= w || y >= h)
        continue;
      float sx = 0.f, sy = 0.f;
#pragma unroll
      for (int k = 0; k < NC; k++)
        {
          const float c0 = pc[r + 1][tx + 1][k];
          if (x > 0)
            sx += (c0 - pc[r + 1][tx][k]) * (c0 - pc[r + 1][tx][k]);
          if (y > 0)
            sy += (c0 - pc[r][tx + 1][k]) * (c0 - pc[r][tx + 1][k]);
        }
      dty[(size_t) y * w + x] = gb_edge_spacing (ry2, sy);
      sxT[tx][r] = gb_edge_spacing (rx2, sx);
    }
  __syncthreads ();
  for (int r = ty; r < SP_TILE; r += SP_ROWS)
    {
      const int x = x0 + r, y = y0 + tx;
      if (x < w && y < h)
        {
          dtxT[(size_t) x * h + y] = sxT[r][tx];
          if constexpr (TRANSPOSE)
            {
              float v[C];
              load_px<C, false> (&raw[tx][r * C], v);
              store_px<C> (imgT + ((size_t) x * h + y) * C, v);
            }
        }
    }
}

/* What edge_cols_kernel's thread does with its block:
 *   WARMUP   Algorithm C: a block after the first starts from Algorithm
 *            B's estimate (a kappa sigma warm-up); with one block per
 *            line, Algorithm A;
 *   FINAL    exact blocks, last kernel: a block starts from its true
 *            entry states (edge_carry_kernel) and writes the output (where
 *            edge_final_pair_kernel's shared memory would not fit). */
enum { WARMUP, FINAL };

/* Block states of the exact blocks: per block, the causal state (two
 * subfilters x C channels, complex) and the product of its steps' b^delta
 * (two, complex), then the same for the anticausal pass; each float a
 * plane of `lines`. */
template <int C> constexpr int pass_floats = 4 * C + 4;
template <int C> constexpr int state_floats = 2 * pass_floats<C>;

template <int C>
__device__ __forceinline__ size_t
state_at (int blk, int j, int lines, int line)
{
  return ((size_t) blk * state_floats<C> + j) * lines + line;
}

/* A pass's state (g) and product (p) to or from the block states at
 * float j0. */
template <int C>
__device__ __forceinline__ void
state_put (float *st, int blk, int j0, int lines, int line,
           const cplx (&g)[2][C], const cplx (&p)[2])
{
  int j = j0;
#pragma unroll
  for (int i = 0; i < 2; i++)
    {
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        {
          st[state_at<C> (blk, j++, lines, line)] = g[i][ch].re;
          st[state_at<C> (blk, j++, lines, line)] = g[i][ch].im;
        }
      st[state_at<C> (blk, j++, lines, line)] = p[i].re;
      st[state_at<C> (blk, j++, lines, line)] = p[i].im;
    }
}

template <int C>
__device__ __forceinline__ void
state_get (const float *st, int blk, int j0, int lines, int line,
           cplx (&g)[2][C], cplx (&p)[2])
{
  int j = j0;
#pragma unroll
  for (int i = 0; i < 2; i++)
    {
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        {
          g[i][ch].re = st[state_at<C> (blk, j++, lines, line)];
          g[i][ch].im = st[state_at<C> (blk, j++, lines, line)];
        }
      p[i].re = st[state_at<C> (blk, j++, lines, line)];
      p[i].im = st[state_at<C> (blk, j++, lines, line)];
    }
}

/* One block of one column, both directions in one thread: in/out are
 * [L][lines][C], dt is [L][lines]; st holds the block states (FINAL). */
/* At most 80 registers (6 thread blocks of 128 a multiprocessor) with
 * four pixels read ahead: as fast as eight pixels and no bound (112
 * registers) in RGBA, faster in grey. */
constexpr int EDGE_THREADS = 128, EDGE_MIN_BLOCKS = 6, EB = 4;

/* EB pixels from pixel x0 on, `step' apart (those with b < n), and the
 * spacing `doff' after each: all loads in flight before any is used. */
template <int C>
__device__ __forceinline__ void
load_batch (const float *f, const float *d, size_t pitch, int lines, int x0,
            int step, int doff, int n, float (&fb)[EB][C], float (&db)[EB])
{
#pragma unroll
  for (int b = 0; b < EB; b++)
    if (b < n)
      {
        const int x = x0 + b * step;
        db[b] = __ldg (d + (size_t) (x + doff) * lines);
        load_px<C> (f + (size_t) x * pitch, fb[b]);
      }
}

/* The same for a forward sweep that keeps pointers to its next pixel and
 * spacing and moves them by their strides: fewer instructions than
 * addresses computed from x for each load (64-bit products, kernel
 * parameters reloaded from the constant bank).  The exact blocks' final
 * (80 registers) took more instructions with pointers of its own and
 * keeps the form above. */
struct sweep
{
  const float *f, *d;   /* the next pixel's input and spacing */
  size_t fs;            /* floats between pixels: lines x C */
  int ds;               /* floats between spacings: lines */
};

__device__ __forceinline__ sweep
sweep_at (const float *f, const float *d, size_t pitch, int lines, int x)
{
  return { f + (size_t) x * pitch, d + (size_t) x * lines, pitch, lines };
}

template <int C>
__device__ __forceinline__ void
load_batch (sweep &w, int n, float (&fb)[EB][C], float (&db)[EB])
{
#pragma unroll
  for (int b = 0; b < EB; b++)
    if (b < n)
      {
        db[b] = __ldg (w.d + (size_t) b * w.ds);
        load_px<C> (w.f + b * w.fs, fb[b]);
      }
  w.f += EB * w.fs;
  w.d += (size_t) EB * w.ds;
}

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

/* The exact blocks' partials: every block (after the first, before the
 * last) from zero states, keeping only its end states and the products
 * of its steps' b^delta; the first block's causal pass and the last's
 * anticausal one start from the line's true states (as Algorithm A), so
 * their end states are already true.  One forward sweep does both
 * directions: the causal pass as its recursion, the anticausal one's end
 * state (at pixel s) as the weighted sum it is,
 *   h_s = sum_p W_p (R_(p+1) f_p + S_(p+1) f_(p+1)),
 *   W_p = b^delta_(s+1) ... b^delta_p,
 * so that both take their step factors from one computation (the
 * factors at pixel q serve the causal step at q and the anticausal term
 * at q - 1), and each channel's share of the anticausal state is one
 * complex multiply-add by f_(q-1)'s whole weight, W_(q-2) S_(q-1) +
 * W_(q-1) R_q.  Both sweeps as recursions, in two threads, computed the
 * factors twice and took four multiply-adds more a channel.  With three
 * or four channels it needs more than 80 registers (it spilled 24 and
 * 288 bytes), so five thread blocks a multiprocessor. */
template <int C>
constexpr int PARTIAL_MIN_BLOCKS = C >= 3 ? 5 : EDGE_MIN_BLOCKS;

template <int C, bool HOLD>
__global__ void __launch_bounds__ (EDGE_THREADS, PARTIAL_MIN_BLOCKS<C>)
edge_partial_kernel (const float *__restrict__ in, const float *__restrict__ dt,
                     float *__restrict__ st, int lines, int L, int blocks,
                     dt_k k)
{
  constexpr hold_is<HOLD> hold {};
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
  const float *d = dt + line;
#define DT(idx) __ldg (d + (size_t) (idx) * lines)

  /* The causal state as g_q = m_q + P_q f_q: then
   *   m_q = b^delta_q m_(q-1) + c f_(q-1),  c = b^delta_q P_(q-1) + Q_q,
   * six float instructions a channel and subfilter where b^delta g +
   * P f + Q f' took eight, for four more a pixel and subfilter (c): fewer
   * instructions in RGBA and RGB (grey's few more are won back by the
   * sweep's pointers).  The final keeps its step: each pixel's value
   * would need P f added back.
   * Pixel s: the causal pass's first step (from zero, or the line's true
   * start: m = 0, P = ss); the weights start at 1. */
  cplx m[2][C], h[2][C], w[2], ws[2], bds[2], pp[2];
  float fp[C];
  load_px<C> (f + (size_t) s * pitch, fp);
  if (blk == 0)
    {
#pragma unroll
      for (int i = 0; i < 2; i++)
        {
          bds[i] = { 1.f, 0.f };
          pp[i] = k.ss[i];
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            m[i][ch] = { 0.f, 0.f };
        }
    }
  else
    {
      float fb[C];
      load_px<C> (f + (size_t) (s - 1) * pitch, fb);
      const float db = DT (s);
#pragma unroll
      for (int i = 0; i < 2; i++)
        {
          step_k sk = step_factors (k, hold, i, db);
          bds[i] = sk.bd;
          pp[i] = sk.P;
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            m[i][ch] = cscale (sk.Q, fb[ch]);
        }
    }
#pragma unroll
  for (int i = 0; i < 2; i++)
    {
      w[i] = { 1.f, 0.f };
      ws[i] = { 0.f, 0.f };
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        h[i][ch] = { 0.f, 0.f };
    }

  /* Pixels s+1 .. e-1, EB at a time, all loads in flight before use. */
  sweep sw = sweep_at (f, d, pitch, lines, s + 1);
  for (int x0 = s + 1; x0 < e; x0 += EB)
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
                step_k sk = step_factors (k, hold, i, db[b]);
                const cplx wq = cmadd (w[i], sk.R, ws[i]);   /* f_(q-1)'s */
                const cplx c = cmadd (sk.bd, pp[i], sk.Q);
                ws[i] = cmul (w[i], sk.S);
                w[i] = cmul (w[i], sk.bd);
                pp[i] = sk.P;
#pragma unroll
                for (int ch = 0; ch < C; ch++)
                  {
                    h[i][ch] = { fmaf (wq.re, fp[ch], h[i][ch].re),
                                 fmaf (wq.im, fp[ch], h[i][ch].im) };
                    m[i][ch] = cmadd (sk.bd, m[i][ch], cscale (c, fp[ch]));
                  }
              }
#pragma unroll
            for (int ch = 0; ch < C; ch++)
              fp[ch] = fb[b][ch];
          }
    }

  cplx g[2][C];
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      g[i][ch] = { fmaf (pp[i].re, fp[ch], m[i][ch].re),
                   fmaf (pp[i].im, fp[ch], m[i][ch].im) };

  /* The causal product: b^delta_s W_(e-1).  The anticausal pass's last
   * term: past a block that is not the line's last, pixel e's factors
   * and input (its product is then W_e); the last block's pass starts at
   * its last pixel from the line's true state, b ss f_(e-1). */
  cplx pc[2], pa[2];
  float fe[C] = {};
  const bool last = blk == blocks - 1;
  if (!last)
    load_px<C> (f + (size_t) e * pitch, fe);
  const float de = last ? 1.f : DT (e);
#pragma unroll
  for (int i = 0; i < 2; i++)
    {
      pc[i] = cmul (bds[i], w[i]);
      cplx wl, wn = { 0.f, 0.f };   /* f_(e-1)'s and f_e's weights */
      if (last)
        {
          wl = cmadd (w[i], k.bss[i], ws[i]);
          pa[i] = w[i];
        }
      else
        {
          step_k sk = step_factors (k, hold, i, de);
          wl = cmadd (w[i], sk.R, ws[i]);
          wn = cmul (w[i], sk.S);
          pa[i] = cmul (w[i], sk.bd);
        }
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        h[i][ch] = { fmaf (wl.re, fp[ch], fmaf (wn.re, fe[ch], h[i][ch].re)),
                     fmaf (wl.im, fp[ch], fmaf (wn.im, fe[ch], h[i][ch].im)) };
    }
  state_put<C> (st, blk, 0, lines, line, g, pc);
  state_put<C> (st, blk, pass_floats<C>, lines, line, h, pa);
#undef DT
}

/* The exact blocks' final, two lanes a block: in each warp, lanes 0-15
 * sweep the block of their line causally and lanes 16-31 the same lines'
 * blocks anticausally, in the same instructions (the direction picks
 * positions and factors, not code), so that a block's two sweeps run at
 * once instead of one after the other.  A pixel's two halves meet in
 * shared memory: the lane that reaches it first (the causal one in the
 * block's first half, the anticausal one in its second) keeps its value
 * there, and the other adds it and writes the sum (the odd middle pixel,
 * reached by both at once, goes through a shuffle), so that every output
 * is written once and nothing is read back from global memory.  Shared
 * memory: PAIR_LINES lines x nmax pixels x C floats a warp.
 *
 * TOUT: the output transposed ([lines][L][C], the lines as rows), which
 * saves the filter's passes the transposes between them (run_iterations).  The
 * sums then stay in shared memory, a line's block contiguous, and the
 * warp writes each line's block as one run once all are summed.  The 16
 * lanes of a direction hit different banks: in RGBA a pixel is a float4
 * and a line's pitch 4 mod 32 floats; else the pitch is odd, float by
 * float (RGB's pitch 3 mod 32 as well cost a thread block a
 * multiprocessor). */
/* Six thread blocks a multiprocessor (80 registers, no spills; the
 * compiler chose 94, five): with RGBA blocks of at most 32 pixels their
 * shared memory fits six too (gb_cuda_edge_blocks), which is faster. */
constexpr int PAIR_LINES = 16, PAIR_WARPS = 4, PAIR_MIN_BLOCKS = 6;

/* A line's floats in shared memory when the output is transposed: at
 * least C nmax; 4 mod 32 in RGBA, else odd. */
__host__ __device__ constexpr int
pair_pitch_t (int C, int nmax)
{
  return C == 4 ? C * nmax + ((4 - C * nmax) % 32 + 32) % 32
                : (C * nmax) | 1;
}

/* Shared memory of a thread block of edge_final_pair_kernel. */
constexpr size_t
pair_shm (int C, int nmax, bool tout)
{
  return sizeof (float) * PAIR_WARPS * PAIR_LINES
         * (size_t) (tout ? pair_pitch_t (C, nmax) : C * nmax);
}

template <int C, bool TOUT, bool HOLD>
__global__ void __launch_bounds__ (32 * PAIR_WARPS, PAIR_MIN_BLOCKS)
edge_final_pair_kernel (const float *__restrict__ in, float *__restrict__ out,
                        const float *__restrict__ dt,
                        const float *__restrict__ st, int lines, int L,
                        int blocks, int nmax, dt_k k)
{
  constexpr hold_is<HOLD> hold {};
  extern __shared__ __align__ (16) float held[];
  const int lane = threadIdx.x & 31, dir = lane >> 4;
  const int groups = (lines + PAIR_LINES - 1) / PAIR_LINES;
  const long wid = (long) blockIdx.x * PAIR_WARPS + (threadIdx.x >> 5);
  if (wid >= (long) groups * blocks)   /* whole warps */
    return;
  /* A warp's lanes share one block, so every test on i below is the
   * same in all of them (the shuffle and __syncwarp need that); a lane
   * past the last line works on the last line and writes nothing. */
  const int blk = (int) (wid / groups);
  const int first = (int) (wid % groups) * PAIR_LINES;   /* warp's lines */
  const int line0 = first + (lane & 15);
  const bool valid = line0 < lines;
  const int line = valid ? line0 : lines - 1;
  const int s = (int) ((long) L * blk / blocks);
  const int e = (int) ((long) L * (blk + 1) / blocks);
  const int nb = e - s, half = nb / 2;
  const size_t pitch = (size_t) lines * C;
  const float *f = in + (size_t) line * C;
  float *o = out + (size_t) line * C;
  const float *d = dt + line;
  const int tp = pair_pitch_t (C, nmax);
  float *const warp_held = held + (size_t) (threadIdx.x >> 5) * PAIR_LINES
                                  * (TOUT ? tp : nmax * C);
  float *mine = warp_held + (lane & 15) * (TOUT ? tp : C);
  /* Step i is at pixel p0 + i * step; its factors are those of the
   * spacing at p + dir (before p causally, after it anticausally). */
  const int p0 = dir ? e - 1 : s, step = dir ? -1 : 1;
  const bool line_end = dir ? blk == blocks - 1 : blk == 0;
  const dir_k dk = dir_factors (k, hold, dir);

  /* Step i's value v at pixel p: kept (first half), added to the other
   * lane's and written (second half), or, the odd middle pixel, summed
   * through a shuffle.  In RGBA the halves run as loops of their own
   * (below), so that their steps test nothing: one loop testing i at
   * every step, with the branches, reconvergence and register moves that
   * cost, took about a third more instructions than the halves' loops
   * and was slower.  With fewer channels the one loop stays: there the
   * three copies of the step were slower while executing fewer
   * instructions. */
  auto value = [&] (const cplx (&gg)[2][C], float (&v)[C]) {
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      v[ch] = gg[0][ch].re + gg[1][ch].re;
  };
  auto slot_of = [&] (int p) {
    return mine + (size_t) (p - s) * (TOUT ? C : PAIR_LINES * C);
  };
  auto put = [&] (float *slot, const float (&u)[C]) {
    if constexpr (TOUT && C == 4)
      store_px<C> (slot, u);
    else
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        slot[ch] = u[ch];
  };
  auto keep = [&] (int p, const cplx (&gg)[2][C]) {
    float v[C];
    value (gg, v);
    put (slot_of (p), v);
  };
  auto add = [&] (int p, const cplx (&gg)[2][C]) {
    float v[C], kept[C];
    value (gg, v);
    float *slot = slot_of (p);
    if constexpr (TOUT && C == 4)
      load_px<C, false> (slot, kept);
    else
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        kept[ch] = slot[ch];
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      kept[ch] += v[ch];
    if constexpr (TOUT)
      put (slot, kept);
    else
      {
        if (valid)
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            o[(size_t) p * pitch + ch] = kept[ch];
      }
  };
  auto middle = [&] (int p, const cplx (&gg)[2][C]) {
    float v[C], sum[C];
    value (gg, v);
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      sum[ch] = v[ch] + __shfl_xor_sync (0xffffffffu, v[ch], 16);
    if constexpr (TOUT)
      {
        if (dir == 0)
          put (slot_of (p), sum);
      }
    else
      {
        if (dir == 0 && valid)
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            o[(size_t) p * pitch + ch] = sum[ch];
      }
  };

  /* Step 0: from the line's true start at its end pixel, or from the
   * block's entry state (edge_carry_kernel) with the pixel before it. */
  cplx g[2][C];
  float f2[C];
  load_px<C> (f + (size_t) p0 * pitch, f2);
  if (line_end)
    {
#pragma unroll
      for (int i = 0; i < 2; i++)
        {
          const cplx c = dir ? k.bss[i] : k.ss[i];
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            g[i][ch] = cscale (c, f2[ch]);
        }
    }
  else
    {
      cplx unused[2];
      state_get<C> (st, blk, dir ? pass_floats<C> : 0, lines, line, g, unused);
      float fb[C];
      load_px<C> (f + (size_t) (p0 - step) * pitch, fb);
      const float db = __ldg (d + (size_t) (p0 + dir) * lines);
#pragma unroll
      for (int i = 0; i < 2; i++)
        {
          const step_xy sk = step_dir (k, hold, dk, i, db);
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            g[i][ch] = cstep (sk.bd, g[i][ch], sk.X, f2[ch], sk.Y, fb[ch]);
        }
    }
  if (half > 0)
    keep (p0, g);
  else
    middle (p0, g);   /* a block of one pixel */

  /* Steps [from, to), their loads EB at a time, each pixel's value
   * emitted by em. */
  auto walk = [&] (int from, int to, auto em) {
    for (int i0 = from; i0 < to; i0 += EB)
      {
        float fb[EB][C], db[EB];
        load_batch<C> (f, d, pitch, lines, p0 + i0 * step, step, dir,
                       to - i0, fb, db);
#pragma unroll
        for (int b = 0; b < EB; b++)
          if (i0 + b < to)
            {
#pragma unroll
              for (int i = 0; i < 2; i++)
                {
                  const step_xy sk = step_dir (k, hold, dk, i, db[b]);
#pragma unroll
                  for (int ch = 0; ch < C; ch++)
                    g[i][ch] = cstep (sk.bd, g[i][ch], sk.X, fb[b][ch], sk.Y,
                                      f2[ch]);
                }
#pragma unroll
              for (int ch = 0; ch < C; ch++)
                f2[ch] = fb[b][ch];
              em (p0 + (i0 + b) * step, g);
            }
      }
  };
  if constexpr (C == 4)
    {
      walk (1, half, keep);
      __syncwarp ();   /* the first half's values are all kept */
      if ((nb & 1) && half > 0)
        walk (half, half + 1, middle);
      walk (half + (nb & 1) > 1 ? half + (nb & 1) : 1, nb, add);
    }
  else
    walk (1, nb, [&] (int p, const cplx (&gg)[2][C]) {
      const int i = (p - p0) * step;
      if (i == half)
        __syncwarp ();   /* the first half's values are all kept */
      if (i < half)
        keep (p, gg);
      else if (i == half && (nb & 1))
        middle (p, gg);
      else
        add (p, gg);
    });
  if constexpr (TOUT)
    {
      /* Line l's block is floats [s C, e C) of output row l. */
      __syncwarp ();
      const int n = min (PAIR_LINES, lines - first);
      for (int l = 0; l < n; l++)
        {
          float *row = out + ((size_t) (first + l) * L + s) * C;
          const float *sums = warp_held + l * tp;
          if constexpr (C == 4)
            for (int j = lane; j < nb; j += 32)
              reinterpret_cast<float4 *> (row)[j]
                = reinterpret_cast<const float4 *> (sums)[j];
          else
            for (int j = lane; j < nb * C; j += 32)
              row[j] = sums[j];
        }
    }
}

/* The exact blocks' carries: block by block, the state entering a block
 * is the one leaving the block before it,
 *   g_out = partial + (product of b^delta) g_in,
 * forward for the causal pass (the first block's partial is already true)
 * and backward for the anticausal one (the last block's is).  Each chain
 * (line, pass, subfilter, channel) is its own first-order recursion, so a
 * thread runs one chain: one thread per line spent a quarter of the pass
 * waiting on one state after another.  Loads go CARRY_BATCH blocks ahead
 * of the recursion, all in flight at once (16 measured best; 32 lost on
 * large images).  The partials are replaced by the entry states; the
 * products stay. */
constexpr int CARRY_BATCH = 16;

template <int C>
__global__ void
edge_carry_kernel (float *__restrict__ st, int lines, int blocks)
{
  const long t = (long) blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long) lines * 4 * C)
    return;
  const int line = (int) (t % lines), chain = (int) (t / lines);
  const int pass = chain / (2 * C), i = chain / C % 2, ch = chain % C;
  /* floats of this chain's state and of its product within a block */
  const int jg = pass * pass_floats<C> + i * (2 * C + 2) + 2 * ch;
  const int jp = pass * pass_floats<C> + i * (2 * C + 2) + 2 * C;
  auto blk_of = [&] (int n) { return pass ? blocks - 1 - n : n; };
  cplx g = { st[state_at<C> (blk_of (0), jg, lines, line)],
             st[state_at<C> (blk_of (0), jg + 1, lines, line)] };
  for (int n0 = 1; n0 < blocks; n0 += CARRY_BATCH)
    {
      cplx z[CARRY_BATCH], p[CARRY_BATCH];
#pragma unroll
      for (int q = 0; q < CARRY_BATCH; q++)
        if (n0 + q < blocks)
          {
            const int blk = blk_of (n0 + q);
            z[q] = { st[state_at<C> (blk, jg, lines, line)],
                     st[state_at<C> (blk, jg + 1, lines, line)] };
            p[q] = { st[state_at<C> (blk, jp, lines, line)],
                     st[state_at<C> (blk, jp + 1, lines, line)] };
          }
#pragma unroll
      for (int q = 0; q < CARRY_BATCH; q++)
        if (n0 + q < blocks)
          {
            const int blk = blk_of (n0 + q);
            st[state_at<C> (blk, jg, lines, line)] = g.re;
            st[state_at<C> (blk, jg + 1, lines, line)] = g.im;
            g = cmadd (p[q], g, z[q]);
          }
    }
}

dt_k
to_kernel (double sigma, int hold)
{
  gb_dt_coeffs c;
  gb_dt_coeffs_make (sigma, &c);
  dt_k k;
  for (int i = 0; i < 2; i++)
    {
      k.a[i] = { (float) c.a_re[i], (float) c.a_im[i] };
      k.b[i] = { (float) c.b_re[i], (float) c.b_im[i] };
      double r0n = c.r0_re[i] * c.r0_re[i] + c.r0_im[i] * c.r0_im[i];
      k.inv_r0[i] = { (float) (c.r0_re[i] / r0n), (float) (-c.r0_im[i] / r0n) };
      k.r1b[i] = { (float) (c.r1_re[i] * c.b_re[i] - c.r1_im[i] * c.b_im[i]),
                   (float) (c.r1_re[i] * c.b_im[i] + c.r1_im[i] * c.b_re[i]) };
      k.r1[i] = { (float) c.r1_re[i], (float) c.r1_im[i] };
      k.ss[i] = { (float) c.ss_re[i], (float) c.ss_im[i] };
      double ab_re = c.a_re[i] * c.b_re[i] - c.a_im[i] * c.b_im[i];
      double ab_im = c.a_re[i] * c.b_im[i] + c.a_im[i] * c.b_re[i];
      double bss_re = c.b_re[i] * c.ss_re[i] - c.b_im[i] * c.ss_im[i];
      double bss_im = c.b_re[i] * c.ss_im[i] + c.b_im[i] * c.ss_re[i];
      k.ab[i] = { (float) ab_re, (float) ab_im };
      k.bss[i] = { (float) bss_re, (float) bss_im };
      k.log2r[i] = (float) (c.logr[i] / M_LN2);
      k.theta[i] = (float) c.theta[i];
    }
  k.hold = hold;
  return k;
}

/* Whether the exact blocks' final takes edge_final_pair_kernel (TOUT:
 * writing the output transposed): where its shared memory fits without
 * asking for more (RGBA: blocks of up to 48 pixels, 41 writing
 * transposed; gb_cuda_edge_blocks keeps them to 32, other channel counts
 * to 40).  Else edge_cols_kernel, which writes it as read. */
template <int C>
bool
pair_fits (int exact, int L, int blocks, bool tout)
{
  return exact && blocks > 1
         && pair_shm (C, (L + blocks - 1) / blocks, tout) <= 48 * 1024;
}

template <int C, bool TOUT>
gb_status
launch_pair (const float *in, float *out, const float *dt, const float *st,
             int lines, int L, int blocks, const dt_k &k, cudaStream_t s)
{
  /* All of the unified L1 as shared memory if the driver lets us: a
   * hint (without it, fewer thread blocks fit), so a refusal is cleared
   * and ignored.  As many thread blocks a multiprocessor as it then
   * holds. */
  const auto kern = k.hold ? edge_final_pair_kernel<C, TOUT, true>
                           : edge_final_pair_kernel<C, TOUT, false>;
  static const bool hinted = [] {
    for (auto f : { edge_final_pair_kernel<C, TOUT, true>,
                    edge_final_pair_kernel<C, TOUT, false> })
      cudaFuncSetAttribute (f, cudaFuncAttributePreferredSharedMemoryCarveout,
                            100);
    cudaGetLastError ();
    return true;
  }();
  (void) hinted;
  const int nmax = (L + blocks - 1) / blocks;
  const long warps = (long) (lines + PAIR_LINES - 1) / PAIR_LINES * blocks;
  kern<<<(unsigned) ((warps + PAIR_WARPS - 1) / PAIR_WARPS), 32 * PAIR_WARPS,
         pair_shm (C, nmax, TOUT), s>>> (in, out, dt, st, lines, L, blocks,
                                          nmax, k);
  return gb_cuda_check_launch ("edge_final_pair_kernel");
}

/* One pass over the columns: Algorithm C in one kernel (exact == 0), or
 * the exact blocks in three (st: room for their states).  tout: the
 * output transposed, only where pair_fits<C> (exact, L, blocks, true). */
template <int C>
gb_status
launch_cols (const float *in, float *out, const float *dt, float *st,
             int lines, int L, int blocks, int exact, float warmup,
             const dt_k &k, bool tout, cudaStream_t s)
{
  const int threads = EDGE_THREADS;
  const long n = (long) lines * blocks;
  const unsigned grid = (unsigned) ((n + threads - 1) / threads);
  if (!exact || blocks == 1)   /* one block: Algorithm A as it stands */
    {
      (k.hold ? edge_cols_kernel<C, WARMUP, true>
              : edge_cols_kernel<C, WARMUP, false>)<<<grid, threads, 0, s>>> (
          in, out, dt, st, lines, L, blocks, warmup, k);
      return gb_cuda_check_launch ("edge_cols_kernel");
    }
  gb_status r;
  (k.hold ? edge_partial_kernel<C, true> : edge_partial_kernel<C, false>)
      <<<grid, threads, 0, s>>> (in, dt, st, lines, L, blocks, k);
  if ((r = gb_cuda_check_launch ("edge_partial_kernel")) != GB_OK)
    return r;
  /* One thread per chain, in small thread blocks to spread them. */
  const long chains = (long) lines * 4 * C;
  edge_carry_kernel<C><<<(unsigned) ((chains + 63) / 64), 64, 0, s>>> (
      st, lines, blocks);
  if ((r = gb_cuda_check_launch ("edge_carry_kernel")) != GB_OK)
    return r;
  if (pair_fits<C> (exact, L, blocks, tout))
    return tout ? launch_pair<C, true> (in, out, dt, st, lines, L, blocks, k, s)
                : launch_pair<C, false> (in, out, dt, st, lines, L, blocks, k,
                                         s);
  (k.hold ? edge_cols_kernel<C, FINAL, true>
          : edge_cols_kernel<C, FINAL, false>)<<<grid, threads, 0, s>>> (
      in, out, dt, st, lines, L, blocks, warmup, k);
  return gb_cuda_check_launch ("edge_cols_kernel (final)");
}

template <int C>
gb_status
run_iterations (const gb_params *p, float *a, float *b, float *dty, float *dtxT,
       float *states, int w, int h, int blocks_x, int blocks_y, cudaStream_t s,
       float **result)
{
  gb_status st;
  const int n = p->iterations * ((p->sigma_x > 0) + (p->sigma_y > 0));
  const auto rows = [&] (int i) {
    return p->sigma_x > 0 && (p->sigma_y <= 0 || i % 2 == 0);
  };
  /* Where the first pass filters rows, the spacings kernel also writes
   * the image transposed into b (it has each tile of it in hand). */
  const bool flip_first = n > 0 && rows (0);
  dim3 blk (SP_TILE, SP_ROWS),
       grid ((w + SP_TILE - 1) / SP_TILE, (h + SP_TILE - 1) / SP_TILE);
  const float rx2 = (float) gb_edge_ratio2 (p->sigma_x, p->range_sigma),
              ry2 = (float) gb_edge_ratio2 (p->sigma_y, p->range_sigma);
  if (flip_first)
    spacings_kernel<C, true><<<grid, blk, 0, s>>> (
        a, w, h, rx2, ry2, p->perceptual, dty, dtxT, b);
  else
    spacings_kernel<C, false><<<grid, blk, 0, s>>> (
        a, w, h, rx2, ry2, p->perceptual, dty, dtxT, nullptr);
  if ((st = gb_cuda_check_launch ("spacings_kernel")) != GB_OK)
    return st;
  const int hold = p->edge_interpolation == GB_EDGE_HOLD;
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
                        && pair_fits<C> (exact, L, nb, true);
      if ((st = launch_cols<C> (cur, other, r ? dtxT : dty, states, lines, L,
                                nb, exact, (float) (p->kappa * si),
                                to_kernel (si, hold), tout, s)) != GB_OK)
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
      int n = p->blocks_per_stripe;
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
  switch (channels)
    {
    case 1: st = run_iterations<1> (p, a, b, dty, dtxT, states, w, h, bx, by, s, result); break;
    case 2: st = run_iterations<2> (p, a, b, dty, dtxT, states, w, h, bx, by, s, result); break;
    case 3: st = run_iterations<3> (p, a, b, dty, dtxT, states, w, h, bx, by, s, result); break;
    default: st = run_iterations<4> (p, a, b, dty, dtxT, states, w, h, bx, by, s, result); break;
    }
  cudaError_t e = cudaStreamSynchronize (s);
  if (st == GB_OK && e != cudaSuccess)
    st = gb_cuda_fail (e, GB_ERR_CUDA_LAUNCH, "edge-aware filter");
  cudaFree (extra);
  return st;
}
