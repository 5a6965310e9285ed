/* gb_blur: validates, normalises tiny sigmas, decides the backend before
 * touching CUDA, resolves auto per backend, runs each axis with an
 * algorithm valid at its sigma, and falls back from a failed GPU run to
 * the CPU, re-running from the untouched source. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gblur.h"
#include "cpu_backend.h"
#include "../cuda/gb_cuda.h"

/* Smaller images are faster on the CPU once uploads and downloads are
 * counted: a 512x512 RGBA float image is 4 MiB each way. */
#define GB_GPU_MIN_PIXELS (512L * 512L)
/* After this many GPU failures in a process the GPU is not tried again. */
#define GB_GPU_MAX_FAILURES 3

static atomic_int gpu_failures;

static double
now_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static void
say (gb_report *r, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (r->reason, sizeof r->reason, fmt, ap);
  va_end (ap);
}

static int
gpu_status_is_failure (gb_status st)
{
  return st == GB_ERR_CUDA_NO_MEMORY || st == GB_ERR_CUDA_LAUNCH
         || st == GB_ERR_CUDA_COPY;
}

int
gb_cuda_info (char *buf, size_t size)
{
  char name[200] = "";
  gb_status st = gb_cuda_probe (name, sizeof name);
  if (st == GB_OK && atomic_load (&gpu_failures) >= GB_GPU_MAX_FAILURES)
    {
      st = GB_ERR_CUDA_DISABLED;
      snprintf (name, sizeof name, "%s", gb_status_message (st));
    }
  if (buf && size)
    snprintf (buf, size, "%s", name);
  return st == GB_OK;
}

void
gb_shutdown (void)
{
  gb_cuda_release ();
}

double
gb_effective_sigma (double sigma)
{
  return sigma < GB_SIGMA_IDENTITY ? 0.0 : sigma;
}

static int
is_recursive (gb_algorithm a)
{
  return a == GB_ALGO_YVRG || a == GB_ALGO_YVRG_TWO_WAY
         || a == GB_ALGO_DERICHE;
}

/* The algorithm one axis runs: a recursive filter below the sigma its
 * coefficients hold for becomes the exact FIR. */
static gb_algorithm
axis_algorithm (gb_algorithm a, double sigma)
{
  return is_recursive (a) && sigma > 0.0 && sigma < GB_SIGMA_RECURSIVE_MIN
         ? GB_ALGO_FIR : a;
}

/* Decides whether to try the GPU, cheapest questions first, so that CUDA
 * is probed (a context created) only when the GPU would really run; on
 * "no", records why. */
static int
want_gpu (const gb_params *p, const gb_image *src, gb_report *r)
{
  char name[200] = "";
  gb_status st;

  if (p->backend == GB_BACKEND_CPU)
    {
      say (r, "CPU requested");
      return 0;
    }
  if (atomic_load (&gpu_failures) >= GB_GPU_MAX_FAILURES)
    {
      r->gpu_status = GB_ERR_CUDA_DISABLED;
      say (r, "%s; ran on the CPU", gb_status_message (GB_ERR_CUDA_DISABLED));
      return 0;
    }
  if (!gb_cuda_built ())
    {
      r->gpu_status = GB_ERR_CUDA_NOT_BUILT;
      say (r, "GPU not used: %s; ran on the CPU",
           gb_status_message (GB_ERR_CUDA_NOT_BUILT));
      return 0;
    }
  if (!gb_cuda_supports (p->algorithm))
    {
      r->gpu_status = GB_ERR_NOT_AVAILABLE;
      say (r, "%s has no GPU implementation; ran on the CPU",
           gb_algorithm_name (p->algorithm));
      return 0;
    }
  if (p->backend == GB_BACKEND_AUTO
      && (long) src->width * src->height < GB_GPU_MIN_PIXELS)
    {
      say (r, "image smaller than %ld pixels is faster on the CPU",
           GB_GPU_MIN_PIXELS);
      return 0;
    }
  st = gb_cuda_probe (name, sizeof name);
  if (st != GB_OK)
    {
      r->gpu_status = st;
      say (r, "GPU not used: %s; ran on the CPU", name);
      return 0;
    }
  say (r, "ran on %s", name);
  return 1;
}

/* Progress of one axis run mapped into its share of the whole. */
typedef struct
{
  gb_progress_fn fn;
  void *user;
  double base, span;
} share;

static int
on_share (double fraction, void *user)
{
  const share *s = user;
  return s->fn (s->base + s->span * fraction, s->user);
}

/* One run of a resolved algorithm on the chosen backend; a failed GPU run
 * is redone on the CPU from src, which the GPU never writes. */
static gb_status
run_resolved (const gb_params *p, int gpu, const gb_image *src,
              const gb_image *dst, gb_progress_fn progress, void *user,
              gb_report *r)
{
  gb_status st;
  if (gpu)
    {
      st = gb_cuda_run (p, src, dst, progress, user, r);
      if (st == GB_OK || st == GB_ERR_CANCELLED)
        {
          r->backend_used = GB_BACKEND_CUDA;
          return st;
        }
      if (gpu_status_is_failure (st))
        atomic_fetch_add (&gpu_failures, 1);
      r->gpu_status = st;
      char detail[sizeof r->reason];
      snprintf (detail, sizeof detail, "%s", r->reason);
      say (r, "GPU failed (%s: %.150s); re-ran on the CPU",
           gb_status_message (st), detail);
      r->seconds_upload = r->seconds_compute = r->seconds_download = 0.0;
    }
  gb_progress_span span = { progress, user, 0.0, 1.0 };
  double tc = now_seconds ();
  r->backend_used = GB_BACKEND_CPU;
  st = gb_cpu_run (p, src, dst, progress ? &span : NULL, r);
  r->seconds_compute += now_seconds () - tc;
  return st;
}

gb_status
gb_blur (const gb_params *params, const gb_image *src, const gb_image *dst,
         gb_progress_fn progress, void *user, gb_report *report)
{
  gb_report local;
  gb_report *r = report ? report : &local;
  gb_status st = gb_validate (params, src, dst);
  double t0 = now_seconds ();

  memset (r, 0, sizeof *r);
  r->backend_used = GB_BACKEND_CPU;
  if (st != GB_OK)
    {
      say (r, "%s", gb_status_message (st));
      return st;
    }

  gb_params p = *params;
  p.sigma_x = gb_effective_sigma (p.sigma_x);
  p.sigma_y = gb_effective_sigma (p.sigma_y);
  r->algorithm_used = gb_resolve_algorithm (p.algorithm, p.sigma_x,
                                            p.sigma_y, GB_BACKEND_CPU);
  if (!(p.sigma_x > 0.0) && !(p.sigma_y > 0.0))
    {
      gb_image_copy (src, dst);
      say (r, "standard deviations below %g: nothing to blur",
           GB_SIGMA_IDENTITY);
      if (progress)
        progress (1.0, user);
      return GB_OK;
    }

  /* Auto resolves per backend (the crossover differs), so the backend is
   * decided first, for the algorithm auto would pick there. */
  p.algorithm = gb_resolve_algorithm (params->algorithm, p.sigma_x, p.sigma_y,
                                      GB_BACKEND_CUDA);
  int gpu = want_gpu (&p, src, r);
  if (!gpu)
    p.algorithm = gb_resolve_algorithm (params->algorithm, p.sigma_x,
                                        p.sigma_y, GB_BACKEND_CPU);
  r->algorithm_used = p.algorithm;

  gb_algorithm ax = axis_algorithm (p.algorithm, p.sigma_x);
  gb_algorithm ay = axis_algorithm (p.algorithm, p.sigma_y);
  if (!(p.sigma_x > 0.0))
    ax = ay;
  if (!(p.sigma_y > 0.0))
    ay = ax;
  if (ax == ay)
    {
      p.algorithm = ax;
      r->algorithm_used = ax;
      st = run_resolved (&p, gpu, src, dst, progress, user, r);
    }
  else
    {
      /* Rows with one algorithm, then columns in place with the other. */
      gb_params px = p, py = p;
      px.algorithm = ax;
      px.sigma_y = 0.0;
      py.algorithm = ay;
      py.sigma_x = 0.0;
      share s = { progress, user, 0.0, 0.5 };
      st = run_resolved (&px, gpu, src, dst, progress ? on_share : NULL, &s, r);
      if (st == GB_OK)
        {
          gb_report first = *r;
          s.base = 0.5;
          gpu = gpu && first.backend_used == GB_BACKEND_CUDA;
          r->seconds_upload = r->seconds_compute = r->seconds_download = 0.0;
          st = run_resolved (&py, gpu, dst, dst, progress ? on_share : NULL,
                             &s, r);
          r->seconds_upload += first.seconds_upload;
          r->seconds_compute += first.seconds_compute;
          r->seconds_download += first.seconds_download;
        }
      r->algorithm_used = p.algorithm;
    }
  r->seconds_total = now_seconds () - t0;
  if (progress && st == GB_OK)
    progress (1.0, user);
  return st;
}
