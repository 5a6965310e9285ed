/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A line per process() call, when CUDABLUR_OP_LOG names a file
 * (gegl/oplog.c): what GIMP asks of the operation, at which mipmap level
 * and on which thread, what the operation computed for it and how long
 * that took.  The tests read it to check what a redraw computes. */
#ifndef CUDABLUR_GEGL_OPLOG_H
#define CUDABLUR_GEGL_OPLOG_H

#include <gegl.h>

#include "gblur.h"

/* Whether the log is on (CUDABLUR_OP_LOG set when first asked). */
gboolean cudablur_log_enabled (void);

/* The monotonic clock, in seconds. */
gdouble cudablur_log_now (void);

/* One call: the rectangle asked for (full-resolution coordinates), the
 * level, the mode ("whole", "requests", "blocks", "region", "copy"), the
 * blocks' side (full-resolution pixels; 0 without blocks) and the reach
 * computed around what is asked (level pixels), the engine calls it
 * made (blocks) and the blocks GEGL's cache held (cached), the pixels
 * those calls read with the reach (level pixels), the backend that ran,
 * when the call started and how long it took, and its outcome. */
void cudablur_log_process (gint level, const GeglRectangle *result,
                           const char *mode, gint side, gint reach,
                           gint blocks, gint cached,
                           gdouble pixels, gb_backend backend,
                           gdouble started, gdouble seconds,
                           gb_status status);

#endif
