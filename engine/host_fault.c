/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "host_fault.h"

int
gb_host_fault_at (const char *point)
{
  const char *f = getenv ("GB_HOST_FAULT");
  return f && strcmp (f, point) == 0;
}
