/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What one render of cudablur:gaussian-blur computes (gegl/region.c):
 * how far the blur reaches, what a CPU run costs, and so whether a
 * request is computed with the whole image or in blocks. */
#ifndef CUDABLUR_GEGL_REGION_H
#define CUDABLUR_GEGL_REGION_H

#include <gegl.h>

#include "gblur.h"

/* The weight a region's computation may leave out, both tails of an axis
 * together: below float precision (2^-24), so that a region equals the
 * same region of the whole image within float rounding. */
#define CUDABLUR_TAIL_WEIGHT (1.0 / 16777216.0)

/* How far the blur reaches on an axis (0 x, 1 y), in pixels, for the
 * values in p run on `backend` (auto resolves per backend): beyond it
 * the impulse response holds less than CUDABLUR_TAIL_WEIGHT.  The FIR's
 * radius; for the recursive and edge-aware filters measured once on an
 * impulse (the edge-aware ones on a flat line, where they reach
 * furthest).  Thread-safe; remembers what it measured. */
gint cudablur_reach (const gb_params *p, gint axis, gb_backend backend);

/* The reach in full-resolution pixels that covers every mipmap level up
 * to 8 (p at level 0): what a request at an unknown level may need. */
gint cudablur_reach_any_level (const gb_params *p, gint axis);

/* Seconds a CPU run of p over `pixels` pixels of `channels` channels
 * takes on all of this machine's cores, reading and writing GEGL
 * buffers included: an estimate from per-pixel costs measured on a
 * two-core machine (see region.c). */
gdouble cudablur_cpu_seconds (const gb_params *p, gint channels,
                              gdouble pixels);

/* How long one process() call may take, as estimated: renders of the
 * canvas run on GIMP's main thread.  CUDABLUR_CALL_SECONDS overrides it
 * (for tests and measurements). */
gdouble cudablur_call_budget (void);

/* How a CPU render of an image is computed: CUDABLUR_WHOLE, the whole
 * image at once (it fits the call budget, or blocks would read more than
 * the image); CUDABLUR_REQUESTS, each request as asked with the reach
 * around it (the reach is small next to a chunk GIMP computes in one
 * iteration of its main loop); or the side of the square blocks the
 * requests are computed in (full-resolution pixels, a multiple of 128,
 * at least 768), so that one block with its reach takes about the call
 * budget at level 0 where it can, and less at any other level.
 * CUDABLUR_PLAN=whole|requests|blocks imposes one (for tests). */
#define CUDABLUR_WHOLE 0
#define CUDABLUR_REQUESTS (-1)
gint cudablur_block_side (const gb_params *p, gint channels,
                          const GeglRectangle *image);

#endif
