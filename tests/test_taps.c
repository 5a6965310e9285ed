/* SPDX-License-Identifier: GPL-3.0-or-later */
/* FIR taps: incremental (forward quotients) against direct evaluation,
 * normalisation and the documented radius. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

int
main (void)
{
  static const double sigmas[] = { 0.3, 0.5, 1.0, 2.5, 7.0, 30.0, 100.0,
                                   333.0, 1000.0, 1500.0 };
  for (size_t i = 0; i < sizeof sigmas / sizeof sigmas[0]; i++)
    {
      double s = sigmas[i];
      int r = gb_fir_radius (s);
      TU_CHECK (r == (int) ceil (3.0 * s), "radius of %g is %d", s, r);
      /* Radius 3000 and beyond, whatever sigma says. */
      int rr = r > 3000 ? r : 3000;
      double *d = malloc ((size_t) (rr + 1) * sizeof *d);
      double *q = malloc ((size_t) (rr + 1) * sizeof *q);
      if (!d || !q)
        return 99;
      gb_fir_taps_direct (s, d, rr);
      gb_fir_taps_incremental (s, q, rr);
      double worst = 0.0, sum = d[0];
      for (int k = 0; k <= rr; k++)
        {
          if (k)
            sum += 2.0 * d[k];
          if (d[k] < 1e-300)
            continue;  /* both underflow: no relative error to speak of */
          double rel = fabs (q[k] - d[k]) / d[k];
          if (rel > worst)
            worst = rel;
        }
      TU_CHECK (worst <= 1e-6, "sigma %g: incremental taps differ by %.3g "
                "relative", s, worst);
      TU_CHECK (fabs (sum - 1.0) < 1e-12, "sigma %g: taps sum to %.15g", s, sum);
      for (int k = 1; k <= rr; k++)
        TU_CHECK (d[k] <= d[k - 1], "sigma %g: taps not decreasing at %d", s, k);
      double expect = exp (-0.5 * (1.0 / s) * (1.0 / s));
      TU_CHECK (fabs (d[1] / d[0] - expect) < 1e-12, "sigma %g: shape", s);
      free (d);
      free (q);
    }
  return tu_finish ("test_taps");
}
