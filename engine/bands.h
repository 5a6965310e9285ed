/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gb_blur_banded's state, shared by its driver (bands.c) and the
 * edge-aware spacings of a band (band_spacings.c).  Internal to the
 * engine. */
#ifndef GB_BANDS_H
#define GB_BANDS_H

#include "gblur.h"
#include "dispatch.h"

/* One 1-D pass: rows (vertical 0) or columns, of edge-aware iteration
 * `iteration`, computing its lines [lo, hi) and keeping, along them, the
 * samples [keep_lo, keep_hi). */
typedef struct
{
  int vertical, iteration;
  gb_algorithm algorithm;
  int lo, hi, keep_lo, keep_hi;
} gb_band_pass;

typedef struct
{
  const gb_banded_io *io;
  gb_report *r;
  gb_plan plan;
  gb_params p;                 /* the plan's, with replicated borders */
  int edge;                    /* the edge-aware filter (spacings) */
  size_t host, gpu;            /* the budgets, bytes */
  /* The domain the passes run on: the area, framed by one pixel of the
   * border colour where there is one (F = 1). */
  int F, W, H, c;
  int ox, oy, ow, oh;          /* the output rectangle in the domain */
  float frame[4];              /* the frame's colour, decoded */
  size_t bpp;                  /* native bytes a pixel */
  size_t chunk;                /* bytes native pixels move in */
  unsigned char *native;       /* a chunk of native pixels */
  int scratch_made;
  gb_band_pass pass[2 * GB_ITERATIONS_MAX];
  int n;                       /* passes */
  int bands;                   /* bands and strips run, for the report */
} gb_band_job;

/* The domain's rectangle [x, x + w) x [y, y + h) decoded as first read
 * (the frame included) into dst, rows stride floats apart. */
gb_status gb_band_read_area (gb_band_job *j, int x, int y, int w, int h,
                             float *dst, size_t stride);

/* The spacings along a pass over img (rows: dtx; columns: dty), img's
 * size, into dt: _of where img holds the area as read and its lines
 * whole; otherwise from the area read again for the rectangle. */
gb_status gb_band_spacings_of (gb_band_job *j, const gb_image *img,
                               int vertical, float *dt);
gb_status gb_band_spacings (gb_band_job *j, int x, int y, int w, int h,
                            int vertical, float *dt);

#endif
