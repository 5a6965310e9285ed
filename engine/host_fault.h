/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fault injection for tests, on the host side (cuda/fault.h has the
 * GPU's): GB_HOST_FAULT=alloc makes the native CPU path's work image
 * (gb_blur_native's largest host allocation) fail as an exhausted
 * memory would, so that every caller's handling of GB_ERR_NO_MEMORY
 * can be proved, in GIMP too. */
#ifndef GB_HOST_FAULT_H
#define GB_HOST_FAULT_H

/* Whether GB_HOST_FAULT names this point ("alloc"). */
int gb_host_fault_at (const char *point);

#endif
