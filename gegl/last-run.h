/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the operation blurred and why there (gegl/last-run.c): the
 * property device-used, which GIMP's filter tool shows below the
 * parameters, as the GIMP 2.10 dialog's status line says it. */
#ifndef CUDABLUR_GEGL_LAST_RUN_H
#define CUDABLUR_GEGL_LAST_RUN_H

#include <gegl.h>
#include <gegl-plugin.h>

#include "gblur.h"

#define CUDABLUR_LAST_RUN_PROPERTY "device-used"

/* A report's gpu_status where the operation left the GPU out because
 * CUDA was still starting (gegl/early.c), which no engine status says. */
#define CUDABLUR_GPU_STARTING ((gb_status) -1)
/* ... and where the whole area fitted the host's memory budget but not
 * the GPU's (gegl/bounded.c). */
#define CUDABLUR_GPU_SHORT ((gb_status) -2)

/* The property's spec (translated texts; made with the class). */
GParamSpec *cudablur_last_run_spec (void);

/* Gives a new operation its record; freed with it. */
void cudablur_last_run_attach (GObject *op);

/* The property's value, and a value set on it (GIMP writes back what it
 * shows, and sets every property when it loads settings). */
void cudablur_last_run_get (GObject *op, GValue *value);
void cudablur_last_run_set (GObject *op, const GValue *value);

/* A parameter changed: the runs that follow are a new preview. */
void cudablur_last_run_restart (GObject *op);

/* One engine call of `pixels` pixels with the values p ended with st and
 * the engine's report r (any thread).  The largest run since the values
 * last changed is the one shown (GIMP renders a preview at the canvas's
 * zoom and smaller ones beside it); when its text changes, the property's
 * change is announced from the main loop. */
void cudablur_last_run_note (GeglOperation *op, const gb_params *p,
                             gb_status st, const gb_report *r,
                             gdouble pixels);

/* The text for such a run (g_free it); for the tests. */
gchar *cudablur_last_run_describe (const gb_params *p, gb_status st,
                                   const gb_report *r);

#endif
