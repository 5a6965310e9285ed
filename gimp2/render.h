/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The render path: a drawable's selected part blurred and merged. */
#ifndef CUDABLUR_RENDER_H
#define CUDABLUR_RENDER_H

#include <libgimp/gimp.h>

#include "values.h"

/* What one render took, for CUDABLUR_TIMING (gimp2/timing.c). */
typedef struct
{
  const gchar *format;    /* the babl format moved through GEGL */
  gboolean native;        /* the drawable's own (else linear float) */
  gint width, height;     /* the area read */
  gdouble flush;          /* last tiles of the shadow buffer to GIMP */
  gdouble merge;          /* merging the shadow, with undo */
  gb_report report;       /* the engine's stages */
} CudablurTiming;

/* Blurs the drawable's selected part and merges it with one undo step.
 * Returns GIMP_PDB_SUCCESS, or an error with *message set (g_free it).
 * *device_used receives GB_BACKEND_CUDA or GB_BACKEND_CPU. */
GimpPDBStatusType cudablur_render_drawable (gint32 drawable_id,
                                            const gb_params *vals,
                                            gboolean show_progress,
                                            CudablurTiming *timing,
                                            gint32 *device_used,
                                            gchar **message);

/* The pixel format the render moves for this drawable and these values:
 * its own (TRUE) when the engine converts it, else float in its colour
 * space (FALSE, babl converting).  Perceptual blurs move the encoded
 * values and tell the engine they are linear, so that it blurs them as
 * they are; "None" on a drawable without alpha moves an alpha channel of
 * 1 (the layer ends at its edge).  *format is the matching babl format. */
gboolean cudablur_io_format (gint32 drawable_id, const gb_params *vals,
                             gb_pixel_format *f, const Babl **format);

#endif
