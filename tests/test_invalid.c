/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Invalid input returns its own status and writes nothing; parameters are
 * checked for the algorithms the registry says use them; the status
 * messages quote the limits the checks use. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"

static tu_image src, dst;
static float snapshot[64 * 48 * 4 + 64 * 3];

static void
expect (const char *what, gb_status want, const gb_params *p,
        const gb_image *s, const gb_image *d)
{
  gb_report rep;
  memcpy (snapshot, dst.mem, sizeof (float) * dst.view.stride * 48);
  gb_status got = gb_blur (p, s, d, NULL, NULL, &rep);
  TU_CHECK (got == want, "%s: got \"%s\", want \"%s\"", what,
            gb_status_message (got), gb_status_message (want));
  if (want != GB_OK)
    TU_CHECK (memcmp (snapshot, dst.mem,
                      sizeof (float) * dst.view.stride * 48) == 0,
              "%s: destination was written", what);
  TU_CHECK (strlen (rep.reason) > 0, "%s: report has no reason", what);
  TU_CHECK (gb_validate (p, s, d) == want, "%s: gb_validate disagrees",
            what);
}

int
main (void)
{
  uint64_t seed = tu_seed ("test_invalid");
  gb_params good, p;
  gb_image v;

  if (!tu_alloc (&src, 64, 48, 4, 3) || !tu_alloc (&dst, 64, 48, 4, 3))
    return 99;
  tu_fill_random (&src, &seed);
  tu_fill_random (&dst, &seed);
  gb_params_init (&good);
  good.algorithm = GB_ALGO_FIR;
  good.backend = GB_BACKEND_CPU;

#define WITH(field, value, status)                          \
  do { p = good; p.field = value;                           \
       expect (#field " = " #value, status, &p, &src.view, &dst.view); } while (0)
  WITH (sigma_x, -1.0, GB_ERR_SIGMA);
  WITH (sigma_y, -0.001, GB_ERR_SIGMA);
  WITH (sigma_x, NAN, GB_ERR_SIGMA);
  WITH (sigma_y, INFINITY, GB_ERR_SIGMA);
  WITH (sigma_x, 1500.5, GB_ERR_SIGMA);
  WITH (algorithm, GB_ALGO_COUNT, GB_ERR_ALGORITHM);
  WITH (algorithm, (gb_algorithm) -1, GB_ERR_ALGORITHM);
  WITH (backend, (gb_backend) 3, GB_ERR_BACKEND);
#undef WITH

  /* Each parameter is checked for the algorithms the registry says use
   * it, and ignored by the others. */
  for (int a = GB_ALGO_AUTO; a < GB_ALGO_COUNT; a++)
    {
      const gb_algorithm_info *info = gb_algorithm_get ((gb_algorithm) a);
      struct { const char *what; unsigned uses; double range; int it;
               double kappa; gb_status st; } bad[] = {
        { "range sigma 0", GB_USES_RANGE_SIGMA, 0.0, 2, 2.0,
          GB_ERR_RANGE_SIGMA },
        { "range sigma past the limit", GB_USES_RANGE_SIGMA,
          GB_RANGE_SIGMA_MAX * 1.001, 2, 2.0, GB_ERR_RANGE_SIGMA },
        { "range sigma NaN", GB_USES_RANGE_SIGMA, NAN, 2, 2.0,
          GB_ERR_RANGE_SIGMA },
        { "iterations 0", GB_USES_ITERATIONS, 50.0, 0, 2.0,
          GB_ERR_ITERATIONS },
        { "iterations past the limit", GB_USES_ITERATIONS, 50.0,
          GB_ITERATIONS_MAX + 1, 2.0, GB_ERR_ITERATIONS },
        { "kappa -0.5", GB_USES_KAPPA, 50.0, 2, -0.5, GB_ERR_KAPPA },
        { "kappa past the limit", GB_USES_KAPPA, 50.0, 2,
          GB_KAPPA_MAX + 0.5, GB_ERR_KAPPA },
      };
      for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        {
          char what[128];
          p = good;
          p.algorithm = (gb_algorithm) a;
          p.range_sigma = bad[k].range;
          p.iterations = bad[k].it;
          p.kappa = bad[k].kappa;
          snprintf (what, sizeof what, "%s: %s", info->name, bad[k].what);
          expect (what, (info->uses & bad[k].uses) ? bad[k].st : GB_OK, &p,
                  &src.view, &dst.view);
        }
    }

  /* The status messages quote the limits the checks use. */
  static const struct { gb_status st; double limit; } limits[] = {
    { GB_ERR_SIGMA, GB_SIGMA_MAX }, { GB_ERR_RANGE_SIGMA, GB_RANGE_SIGMA_MAX },
    { GB_ERR_ITERATIONS, GB_ITERATIONS_MAX }, { GB_ERR_KAPPA, GB_KAPPA_MAX },
    { GB_ERR_SIZE, GB_SIZE_MAX },
  };
  for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++)
    {
      char number[32];
      snprintf (number, sizeof number, "%g", limits[k].limit);
      TU_CHECK (strstr (gb_status_message (limits[k].st), number) != NULL,
                "\"%s\" does not quote its limit %s",
                gb_status_message (limits[k].st), number);
    }

  expect ("NULL params", GB_ERR_NULL, NULL, &src.view, &dst.view);
  expect ("NULL src", GB_ERR_NULL, &good, NULL, &dst.view);
  v = src.view; v.data = NULL;
  expect ("NULL src data", GB_ERR_NULL, &good, &v, &dst.view);
  v = src.view; v.width = 0;
  expect ("zero width", GB_ERR_SIZE, &good, &v, &dst.view);
  v = src.view; v.height = 0;
  expect ("zero height", GB_ERR_SIZE, &good, &v, &dst.view);
  v = src.view; v.height = -3;
  expect ("negative height", GB_ERR_SIZE, &good, &v, &dst.view);
  v = src.view; v.channels = 0;
  expect ("channels 0", GB_ERR_CHANNELS, &good, &v, &dst.view);
  v = src.view; v.channels = 5;
  expect ("channels 5", GB_ERR_CHANNELS, &good, &v, &dst.view);
  v = src.view; v.stride = 64 * 4 - 1;
  expect ("short stride", GB_ERR_STRIDE, &good, &v, &dst.view);
  v = src.view; v.width = 63;
  expect ("size mismatch", GB_ERR_MISMATCH, &good, &v, &dst.view);
  v = src.view; v.channels = 3;
  expect ("channel mismatch", GB_ERR_MISMATCH, &good, &v, &dst.view);

  /* dst overlapping dst with another stride or offset is refused;
   * dst == src (same view) is allowed and tested in test_fir. */
  v = dst.view; v.stride = 64 * 4;
  expect ("alias, other stride", GB_ERR_ALIAS, &good, &v, &dst.view);
  v = dst.view; v.data += 4; v.height = 47; v.width = 63;
  gb_image d2 = dst.view; d2.height = 47; d2.width = 63;
  expect ("alias, shifted", GB_ERR_ALIAS, &good, &v, &d2);

  /* Every status has its own message. */
  for (int i = 0; i < GB_STATUS_COUNT; i++)
    for (int j = 0; j < i; j++)
      TU_CHECK (strcmp (gb_status_message ((gb_status) i),
                        gb_status_message ((gb_status) j)) != 0,
                "statuses %d and %d share a message", i, j);
  TU_CHECK (strcmp (gb_status_message ((gb_status) 999), "unknown status") == 0,
            "message for an unknown status");

  tu_free (&src);
  tu_free (&dst);
  return tu_finish ("test_invalid");
}
