/* SPDX-License-Identifier: GPL-3.0-or-later */
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

size_t
gb_cuda_shm_limit (size_t device_optin)
{
  const char *l = getenv ("GB_CUDA_SHM_LIMIT");
  char *end = NULL;
  unsigned long long v = l ? strtoull (l, &end, 10) : 0;
  if (!l || end == l || *end != '\0' || v == 0 || v >= device_optin)
    return device_optin;
  return (size_t) v;
}

/* What the device has, unless the environment variable `off` is set (to
 * anything but the empty string). */
static int
unless_turned_off (int device_has, const char *off)
{
  const char *n = getenv (off);
  return device_has && !(n && *n);
}

int
gb_cuda_clusters_allowed (int device_has)
{
  return unless_turned_off (device_has, "GB_CUDA_NO_CLUSTERS");
}

int
gb_cuda_pdl_allowed (int device_has)
{
  return unless_turned_off (device_has, "GB_CUDA_NO_PDL");
}

int
gb_cuda_pairs_always (void)
{
  const char *n = getenv ("GB_CUDA_PAIRS_ALWAYS");
  return n && *n;
}
