/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The native pipeline on the GPU against the same on the CPU: every
 * sample type, curve and channel count, an output rectangle inside the
 * area, the first run cold (CUDA starting while the area is read) and the
 * later ones warm, bands that fill several ring slots, every algorithm.
 * The outputs agree within one quantisation step (the blurs differ by
 * float rounding) and differ at all in few samples.  Exits 77 where no
 * GPU can be used. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native_util.h"
#include "testutil.h"

typedef struct
{
  gb_pixel_format f;
  gb_algorithm algorithm;
  double sx, sy;
  int w, h, ox, oy, ow, oh;
  gb_border border;
} native_case;

static void
run_case (const native_case *k, uint64_t *seed)
{
  const gb_pixel_format *f = &k->f;
  const size_t bpp = gb_pixel_format_bytes (f);
  const size_t n_area = (size_t) k->w * k->h, n_out = (size_t) k->ow * k->oh;
  unsigned char *area = malloc (n_area * bpp);
  unsigned char *cpu = malloc (n_out * bpp), *gpu = malloc (n_out * bpp);
  if (!area || !cpu || !gpu)
    {
      TU_CHECK (0, "allocation");
      goto out;
    }
  tu_fill_native (f, area, n_area * f->channels, seed);
  memset (gpu, 0xa5, n_out * bpp);
  gb_params p;
  gb_research r;
  gb_params_init (&p);
  gb_research_init (&r);
  r.blocks_per_stripe = 4;   /* Algorithm C: the same blocks on both */
  p.research = &r;
  p.algorithm = k->algorithm;
  p.sigma_x = k->sx;
  p.sigma_y = k->sy;
  p.border = k->border;
  gb_report rc, rg;
  tu_sink sc, sg;
  gb_native_io ic, ig;
  tu_sink_init (&sc, &ic, f, area, k->w, k->h, k->ox, k->oy, k->ow, k->oh,
                cpu);
  tu_sink_init (&sg, &ig, f, area, k->w, k->h, k->ox, k->oy, k->ow, k->oh,
                gpu);
  p.backend = GB_BACKEND_CUDA;
  gb_status st_g = gb_blur_native (&p, &ig, NULL, NULL, &rg);
  /* The reference runs what the GPU ran (auto resolves differently on the
   * CPU). */
  p.backend = GB_BACKEND_CPU;
  p.algorithm = rg.algorithm_used;
  gb_status st_c = gb_blur_native (&p, &ic, NULL, NULL, &rc);
  TU_CHECK (st_c == GB_OK && st_g == GB_OK, "%s: cpu %s, gpu %s",
            tu_format_name (f), gb_status_message (st_c),
            gb_status_message (st_g));
  TU_CHECK (rg.backend_used == GB_BACKEND_CUDA, "%s: ran on %s (%s)",
            tu_format_name (f), gb_backend_name (rg.backend_used), rg.reason);
  TU_CHECK (sg.order_errors == 0 && sg.next_write == k->oh
            && sg.next_read == k->h,
            "%s: GPU callbacks out of order (%d), read to %d, wrote to %d",
            tu_format_name (f), sg.order_errors, sg.next_read, sg.next_write);
  double share;
  double steps = tu_native_diff (f, gpu, cpu, n_out * f->channels, &share);
  /* Edge-aware kernels work in single precision, the CPU in double. */
  const int edge = tu_uses (k->algorithm, GB_USES_RANGE_SIGMA);
  const double steps_max = edge && f->type != GB_SAMPLE_U8 ? 64.0 : 1.0;
  /* Formats that keep float precision (u32, float) differ in most samples
   * by a last bit; the others should round alike nearly everywhere. */
  const double share_max = f->type == GB_SAMPLE_U32
                           || f->type == GB_SAMPLE_FLOAT ? 1.0
                           : edge ? 0.2 : 0.02;
  TU_CHECK (steps <= steps_max && share <= share_max,
            "%s %s %dx%d border %d: GPU vs CPU %.3g steps, %.3f %% of "
            "samples differ", tu_format_name (f),
            gb_algorithm_name (k->algorithm), k->w, k->h, (int) k->border,
            steps, 100 * share);
out:
  free (area);
  free (cpu);
  free (gpu);
}

int
main (void)
{
  char name[256];
  if (!gb_cuda_info (name, sizeof name))
    {
      printf ("test_gpu_native: skipped: %s\n", name);
      return TU_SKIP;
    }
  uint64_t seed = tu_seed ("test_gpu_native");
  gb_shutdown ();   /* the first run starts CUDA while it reads */

  /* Every format, FIR, an output rectangle inside the area. */
  for (int t = 0; t < GB_SAMPLE_COUNT; t++)
    for (int trc = 0; trc < 2; trc++)
      for (int c = 1; c <= 4; c++)
        {
          native_case k = { { (gb_sample_type) t, (gb_trc) trc, c },
                            GB_ALGO_FIR, 3.0, 2.0, 333, 211, 17, 9, 300, 190,
                            GB_BORDER_CLAMP };
          run_case (&k, &seed);
        }
  /* Every algorithm on RGBA 8-bit, rows and columns on different
   * algorithms, and an area of several ring slots (8 MiB each). */
  for (int a = GB_ALGO_AUTO; a < GB_ALGO_COUNT; a++)
    {
      native_case k = { { GB_SAMPLE_U8, GB_TRC_SRGB, 4 }, (gb_algorithm) a,
                        7.0, 4.0, 640, 480, 0, 0, 640, 480,
                        GB_BORDER_CLAMP };
      run_case (&k, &seed);
    }
  /* Borders: the frame added as rows pass, every algorithm. */
  for (int a = GB_ALGO_AUTO; a < GB_ALGO_COUNT; a++)
    for (int b = GB_BORDER_NONE; b < GB_BORDER_COUNT; b++)
      {
        native_case k = { { GB_SAMPLE_U8, GB_TRC_SRGB, 4 }, (gb_algorithm) a,
                          7.0, 4.0, 320, 240, 5, 3, 300, 230, (gb_border) b };
        run_case (&k, &seed);
      }
  native_case split = { { GB_SAMPLE_U16, GB_TRC_SRGB, 3 }, GB_ALGO_DERICHE,
                        0.3, 9.0, 500, 300, 3, 5, 480, 290,
                        GB_BORDER_CLAMP };
  run_case (&split, &seed);
  native_case big = { { GB_SAMPLE_FLOAT, GB_TRC_LINEAR, 4 }, GB_ALGO_AUTO,
                      12.0, 12.0, 3001, 2003, 101, 53, 2800, 1900,
                      GB_BORDER_CLAMP };
  run_case (&big, &seed);
  native_case wide = { { GB_SAMPLE_U8, GB_TRC_SRGB, 3 }, GB_ALGO_DERICHE,
                       50.0, 50.0, 6000, 4000, 0, 0, 6000, 4000,
                       GB_BORDER_CLAMP };
  if (!getenv ("GB_TEST_QUICK"))
    run_case (&wide, &seed);
  gb_shutdown ();
  return tu_finish ("test_gpu_native");
}
