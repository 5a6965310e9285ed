/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The preview's blur, off the GTK main loop: a worker thread takes the
 * newest job, blurs its scaled region through the engine's native
 * pipeline (the path the final render takes) and leaves the result for
 * the main loop to draw.  A job whose generation is no longer the newest
 * is cancelled through the engine's progress callback, so a stale render
 * stops within one progress step.
 *
 * Nothing here calls libgimp: GIMP's wire belongs to the main thread, so
 * the main thread reads the pixels (pv_source_read) and the worker only
 * computes. */
#ifndef CUDABLUR_PREVIEW_RENDER_H
#define CUDABLUR_PREVIEW_RENDER_H

#include <gegl.h>

#include "../values.h"
#include "preview-geometry.h"

/* Float pixels of a scaled rectangle of the drawable, shared by the jobs
 * that need them (reference counted: the main thread keeps the last one
 * as a cache while a job blurs from it). */
typedef struct
{
  gint refs;
  pv_rect rect;          /* in scaled coordinates */
  gdouble scale;
  const Babl *format;    /* linear float, straight alpha */
  gint channels;
  gfloat *pixels;
} pv_source;

/* Reads rect of buffer at scale in format (GEGL scaling, edge clamped);
 * NULL when memory is short. */
pv_source *pv_source_read (GeglBuffer *buffer, const Babl *format,
                           gint channels, pv_rect rect, gdouble scale);
pv_source *pv_source_ref (pv_source *s);
void pv_source_unref (pv_source *s);

/* Whether s holds rect at this scale and format. */
gboolean pv_source_covers (const pv_source *s, pv_rect rect, gdouble scale,
                           const Babl *format);

typedef struct
{
  gint generation;
  gb_params vals;
  pv_source *source;         /* holds read */
  pv_rect read, out;         /* scaled coordinates; out inside read */
  const Babl *to_display;    /* babl fish: source format to what the
                                widget draws, R'G'B'(A) u8 (made on the
                                main thread) */
  gint display_bpp;
  guchar *mask;              /* out's selection mask (u8), or NULL */
  /* Filled by the worker: */
  guchar *blurred, *original;   /* out, in display pixels */
  gb_status status;
  gb_report report;
} pv_job;

void pv_job_free (pv_job *job);

typedef struct pv_worker pv_worker;

pv_worker *pv_worker_new (void);

/* Makes job the newest (taking it): a pending job not yet started is
 * dropped, one running is cancelled. */
void pv_worker_submit (pv_worker *w, pv_job *job);

/* Cancels whatever runs or waits (for example when the preview is
 * switched off); its result is never handed out. */
void pv_worker_cancel (pv_worker *w);

/* The newest job's result when it is ready (the caller frees it), else
 * NULL; *busy: whether a job still waits or runs.  Both under one lock:
 * asked one after the other, a job that finished in between left its
 * result untaken while the worker looked idle, and a poller that stops
 * when the worker is idle left the preview at "rendering..." for good. */
pv_job *pv_worker_poll (pv_worker *w, gboolean *busy);

/* Cancels, waits for the thread and frees everything. */
void pv_worker_free (pv_worker *w);

#endif
