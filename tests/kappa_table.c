/* SPDX-License-Identifier: GPL-3.0-or-later */
/* make kappa-table: the edge-aware paper's Fig. 6 as a table.  MSE (8-bit
 * perceptual units^2) against Algorithm A of Algorithm D (every block of
 * about 32 pixels approximated in every direction) and of Algorithm C (8
 * blocks per line) as kappa goes 0 to 3, on real photographs, for (sigma,
 * range sigma) = (50, 50), (70, 150), (200, 150); 2 iterations, CPU. */
#include <math.h>
#include <stdio.h>

#include "testutil.h"
#include "pixel_math.h"

static double
mse (const tu_image *a, const tu_image *b)
{
  const gb_image *u = &a->view, *v = &b->view;
  double s = 0;
  size_t n = (size_t) u->width * u->height * u->channels;
  for (size_t i = 0; i < n; i++)
    {
      double d = 255.0 * (gb_srgb_from_linear (u->data[i])
                          - gb_srgb_from_linear (v->data[i]));
      s += d * d;
    }
  return s / (double) n;
}

int
main (void)
{
  static const char *files[] = { "astronaut.ppm", "coffee.ppm" };
  static const double pairs[][2] = { { 50, 50 }, { 70, 150 }, { 200, 150 } };
  static const double kappas[] = { 0, 0.5, 1, 1.5, 2, 3 };
  printf ("| image | sigma | range σ | algorithm |");
  for (int k = 0; k < 6; k++)
    printf (" kappa %g |", kappas[k]);
  printf ("\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (int f = 0; f < 2; f++)
    {
      tu_image src, a, x;
      if (!tu_load_pnm (&src, files[f], 3, 0))
        return 1;
      int w = src.view.width, h = src.view.height;
      if (!tu_alloc (&a, w, h, 3, 0) || !tu_alloc (&x, w, h, 3, 0))
        return 1;
      for (int p = 0; p < 3; p++)
        {
          gb_params prm;
          gb_research knobs;
          gb_params_init (&prm);
          gb_research_init (&knobs);
          prm.research = &knobs;
          prm.backend = GB_BACKEND_CPU;
          prm.algorithm = GB_ALGO_EDGE_EXACT;
          prm.sigma_x = prm.sigma_y = pairs[p][0];
          prm.range_sigma = pairs[p][1];
          if (gb_blur (&prm, &src.view, &a.view, NULL, NULL, NULL) != GB_OK)
            return 1;
          prm.algorithm = GB_ALGO_EDGE_PARTITIONED;
          for (int d = 1; d >= 0; d--)
            {
              int longest = w > h ? w : h;
              knobs.blocks_per_stripe = d ? (longest + 31) / 32 : 8;
              printf ("| %s | %g | %g | %s |", files[f], pairs[p][0],
                      pairs[p][1], d ? "D (32-pixel blocks)" : "C (8 blocks)");
              for (int k = 0; k < 6; k++)
                {
                  prm.kappa = kappas[k];
                  if (gb_blur (&prm, &src.view, &x.view, NULL, NULL, NULL)
                      != GB_OK)
                    return 1;
                  printf (" %.4f |", mse (&a, &x));
                }
              printf ("\n");
              fflush (stdout);
            }
        }
      tu_free (&src);
      tu_free (&a);
      tu_free (&x);
    }
  return 0;
}
