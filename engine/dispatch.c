/* SPDX-License-Identifier: GPL-3.0-or-later */
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
#include "big_alloc.h"
#include "border.h"
#include "cpu_backend.h"
#include "dispatch.h"
#include "backend.h"

#define GB_GPU_MIN_PIXELS ((long) GB_GPU_MIN_SIDE * GB_GPU_MIN_SIDE)
/* After this many GPU failures in a process the GPU is not tried again. */
#define GB_GPU_MAX_FAILURES 3

static atomic_int gpu_failures;

double
gb_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static void
record_reason (gb_report *r, const char *fmt, ...)
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
gb_is_device_failure (gb_status st)
{
  return gpu_status_is_failure (st) || st == GB_ERR_CUDA_NO_DEVICE;
}

void
gb_note_gpu_failure (gb_status st, gb_report *r)
{
  if (gpu_status_is_failure (st))
    atomic_fetch_add (&gpu_failures, 1);
  r->gpu_status = st;
  char detail[sizeof r->reason];
  snprintf (detail, sizeof detail, "%s", r->reason);
  record_reason (r, "GPU failed (%s: %.150s); re-ran on the CPU",
       gb_status_message (st), detail);
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
  gb_big_trim ();
}

int
gb_gpu_context_alive (void)
{
  return gb_cuda_context_alive ();
}

size_t
gb_gpu_memory_available (void)
{
  return gb_cuda_memory_available ();
}

void
gb_trim (void)
{
  gb_cuda_trim ();
  gb_big_trim ();
}

void
gb_trim_idle (void)
{
  gb_cuda_trim_idle ();
  gb_big_trim ();
}

double
gb_effective_sigma (double sigma)
{
  return sigma < GB_SIGMA_IDENTITY ? 0.0 : sigma;
}

/* The algorithm one axis runs: a filter below the sigma its constants
 * hold for (the recursive ones) becomes the exact FIR. */
static gb_algorithm
axis_algorithm (gb_algorithm a, double sigma)
{
  const gb_algorithm_info *info = gb_algorithm_get (a);
  return info && sigma > 0.0 && sigma < info->fir_below ? GB_ALGO_FIR : a;
}

/* Decides whether to try the GPU, cheapest questions first, so that CUDA
 * is probed (a context created) only when the GPU would really run; on
 * "no", records why. */
static int
want_gpu (const gb_params *p, int width, int height, int probe, gb_report *r)
{
  char name[200] = "";
  gb_status st;

  if (p->backend == GB_BACKEND_CPU)
    {
      record_reason (r, "CPU requested");
      return 0;
    }
  if (atomic_load (&gpu_failures) >= GB_GPU_MAX_FAILURES)
    {
      r->gpu_status = GB_ERR_CUDA_DISABLED;
      record_reason (r, "%s; ran on the CPU", gb_status_message (GB_ERR_CUDA_DISABLED));
      return 0;
    }
  if (!gb_cuda_built ())
    {
      r->gpu_status = GB_ERR_CUDA_NOT_BUILT;
      record_reason (r, "GPU not used: %s; ran on the CPU",
           gb_status_message (GB_ERR_CUDA_NOT_BUILT));
      return 0;
    }
  if (!gb_algorithm_get (p->algorithm)->gpu)
    {
      record_reason (r, "%s has no GPU implementation; ran on the CPU",
           gb_algorithm_name (p->algorithm));
      return 0;
    }
  if (p->backend == GB_BACKEND_AUTO
      && (long) width * height < GB_GPU_MIN_PIXELS)
    {
      /* Where asking costs nothing, a missing GPU is the better reason. */
      if (gb_cuda_probe_is_cheap ()
          && (st = gb_cuda_probe (name, sizeof name)) != GB_OK)
        {
          r->gpu_status = st;
          record_reason (r, "GPU not used: %s; ran on the CPU", name);
        }
      else
        record_reason (r, "images smaller than %ld pixels are faster on the CPU",
             GB_GPU_MIN_PIXELS);
      return 0;
    }
  if (!probe)
    {
      record_reason (r, "GPU chosen, probed by the caller");
      return 1;
    }
  st = gb_cuda_probe (name, sizeof name);
  if (st != GB_OK)
    {
      r->gpu_status = st;
      record_reason (r, "GPU not used: %s; ran on the CPU", name);
      return 0;
    }
  record_reason (r, "ran on %s", name);
  return 1;
}

static void
resolve_axes (const gb_params *params, gb_backend backend, gb_plan *plan)
{
  gb_params *p = &plan->p;
  p->algorithm = gb_resolve_algorithm (params->algorithm, p->sigma_x,
                                       p->sigma_y, backend);
  plan->ax = axis_algorithm (p->algorithm, p->sigma_x);
  plan->ay = axis_algorithm (p->algorithm, p->sigma_y);
  if (!(p->sigma_x > 0.0))
    plan->ax = plan->ay;
  if (!(p->sigma_y > 0.0))
    plan->ay = plan->ax;
  if (plan->ax == plan->ay)
    p->algorithm = plan->ax;
}

void
gb_plan_make (const gb_params *params, int width, int height, int probe,
              gb_plan *plan, gb_report *r)
{
  memset (plan, 0, sizeof *plan);
  plan->p = *params;
  plan->p.sigma_x = gb_effective_sigma (params->sigma_x);
  plan->p.sigma_y = gb_effective_sigma (params->sigma_y);
  plan->blur = plan->p.sigma_x > 0.0 || plan->p.sigma_y > 0.0;
  r->backend_used = GB_BACKEND_CPU;
  if (!plan->blur)
    {
      resolve_axes (params, GB_BACKEND_CPU, plan);
      r->algorithm_used = plan->p.algorithm;
      record_reason (r, "standard deviations below %g: nothing to blur",
           GB_SIGMA_IDENTITY);
      return;
    }
  /* Auto resolves per backend (the crossover differs), so the backend is
   * decided first, for the algorithm auto would pick there. */
  resolve_axes (params, GB_BACKEND_CUDA, plan);
  plan->gpu = want_gpu (&plan->p, width, height, probe, r);
  if (!plan->gpu)
    resolve_axes (params, GB_BACKEND_CPU, plan);
  r->algorithm_used = plan->p.algorithm;
}

void
gb_plan_use_cpu (const gb_params *params, gb_plan *plan)
{
  plan->gpu = 0;
  resolve_axes (params, GB_BACKEND_CPU, plan);
}

/* Both axes on the CPU: one run, or rows then columns in place when they
 * take different algorithms. */
gb_status
gb_plan_run_cpu (const gb_plan *plan, const gb_image *src, const gb_image *dst,
         gb_progress_fn progress, void *user, gb_report *r)
{
  gb_params p = plan->p;
  if (plan->ax == plan->ay)
    {
      gb_progress_span span = { progress, user, 0.0, 1.0 };
      p.algorithm = plan->ax;
      return gb_cpu_run (&p, src, dst, progress ? &span : NULL, r);
    }
  gb_progress_span s = { progress, user, 0.0, 0.5 };
  gb_progress_span span = { progress ? gb_progress_span_report : NULL, &s, 0.0, 1.0 };
  p.algorithm = plan->ax;
  p.sigma_y = 0.0;
  gb_status st = gb_cpu_run (&p, src, dst, progress ? &span : NULL, r);
  if (st != GB_OK)
    return st;
  p = plan->p;
  p.algorithm = plan->ay;
  p.sigma_x = 0.0;
  s.base = 0.5;
  return gb_cpu_run (&p, dst, dst, progress ? &span : NULL, r);
}

/* gb_blur after validation, with replicated borders. */
static gb_status
blur_valid (const gb_params *params, const gb_image *src,
            const gb_image *dst, gb_progress_fn progress, void *user,
            gb_report *r)
{
  gb_status st = GB_OK;
  gb_plan plan;
  gb_plan_make (params, src->width, src->height, 1, &plan, r);
  if (!plan.blur)
    {
      gb_image_copy (src, dst);
      if (progress)
        progress (1.0, user);
      return GB_OK;
    }
  if (plan.gpu)
    {
      st = gb_cuda_run (&plan.p, plan.ax, plan.ay, src, dst, progress, user,
                        r);
      if (st == GB_OK || st == GB_ERR_CANCELLED)
        r->backend_used = GB_BACKEND_CUDA;
      else if (gb_is_device_failure (st))
        {
          /* The GPU never writes dst before it succeeded: redo it all on
           * the CPU from src, with auto resolved for the CPU. */
          gb_note_gpu_failure (st, r);
          r->seconds_upload = r->seconds_compute = r->seconds_download = 0.0;
          gb_plan_use_cpu (params, &plan);
        }
    }
  if (!plan.gpu)
    {
      double tc = gb_now ();
      r->backend_used = GB_BACKEND_CPU;
      r->algorithm_used = plan.p.algorithm;
      st = gb_plan_run_cpu (&plan, src, dst, progress, user, r);
      r->seconds_compute = gb_now () - tc;
    }
  if (progress && st == GB_OK)
    progress (1.0, user);
  return st;
}

gb_status
gb_blur (const gb_params *params, const gb_image *src, const gb_image *dst,
         gb_progress_fn progress, void *user, gb_report *report)
{
  gb_report local;
  gb_report *r = report ? report : &local;
  gb_status st = gb_validate (params, src, dst);
  double t0 = gb_now ();

  memset (r, 0, sizeof *r);
  r->backend_used = GB_BACKEND_CPU;
  if (st != GB_OK)
    {
      record_reason (r, "%s", gb_status_message (st));
      return st;
    }
  st = params->border == GB_BORDER_CLAMP
       ? blur_valid (params, src, dst, progress, user, r)
       : gb_blur_framed (params, src, dst, progress, user, r, blur_valid);
  r->seconds_total = gb_now () - t0;
  return st;
}

gb_backend
gb_backend_for (const gb_params *params, int width, int height)
{
  gb_plan plan;
  gb_report r;
  memset (&r, 0, sizeof r);
  gb_plan_make (params, width, height, 0, &plan, &r);
  return plan.gpu ? GB_BACKEND_CUDA : GB_BACKEND_CPU;
}
