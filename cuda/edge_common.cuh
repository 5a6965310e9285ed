/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the edge-aware filter's column kernels share (edge_cols.cu,
 * edge_exact.cu): the recursion's complex arithmetic and step factors,
 * the layout of the exact blocks' states, the batched loads, and the
 * constants of one filter (to_kernel).  The recursion is first-order per
 * subfilter, complex, with per-pixel factors; powers b^delta in polar
 * form (the paper's Section IV-C), in single precision. */
#ifndef GB_CUDA_EDGE_COMMON_CUH
#define GB_CUDA_EDGE_COMMON_CUH

#include <math.h>

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
inline dt_k
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

} // namespace

#endif
