/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A region's blur within the memory budget (gegl/bounded.c): the
 * engine's whole-area blur where it fits, else the same blur in bands
 * through an intermediate GEGL buffer. */
#ifndef CUDABLUR_GEGL_BOUNDED_H
#define CUDABLUR_GEGL_BOUNDED_H

#include <gegl.h>

#include "gblur.h"
#include "memory.h"

/* Where a region's pixels come from and go, as process() reads and
 * writes them (level coordinates). */
typedef struct
{
  GeglBuffer *input, *output;
  const Babl *format;          /* the pixels as they move (io format) */
  GeglRectangle area;          /* what is read: the blur's input */
  GeglRectangle out;           /* what is written, inside area */
  gint level;                  /* mipmap level */
} cudablur_region;

/* gb_blur_native (params, whole, ...) where the whole area's blur fits
 * the budget (its host memory and, where it runs on the GPU, the
 * device's), else gb_blur_banded over the region's buffers within the
 * budget: the same pixels either way.  whole's callbacks move the
 * region's rows; progress as gb_blur_native's. */
gb_status cudablur_blur_bounded (const gb_params *params,
                                 const gb_native_io *whole,
                                 const cudablur_region *region,
                                 cudablur_budget *budget,
                                 gb_progress_fn progress, void *user);

#endif
