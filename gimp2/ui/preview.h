/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The dialog's preview: the part of the drawable the blur changes, zoomed
 * and scrolled by the user, blurred as the final result will be (sigma
 * times the preview's pixels per image pixel, a halo of the blur's reach
 * read around the visible part, the selection mask applied), rendered on
 * a worker thread so that the dialog stays responsive.  Split view shows
 * the original left of a movable line.
 *
 * CUDABLUR_PREVIEW_DUMP=DIR writes each preview shown as
 * DIR/preview-NNN.pam with DIR/preview-NNN.txt (its scaled rectangle and
 * values) and logs requests and results in DIR/render.log, for the tests
 * that compare the preview with the final result. */
#ifndef CUDABLUR_PREVIEW_H
#define CUDABLUR_PREVIEW_H

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "../values.h"

typedef struct _CudablurPreview CudablurPreview;

/* A preview of drawable_id blurred with *vals (read at each render, so
 * the dialog changes them in place and calls _invalidate).  Zoom
 * shortcuts (Ctrl + plus, minus, 0 and 1) go into accel.  NULL when the
 * drawable cannot be read. */
CudablurPreview *cudablur_preview_new (gint32 drawable_id,
                                       const gb_params *vals,
                                       GtkAccelGroup *accel);

/* The preview's widget (preview, zoom bar and status line) to pack; the
 * preview is freed when it is destroyed. */
GtkWidget *cudablur_preview_widget (CudablurPreview *p);

/* The values changed: render again shortly. */
void cudablur_preview_invalidate (CudablurPreview *p);

#endif
