/* gb_blur: validates, resolves auto, picks a backend and falls back from a
 * failed GPU run to the CPU, re-running from the untouched source. */
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

/* Decides whether to try the GPU; on "no", records why. */
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
  if (!gb_cuda_supports (p->algorithm))
    {
      r->gpu_status = GB_ERR_NOT_AVAILABLE;
      say (r, "%s has no GPU implementation; ran on the CPU",
           gb_algorithm_name (p->algorithm));
      return 0;
    }
  if (atomic_load (&gpu_failures) >= GB_GPU_MAX_FAILURES)
    {
      r->gpu_status = GB_ERR_CUDA_DISABLED;
      say (r, "%s; ran on the CPU", gb_status_message (GB_ERR_CUDA_DISABLED));
      return 0;
    }
  st = gb_cuda_probe (name, sizeof name);
  if (st != GB_OK)
    {
      r->gpu_status = st;
      say (r, "GPU not used: %s; ran on the CPU", name);
      return 0;
    }
  if (p->backend == GB_BACKEND_AUTO
      && (long) src->width * src->height < GB_GPU_MIN_PIXELS)
    {
      say (r, "image smaller than %ld pixels is faster on the CPU",
           GB_GPU_MIN_PIXELS);
      return 0;
    }
  say (r, "ran on %s", name);
  return 1;
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
  if (!gb_algorithm_available (p.algorithm))
    {
      say (r, "%s: %s", gb_algorithm_name (p.algorithm),
           gb_status_message (GB_ERR_NOT_AVAILABLE));
      return GB_ERR_NOT_AVAILABLE;
    }

  /* Auto resolves per backend: the crossover differs. */
  p.algorithm = gb_resolve_algorithm (params->algorithm, p.sigma_x, p.sigma_y,
                                      GB_BACKEND_CUDA);
  r->algorithm_used = p.algorithm;
  if (want_gpu (&p, src, r))
    {
      st = gb_cuda_run (&p, src, dst, progress, user, r);
      if (st == GB_OK || st == GB_ERR_CANCELLED)
        {
          r->backend_used = GB_BACKEND_CUDA;
          r->seconds_total = now_seconds () - t0;
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
  p.algorithm = gb_resolve_algorithm (params->algorithm, p.sigma_x, p.sigma_y,
                                      GB_BACKEND_CPU);
  r->algorithm_used = p.algorithm;
  st = gb_cpu_run (&p, src, dst, progress ? &span : NULL, r);
  r->seconds_compute = now_seconds () - tc;
  r->seconds_total = now_seconds () - t0;
  if (progress && st == GB_OK)
    progress (1.0, user);
  return st;
}
