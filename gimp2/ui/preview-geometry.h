/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the preview's pixels come from: the zoom and scroll position of
 * the preview mapped onto the drawable, in the coordinates GEGL reads a
 * scaled buffer in.  Plain C without GTK, so tests/test_preview_geometry
 * checks it on its own.
 *
 * At zoom z <= 1 the preview reads the drawable at scale z (one preview
 * pixel per scaled pixel) and blurs with sigma * z; above 1 it reads at
 * scale 1, blurs with sigma and shows each pixel as a z x z block (z a
 * whole number).  A coarse view reads at scale / coarse and shows each
 * pixel as a block coarse times larger. */
#ifndef CUDABLUR_PREVIEW_GEOMETRY_H
#define CUDABLUR_PREVIEW_GEOMETRY_H

typedef struct
{
  int x, y, width, height;
} pv_rect;

/* What the user sees: the preview shows the drawable's part that the
 * blur changes (the selection's bounds), zoomed and scrolled. */
typedef struct
{
  int image_width, image_height;   /* the drawable */
  pv_rect bounds;                  /* the selection's bounds in it */
  int area_width, area_height;     /* the preview widget, in pixels */
  double zoom;                     /* preview pixels per image pixel */
  double centre_x, centre_y;       /* image point at the view's centre */
  int coarse;                      /* 1, or a power of two by which the
                                      read is coarser than the zoom (each
                                      scaled pixel then covers coarse x
                                      coarse preview pixels): bounds the
                                      memory of huge halos */
} pv_view;

typedef struct
{
  double scale;    /* read scale: scaled pixels per image pixel (<= 1) */
  int mag;         /* preview pixels per scaled pixel (>= 1) */
  pv_rect out;     /* the visible pixels, in scaled coordinates */
  pv_rect dest;    /* where they go in the widget, magnified */
  pv_rect image;   /* the visible part, in image coordinates (rounded out) */
} pv_layout;

/* The largest zoom that shows all of the bounds, at most 1. */
double pv_fit_zoom (const pv_view *v);

/* The next zoom level in or out from zoom: the powers of two from 1/64 to
 * 8, with the fit zoom among them.  Never below the fit zoom (nothing more
 * to see), never above 8. */
double pv_zoom_in (double zoom, double fit);
double pv_zoom_out (double zoom, double fit);

/* The layout for the view: clamps the centre so that the view stays
 * within the bounds (and centres the bounds when they are smaller). */
void pv_layout_make (const pv_view *v, pv_layout *l);

/* The visible pixels grown by a halo on each side (in scaled pixels, the
 * blur's reach at the preview's sigma) and clipped to the scaled
 * drawable: what the blur reads so that the visible pixels come out as
 * in the final result.  Beyond the drawable's edge the blur replicates,
 * as the final render does. */
pv_rect pv_read_rect (const pv_view *v, const pv_layout *l, int halo_x,
                      int halo_y);

/* The scaled size of the drawable (GEGL's scaled buffer extent). */
int pv_scaled_extent (int size, double scale);

#endif
