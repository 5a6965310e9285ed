/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The edge-aware filter on the CPU: constant images stay constant; with a
 * huge range sigma it is a plain Gaussian (>= 40 dB against the exact
 * one); a hard edge of contrast 200 keeps >= 90 % of it at sigma 50, range
 * sigma 20; Algorithm C is within MSE 1.0 (8-bit units^2) of Algorithm A at
 * kappa 2 on photographs; premultiplied alpha keeps colours pure; odd
 * sizes; poisoned outputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "exact_gauss.h"
#include "pixel_math.h"
#include "cpu_backend.h"

static int
blur (const gb_params *p, const tu_image *src, tu_image *out)
{
  tu_poison (out);
  gb_status st = gb_blur (p, &src->view, &out->view, NULL, NULL, NULL);
  TU_CHECK (st == GB_OK, "%s: %s", gb_algorithm_name (p->algorithm),
            gb_status_message (st));
  TU_CHECK (tu_count_nonfinite (out) == 0, "%s: unwritten pixels",
            gb_algorithm_name (p->algorithm));
  TU_CHECK (tu_count_padding_written (out) == 0, "padding written");
  return st == GB_OK;
}

static gb_params
edge_params (gb_algorithm a, double sigma, double range)
{
  gb_params p;
  tu_params_cpu (&p, a, sigma, sigma);
  p.range_sigma = range;
  return p;
}

/* MSE in 8-bit perceptual units^2 between two float images. */
static double
mse_perceptual (const tu_image *a, const tu_image *b)
{
  const gb_image *u = &a->view, *v = &b->view;
  double s = 0;
  size_t n = 0;
  for (int y = 0; y < u->height; y++)
    for (int i = 0; i < u->width * u->channels; i++, n++)
      {
        double d = 255.0 * (gb_srgb_from_linear (u->data[(size_t) y * u->stride + i])
                            - gb_srgb_from_linear (v->data[(size_t) y * v->stride + i]));
        s += d * d;
      }
  return s / (double) n;
}

static void
constant_and_sizes (void)
{
  static const struct { int w, h; } sizes[] = {
    { 1, 1 }, { 1, 40 }, { 40, 1 }, { 37, 23 }, { 120, 90 } };
  for (int a = 0; a < GB_ALGO_COUNT; a++)
    if (tu_uses (a, GB_USES_RANGE_SIGMA))
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (int c = 1; c <= 4; c++)
        {
          tu_image src, out;
          if (!tu_alloc (&src, sizes[s].w, sizes[s].h, c, 1)
              || !tu_alloc (&out, sizes[s].w, sizes[s].h, c, 2))
            return;
          tu_fill_constant (&src, 0.45f);
          gb_params p = edge_params ((gb_algorithm) a, 7.0, 30.0);
          gb_research r;
          gb_research_init (&r);
          r.blocks_per_stripe = 3;
          p.research = &r;
          blur (&p, &src, &out);
          double worst = 0;
          for (int y = 0; y < sizes[s].h; y++)
            for (int i = 0; i < sizes[s].w * c; i++)
              worst = fmax (worst, fabs (out.view.data[(size_t) y * out.view.stride + i] - 0.45));
          TU_CHECK (worst <= 1e-5, "%s %dx%dx%d: constant changed by %.3g",
                    gb_algorithm_name (p.algorithm), sizes[s].w, sizes[s].h, c,
                    worst);
          tu_free (&src);
          tu_free (&out);
        }
}

static void
plain_gaussian (void)
{
  tu_image src, out;
  if (!tu_load_pnm (&src, "astronaut.ppm", 3, 0)
      || !tu_alloc (&out, 512, 512, 3, 0))
    return;
  double *ref = malloc (sizeof (double) * 512 * 512 * 3);
  for (double s = 2.0; s <= 50.0; s *= 5)
    for (int a = 0; a < GB_ALGO_COUNT; a++)
      if (tu_uses (a, GB_USES_RANGE_SIGMA))
        {
        gb_params p = edge_params ((gb_algorithm) a, s, 1e9);
        if (!ref || !blur (&p, &src, &out) || !tu_exact_gaussian (&src, s, s, ref))
          break;
        double psnr = tu_psnr_vs (&out, ref);
        printf ("range sigma 1e9, sigma %g, %s: %.1f dB against the exact "
                "Gaussian\n", s, gb_algorithm_name (p.algorithm), psnr);
        TU_CHECK (psnr >= 40.0, "%s sigma %g: %.1f dB < 40",
                  gb_algorithm_name (p.algorithm), s, psnr);
      }
  free (ref);
  tu_free (&src);
  tu_free (&out);
}

static double
srgb_to_linear (double p)
{
  return p <= 0.04045 ? p / 12.92 : pow ((p + 0.055) / 1.055, 2.4);
}

static void
step_edge (void)
{
  const int w = 400, h = 40;
  tu_image src, out;
  if (!tu_alloc (&src, w, h, 3, 0) || !tu_alloc (&out, w, h, 3, 0))
    return;
  double lo = srgb_to_linear (27 / 255.0), hi = srgb_to_linear (227 / 255.0);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < 3; c++)
        src.view.data[((size_t) y * w + x) * 3 + c] = (float) (x < w / 2 ? lo : hi);
  for (int interp = 0; interp < 2; interp++)
    for (int a = 0; a < GB_ALGO_COUNT; a++)
      if (tu_uses (a, GB_USES_RANGE_SIGMA))
        {
        gb_params p = edge_params ((gb_algorithm) a, 50.0, 20.0);
        gb_research r;
        gb_research_init (&r);
        r.edge_interpolation = (gb_edge_interpolation) interp;
        p.research = &r;
        blur (&p, &src, &out);
        const float *row = out.view.data + (size_t) (h / 2) * w * 3;
        double kept = 255.0 * (gb_srgb_from_linear (row[(w / 2) * 3])
                               - gb_srgb_from_linear (row[(w / 2 - 1) * 3]))
                      / 200.0;
        printf ("step edge of 200, sigma 50, range sigma 20, %s, %s "
                "interpolation: %.1f %% kept\n", gb_algorithm_name (p.algorithm),
                interp ? "linear (paper)" : "hold", 100 * kept);
        if (interp == GB_EDGE_HOLD)
          TU_CHECK (kept >= 0.9, "%s: edge keeps only %.1f %%",
                    gb_algorithm_name (p.algorithm), 100 * kept);
        else
          TU_CHECK (kept >= 0.5, "%s linear: edge keeps only %.1f %%",
                    gb_algorithm_name (p.algorithm), 100 * kept);
      }
  tu_free (&src);
  tu_free (&out);
}

static void
c_against_a (void)
{
  static const char *files[] = { "astronaut.ppm", "coffee.ppm" };
  static const double sr[][2] = { { 50, 50 }, { 70, 150 }, { 200, 150 } };
  for (int f = 0; f < 2; f++)
    {
      tu_image src, a, c;
      if (!tu_load_pnm (&src, files[f], 3, 0))
        continue;
      int w = src.view.width, h = src.view.height;
      if (!tu_alloc (&a, w, h, 3, 0) || !tu_alloc (&c, w, h, 3, 0))
        return;
      for (int k = 0; k < 3; k++)
        {
          gb_params p = edge_params (GB_ALGO_EDGE_EXACT, sr[k][0], sr[k][1]);
          gb_research r;
          gb_research_init (&r);
          p.research = &r;
          p.kappa = 2.0;
          blur (&p, &src, &a);
          p.algorithm = GB_ALGO_EDGE_PARTITIONED;
          for (int blocks = 4; blocks <= 16; blocks *= 4)
            {
              r.blocks_per_stripe = blocks;
              blur (&p, &src, &c);
              double mse = mse_perceptual (&a, &c);
              printf ("%s sigma %g range %g kappa 2, %d blocks: MSE(C, A) = "
                      "%.4f\n", files[f], sr[k][0], sr[k][1], blocks, mse);
              TU_CHECK (mse < 1.0, "%s (%g, %g) %d blocks: MSE %.3f >= 1",
                        files[f], sr[k][0], sr[k][1], blocks, mse);
            }
        }
      tu_free (&src);
      tu_free (&a);
      tu_free (&c);
    }
}

/* An opaque red square on transparency stays pure red at its edge. */
static void
alpha_stays_pure (void)
{
  tu_image src, out;
  if (!tu_alloc (&src, 64, 64, 4, 0) || !tu_alloc (&out, 64, 64, 4, 0))
    return;
  tu_fill_constant (&src, 0.0f);
  for (int y = 16; y < 48; y++)
    for (int x = 16; x < 48; x++)
      {
        float *p = src.view.data + ((size_t) y * 64 + x) * 4;
        p[0] = 1.0f;
        p[3] = 1.0f;
      }
  gb_params p = edge_params (GB_ALGO_EDGE_EXACT, 6.0, 40.0);
  blur (&p, &src, &out);
  double worst = 0;
  for (int i = 0; i < 64 * 64; i++)
    {
      const float *q = out.view.data + (size_t) i * 4;
      if (q[3] > 0)
        worst = fmax (worst, fmax (fabs (q[1]), fmax (fabs (q[2]), fabs (q[0] - q[3]))));
    }
  TU_CHECK (worst <= 1e-5, "red square: colour off by %.3g", worst);
  tu_free (&src);
  tu_free (&out);
}

/* Perceptual data (gb_params.perceptual): the spacings measured on the
 * sRGB-encoded image as it is equal those measured on the linear image
 * encoded by the engine; and the flag changes them on the same data. */
static void
perceptual_spacings (void)
{
  tu_image lin, per;
  if (!tu_load_pnm (&lin, "astronaut.ppm", 4, 0)
      || !tu_load_pnm (&per, "astronaut.ppm", 4, 0))
    return;
  const int w = lin.view.width, h = lin.view.height;
  for (size_t i = 0; i < (size_t) w * h; i++)
    {
      /* Premultiplied linear, and the same colour encoded, premultiplied. */
      float *l = lin.mem + i * 4, *p = per.mem + i * 4;
      for (int k = 0; k < 3; k++)
        {
          p[k] = l[k] * l[3];
          l[k] = gb_srgb_decode (l[k]) * l[3];
        }
    }
  float *a_x = malloc (sizeof (float) * w * h), *a_y = malloc (sizeof (float) * w * h);
  float *b_x = malloc (sizeof (float) * w * h), *b_y = malloc (sizeof (float) * w * h);
  if (a_x && a_y && b_x && b_y
      && gb_edge_spacings (&lin.view, 1.0, 1.0, 0, a_x, a_y) == GB_OK
      && gb_edge_spacings (&per.view, 1.0, 1.0, 1, b_x, b_y) == GB_OK)
    {
      double worst = 0.0, moved = 0.0;
      for (size_t i = 0; i < (size_t) w * h; i++)
        worst = fmax (worst, fmax (fabs (a_x[i] - b_x[i]) / a_x[i],
                                   fabs (a_y[i] - b_y[i]) / a_y[i]));
      gb_edge_spacings (&per.view, 1.0, 1.0, 0, a_x, a_y);
      for (size_t i = 0; i < (size_t) w * h; i++)
        moved = fmax (moved, fabs (a_x[i] - b_x[i]) / b_x[i]);
      TU_CHECK (worst <= 2e-3, "perceptual spacings differ by %.3g (relative) "
                "from the encoded linear image's", worst);
      TU_CHECK (moved > 0.05, "the perceptual flag changed no spacing (%.3g)",
                moved);
    }
  free (a_x);
  free (a_y);
  free (b_x);
  free (b_y);
  tu_free (&lin);
  tu_free (&per);
}

int
main (void)
{
  (void) tu_seed ("test_edge");
  constant_and_sizes ();
  plain_gaussian ();
  step_edge ();
  c_against_a ();
  alpha_stays_pure ();
  perceptual_spacings ();
  return tu_finish ("test_edge");
}
