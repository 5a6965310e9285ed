/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every sigma and range sigma the engine accepts gives a finite result that
 * conserves mass:
 *   - sigmas too small to move a pixel (below GB_SIGMA_IDENTITY, down to
 *     the smallest subnormal) leave the image exactly as it was, for every
 *     algorithm;
 *   - an impulse in a line long enough for the blur's reach sums to 1 for
 *     every algorithm at every sigma (the two-way filter's centre pixel is
 *     its documented exception: the paper's centre seed);
 *   - recursive filters below GB_SIGMA_RECURSIVE_MIN behave like the exact
 *     FIR, so they tend to the identity as sigma -> 0;
 *   - step responses stay within the documented overshoot of each
 *     algorithm's constants;
 *   - the edge-aware filters stay finite for tiny and subnormal range
 *     sigmas. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static gb_status
blur_line (gb_algorithm a, double sigma, double range_sigma, const float *in,
           float *out, int L)
{
  gb_params p;
  tu_params_cpu (&p, a, sigma, 0.0);
  p.range_sigma = range_sigma;
  gb_image s = { (float *) in, L, 1, 1, (size_t) L };
  gb_image d = { out, L, 1, 1, (size_t) L };
  return gb_blur (&p, &s, &d, NULL, NULL, NULL);
}

static void
identity_below_threshold (uint64_t *seed)
{
  static const double tiny[] = { 4.9406564584124654e-324, 1e-310, 1e-300,
                                 1e-162, 1e-40, 1e-7, 0.1, 0.169 };
  tu_image src, out;
  if (!tu_alloc (&src, 97, 61, 4, 2) || !tu_alloc (&out, 97, 61, 4, 2))
    {
      TU_CHECK (0, "allocation");
      return;
    }
  tu_fill_random (&src, seed);
  for (int a = GB_ALGO_AUTO; a < GB_ALGO_COUNT; a++)
    for (size_t k = 0; k < sizeof tiny / sizeof tiny[0]; k++)
      for (int both = 0; both < 2; both++)
        {
          gb_params p;
          tu_params_cpu (&p, (gb_algorithm) a, tiny[k], both ? tiny[k] : 0.0);
          tu_poison (&out);
          gb_status st = gb_blur (&p, &src.view, &out.view, NULL, NULL, NULL);
          TU_CHECK (st == GB_OK, "%s sigma %g: %s", gb_algorithm_name (a),
                    tiny[k], gb_status_message (st));
          long diff = 0;
          for (int y = 0; y < 61; y++)
            diff += memcmp (src.view.data + (size_t) y * src.view.stride,
                            out.view.data + (size_t) y * out.view.stride,
                            sizeof (float) * 97 * 4) != 0;
          TU_CHECK (diff == 0, "%s sigma %g (%s): %ld rows changed",
                    gb_algorithm_name (a), tiny[k], both ? "both" : "x",
                    diff);
        }
  tu_free (&src);
  tu_free (&out);
}

/* Sum of the response to an impulse at position `at`. */
static double
impulse_sum (gb_algorithm a, double sigma, int L, int at, double *centre)
{
  float *in = calloc ((size_t) L, sizeof (float));
  float *out = malloc ((size_t) L * sizeof (float));
  double sum = NAN;
  if (in && out)
    {
      for (int k = 0; k < L; k++)
        out[k] = NAN;
      in[at] = 1.0f;
      gb_status st = blur_line (a, sigma, 1e9, in, out, L);
      TU_CHECK (st == GB_OK, "%s sigma %g: %s", gb_algorithm_name (a), sigma,
                gb_status_message (st));
      sum = 0.0;
      for (int k = 0; k < L; k++)
        sum += out[k];
      *centre = out[at];
    }
  free (in);
  free (out);
  return sum;
}

static void
mass_conserved (void)
{
  static const double sigmas[] = { 0.17, 0.2, 0.3, 0.4, 0.49, 0.5, 0.7, 1.0,
                                   1.5, 2.0, 3.0, 5.0, 10.0, 30.0, 100.0,
                                   300.0 };
  for (int a = GB_ALGO_AUTO; a < GB_ALGO_COUNT; a++)
    for (size_t k = 0; k < sizeof sigmas / sizeof sigmas[0]; k++)
      {
        const double s = sigmas[k];
        /* Both impulses at least 7.5 sigma from the ends (and from each
         * other), so the recursive filters' tails stay inside the line and
         * the two-way filter's centre seed does not reach the second. */
        const int L = 2 * (int) ceil (15.0 * s) + 101;
        const int at = L / 4;
        double c_mid = NAN, c_off = NAN;
        double mid = impulse_sum ((gb_algorithm) a, s, L, L / 2, &c_mid);
        double off = impulse_sum ((gb_algorithm) a, s, L, at, &c_off);
        /* Algorithm C starts each block from an approximate state (its
         * kappa warm-up), so it conserves mass only approximately. */
        double tol = a == GB_ALGO_EDGE_PARTITIONED ? 0.03 : 2e-4;
        /* Past sigma 100 the two-way filter's q-fit ringing reaches
         * 4e-4 of the mass even far from its centre. */
        if (a == GB_ALGO_YVV_TWO_WAY && s > 100.0)
          tol = 1e-3;
        TU_CHECK (isfinite (mid) && isfinite (off), "%s sigma %g: not finite",
                  gb_algorithm_name (a), s);
        TU_CHECK (fabs (off - 1.0) <= tol,
                  "%s sigma %g: impulse off the centre sums to %.6f",
                  gb_algorithm_name (a), s, off);
        if (a == GB_ALGO_YVV_TWO_WAY && s >= GB_SIGMA_RECURSIVE_MIN)
          {
            /* The paper's centre seed: measured 0.90 to 1.19 for sigma
             * 0.5 to 300; documented in the README. */
            TU_CHECK (fabs (mid - 1.0) <= 0.25,
                      "two-way sigma %g: centre impulse sums to %.4f", s, mid);
            printf ("two-way sigma %6.2f: centre impulse sums to %.4f\n", s,
                    mid);
          }
        else
          TU_CHECK (fabs (mid - 1.0) <= tol,
                    "%s sigma %g: centre impulse sums to %.6f",
                    gb_algorithm_name (a), s, mid);
      }
}

/* Below GB_SIGMA_RECURSIVE_MIN the recursive filters are the FIR, so the
 * centre weight grows to 1 as sigma shrinks (it was stuck at 0.727 for
 * every sigma <= 0.5 with the paper's q(sigma)). */
static void
tends_to_identity (void)
{
  static const gb_algorithm rec[] = { GB_ALGO_YVV, GB_ALGO_YVV_TWO_WAY,
                                      GB_ALGO_DERICHE };
  for (size_t i = 0; i < 3; i++)
    {
      double last = 0.0;
      for (double s = 0.45; s >= 0.17; s -= 0.04)
        {
          double c_fir = NAN, c_rec = NAN;
          impulse_sum (GB_ALGO_FIR, s, 101, 50, &c_fir);
          impulse_sum (rec[i], s, 101, 50, &c_rec);
          TU_CHECK (c_rec == c_fir, "%s sigma %g: centre %.6f, FIR %.6f",
                    gb_algorithm_name (rec[i]), s, c_rec, c_fir);
          TU_CHECK (c_rec > last, "%s sigma %g: centre %.6f not above %.6f",
                    gb_algorithm_name (rec[i]), s, c_rec, last);
          last = c_rec;
        }
      TU_CHECK (last > 0.9999, "%s: centre weight %.6f at the smallest sigma",
                gb_algorithm_name (rec[i]), last);
    }
}

/* How far a step response leaves the input's range: 0 for the FIR (all
 * taps positive); for the recursive approximations the measured limits of
 * their constants, documented in the README: Deriche 1.2e-3 (ITK's
 * constants), edge-aware 2e-4, yvv and two-way up to sigma 30 1e-6 (past
 * it the paper's q fit rings: 3e-4 at 100, 1.8 % at 300, 4.8 % at 1500). */
static double
overshoot_limit (gb_algorithm a, double sigma)
{
  switch (a)
    {
    case GB_ALGO_FIR:
      return 1e-6;
    case GB_ALGO_DERICHE:
    case GB_ALGO_AUTO:
      return 1.2e-3;
    case GB_ALGO_EDGE_EXACT:
    case GB_ALGO_EDGE_PARTITIONED:
      return 2e-4;
    default:
      return sigma <= 30.0 ? 1e-6 : sigma <= 100.0 ? 5e-4
             : sigma <= 300.0 ? 0.025 : 0.05;
    }
}

static void
step_overshoot (void)
{
  static const double sigmas[] = { 0.17, 0.2, 0.3, 0.4, 0.5, 1.0, 5.0, 30.0,
                                   100.0, 300.0, 1500.0 };
  const int L = 20001;
  float *in = malloc (sizeof (float) * L), *out = malloc (sizeof (float) * L);
  if (!in || !out)
    {
      TU_CHECK (0, "allocation");
      free (in);
      free (out);
      return;
    }
  for (int k = 0; k < L; k++)
    in[k] = k < L / 2 ? 0.0f : 1.0f;
  for (int a = GB_ALGO_AUTO; a < GB_ALGO_COUNT; a++)
    for (size_t k = 0; k < sizeof sigmas / sizeof sigmas[0]; k++)
      {
        gb_status st = blur_line ((gb_algorithm) a, sigmas[k], 1e9, in, out,
                                  L);
        double worst = 0.0;
        for (int i = 0; i < L; i++)
          worst = fmax (worst, fmax (-out[i], out[i] - 1.0));
        TU_CHECK (st == GB_OK && worst <= overshoot_limit (a, sigmas[k]),
                  "%s sigma %g: step overshoots by %.3g",
                  gb_algorithm_name (a), sigmas[k], worst);
      }
  free (in);
  free (out);
}

/* Tiny range sigmas made the spacings inf and the result NaN. */
static void
edge_range_sigma_finite (uint64_t *seed)
{
  static const double ranges[] = { 4.9406564584124654e-324, 1e-300, 1e-35,
                                   1e-20, 1e-6, 1000.0 };
  static const double sigmas[] = { 0.2, 5.0, 1500.0 };
  tu_image src, out;
  if (!tu_alloc (&src, 83, 57, 4, 1) || !tu_alloc (&out, 83, 57, 4, 1))
    {
      TU_CHECK (0, "allocation");
      return;
    }
  tu_fill_random (&src, seed);
  for (int a = 0; a < GB_ALGO_COUNT; a++)
    if (tu_uses (a, GB_USES_RANGE_SIGMA))
      for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
      for (size_t k = 0; k < sizeof sigmas / sizeof sigmas[0]; k++)
        {
          gb_params p;
          tu_params_cpu (&p, (gb_algorithm) a, sigmas[k], sigmas[k]);
          p.range_sigma = ranges[r];
          tu_poison (&out);
          gb_status st = gb_blur (&p, &src.view, &out.view, NULL, NULL, NULL);
          TU_CHECK (st == GB_OK, "%s: %s", gb_algorithm_name (a),
                    gb_status_message (st));
          long bad = tu_count_nonfinite (&out);
          float lo = INFINITY, hi = -INFINITY;
          for (int y = 0; y < 57; y++)
            for (int i = 0; i < 83 * 4; i++)
              {
                float v = out.view.data[(size_t) y * out.view.stride + i];
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
              }
          /* For data in [0, 1] an output can leave [0, 1] by at most the
           * L1 norm of the response's negative lobes (the constants' own):
           * 6.5e-4 for an impulse at sigma 0.2, less at the other sigmas.
           * Random data came within 5e-4 of it (seed 1795335296). */
          TU_CHECK (bad == 0 && lo >= -7e-4f && hi <= 1.0f + 7e-4f,
                    "%s sigma %g range sigma %g: %ld non-finite, range "
                    "[%g, %g]", gb_algorithm_name (a), sigmas[k], ranges[r],
                    bad, lo, hi);
        }
  tu_free (&src);
  tu_free (&out);
}

int
main (void)
{
  uint64_t seed = tu_seed ("test_small_sigma");
  identity_below_threshold (&seed);
  mass_conserved ();
  tends_to_identity ();
  step_overshoot ();
  edge_range_sigma_finite (&seed);
  return tu_finish ("test_small_sigma");
}
