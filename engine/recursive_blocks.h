/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Block-parallel recursive filtering (Nehab, Maximo, Lima and Hoppe,
 * "GPU-efficient recursive filtering and summed-area tables", 2011),
 * exact: a line is cut into blocks that are filtered in parallel from zero
 * states ("partials"), the true states at the blocks' edges are then
 * carried across the blocks of each line in a short sequential pass
 * ("carries"), and each block is filtered again from its true states
 * ("finals").  The result equals the sequential filter with the exact
 * replicated-border starts, within rounding.
 *
 * Young-van Vliet (cascade form, the anticausal pass runs on the causal
 * output): per block of n samples, with the causal state s = (w[i-1],
 * w[i-2], w[i-3]) and A the companion matrix of a1..a3,
 *   causal state out = P s_in + z,          P = A^n,
 *   anticausal state out = P t_in + z'' + G s_in,
 *   G = B sum_{i<n} A^i e1 e1^T A^(i+1): the anticausal start of the
 *   causal pass's response to its own initial state (for n -> infinity
 *   the Triggs-Sdika matrix M).
 * Deriche (parallel form, both passes on the input) in modal form
 * (gb_deriche_modes): two complex first-order modes per pass, whose
 * carry across a block is q^n; no halo, no cross term.
 *
 * The per-line stages are functions for gcc and nvcc alike: the CUDA
 * kernels run them on lines staged in shared memory, and the tests run
 * them on the CPU against the sequential filters.  A line's samples are
 * x[0], x[stride], ... */
#ifndef GB_RECURSIVE_BLOCKS_H
#define GB_RECURSIVE_BLOCKS_H

#include "coefficients.h"
#include "pixel_math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* YvV's carries go through powers of its companion matrix, whose norm
 * grows with sigma: up to here the blocks stay within 1e-6 (relative) of
 * the sequential filter for blocks of up to 128 samples (tests/
 * test_blocks); past it (where the q(sigma) fit is off anyway) the GPU
 * runs YvV line by line.  Deriche's modal carries hold at any sigma. */
#define GB_YVV_BLOCK_MAX_SIGMA 500.0

/* The GPU splits a line's carries into segments, each an affine map
 * (a product of block matrices P) composed onto the states before it.
 * For YvV those products grow with sigma and lose digits: against the
 * sequential carries, segments of 2-8 blocks of 64 stay within 4e-8 to
 * sigma 50, reach 6e-7 at 70 and 1e-4 at 350 (tests/test_blocks); past
 * this one thread walks a whole line.  Deriche's modal maps (|q^n| < 1)
 * hold at any sigma. */
#define GB_YVV_SEGMENT_MAX_SIGMA 50.0

/* The kernels' block lengths: samples per block along a line (a thread
 * keeps a block in registers; Deriche's final stage two of them).  The
 * CUDA fused kernel also runs YvV in blocks of 32 (yvv_short); these may
 * be set at build time (-D, for C and nvcc alike) for experiments. */
#ifndef GB_BLOCK_LEN_YVV
#define GB_BLOCK_LEN_YVV 64
#endif
#ifndef GB_BLOCK_LEN_DERICHE
#define GB_BLOCK_LEN_DERICHE 32
#endif

typedef struct
{
  double P[3][3], G[3][3];
} gb_yvv_block;

/* YvV's anticausal partial state of a whole block (GB_BLOCK_LEN_YVV
 * samples) as weighted sums of its samples, its causal one by the causal
 * recursion (gb_yvv_partial_w): 7 multiply-adds a sample and one
 * conversion to double, where the two recursions take 8 and three (their
 * intermediate output is rounded to float, as the finals keep it).  The
 * GPU stages the table in shared memory; with the causal weights there
 * too (6 table reads a sample) those reads were the partial kernels'
 * limit.  Double: an error in a state acts as an input impulse 1/B times
 * larger. */
typedef struct
{
  double wa[GB_BLOCK_LEN_YVV][3];   /* x_i's share of zpp (anticausal) */
} gb_yvv_blockw;

typedef struct
{
  double p_re[2], p_im[2];   /* q_j^n */
} gb_deriche_block;

/* Deriche's whole blocks (GB_BLOCK_LEN_DERICHE samples) in single
 * precision, as the GPU runs them: the modal form is well conditioned
 * (a rounding error in a mode's state decays as q^k), so float states and
 * float arithmetic inside a block stay within 1e-6 of the sequential
 * double filter, provided that nothing is raised to a power by repeated
 * float multiplication: the partial states are weighted sums of the
 * block's samples, and the entry states reach each sample through its own
 * power of q, both tabulated here in double and rounded once.  Each row
 * holds (Re, Im) of mode 0, then of mode 1. */
typedef struct
{
  float wc[GB_BLOCK_LEN_DERICHE][4];   /* c q^(n-1-i): x_i's share of zc */
  float wa[GB_BLOCK_LEN_DERICHE][4];   /* c q^i: x_i's share of za */
  float pc[GB_BLOCK_LEN_DERICHE][4];   /* q^(i+1): the causal entry state's */
  float pa[GB_BLOCK_LEN_DERICHE][4];   /* q^(n-i): the anticausal one's */
  float q[4], c[4];
  float h0;
} gb_deriche_blockf;

/* The constants of a block of n >= 1 samples. */
void gb_yvv_block_make (const gb_yvv_coeffs *c, int n, gb_yvv_block *b);
/* The whole blocks' tables (the GPU builds them on the device with the
 * _row functions below, one thread a row, so that no upload stalls its
 * stream). */
void gb_yvv_blockw_make (const gb_yvv_coeffs *c, gb_yvv_blockw *t);
void gb_deriche_block_make (const gb_deriche_modes *m, int n,
                            gb_deriche_block *b);
void gb_deriche_blockf_make (const gb_deriche_modes *m, gb_deriche_blockf *t);

#ifdef __cplusplus
}
#endif

/* ---- small matrix products ---------------------------------------------- */

GB_HD void
gb_mat3_apply_add (const double P[3][3], const double v[3], double out[3])
{
  /* out first: three multiply-adds deep in v (summing P v before adding
   * it made four, on the carries' chain from one block to the next) */
  for (int i = 0; i < 3; i++)
    out[i] = P[i][0] * v[0] + (P[i][1] * v[1] + (P[i][2] * v[2] + out[i]));
}

/* r = a b; r may be a or b. */
GB_HD void
gb_mat3_mul (const double a[3][3], const double b[3][3], double r[3][3])
{
  double o[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      o[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r[i][j] = o[i][j];
}

/* The stages take a block of n samples and a bound nmax >= n: their loops
 * run to nmax with the samples past n skipped, so that with nmax a
 * compile-time constant the CUDA kernels keep a block in registers (every
 * index known) and still handle a line's short last block. */
#ifdef __CUDA_ARCH__   /* device code only: gcc would warn */
#define GB_UNROLL _Pragma ("unroll")
#else
#define GB_UNROLL
#endif

/* ---- Young-van Vliet ---------------------------------------------------- */

/* One step from states p1..p3 (the three previous outputs). */
GB_HD double
gb_yvv_step (double B, double a1, double a2, double a3, double x,
             double p[3])
{
  /* The newest output last: each step's dependency on the one before is
   * then one multiply-add (a GPU thread filtering a block is a chain of
   * these; in the written order it was three). */
  const double v = a1 * p[0] + (a2 * p[1] + (a3 * p[2] + B * x));
  p[2] = p[1];
  p[1] = p[0];
  p[0] = v;
  return v;
}

/* Row i of gb_yvv_blockw: the partial's two recursions, in double, over
 * a unit impulse at sample i. */
GB_HD void
gb_yvv_blockw_row (const gb_yvv_coeffs *c, int i, gb_yvv_blockw *t)
{
  double w[GB_BLOCK_LEN_YVV], p[3] = { 0.0, 0.0, 0.0 };
  for (int k = 0; k < GB_BLOCK_LEN_YVV; k++)
    w[k] = gb_yvv_step (c->B, c->a1, c->a2, c->a3, k == i ? 1.0 : 0.0, p);
  p[0] = p[1] = p[2] = 0.0;
  for (int k = GB_BLOCK_LEN_YVV - 1; k >= 0; k--)
    gb_yvv_step (c->B, c->a1, c->a2, c->a3, w[k], p);
  for (int k = 0; k < 3; k++)
    t->wa[i][k] = p[k];
}

/* Partial: the causal pass over the block from a zero state, its output
 * w stored over x (float, as the finals and the CPU keep it), then the
 * anticausal pass over w from a zero state.  z: the causal state at the
 * block's end; zpp: the anticausal state at its start. */
GB_HD void
gb_yvv_partial (float *x, int stride, int n, int nmax,
                const gb_yvv_coeffs *c, double z[3], double zpp[3])
{
  double p[3] = { 0.0, 0.0, 0.0 };
  GB_UNROLL
  for (int i = 0; i < nmax; i++)
    if (i < n)
      x[i * stride] = (float) gb_yvv_step (c->B, c->a1, c->a2, c->a3,
                                           x[i * stride], p);
  for (int k = 0; k < 3; k++)
    z[k] = p[k];
  p[0] = p[1] = p[2] = 0.0;
  GB_UNROLL
  for (int i = nmax - 1; i >= 0; i--)
    if (i < n)
      gb_yvv_step (c->B, c->a1, c->a2, c->a3, x[i * stride], p);
  for (int k = 0; k < 3; k++)
    zpp[k] = p[k];
}

/* The partial of a whole block: the states of gb_yvv_partial, without
 * rounding the causal output in between; the causal one by the
 * recursion, the anticausal one from gb_yvv_blockw. */
GB_HD void
gb_yvv_partial_w (const float *x, int stride, const gb_yvv_coeffs *c,
                  const gb_yvv_blockw *t, double z[3], double zpp[3])
{
  double p[3] = { 0.0, 0.0, 0.0 }, a[3] = { 0.0, 0.0, 0.0 };
  GB_UNROLL
  for (int i = 0; i < GB_BLOCK_LEN_YVV; i++)
    {
      const double xi = x[i * stride];
      gb_yvv_step (c->B, c->a1, c->a2, c->a3, xi, p);
      for (int k = 0; k < 3; k++)
        a[k] += t->wa[i][k] * xi;
    }
  for (int k = 0; k < 3; k++)
    {
      z[k] = p[k];
      zpp[k] = a[k];
    }
}

/* Final: the block filtered from its true states, in place: causal from
 * s_in (the three outputs before the block), then anticausal from t_in
 * (the three outputs after it). */
GB_HD void
gb_yvv_final (float *x, int stride, int n, int nmax, const gb_yvv_coeffs *c,
              const double s_in[3], const double t_in[3])
{
  double p[3] = { s_in[0], s_in[1], s_in[2] };
  GB_UNROLL
  for (int i = 0; i < nmax; i++)
    if (i < n)
      x[i * stride] = (float) gb_yvv_step (c->B, c->a1, c->a2, c->a3,
                                           x[i * stride], p);
  p[0] = t_in[0];
  p[1] = t_in[1];
  p[2] = t_in[2];
  GB_UNROLL
  for (int i = nmax - 1; i >= 0; i--)
    if (i < n)
      x[i * stride] = (float) gb_yvv_step (c->B, c->a1, c->a2, c->a3,
                                           x[i * stride], p);
}

/* The carries of a line, a block at a time (the kernels keep a line's
 * block states in memory, the tests in arrays):
 *   s = { first, first, first };
 *   for k = 0 .. nb-1:   gb_yvv_carry_causal (block k, s, zc[k]);
 *   gb_yvv_carry_turn (c, s, last, naive, t);
 *   for k = nb-1 .. 0:   gb_yvv_carry_anticausal (block k, t, za[k], zc[k]);
 * leaves in zc[k] and za[k] block k's true entry states (s_in, t_in).
 * The causal step: on entry z is block k's partial state and s the state
 * entering it; on return z holds that entering state and s the one
 * leaving the block. */
GB_HD void
gb_yvv_carry_causal (const gb_yvv_block *b, double s[3], double z[3])
{
  double next[3] = { z[0], z[1], z[2] };
  gb_mat3_apply_add (b->P, s, next);
  for (int i = 0; i < 3; i++)
    {
      z[i] = s[i];
      s[i] = next[i];
    }
}

/* The anticausal start from the causal state after the line (s) and its
 * last sample: Triggs-Sdika's, or the two-way paper's naive one. */
GB_HD void
gb_yvv_carry_turn (const gb_yvv_coeffs *c, const double s[3], double last,
                   int naive, double t[3])
{
  if (naive)
    t[0] = t[1] = t[2] = s[0];
  else
    gb_yvv_right_start (c->M, s[0], s[1], s[2], last, t);
}

/* The anticausal step: za as z above; zc is block k's causal entry state
 * (after the causal steps), whose response the anticausal pass carries
 * through G. */
GB_HD void
gb_yvv_carry_anticausal (const gb_yvv_block *b, double t[3], double za[3],
                         const double zc[3])
{
  /* G zc first: it does not depend on t, the state carried from the
   * block before */
  double next[3] = { za[0], za[1], za[2] };
  gb_mat3_apply_add (b->G, zc, next);
  gb_mat3_apply_add (b->P, t, next);
  for (int i = 0; i < 3; i++)
    {
      za[i] = t[i];
      t[i] = next[i];
    }
}

/* ---- Deriche ------------------------------------------------------------- */

/* One step of both modes: u_j = q_j u_j + c_j x; returns Re sum_j u_j.
 * u holds (re, im) of mode 0, then of mode 1. */
GB_HD double
gb_deriche_modes_step (const gb_deriche_modes *m, double x, double u[4])
{
  double sum = 0.0;
  for (int j = 0; j < 2; j++)
    {
      /* In this order, not with c x first as the other steps: the
       * one-line-per-thread kernel (cuda/recursive.cu) took 4-8 % longer
       * that way, and the blocks gained nothing measurable. */
      const double re = m->q_re[j] * u[2 * j] - m->q_im[j] * u[2 * j + 1]
                        + m->c_re[j] * x;
      const double im = m->q_re[j] * u[2 * j + 1] + m->q_im[j] * u[2 * j]
                        + m->c_im[j] * x;
      u[2 * j] = re;
      u[2 * j + 1] = im;
      sum += re;
    }
  return sum;
}

/* u_j = c_j s_j where s_j = q_j s_j + x: the partials need only the
 * states, so they run the cheaper recursion (4 multiply-adds a mode, not
 * 6) and multiply by c at the end. */
GB_HD void
gb_deriche_sums_step (const gb_deriche_modes *m, double x, double s[4])
{
  for (int j = 0; j < 2; j++)
    {
      const double re = m->q_re[j] * s[2 * j]
                        + (x - m->q_im[j] * s[2 * j + 1]);
      const double im = m->q_re[j] * s[2 * j + 1] + m->q_im[j] * s[2 * j];
      s[2 * j] = re;
      s[2 * j + 1] = im;
    }
}

GB_HD void
gb_deriche_times_c (const gb_deriche_modes *m, const double s[4], double u[4])
{
  for (int j = 0; j < 2; j++)
    {
      u[2 * j] = m->c_re[j] * s[2 * j] - m->c_im[j] * s[2 * j + 1];
      u[2 * j + 1] = m->c_re[j] * s[2 * j + 1] + m->c_im[j] * s[2 * j];
    }
}

/* Partial: both passes over the block from zero states.  zc: the causal
 * state after the block's last sample; za: the anticausal state at its
 * first. */
GB_HD void
gb_deriche_partial (const float *x, int stride, int n, int nmax,
                    const gb_deriche_modes *m, double zc[4], double za[4])
{
  double s[4] = { 0.0, 0.0, 0.0, 0.0 };
  GB_UNROLL
  for (int i = 0; i < nmax; i++)
    if (i < n)
      gb_deriche_sums_step (m, x[i * stride], s);
  gb_deriche_times_c (m, s, zc);
  s[0] = s[1] = s[2] = s[3] = 0.0;
  GB_UNROLL
  for (int i = nmax - 1; i >= 0; i--)
    if (i < n)
      gb_deriche_sums_step (m, x[i * stride], s);
  gb_deriche_times_c (m, s, za);
}

/* Final: y = Re sum (u + v) - h0 x over the block from the true states
 * (the causal one before the block, the anticausal one after it), in
 * place; the causal part is kept in float in between (tmp), as the CPU
 * keeps y+. */
GB_HD void
gb_deriche_final (float *x, int stride, int n, int nmax,
                  const gb_deriche_modes *m, const double s_in[4],
                  const double t_in[4], float *tmp)
{
  double u[4] = { s_in[0], s_in[1], s_in[2], s_in[3] };
  GB_UNROLL
  for (int i = 0; i < nmax; i++)
    if (i < n)
      {
        const double xi = x[i * stride];
        tmp[i] = (float) (gb_deriche_modes_step (m, xi, u) - m->h0 * xi);
      }
  for (int k = 0; k < 4; k++)
    u[k] = t_in[k];
  GB_UNROLL
  for (int i = nmax - 1; i >= 0; i--)
    if (i < n)
      {
        const double v = gb_deriche_modes_step (m, x[i * stride], u);
        x[i * stride] = (float) ((double) tmp[i] + v);
      }
}

/* (re, im)^n by squaring, for n >= 0. */
GB_HD void
gb_cpow_int (double re, double im, int n, double *ore, double *oim)
{
  double rr = 1.0, ri = 0.0;
  for (; n > 0; n >>= 1)
    {
      if (n & 1)
        {
          const double t = rr * re - ri * im;
          ri = rr * im + ri * re;
          rr = t;
        }
      const double t = re * re - im * im;
      im = 2.0 * re * im;
      re = t;
    }
  *ore = rr;
  *oim = ri;
}

/* Row i of gb_deriche_blockf (row 0 also its scalars). */
GB_HD void
gb_deriche_blockf_row (const gb_deriche_modes *m, int i, gb_deriche_blockf *t)
{
  const int n = GB_BLOCK_LEN_DERICHE;
  if (i == 0)
    t->h0 = (float) m->h0;
  for (int j = 0; j < 2; j++)
    {
      const double qr = m->q_re[j], qi = m->q_im[j];
      const double cr = m->c_re[j], ci = m->c_im[j];
      double r, im;
      if (i == 0)
        {
          t->q[2 * j] = (float) qr;
          t->q[2 * j + 1] = (float) qi;
          t->c[2 * j] = (float) cr;
          t->c[2 * j + 1] = (float) ci;
        }
      gb_cpow_int (qr, qi, n - 1 - i, &r, &im);   /* c q^(n-1-i) */
      t->wc[i][2 * j] = (float) (cr * r - ci * im);
      t->wc[i][2 * j + 1] = (float) (cr * im + ci * r);
      gb_cpow_int (qr, qi, i, &r, &im);           /* c q^i */
      t->wa[i][2 * j] = (float) (cr * r - ci * im);
      t->wa[i][2 * j + 1] = (float) (cr * im + ci * r);
      gb_cpow_int (qr, qi, i + 1, &r, &im);
      t->pc[i][2 * j] = (float) r;
      t->pc[i][2 * j + 1] = (float) im;
      gb_cpow_int (qr, qi, n - i, &r, &im);
      t->pa[i][2 * j] = (float) r;
      t->pa[i][2 * j + 1] = (float) im;
    }
}

/* The single-precision stages of a whole block (gb_deriche_blockf);
 * the states are those of gb_deriche_partial and gb_deriche_final. */
GB_HD void
gb_deriche_partial_f (const float *x, int stride, const gb_deriche_blockf *t,
                      float zc[4], float za[4])
{
  float c[4] = { 0.f, 0.f, 0.f, 0.f }, a[4] = { 0.f, 0.f, 0.f, 0.f };
  GB_UNROLL
  for (int i = 0; i < GB_BLOCK_LEN_DERICHE; i++)
    {
      const float xi = x[i * stride];
      for (int k = 0; k < 4; k++)
        {
          c[k] += t->wc[i][k] * xi;
          a[k] += t->wa[i][k] * xi;
        }
    }
  for (int k = 0; k < 4; k++)
    {
      zc[k] = c[k];
      za[k] = a[k];
    }
}

/* Both modes from a zero state over one sample; returns Re sum u. */
GB_HD float
gb_deriche_step_f (const gb_deriche_blockf *t, float x, float u[4])
{
  float sum = 0.f;
  for (int j = 0; j < 2; j++)
    {
      const float re = t->q[2 * j] * u[2 * j] - t->q[2 * j + 1] * u[2 * j + 1]
                       + t->c[2 * j] * x;
      const float im = t->q[2 * j] * u[2 * j + 1] + t->q[2 * j + 1] * u[2 * j]
                       + t->c[2 * j + 1] * x;
      u[2 * j] = re;
      u[2 * j + 1] = im;
      sum += re;
    }
  return sum;
}

/* Re sum_j p_j s_j: an entry state's share of a sample. */
GB_HD float
gb_deriche_share_f (const float p[4], const float s[4])
{
  return p[0] * s[0] - p[1] * s[1] + (p[2] * s[2] - p[3] * s[3]);
}

/* The block from zero states, plus each entry state through its own
 * power: no float error compounds over the block. */
GB_HD void
gb_deriche_final_f (float *x, int stride, const gb_deriche_blockf *t,
                    const float s_in[4], const float t_in[4], float *tmp)
{
  float u[4] = { 0.f, 0.f, 0.f, 0.f };
  GB_UNROLL
  for (int i = 0; i < GB_BLOCK_LEN_DERICHE; i++)
    {
      const float xi = x[i * stride];
      tmp[i] = gb_deriche_step_f (t, xi, u) - t->h0 * xi
               + gb_deriche_share_f (t->pc[i], s_in);
    }
  u[0] = u[1] = u[2] = u[3] = 0.f;
  GB_UNROLL
  for (int i = GB_BLOCK_LEN_DERICHE - 1; i >= 0; i--)
    {
      const float v = gb_deriche_step_f (t, x[i * stride], u)
                      + gb_deriche_share_f (t->pa[i], t_in);
      x[i * stride] = tmp[i] + v;
    }
}

/* The steady state of either pass for a constant input: where the
 * carries start, beyond the line's ends. */
GB_HD void
gb_deriche_carry_start (const gb_deriche_modes *m, double edge, double s[4])
{
  for (int j = 0; j < 2; j++)
    {
      s[2 * j] = m->ss_re[j] * edge;
      s[2 * j + 1] = m->ss_im[j] * edge;
    }
}

/* One block's carry, either pass (both run on the input): on entry z is
 * the block's partial state and s the state entering it (in the pass's
 * direction); on return z holds that entering state and s the one
 * leaving: s <- q^n s + z, per mode. */
GB_HD void
gb_deriche_carry_step (const gb_deriche_block *b, double s[4], double z[4])
{
  for (int j = 0; j < 2; j++)
    {
      /* z first: two multiply-adds deep in s, the state carried from the
       * block before (as x first in gb_deriche_sums_step) */
      const double re = b->p_re[j] * s[2 * j]
                        + (z[2 * j] - b->p_im[j] * s[2 * j + 1]);
      const double im = b->p_re[j] * s[2 * j + 1]
                        + (z[2 * j + 1] + b->p_im[j] * s[2 * j]);
      z[2 * j] = s[2 * j];
      z[2 * j + 1] = s[2 * j + 1];
      s[2 * j] = re;
      s[2 * j + 1] = im;
    }
}

#endif
