/* The CUDA backend of a build without nvcc: it says so, and the
 * dispatcher runs everything on the CPU. */
#include <stdio.h>

#include "gb_cuda.h"
#include "fault.h"

gb_status
gb_cuda_probe (char *name, size_t size)
{
  if (gb_fault_status () != GB_OK)
    {
      if (name && size)
        snprintf (name, size, "%s", GB_FAULT_DEVICE_NAME);
      return GB_OK;
    }
  if (name && size)
    snprintf (name, size, "%s", gb_status_message (GB_ERR_CUDA_NOT_BUILT));
  return GB_ERR_CUDA_NOT_BUILT;
}

gb_status
gb_cuda_run (const gb_params *params, const gb_image *src,
             const gb_image *dst, gb_progress_fn progress, void *user,
             gb_report *report)
{
  (void) params; (void) src; (void) dst;
  (void) progress; (void) user; (void) report;
  gb_status injected = gb_fault_status ();
  return injected != GB_OK ? injected : GB_ERR_CUDA_NOT_BUILT;
}

int
gb_cuda_supports (gb_algorithm algorithm)
{
  /* The simulated device of fault injection "runs" what the GPU will. */
  return (algorithm == GB_ALGO_FIR || algorithm == GB_ALGO_YVRG
          || algorithm == GB_ALGO_YVRG_TWO_WAY
          || algorithm == GB_ALGO_DERICHE || algorithm == GB_ALGO_EDGE_EXACT
          || algorithm == GB_ALGO_EDGE_PARTITIONED)
         && gb_fault_status () != GB_OK;
}

void
gb_cuda_release (void)
{
}
