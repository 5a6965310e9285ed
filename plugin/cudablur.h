/* The plug-in's shared declarations: its PDB name, its parameters and the
 * render path that both the final run and the dialog's preview use. */
#ifndef CUDABLUR_H
#define CUDABLUR_H

#include <libgimp/gimp.h>

#include "gblur.h"

#define PLUG_IN_PROC   "plug-in-cudablur"
#define PLUG_IN_BINARY "cudablur"
#define PLUG_IN_ROLE   "gimp-cudablur"
#define PLUG_IN_HELP   "plug-in-cudablur"
#define PLUG_IN_HELP_DOMAIN "https://gimp-cudablur.invalid/help"

/* The procedure's arguments after run-mode, image and drawable.  Stored
 * with gimp_set_data as the last values, so the layout has no padding
 * (doubles first, an even number of 32-bit fields) and carries a version:
 * stored bytes of another size or version are ignored. */
typedef struct
{
  gdouble std_dev_x;
  gdouble std_dev_y;
  gdouble range_sigma;   /* 0-255 scale, edge-aware only */
  gdouble kappa;         /* edge-aware partitioned only */
  gint32  algorithm;     /* gb_algorithm numbering */
  gint32  iterations;    /* edge-aware only */
  gint32  device;        /* gb_backend numbering */
  gint32  version;       /* CUDABLUR_VALS_VERSION */
} CudablurVals;

#define CUDABLUR_VALS_VERSION 2

/* The last values stored in this GIMP session, or the defaults when none
 * are stored or the stored bytes are not valid values of this version. */
void cudablur_vals_load (CudablurVals *vals);
void cudablur_vals_save (const CudablurVals *vals);

#define CUDABLUR_N_ARGS 10   /* run-mode, image, drawable + 7 */
#define CUDABLUR_N_RETURN_VALS 1

/* The procedure's signature and help, shared by the permanent procedure
 * and the resident's temporary one (plugin/main.c). */
extern const GimpParamDef cudablur_args[CUDABLUR_N_ARGS];
extern const GimpParamDef cudablur_return_vals[CUDABLUR_N_RETURN_VALS];
extern const gchar *const cudablur_help;

/* One call of plug-in-cudablur, in a process of its own (resident FALSE)
 * or in the resident process. */
void cudablur_run (const gchar *name, gint nparams, const GimpParam *param,
                   gint *nreturn_vals, GimpParam **return_vals,
                   gboolean resident);
#define CUDABLUR_RANGE_SIGMA_MAX 1000.0

void cudablur_vals_defaults (CudablurVals *vals);

/* Checks the values of a non-interactive call; on failure returns FALSE
 * and a message naming the argument (free with g_free). */
gboolean cudablur_vals_check (const CudablurVals *vals, gchar **message);

/* Converts plug-in values into engine parameters. */
void cudablur_vals_to_params (const CudablurVals *vals, gb_params *params);

/* What one render took, for CUDABLUR_TIMING (plugin/timing.c). */
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
                                            const CudablurVals *vals,
                                            gboolean show_progress,
                                            CudablurTiming *timing,
                                            gint32 *device_used,
                                            gchar **message);

/* The engine's blur of contiguous float pixels in place, with the sigmas
 * multiplied by scale (the preview's zoom factor). */
gb_status cudablur_blur_pixels (const CudablurVals *vals, gdouble scale,
                                gfloat *pixels, gint width, gint height,
                                gint channels, gb_progress_fn progress,
                                gpointer user, gb_report *report);

/* The pixel format the render moves for this drawable: its own (TRUE)
 * when the engine converts it, else linear float in its colour space
 * (FALSE, babl converting).  *format is the matching babl format. */
gboolean cudablur_io_format (gint32 drawable_id, gb_pixel_format *f,
                             const Babl **format);

#endif
