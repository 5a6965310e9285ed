#include <stdlib.h>
#include <string.h>

#include "fault.h"

int
gb_cuda_fault_at (const char *point)
{
  const char *f = getenv ("GB_CUDA_FAULT");
  return f && strcmp (f, point) == 0;
}

gb_status
gb_cuda_fault_status (void)
{
  if (gb_cuda_fault_at ("alloc"))
    return GB_ERR_CUDA_NO_MEMORY;
  if (gb_cuda_fault_at ("launch"))
    return GB_ERR_CUDA_LAUNCH;
  if (gb_cuda_fault_at ("copy"))
    return GB_ERR_CUDA_COPY;
  return GB_OK;
}
