/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Filter coefficients shared by the CPU and CUDA backends, computed once
 * per call on the host in double precision: FIR taps and their
 * normalisation, the recursive filters' constants, the edge-aware
 * filter's constants and block counts. */
#ifndef GB_COEFFICIENTS_H
#define GB_COEFFICIENTS_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>

#include "gblur.h"
#include "research.h"

/* ---- FIR --------------------------------------------------------------- */

/* The sum of the unnormalised taps exp(-k^2 / 2 sigma^2) for k = -radius ..
 * radius: what the taps are divided by, on the CPU and by the GPU's
 * in-kernel tap generators. */
double gb_fir_sum (double sigma, int radius);

/* The forward-quotient form of the normalised taps: tap k is
 * norm * exp(-k^2 / 2 sigma^2) = norm * q1 * q1 q2 * ... with q1 =
 * exp(-1 / 2 sigma^2), q2 = q1^2, for k = 0 .. radius (gb_fir_radius). */
typedef struct
{
  int radius;
  double norm, q1;
} gb_fir_quotients;

void gb_fir_quotients_make (double sigma, gb_fir_quotients *q);

/* Normalised float taps t[0..radius] for sigma in the requested mode;
 * returns NULL on allocation failure.  *radius receives the radius. */
float *gb_fir_taps_float (double sigma, gb_taps_mode mode, int *radius);

/* ---- edge-aware -------------------------------------------------------- */

/* Blocks per line: 1 for Algorithm A; for Algorithm C blocks_per_stripe,
 * or auto_blocks (the backend's own choice) when that is 0. */
int gb_edge_blocks (const gb_params *params, int auto_blocks);

/* ---- recursive --------------------------------------------------------- */

/* Boundary handling of the recursive filters. */
typedef enum
{
  GB_BOUNDARY_EXACT = 0,  /* replicate borders: steady-state causal start,
                             Triggs-Sdika start of the anticausal pass */
  GB_BOUNDARY_NAIVE = 1   /* the two-way paper's: both passes start from the
                             first value they meet */
} gb_boundary;

/* Young-van Vliet 3rd order (the two-way paper's Eqs. 3-4):
 *   causal      w[n]   = B x[n] + a1 w[n-1] + a2 w[n-2] + a3 w[n-3]
 *   anticausal  out[n] = B w[n] + a1 out[n+1] + a2 out[n+2] + a3 out[n+3]
 * with a_i = b_i / b0.  M maps the causal pass's last three values (minus
 * the replicated input) to the anticausal pass's three starting values
 * (Triggs and Sdika 2006), so the replicate border is exact. */
typedef struct
{
  double q, b0, b1, b2, b3;
  double B, a1, a2, a3;
  double M[3][3];
} gb_yvv_coeffs;

/* q(sigma) is the paper's formula.  Its fit holds to sigma ~100: past it
 * the 3rd-order filter's shape drifts from the Gaussian (7 % L2 error of
 * the impulse response at sigma 100, 39 % at 300), so auto leaves large
 * sigmas to Deriche. */
void gb_yvv_coeffs_make (double sigma, gb_yvv_coeffs *c);
double gb_yvv_q_paper (double sigma);

/* Deriche 4th order (parallel form, ITK's order-0 constants, whose
 * impulse response is within 0.5 % (L2) of the Gaussian at every sigma):
 *   causal      y+[n] = n0 x[n] + n1 x[n-1] + n2 x[n-2] + n3 x[n-3]
 *                       - d1 y+[n-1] - ... - d4 y+[n-4]
 *   anticausal  y-[n] = m1 x[n+1] + ... + m4 x[n+4]
 *                       - d1 y-[n+1] - ... - d4 y-[n+4]
 *   y = y+ + y-, normalised to unit gain.  With replicated borders the
 * passes start in their steady states: y+ = x[0] * causal_gain,
 * y- = x[N-1] * anticausal_gain. */
typedef struct
{
  double n[4];     /* n0..n3 */
  double m[5];     /* m1..m4 in m[1..4] */
  double d[5];     /* d1..d4 in d[1..4] */
  double causal_gain, anticausal_gain;
} gb_deriche_coeffs;

void gb_deriche_coeffs_make (double sigma, gb_deriche_coeffs *c);

/* The same filter in modal form, for the block-parallel GPU kernels
 * (engine/recursive_blocks.h): the causal response n0, n1, ... is
 * Re sum_j c_j q_j^k (k >= 0), so each pass is two complex first-order
 * recursions, u = q u + c x, whose carries across a block are just q^n:
 * well conditioned at any sigma, where powers of the 4th-order companion
 * matrix are not (|D^64| ~ 1e5 at sigma 100).  Anticausally the modes
 * include x[n] itself, so y = Re sum_j (u_j + v_j) - h0 x. */
typedef struct
{
  double c_re[2], c_im[2];     /* residues, normalised to unit total gain */
  double q_re[2], q_im[2];     /* poles */
  double ss_re[2], ss_im[2];   /* c / (1 - q): the steady state per unit */
  double h0;                   /* Re sum c = the response's centre tap */
} gb_deriche_modes;

void gb_deriche_modes_make (double sigma, gb_deriche_modes *m);

/* The edge-aware filter (Nehab-style domain transform, Gastal & Oliveira's
 * non-uniform recursion): two complex first-order subfilters i = 0, 1 with
 * the appendix constants of the edge-aware paper,
 *   a_i = alpha_i / gamma, b_i = exp(-lambda_i / sigma),
 *   r_i0 = (b_i - 1)^2 / (a_i b_i), r_i1 = a_i / (b_i - 1),
 * b_i^delta taken in polar form: exp(delta * log|b_i|) * cis(delta * arg b_i).
 * Complex numbers as re/im pairs so that C and CUDA share the struct. */
typedef struct
{
  double a_re[2], a_im[2];
  double b_re[2], b_im[2];
  double logr[2], theta[2];     /* b_i = exp(logr + i theta) */
  double r0_re[2], r0_im[2];
  double r1_re[2], r1_im[2];
  double ss_re[2], ss_im[2];    /* causal steady state a / (1 - b) */
} gb_dt_coeffs;

void gb_dt_coeffs_make (double sigma, gb_dt_coeffs *c);

/* The standard deviation of iteration i (1..n) of n: variances add up to
 * sigma^2 and halve from one iteration to the next (the paper's IV-A). */
double gb_dt_iteration_sigma (double sigma, int i, int n);

#ifdef __cplusplus
}
#endif

#endif
