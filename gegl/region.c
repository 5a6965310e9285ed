/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What one render of the operation computes (region.h).
 *
 * GIMP renders a filter's preview from its main loop, a chunk at a time,
 * and whatever one process() call takes, GIMP stops answering that long.
 * Where the whole image is cheap (a small image, or the GPU), one call
 * computes it all; where the blur's reach is small next to what GIMP
 * asks at a time, each request is computed as asked, with the reach
 * around it; otherwise requests are computed in square blocks, each with
 * the reach around it, sized by a cost model so that one block takes
 * about the call budget.  The reach is where the impulse response's
 * weight left over drops below float precision, so a block equals the
 * same pixels of the whole image within float rounding. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "region.h"

/* ---- reach -------------------------------------------------------------- */

/* The algorithm an axis of p runs on `backend`: auto resolved there, and
 * a recursive filter below the sigma its constants hold for is the FIR
 * (as the engine's dispatcher decides it). */
static gb_algorithm
axis_algorithm (const gb_params *p, gdouble sigma, gb_backend backend)
{
  gb_algorithm a = gb_resolve_algorithm (p->algorithm,
                                         gb_effective_sigma (p->sigma_x),
                                         gb_effective_sigma (p->sigma_y),
                                         backend);
  const gb_algorithm_info *info = gb_algorithm_get (a);
  if (info && sigma < info->fir_below)
    return GB_ALGO_FIR;
  return a;
}

typedef struct
{
  gb_algorithm algorithm;
  gdouble sigma;
  gint iterations;
  gint reach;
} reach_entry;

#define REACH_MEMORY 64
static reach_entry remembered[REACH_MEMORY];
static gint n_remembered, next_slot;
static GMutex reach_lock;

/* The reach of a filter with infinite support, on an impulse in the
 * middle of a line long enough for any of them (their weight beyond 24
 * sigma is far below float precision); 24 sigma where it cannot be
 * measured. */
static gint
measure_reach (gb_algorithm algorithm, gdouble sigma, gint iterations)
{
  const gint half = (gint) ceil (24.0 * sigma) + 16;
  const gint n = 2 * half + 1;
  gfloat *line = g_try_new0 (gfloat, n);
  if (!line)
    return half;
  line[half] = 1.0f;
  gb_params q;
  gb_params_init (&q);
  q.algorithm = algorithm;
  q.sigma_x = sigma;
  q.sigma_y = 0.0;
  q.iterations = iterations;
  /* A flat line: the edge-aware filters reach furthest where the image
   * has no edges. */
  q.range_sigma = GB_RANGE_SIGMA_MAX;
  q.backend = GB_BACKEND_CPU;
  q.threads = 1;
  const gb_image view = { line, n, 1, 1, (size_t) n };
  gint reach = half;
  if (gb_blur (&q, &view, &view, NULL, NULL, NULL) == GB_OK)
    {
      gdouble tail = 0.0;
      gint i = 0;
      for (; i < half; i++)
        {
          const gdouble both = fabs (line[i]) + fabs (line[n - 1 - i]);
          if (tail + both >= CUDABLUR_TAIL_WEIGHT)
            break;
          tail += both;
        }
      reach = half - i;
    }
  g_free (line);
  return reach;
}

gint
cudablur_reach (const gb_params *p, gint axis, gb_backend backend)
{
  const gdouble sigma = gb_effective_sigma (axis ? p->sigma_y : p->sigma_x);
  if (!(sigma > 0.0))
    return 0;
  gb_algorithm a = axis_algorithm (p, sigma, backend);
  if (a == GB_ALGO_FIR)
    return gb_fir_radius (sigma);
  /* Algorithm C reaches as far as Algorithm A, plus its blocks' warm-ups,
   * which start inside the reach. */
  if (a == GB_ALGO_EDGE_PARTITIONED)
    a = GB_ALGO_EDGE_EXACT;
  const gint iterations = gb_algorithm_get (a)->uses & GB_USES_ITERATIONS
                          ? p->iterations : 0;
  g_mutex_lock (&reach_lock);
  for (gint i = 0; i < n_remembered; i++)
    if (remembered[i].algorithm == a && remembered[i].sigma == sigma
        && remembered[i].iterations == iterations)
      {
        const gint reach = remembered[i].reach;
        g_mutex_unlock (&reach_lock);
        return reach;
      }
  g_mutex_unlock (&reach_lock);
  const gint reach = measure_reach (a, sigma, MAX (iterations, 1));
  g_mutex_lock (&reach_lock);
  remembered[next_slot] = (reach_entry) { a, sigma, iterations, reach };
  next_slot = (next_slot + 1) % REACH_MEMORY;
  n_remembered = MIN (n_remembered + 1, REACH_MEMORY);
  g_mutex_unlock (&reach_lock);
  return reach;
}

gint
cudablur_reach_any_level (const gb_params *p, gint axis)
{
  gint widest = 0;
  for (gint level = 0; level <= 8; level++)
    {
      gb_params at = *p;
      at.sigma_x = p->sigma_x / (1 << level);
      at.sigma_y = p->sigma_y / (1 << level);
      widest = MAX (widest,
                    cudablur_reach (&at, axis, GB_BACKEND_CPU) << level);
    }
  return widest;
}

/* ---- cost ----------------------------------------------------------------
 * Nanoseconds of one core's time a pixel of 3 channels costs on the
 * engine's CPU path (gb_blur_native, one thread, CPU time, on an 8-bit
 * RGB photograph, on a two-core x86-64 machine under load: an estimate on
 * the high side), per axis for the filters; channels scale them linearly.
 * NS_IO: decoding, encoding and GEGL's buffers. */
#define NS_IO             25.0
#define NS_FIR_AXIS       12.0
#define NS_FIR_TAP         0.7   /* per tap of one axis */
#define NS_YVRG_AXIS      12.0
#define NS_TWO_WAY_AXIS   15.0
#define NS_DERICHE_AXIS   24.0
#define NS_EDGE_SPACINGS 100.0
#define NS_EDGE_AXIS     450.0   /* per iteration */

static gdouble
axis_ns (const gb_params *p, gint axis)
{
  const gdouble sigma = gb_effective_sigma (axis ? p->sigma_y : p->sigma_x);
  if (!(sigma > 0.0))
    return 0.0;
  switch (axis_algorithm (p, sigma, GB_BACKEND_CPU))
    {
    case GB_ALGO_FIR:
      return NS_FIR_AXIS + NS_FIR_TAP * (2 * gb_fir_radius (sigma) + 1);
    case GB_ALGO_YVV:
      return NS_YVRG_AXIS;
    case GB_ALGO_YVV_TWO_WAY:
      return NS_TWO_WAY_AXIS;
    case GB_ALGO_DERICHE:
      return NS_DERICHE_AXIS;
    case GB_ALGO_EDGE_EXACT:
    case GB_ALGO_EDGE_PARTITIONED:
      return NS_EDGE_AXIS * p->iterations + NS_EDGE_SPACINGS / 2;
    default:
      return NS_DERICHE_AXIS;
    }
}

gdouble
cudablur_cpu_seconds (const gb_params *p, gint channels, gdouble pixels)
{
  const gdouble ns = (NS_IO + axis_ns (p, 0) + axis_ns (p, 1))
                     * MAX (channels, 1) / 3.0;
  return pixels * ns * 1e-9 / gb_cpu_threads ();
}

gdouble
cudablur_call_budget (void)
{
  const gchar *s = g_getenv ("CUDABLUR_CALL_SECONDS");
  const gdouble v = s ? g_ascii_strtod (s, NULL) : 0.0;
  return v > 0.0 && isfinite (v) ? v : 0.2;
}

/* ---- the plan ----------------------------------------------------------- */

#define MIN_SIDE 768
/* GIMP's canvas works in iterations of 1/15 s (app/core/
 * gimpchunkiterator.c), and sizes its chunks to them by the time the
 * last ones took. */
#define CHUNK_SECONDS (1.0 / 15.0)

/* CUDABLUR_PLAN=whole|requests|blocks, for tests: that plan, whatever the
 * cost (blocks of the size the budget gives). */
static const gchar *
forced_plan (void)
{
  const gchar *s = g_getenv ("CUDABLUR_PLAN");
  return s && (!strcmp (s, "whole") || !strcmp (s, "requests")
               || !strcmp (s, "blocks")) ? s : NULL;
}

gint
cudablur_block_side (const gb_params *p, gint channels,
                     const GeglRectangle *image)
{
  const gchar *forced = forced_plan ();
  const gdouble budget = cudablur_call_budget ();
  const gdouble pixels = (gdouble) image->width * image->height;
  const gdouble per_pixel = cudablur_cpu_seconds (p, channels, 1.0);
  if (forced ? !strcmp (forced, "whole") : per_pixel * pixels <= budget)
    return CUDABLUR_WHOLE;
  const gint reach = MAX (cudablur_reach (p, 0, GB_BACKEND_CPU),
                          cudablur_reach (p, 1, GB_BACKEND_CPU));
  /* Where a chunk of GIMP's iteration is wide next to the reach (five
   * times it), each request is computed as asked: GIMP's chunks then
   * follow what they cost, one iteration's worth each, and the reach
   * computed around them costs at most 2.8 times the chunk. */
  if (forced ? !strcmp (forced, "requests")
             : 5.0 * reach <= sqrt (CHUNK_SECONDS / per_pixel))
    return CUDABLUR_REQUESTS;
  /* Else blocks: the widest square with its reach that fits the budget,
   * in GEGL's tiles of 128 pixels ... */
  const gdouble fits = sqrt (budget / per_pixel);
  gint side = ((gint) (fits - 2.0 * reach) / 128) * 128;
  /* ... but never one that repeats more than three times its own area
   * of reach (there, one call takes longer than the budget at full
   * resolution; at a mipmap level of 1/4 it is 16 times cheaper), nor one
   * smaller than MIN_SIDE: GIMP's chunks grow while its requests find the
   * cache full (to some 500,000 pixels on two cores), and a chunk then
   * reaches every new block it touches in one call: at least MIN_SIDE,
   * it touches at most two a side. */
  side = MAX (side, ((2 * reach + 127) / 128) * 128);
  side = MAX (side, MIN_SIDE);
  const gdouble with_reach = (gdouble) (side + 2 * reach) * (side + 2 * reach);
  if (!forced && with_reach >= pixels)
    return CUDABLUR_WHOLE;
  return side;
}
