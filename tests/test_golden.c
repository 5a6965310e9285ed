/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Golden outputs: every algorithm's CPU result for fixed inputs, pinned
 * as a hash of the output's bits (and its sum and sum of squares), so a
 * refactoring that changes any result by one bit fails here.
 *
 * tests/data/golden.txt holds the values and the C library they were made
 * with; under another C library (whose exp and pow may round differently)
 * the sums are compared within 1e-6 instead of the bits.  GB_GOLDEN_WRITE=
 * FILE writes a new file (only when a result is meant to change: say why
 * in the commit). */
#include <gnu/libc-version.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native_util.h"
#include "testutil.h"

typedef struct
{
  char name[96];
  uint64_t hash;
  double sum, sum2;
} golden;

static uint64_t
fnv1a (const void *p, size_t n, uint64_t h)
{
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

static void
summarise (const float *v, size_t n, golden *g)
{
  g->hash = fnv1a (v, n * sizeof (float), 14695981039346656037ull);
  g->sum = g->sum2 = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      g->sum += v[i];
      g->sum2 += (double) v[i] * v[i];
    }
}

/* One float case: a seeded random image (or a photograph), blurred. */
static int
float_case (gb_algorithm a, double sx, double sy, int w, int h, int c,
            const char *photo, golden *g)
{
  tu_image src, out;
  uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t) (w * 131 + h * 7 + c);
  int ok = photo ? tu_load_pnm (&src, photo, c, 0) : tu_alloc (&src, w, h, c, 0);
  if (!ok)
    return 0;
  if (!photo)
    tu_fill_random (&src, &seed);
  if (!tu_alloc (&out, src.view.width, src.view.height, c, 0))
    {
      tu_free (&src);
      return 0;
    }
  gb_params p;
  gb_research r;
  tu_params_cpu (&p, a, sx, sy);
  gb_research_init (&r);
  r.blocks_per_stripe = 8;
  p.research = &r;
  p.range_sigma = 30.0;
  gb_status st = gb_blur (&p, &src.view, &out.view, NULL, NULL, NULL);
  if (st == GB_OK)
    summarise (out.view.data,
               (size_t) out.view.width * out.view.height * c, g);
  snprintf (g->name, sizeof g->name, "%s:%s:%dx%dx%d:%g,%g",
            gb_algorithm_name (a), photo ? photo : "random",
            src.view.width, src.view.height, c, sx, sy);
  tu_free (&src);
  tu_free (&out);
  return st == GB_OK;
}

/* One native case: 8-bit sRGB with alpha through gb_blur_native. */
static int
native_case (gb_algorithm a, double s, golden *g)
{
  const gb_pixel_format f = { GB_SAMPLE_U8, GB_TRC_SRGB, 4 };
  const int w = 45, h = 31;
  unsigned char area[45 * 31 * 4], out[40 * 25 * 4];
  uint64_t seed = 0xfeedfacecafebeefull;
  tu_fill_native (&f, area, sizeof area, &seed);
  gb_params p;
  gb_research r;
  tu_params_cpu (&p, a, s, s);
  gb_research_init (&r);
  r.blocks_per_stripe = 8;
  p.research = &r;
  tu_sink sink;
  gb_native_io io;
  tu_sink_init (&sink, &io, &f, area, w, h, 3, 4, 40, 25, out);
  if (gb_blur_native (&p, &io, NULL, NULL, NULL) != GB_OK)
    return 0;
  /* Bytes as floats for the sums. */
  float v[40 * 25 * 4];
  for (size_t i = 0; i < sizeof out; i++)
    v[i] = out[i];
  summarise (v, sizeof out, g);
  g->hash = fnv1a (out, sizeof out, 14695981039346656037ull);
  snprintf (g->name, sizeof g->name, "native:%s:u8-srgb-4:%g",
            gb_algorithm_name (a), s);
  return 1;
}

static int
all_cases (golden *g, int max)
{
  static const struct { double sx, sy; } sig[] = { { 2.5, 1.5 }, { 9, 4 },
                                                  { 0.3, 6 } };
  int n = 0;
  for (int a = GB_ALGO_AUTO; a < GB_ALGO_COUNT && n < max; a++)
    {
      for (size_t k = 0; k < sizeof sig / sizeof sig[0] && n < max; k++)
        n += float_case ((gb_algorithm) a, sig[k].sx, sig[k].sy, 37, 23, 4,
                         NULL, &g[n]);
      if (n < max)
        n += float_case ((gb_algorithm) a, 5, 5, 1, 57, 1, NULL, &g[n]);
      if (n < max)
        n += float_case ((gb_algorithm) a, 12, 12, 0, 0, 3, "coffee.ppm",
                         &g[n]);
      if (n < max)
        n += native_case ((gb_algorithm) a, 3.5, &g[n]);
    }
  return n;
}

int
main (void)
{
  golden now[128];
  const int n = all_cases (now, 128);
  TU_CHECK (n == 6 * GB_ALGO_COUNT, "%d cases ran", n);
  const char *write = getenv ("GB_GOLDEN_WRITE");
  if (write)
    {
      FILE *f = fopen (write, "w");
      if (!f)
        return 99;
      fprintf (f, "# tests/test_golden: CPU results of fixed inputs\n");
      fprintf (f, "glibc %s\n", gnu_get_libc_version ());
      for (int i = 0; i < n; i++)
        fprintf (f, "%s %016" PRIx64 " %.17g %.17g\n", now[i].name,
                 now[i].hash, now[i].sum, now[i].sum2);
      fclose (f);
      printf ("test_golden: wrote %d cases to %s\n", n, write);
      return 0;
    }

  char path[4096], line[512], libc[64] = "";
  snprintf (path, sizeof path, "%s/golden.txt", TEST_DATA_DIR);
  FILE *f = fopen (path, "r");
  TU_CHECK (f != NULL, "cannot read %s", path);
  int seen = 0;
  while (f && fgets (line, sizeof line, f))
    {
      golden want;
      if (line[0] == '#')
        continue;
      if (sscanf (line, "glibc %63s", libc) == 1)
        continue;
      if (sscanf (line, "%95s %" SCNx64 " %lf %lf", want.name, &want.hash,
                  &want.sum, &want.sum2) != 4)
        continue;
      seen++;
      const int same_libc = !strcmp (libc, gnu_get_libc_version ());
      int found = 0;
      for (int i = 0; i < n; i++)
        if (!strcmp (now[i].name, want.name))
          {
            found = 1;
            if (same_libc)
              TU_CHECK (now[i].hash == want.hash,
                        "%s: output bits changed (sum %.17g, was %.17g)",
                        want.name, now[i].sum, want.sum);
            else
              TU_CHECK (fabs (now[i].sum - want.sum)
                        <= 1e-6 * fmax (1.0, fabs (want.sum))
                        && fabs (now[i].sum2 - want.sum2)
                           <= 1e-6 * fmax (1.0, fabs (want.sum2)),
                        "%s: sums %.17g %.17g, were %.17g %.17g",
                        want.name, now[i].sum, now[i].sum2, want.sum,
                        want.sum2);
          }
      TU_CHECK (found, "%s: no longer computed", want.name);
    }
  if (f)
    fclose (f);
  TU_CHECK (seen == n, "%d golden cases on file, %d computed", seen, n);
  if (strcmp (libc, gnu_get_libc_version ()))
    printf ("test_golden: made with glibc %s, running %s: sums compared\n",
            libc, gnu_get_libc_version ());
  return tu_finish ("test_golden");
}
