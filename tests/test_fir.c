/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CPU FIR against an independent double-precision 2-D convolution on
 * random and real images, every channel count, odd sizes and strides. */
#include <math.h>
#include <stdio.h>

#include "testutil.h"

static const double sigmas[] = { 0.5, 1.0, 2.5, 7.0, 30.0 };
static const struct { int w, h, pad; } sizes[] = {
  { 1, 1, 0 }, { 1, 57, 3 }, { 61, 1, 0 }, { 37, 23, 5 }, { 1000, 700, 0 },
};

/* Blurs src into a fresh poisoned image and checks it. */
static void
check_blur (const char *what, const tu_image *src, double sx, double sy,
            int pad, uint64_t *seed)
{
  tu_image out;
  gb_params p;
  gb_report rep;
  const gb_image *v = &src->view;
  if (!tu_alloc (&out, v->width, v->height, v->channels, pad))
    {
      TU_CHECK (0, "allocation");
      return;
    }
  gb_params_init (&p);
  p.algorithm = GB_ALGO_FIR;
  p.backend = GB_BACKEND_CPU;
  p.sigma_x = sx;
  p.sigma_y = sy;
  gb_status st = gb_blur (&p, &src->view, &out.view, NULL, NULL, &rep);
  TU_CHECK (st == GB_OK, "%s: status %s", what, gb_status_message (st));
  TU_CHECK (rep.backend_used == GB_BACKEND_CPU, "%s: backend", what);
  long unwritten = tu_count_nonfinite (&out);
  TU_CHECK (unwritten == 0, "%s %dx%dx%d sx=%g sy=%g: %ld unwritten",
            what, v->width, v->height, v->channels, sx, sy, unwritten);
  long outside = tu_count_padding_written (&out);
  TU_CHECK (outside == 0, "%s: %ld floats written in row padding", what,
            outside);
  double err = tu_max_error_vs_reference (src, &out, sx, sy, 1500, seed);
  TU_CHECK (err >= 0 && err <= 1e-5, "%s %dx%dx%d sx=%g sy=%g: max error %.3g",
            what, v->width, v->height, v->channels, sx, sy, err);
  tu_free (&out);
}

static void
random_matrix (uint64_t *seed)
{
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int c = 1; c <= 4; c++)
      for (size_t k = 0; k < sizeof sigmas / sizeof sigmas[0]; k++)
        {
          tu_image src;
          if (!tu_alloc (&src, sizes[s].w, sizes[s].h, c, sizes[s].pad))
            continue;
          tu_fill_random (&src, seed);
          check_blur ("random", &src, sigmas[k], sigmas[k], sizes[s].pad, seed);
          tu_free (&src);
        }
}

static void
anisotropic_and_single_axis (uint64_t *seed)
{
  static const double pairs[][2] = {
    { 3.0, 0.0 }, { 0.0, 4.5 }, { 0.5, 12.0 }, { 9.0, 1.5 }, { 0.0, 0.0 },
  };
  tu_image src;
  if (!tu_alloc (&src, 123, 77, 3, 2))
    return;
  tu_fill_random (&src, seed);
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
    check_blur ("anisotropic", &src, pairs[i][0], pairs[i][1], 1, seed);
  tu_free (&src);
}

static void
real_images (uint64_t *seed)
{
  static const char *files[] = { "astronaut.ppm", "coffee.ppm", "camera.pgm" };
  for (size_t f = 0; f < 3; f++)
    for (int c = 1; c <= 4; c++)
      {
        tu_image src;
        if (!tu_load_pnm (&src, files[f], c, c == 3 ? 7 : 0))
          {
            TU_CHECK (0, "load %s", files[f]);
            continue;
          }
        for (size_t k = 0; k < sizeof sigmas / sizeof sigmas[0]; k++)
          check_blur (files[f], &src, sigmas[k], sigmas[k] * 0.5, 0, seed);
        tu_free (&src);
      }
}

static void
in_place (uint64_t *seed)
{
  static const double pairs[][2] = { { 2.0, 3.0 }, { 0.0, 3.0 }, { 2.0, 0.0 } };
  for (size_t i = 0; i < 3; i++)
    {
      tu_image src, work;
      if (!tu_alloc (&src, 80, 60, 4, 3) || !tu_alloc (&work, 80, 60, 4, 3))
        return;
      tu_fill_random (&src, seed);
      for (size_t j = 0; j < work.view.stride * 60; j++)
        work.mem[j] = src.mem[j];
      gb_params p;
      tu_params_cpu (&p, GB_ALGO_FIR, pairs[i][0], pairs[i][1]);
      gb_status st = gb_blur (&p, &work.view, &work.view, NULL, NULL, NULL);
      TU_CHECK (st == GB_OK, "in place: %s", gb_status_message (st));
      double err = tu_max_error_vs_reference (&src, &work, p.sigma_x,
                                              p.sigma_y, 10000, seed);
      TU_CHECK (err >= 0 && err <= 1e-5, "in place sx=%g sy=%g: error %.3g",
                p.sigma_x, p.sigma_y, err);
      tu_free (&src);
      tu_free (&work);
    }
}

static void
constant_stays_constant (void)
{
  static const double big[] = { 0.5, 30.0, 400.0 };
  for (size_t i = 0; i < 3; i++)
    {
      tu_image src, out;
      if (!tu_alloc (&src, 300, 200, 4, 0) || !tu_alloc (&out, 300, 200, 4, 0))
        return;
      tu_fill_constant (&src, 0.7f);
      gb_params p;
      tu_params_cpu (&p, GB_ALGO_FIR, big[i], big[i]);
      TU_CHECK (gb_blur (&p, &src.view, &out.view, NULL, NULL, NULL) == GB_OK,
                "constant blur");
      double worst = 0.0;
      for (size_t j = 0; j < 300 * 200 * 4; j++)
        {
          double d = isfinite (out.mem[j]) ? fabs (out.mem[j] - 0.7) : INFINITY;
          if (d > worst)
            worst = d;
        }
      TU_CHECK (worst <= 2e-6, "constant image at sigma %g changed by %.3g",
                big[i], worst);
      tu_free (&src);
      tu_free (&out);
    }
}

static int calls;
static int
cancel_after_two (double fraction, void *user)
{
  (void) fraction;
  (void) user;
  return ++calls >= 2;
}

static void
cancel_and_progress (uint64_t *seed)
{
  tu_image src, out;
  if (!tu_alloc (&src, 400, 300, 3, 0) || !tu_alloc (&out, 400, 300, 3, 0))
    return;
  tu_fill_random (&src, seed);
  gb_params p;
  tu_params_cpu (&p, GB_ALGO_FIR, 10.0, 10.0);
  calls = 0;
  gb_status st = gb_blur (&p, &src.view, &out.view, cancel_after_two, NULL,
                          NULL);
  TU_CHECK (st == GB_ERR_CANCELLED, "cancel returned %s",
            gb_status_message (st));
  TU_CHECK (calls == 2, "progress called %d times after cancel", calls);
  tu_free (&src);
  tu_free (&out);
}

int
main (void)
{
  uint64_t seed = tu_seed ("test_fir");
  random_matrix (&seed);
  anisotropic_and_single_axis (&seed);
  real_images (&seed);
  in_place (&seed);
  constant_stays_constant ();
  cancel_and_progress (&seed);
  return tu_finish ("test_fir");
}
