/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Filter coefficients shared by the CPU and CUDA backends: one truth.
 * FIR taps, Young-van Vliet with its Triggs-Sdika boundary matrix, and
 * Deriche. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gblur.h"
#include "coefficients.h"
#include "algorithms.h"
#include "recursive_blocks.h"

int
gb_fir_radius (double sigma)
{
  if (!(sigma > 0.0))
    return 0;
  return (int) ceil (3.0 * sigma);
}

static void
normalise_symmetric (double *taps, int radius)
{
  double sum = taps[0];
  for (int k = 1; k <= radius; k++)
    sum += 2.0 * taps[k];
  for (int k = 0; k <= radius; k++)
    taps[k] /= sum;
}

static double
gauss_tap (double sigma, int k)
{
  return exp (-(double) k * k / (2.0 * sigma * sigma));
}

double
gb_fir_sum (double sigma, int radius)
{
  double sum = 1.0;
  for (int k = 1; k <= radius; k++)
    sum += 2.0 * gauss_tap (sigma, k);
  return sum;
}

int
gb_fir_taps_direct (double sigma, double *taps, int radius)
{
  if (!(sigma > 0.0) || radius < 0)
    {
      if (radius >= 0)
        taps[0] = 1.0;
      return 0;
    }
  for (int k = 0; k <= radius; k++)
    taps[k] = gauss_tap (sigma, k);
  normalise_symmetric (taps, radius);
  return radius;
}

/* Forward quotients: with g(k) = exp(-k^2 / 2s^2), the first quotient
 * g(k+1)/g(k) = exp(-(2k+1) / 2s^2) and the second quotient exp(-1/s^2)
 * is constant.  Starting from g(0) = 1, q1 = exp(-1/2s^2), q2 = q1^2:
 *   g <- g * q1;  q1 <- q1 * q2.
 * The relative error grows with k^2 ulps, so double precision keeps it
 * below 1e-9 even at k = 4500 (sigma 1500). */
int
gb_fir_taps_incremental (double sigma, double *taps, int radius)
{
  if (!(sigma > 0.0) || radius < 0)
    {
      if (radius >= 0)
        taps[0] = 1.0;
      return 0;
    }
  double g = 1.0;
  double q1 = exp (-1.0 / (2.0 * sigma * sigma));
  double q2 = q1 * q1;
  for (int k = 0; k <= radius; k++)
    {
      taps[k] = g;
      g *= q1;
      q1 *= q2;
    }
  normalise_symmetric (taps, radius);
  return radius;
}

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
gb_fir_quotients_make (double sigma, gb_fir_quotients *q)
{
  q->radius = gb_fir_radius (sigma);
  q->norm = 1.0 / gb_fir_sum (sigma, q->radius);
  q->q1 = exp (-1.0 / (2.0 * sigma * sigma));
}

/* ------------------------------------------------------ Young-van Vliet */

/* The b constants of Young and van Vliet (1995) for a given q.  B is
 * computed as (b0 - b1 - b2 - b3) / b0 = (1.57825 + 0.00001 q^2) / b0,
 * which does not lose digits to cancellation at large q. */
static void
yvv_from_q (double q, gb_yvv_coeffs *c)
{
  c->q = q;
  c->b0 = 1.57825 + 2.44413 * q + 1.4281 * q * q + 0.422205 * q * q * q;
  c->b1 = 2.44413 * q + 2.85619 * q * q + 1.26661 * q * q * q;
  c->b2 = -(1.4281 * q * q + 1.26661 * q * q * q);
  c->b3 = 0.422205 * q * q * q;
  c->a1 = c->b1 / c->b0;
  c->a2 = c->b2 / c->b0;
  c->a3 = c->b3 / c->b0;
  c->B = (1.57825 + 0.00001 * q * q) / c->b0;
}

double
gb_yvv_q_paper (double sigma)
{
  if (sigma < 0.5)
    return 0.1147705018520355224609375;
  if (sigma < 2.5)
    return 3.97156 - 4.14554 * sqrt (1.0 - 0.26891 * sigma);
  return 0.98711 * sigma - 0.96330;
}

void
gb_yvv_coeffs_make (double sigma, gb_yvv_coeffs *c)
{
  yvv_from_q (gb_yvv_q_paper (sigma), c);

  /* Triggs-Sdika start.  With the causal state s = (w[n], w[n-1],
   * w[n-2]) deviating from the replicated input u, the causal pass goes on
   * past the end as s_{k+1} = A s_k (A the companion matrix of a1..a3),
   * and the anticausal state t = (out[n+1], out[n+2], out[n+3]) it meets
   * is t = B sum_k A^k e1 e1^T A^(k+1) s = B X A s, where X solves the
   * Stein equation X = A X A + e1 e1^T.  M = B X A in closed form (solved
   * symbolically; tests/test_recursive.c checks it against a numeric
   * solve of the Stein equation).  The common denominator has the factor
   * 1 - a1 - a2 - a3, which is B exactly and cancels it; computing it by
   * subtraction would lose digits at large q.  Rows 0 and 1 equal rows 1
   * and 2 of GEGL's iir_young_find_constants, whose start is one sample
   * earlier. */
  const double a1 = c->a1, a2 = c->a2, a3 = c->a3;
  const double s = 1.0 / ((1.0 + a1 - a2 + a3) * (1.0 + a2 + (a1 - a3) * a3));
  c->M[0][0] = s * (a1 + a2 * a3);
  c->M[0][1] = s * (1.0 - a2) * (a2 + a1 * a3);
  c->M[0][2] = s * a3 * (1.0 - a2 - a1 * a3 - a3 * a3);
  c->M[1][0] = s * (a2 + a1 * a1 + a1 * a3 - a2 * a2);
  c->M[1][1] = s * (a3 + a1 * a2 - a2 * a3 - a1 * a3 * a3 + a2 * a2 * a3
                    - a3 * a3 * a3);
  c->M[1][2] = s * a3 * (a1 + a2 * a3);
  c->M[2][0] = s * (a3 + 2.0 * a1 * a2 - a2 * a3 + a1 * a1 * a1
                    + a1 * a1 * a3 - a1 * a2 * a2 - a1 * a3 * a3
                    + a2 * a2 * a3 - a3 * a3 * a3);
  c->M[2][1] = s * (a1 * a3 + a2 * a2 + a1 * a1 * a2 + a1 * a2 * a3
                    - a2 * a2 * a2 + a2 * a3 * a3);
  c->M[2][2] = s * a3 * (a2 + a1 * a1 + a1 * a3 - a2 * a2);
}

/* -------------------------------------------------------------- Deriche */

/* Deriche's coefficients at scale s = sigma (the constants scale with
 * 1/s). */
void
gb_deriche_coeffs_make (double s, gb_deriche_coeffs *c)
{
  /* Order-0 constants as used by ITK's RecursiveGaussianImageFilter
   * (Deriche's form with refitted constants). */
  const double A1 = 1.3530, B1 = 1.8151, W1 = 0.6681, L1 = -1.3932;
  const double A2 = -0.3531, B2 = 0.0902, W2 = 2.0787, L2 = -1.3732;
  const double s1 = sin (W1 / s), s2 = sin (W2 / s);
  const double c1 = cos (W1 / s), c2 = cos (W2 / s);
  const double e1 = exp (L1 / s), e2 = exp (L2 / s);

  double n0 = A1 + A2;
  double n1 = e2 * (B2 * s2 - (A2 + 2 * A1) * c2)
              + e1 * (B1 * s1 - (A1 + 2 * A2) * c1);
  double n2 = 2 * e1 * e2 * ((A1 + A2) * c2 * c1 - B1 * c2 * s1 - B2 * c1 * s2)
              + A2 * e1 * e1 + A1 * e2 * e2;
  double n3 = e2 * e1 * e1 * (B2 * s2 - A2 * c2)
              + e1 * e2 * e2 * (B1 * s1 - A1 * c1);
  double d1 = -2 * (e2 * c2 + e1 * c1);
  double d2 = 4 * c2 * c1 * e1 * e2 + e1 * e1 + e2 * e2;
  double d3 = -2 * c1 * e1 * e2 * e2 - 2 * c2 * e2 * e1 * e1;
  double d4 = e1 * e1 * e2 * e2;
  double m1 = n1 - d1 * n0, m2 = n2 - d2 * n0, m3 = n3 - d3 * n0;
  double m4 = -d4 * n0;

  double sd = 1 + d1 + d2 + d3 + d4;
  double gain = (n0 + n1 + n2 + n3 + m1 + m2 + m3 + m4) / sd;
  c->n[0] = n0 / gain;
  c->n[1] = n1 / gain;
  c->n[2] = n2 / gain;
  c->n[3] = n3 / gain;
  c->m[0] = 0.0;
  c->m[1] = m1 / gain;
  c->m[2] = m2 / gain;
  c->m[3] = m3 / gain;
  c->m[4] = m4 / gain;
  c->d[0] = 1.0;
  c->d[1] = d1;
  c->d[2] = d2;
  c->d[3] = d3;
  c->d[4] = d4;
  c->causal_gain = (c->n[0] + c->n[1] + c->n[2] + c->n[3]) / sd;
  c->anticausal_gain = (c->m[1] + c->m[2] + c->m[3] + c->m[4]) / sd;
}

void
gb_deriche_modes_make (double s, gb_deriche_modes *m)
{
  /* The constants of gb_deriche_coeffs_make: the causal response is
   * sum_j (A_j cos(W_j k/s) + B_j sin(W_j k/s)) exp(L_j k/s)
   *     = Re sum_j (A_j - i B_j) exp((L_j + i W_j) k/s). */
  const double A[2] = { 1.3530, -0.3531 }, B[2] = { 1.8151, 0.0902 };
  const double W[2] = { 0.6681, 2.0787 }, L[2] = { -1.3932, -1.3732 };
  double complex c[2], q[2], gain = 0;
  for (int j = 0; j < 2; j++)
    {
      c[j] = A[j] - I * B[j];
      q[j] = cexp ((L[j] + I * W[j]) / s);
      /* Both passes: sum_{k>=0} c q^k + sum_{k>=1} c q^k. */
      gain += c[j] * (1 + q[j]) / (1 - q[j]);
    }
  m->h0 = 0.0;
  for (int j = 0; j < 2; j++)
    {
      c[j] /= creal (gain);
      double complex ss = c[j] / (1 - q[j]);
      m->c_re[j] = creal (c[j]);
      m->c_im[j] = cimag (c[j]);
      m->q_re[j] = creal (q[j]);
      m->q_im[j] = cimag (q[j]);
      m->ss_re[j] = creal (ss);
      m->ss_im[j] = cimag (ss);
      m->h0 += creal (c[j]);
    }
}

/* ----------------------------------------------------- block constants */

void
gb_yvv_block_make (const gb_yvv_coeffs *c, int n, gb_yvv_block *b)
{
  const double A[3][3] = { { c->a1, c->a2, c->a3 }, { 1, 0, 0 }, { 0, 1, 0 } };
  double Ai[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };   /* A^i */
  double Ai1[3][3];                                             /* A^(i+1) */
  double G[3][3] = { { 0 } };
  for (int i = 0; i < n; i++)
    {
      gb_mat3_mul (Ai, A, Ai1);
      /* A^i e1 e1^T A^(i+1): column 0 of A^i times row 0 of A^(i+1). */
      for (int r = 0; r < 3; r++)
        for (int q = 0; q < 3; q++)
          G[r][q] += Ai[r][0] * Ai1[0][q];
      memcpy (Ai, Ai1, sizeof Ai);
    }
  for (int r = 0; r < 3; r++)
    for (int q = 0; q < 3; q++)
      {
        b->P[r][q] = Ai[r][q];
        b->G[r][q] = c->B * G[r][q];
      }
}

void
gb_yvv_blockw_make (const gb_yvv_coeffs *c, gb_yvv_blockw *t)
{
  for (int i = 0; i < GB_BLOCK_LEN_YVV; i++)
    gb_yvv_blockw_row (c, i, t);
}

void
gb_deriche_block_make (const gb_deriche_modes *m, int n, gb_deriche_block *b)
{
  for (int j = 0; j < 2; j++)
    {
      double complex p = cpow (m->q_re[j] + I * m->q_im[j], n);
      b->p_re[j] = creal (p);
      b->p_im[j] = cimag (p);
    }
}

void
gb_deriche_blockf_make (const gb_deriche_modes *m, gb_deriche_blockf *t)
{
  for (int i = 0; i < GB_BLOCK_LEN_DERICHE; i++)
    gb_deriche_blockf_row (m, i, t);
}

/* --------------------------------------------------------- edge-aware */

void
gb_dt_coeffs_make (double sigma, gb_dt_coeffs *c)
{
  /* Appendix of the edge-aware paper (Deriche's constants). */
  const double al_re[2] = { 1.6800, -0.6803 }, al_im[2] = { 3.7350, 0.2598 };
  const double la_re[2] = { 1.783, 1.723 }, la_im[2] = { 0.6318, 1.9970 };
  double complex b[2], gsum = 0;
  for (int i = 0; i < 2; i++)
    {
      b[i] = cexp (-(la_re[i] + I * la_im[i]) / sigma);
      gsum += (al_re[i] + I * al_im[i]) * (1 + b[i]) / (1 - b[i]);
    }
  double gamma = creal (gsum);
  for (int i = 0; i < 2; i++)
    {
      double complex a = (al_re[i] + I * al_im[i]) / gamma;
      double complex r0 = (b[i] - 1) * (b[i] - 1) / (a * b[i]);
      double complex r1 = a / (b[i] - 1);
      double complex ss = a / (1 - b[i]);
      c->a_re[i] = creal (a);
      c->a_im[i] = cimag (a);
      c->b_re[i] = creal (b[i]);
      c->b_im[i] = cimag (b[i]);
      c->logr[i] = -la_re[i] / sigma;
      c->theta[i] = -la_im[i] / sigma;
      c->r0_re[i] = creal (r0);
      c->r0_im[i] = cimag (r0);
      c->r1_re[i] = creal (r1);
      c->r1_im[i] = cimag (r1);
      c->ss_re[i] = creal (ss);
      c->ss_im[i] = cimag (ss);
    }
}

double
gb_dt_iteration_sigma (double sigma, int i, int n)
{
  return sigma * sqrt (3.0) * pow (2.0, n - i) / sqrt (pow (4.0, n) - 1.0);
}

/* ------------------------------------------------------ edge blocks */

int
gb_edge_blocks (const gb_params *params, int auto_blocks)
{
  if (params->algorithm != GB_ALGO_EDGE_PARTITIONED)
    return 1;
  const int blocks = gb_research_of (params)->blocks_per_stripe;
  if (blocks > 0)
    return blocks;
  return auto_blocks;
}
