/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA backend of a build without nvcc: it says so, and the
 * dispatcher runs everything on the CPU.  Under fault injection it plays a
 * simulated device that fails the way GB_CUDA_FAULT asks, so that the
 * fallback is tested in this configuration too. */
#include <stdio.h>
#include <stdlib.h>

#include "../engine/backend.h"
#include "fault.h"

static int
simulated (void)
{
  return gb_cuda_fault_at ("probe") || gb_cuda_fault_status () != GB_OK;
}

int
gb_cuda_built (void)
{
  return simulated ();
}

gb_status
gb_cuda_probe (char *name, size_t size)
{
  gb_status st = GB_ERR_CUDA_NOT_BUILT;
  const char *what = gb_status_message (st);
  if (gb_cuda_fault_at ("probe"))
    {
      st = GB_ERR_CUDA_NO_DEVICE;
      what = "no usable CUDA device (GB_CUDA_FAULT=probe)";
    }
  else if (simulated ())
    {
      st = GB_OK;
      what = GB_CUDA_FAULT_DEVICE_NAME;
    }
  if (name && size)
    snprintf (name, size, "%s", what);
  return st;
}

gb_status
gb_cuda_run (const gb_params *params, gb_algorithm ax, gb_algorithm ay,
             const gb_image *src, const gb_image *dst,
             gb_progress_fn progress, void *user, gb_report *report)
{
  (void) params; (void) ax; (void) ay; (void) src; (void) dst;
  (void) progress; (void) user;
  gb_status injected = gb_cuda_fault_status ();
  if (injected != GB_OK && report)
    snprintf (report->reason, sizeof report->reason,
              "simulated failure, GB_CUDA_FAULT=%.100s",
              getenv ("GB_CUDA_FAULT"));
  return injected != GB_OK ? injected : GB_ERR_CUDA_NOT_BUILT;
}

int
gb_cuda_probe_is_cheap (void)
{
  /* No context to start, except the simulated one of fault injection,
   * which plays a cold device. */
  return !simulated ();
}

gb_status
gb_cuda_prepare (size_t native_bytes, size_t work_bytes, int third_buffer,
                 char *why, size_t size)
{
  (void) native_bytes; (void) work_bytes; (void) third_buffer;
  return gb_cuda_probe (why, size);
}

gb_status
gb_cuda_run_native (const gb_params *params, gb_algorithm ax,
                    gb_algorithm ay, const gb_native_io *io,
                    gb_progress_fn progress, void *user, gb_report *report)
{
  (void) io;
  return gb_cuda_run (params, ax, ay, NULL, NULL, progress, user, report);
}

gb_status
gb_cuda_edge_pass (const gb_params *params, int iteration, int vertical,
                   int whole_lines, const gb_image *img,
                   const gb_image *original, gb_report *report)
{
  (void) iteration; (void) vertical; (void) whole_lines; (void) original;
  return gb_cuda_run (params, params->algorithm, params->algorithm, img, img,
                      NULL, NULL, report);
}

size_t
gb_cuda_memory_available (void)
{
  return 0;
}

void
gb_cuda_trim (void)
{
}

void
gb_cuda_trim_idle (void)
{
}

int
gb_cuda_context_alive (void)
{
  return 0;
}

void
gb_cuda_release (void)
{
}
