/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers for the programs that run the operation in real GEGL: the
 * build's module put where GEGL loads it, photographs as layers, and the
 * process's memory. */
#ifndef CUDABLUR_TESTS_GEGL_UTIL_H
#define CUDABLUR_TESTS_GEGL_UTIL_H

#include <gegl.h>

/* The build's module (GEGL_MODULE_DIR/cudablur.so) as the user's own
 * copy (XDG_DATA_HOME/gegl-0.4/plug-ins), which wins over one installed
 * for the system; call before gegl_init.  Returns the folder to give to
 * gu_module_remove after gegl_exit. */
gchar *gu_module_as_users (void);
void gu_module_remove (gchar *home);

/* gegl_init, and whether the operation and `more` (a NULL-terminated
 * list of operations the caller needs) are found; prints what is
 * missing. */
gboolean gu_init (int *argc, char ***argv, const char *program,
                  const char *more, ...);

/* A PPM photograph as GEGL loads it (gegl:ppm-load), or NULL. */
GeglBuffer *gu_photo (const char *path);

/* A photograph from tests/data scaled to w x h into a buffer of
 * `format` (GIMP holds an 8-bit RGB layer as "R'G'B' u8"); beyond
 * 6000x4000, scaled to that and repeated (a larger scale would also be
 * smooth enough for a blur to change few 8-bit samples). */
GeglBuffer *gu_layer (const char *photo, int w, int h, const Babl *format);

/* The operation between a buffer source of one colour (w x h, RGBA
 * float) and a buffer sink: gu_graph_new sets the operation's properties
 * from the NULL-terminated list after `first_property`;
 * gegl_node_process (g->sink) blurs into g->out. */
typedef struct
{
  GeglBuffer *in, *out;
  GeglNode *graph, *blur, *sink;
} gu_graph;
void gu_graph_new (gu_graph *g, int w, int h, const gchar *first_property,
                   ...) G_GNUC_NULL_TERMINATED;
void gu_graph_free (gu_graph *g);

/* Resident memory now and at its peak (VmRSS, VmHWM), in MB, and a reset
 * of the peak to now (FALSE where the kernel does not allow it). */
double gu_rss_mb (void);
double gu_peak_mb (void);
gboolean gu_peak_reset (void);

#endif
