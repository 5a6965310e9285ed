/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The dispatcher's decisions, shared by gb_blur (float images) and
 * gb_blur_native (native formats).  Internal to the engine. */
#ifndef GB_DISPATCH_H
#define GB_DISPATCH_H

#include "gblur.h"

typedef struct
{
  gb_params p;            /* sigmas normalised, auto resolved */
  gb_algorithm ax, ay;    /* what rows and columns run */
  int gpu;                /* try the GPU first */
  int blur;               /* 0 when no axis moves a pixel */
} gb_plan;

/* Plans a blur of a width x height image from valid params: normalises
 * tiny sigmas, decides the backend with the cheap questions first and,
 * when probe is set, probes CUDA (when it is not, the caller probes, for
 * example on another thread while it reads the image), and resolves auto
 * for that backend.  Records the reason in r. */
void gb_plan_make (const gb_params *params, int width, int height, int probe,
                   gb_plan *plan, gb_report *r);

/* The same plan on the CPU, after the GPU was ruled out or failed. */
void gb_plan_use_cpu (const gb_params *params, gb_plan *plan);

/* Runs the plan's blur on the CPU (both axes; rows then columns in place
 * when they take different algorithms). */
gb_status gb_plan_run_cpu (const gb_plan *plan, const gb_image *src,
                           const gb_image *dst, gb_progress_fn progress,
                           void *user, gb_report *r);

/* Records a failed GPU run in r (and counts it towards disabling the GPU
 * when it is a failure of the device). */
void gb_note_gpu_failure (gb_status st, gb_report *r);

/* Whether st is the device's failure, after which the CPU redoes the
 * work (as opposed to the caller's, or a cancel). */
int gb_is_device_failure (gb_status st);

#endif
