/* Filter coefficients shared by the CPU and CUDA backends: one truth.
 * FIR taps here; the recursive filters' constants join this file. */
#include <math.h>

#include "gblur.h"

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
    taps[k] = exp (-(double) k * k / (2.0 * sigma * sigma));
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
