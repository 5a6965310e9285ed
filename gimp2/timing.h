/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CUDABLUR_TIMING=1: one line per render on stderr with the time of each
 * stage, for `make bench-gimp` and for anyone who wants to see where a
 * call's time goes. */
#ifndef CUDABLUR_TIMING_H
#define CUDABLUR_TIMING_H

#include "render.h"

/* Whether CUDABLUR_TIMING asks for timings. */
gboolean cudablur_timing_wanted (void);

/* Starts a per-call peak memory measurement (resets the kernel's peak
 * RSS of this process, which lives on between calls when resident). */
void cudablur_timing_start (void);

/* Prints the line:  cudablur-timing: key=value ...  */
void cudablur_timing_print (const CudablurTiming *t, gboolean resident,
                            gdouble gegl_init, gdouble total);

#endif
