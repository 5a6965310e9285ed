/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CUDA started ahead of the first render (gegl/early.c). */
#ifndef CUDABLUR_GEGL_EARLY_H
#define CUDABLUR_GEGL_EARLY_H

#include <glib.h>

/* Starts CUDA (the context) on a thread of its own, once per process:
 * the operation calls it when it is first prepared, so that the first
 * render on the GPU finds it started.  Harmless without a GPU, a driver
 * or a CUDA build: the start fails quickly, and blurs run on the CPU. */
void cudablur_gpu_start (void);

/* Whether the start has finished and found a GPU that runs blurs; FALSE
 * while it is still under way (never waits). */
gboolean cudablur_gpu_ready (void);

/* Whether the start is under way (begun, not yet finished). */
gboolean cudablur_gpu_starting (void);

#endif
