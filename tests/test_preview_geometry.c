/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The preview's geometry (gimp2/ui/preview-geometry.c): the visible part stays
 * inside the selection's bounds and the widget, the scaled rectangles
 * line up with GEGL's scaled coordinates, the halo reaches as far as the
 * blur does except where the drawable ends, and the zoom levels step as
 * documented.  Checked over many random views. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include "../gimp2/ui/preview-geometry.h"

static int
inside (pv_rect a, pv_rect b)
{
  return a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width
         && a.y + a.height <= b.y + b.height;
}

static double
uniform (uint64_t *seed)
{
  *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double) (*seed >> 11) / 9007199254740992.0;
}

static void
random_views (uint64_t *seed)
{
  for (int n = 0; n < 20000; n++)
    {
      pv_view v;
      v.image_width = 1 + (int) (uniform (seed) * 7000);
      v.image_height = 1 + (int) (uniform (seed) * 5000);
      v.bounds.x = (int) (uniform (seed) * v.image_width);
      v.bounds.y = (int) (uniform (seed) * v.image_height);
      v.bounds.width = 1 + (int) (uniform (seed)
                                  * (v.image_width - v.bounds.x - 1));
      v.bounds.height = 1 + (int) (uniform (seed)
                                   * (v.image_height - v.bounds.y - 1));
      v.area_width = 1 + (int) (uniform (seed) * 900);
      v.area_height = 1 + (int) (uniform (seed) * 700);
      const double fit = pv_fit_zoom (&v);
      static const double zooms[] = { 0.0, 1.0 / 32, 0.25, 0.5, 1.0, 2.0, 4.0,
                                      8.0 };
      const double z = zooms[(int) (uniform (seed) * 8)];
      v.zoom = z == 0.0 ? fit : z;
      v.centre_x = uniform (seed) * 1.4 * v.image_width - 0.2 * v.image_width;
      v.centre_y = uniform (seed) * 1.4 * v.image_height - 0.2 * v.image_height;
      v.coarse = 1 << (int) (uniform (seed) * 3);
      pv_layout l;
      pv_layout_make (&v, &l);
      const pv_rect area = { 0, 0, v.area_width, v.area_height };
      const pv_rect scaled_image = { 0, 0,
                                     pv_scaled_extent (v.image_width, l.scale),
                                     pv_scaled_extent (v.image_height, l.scale) };
      /* Scaled pixels times their magnification give the zoom. */
      TU_CHECK (l.scale > 0 && l.scale <= 1.0 && l.mag >= 1
                && fabs (l.scale * l.mag - v.zoom) <= 1e-9 * v.zoom
                && (l.scale * v.coarse == 1.0 || l.mag == v.coarse),
                "view %d: scale %g mag %d at zoom %g, coarse %d", n,
                l.scale, l.mag, v.zoom, v.coarse);
      TU_CHECK (inside (l.dest, area), "view %d: destination %dx%d+%d+%d "
                "outside the %dx%d area", n, l.dest.width, l.dest.height,
                l.dest.x, l.dest.y, v.area_width, v.area_height);
      TU_CHECK (l.out.width >= 1 && l.out.height >= 1
                && inside (l.out, scaled_image),
                "view %d: visible %dx%d+%d+%d outside the scaled image", n,
                l.out.width, l.out.height, l.out.x, l.out.y);
      /* Visible pixels fill the area, or show all of the bounds. */
      const int s_bounds_w = pv_scaled_extent (v.bounds.x + v.bounds.width,
                                               l.scale)
                             - (int) floor (v.bounds.x * l.scale + 1e-9);
      TU_CHECK (l.out.width * l.mag >= v.area_width - l.mag + 1
                || l.out.width >= s_bounds_w,
                "view %d: %d of %d visible columns shown in %d pixels", n,
                l.out.width, s_bounds_w, v.area_width);
      TU_CHECK (inside (l.image, (pv_rect) { 0, 0, v.image_width,
                                             v.image_height }),
                "view %d: image part outside the image", n);
      /* The halo: as far as asked, unless the image ends first. */
      const int hx = (int) (uniform (seed) * 300), hy = (int) (uniform (seed) * 300);
      pv_rect r = pv_read_rect (&v, &l, hx, hy);
      TU_CHECK (inside (l.out, r) && inside (r, scaled_image),
                "view %d: read rectangle does not hold the visible part", n);
      TU_CHECK ((r.x == 0 || l.out.x - r.x == hx)
                && (r.y == 0 || l.out.y - r.y == hy)
                && (r.x + r.width == scaled_image.width
                    || r.x + r.width - l.out.x - l.out.width == hx)
                && (r.y + r.height == scaled_image.height
                    || r.y + r.height - l.out.y - l.out.height == hy),
                "view %d: halo cut short inside the image", n);
    }
}

static void
fixed_cases (void)
{
  /* 600x400 in a 480x320 area: fit 0.8, all of it visible, centred. */
  pv_view v = { 600, 400, { 0, 0, 600, 400 }, 480, 320, 0, 300, 200, 1 };
  v.zoom = pv_fit_zoom (&v);
  pv_layout l;
  pv_layout_make (&v, &l);
  TU_CHECK (fabs (v.zoom - 0.8) < 1e-12 && l.out.width == 480
            && l.out.height == 320 && l.dest.x == 0 && l.dest.y == 0,
            "fit: zoom %g, %dx%d at %d,%d", v.zoom, l.out.width,
            l.out.height, l.dest.x, l.dest.y);
  /* Zoom 2 on the centre: 240x160 image pixels, each 2x2. */
  v.zoom = 2.0;
  pv_layout_make (&v, &l);
  TU_CHECK (l.scale == 1.0 && l.mag == 2 && l.out.width == 240
            && l.out.height == 160 && l.out.x == 180 && l.out.y == 120,
            "zoom 2: %dx%d+%d+%d", l.out.width, l.out.height, l.out.x,
            l.out.y);
  /* A centre far off the image is clamped to its corner. */
  v.zoom = 1.0;
  v.centre_x = 1e6;
  v.centre_y = -1e6;
  pv_layout_make (&v, &l);
  TU_CHECK (l.out.x == 600 - 480 && l.out.y == 0, "clamped: %d,%d",
            l.out.x, l.out.y);
  /* A selection's bounds: the view stays inside them. */
  pv_view s = { 3000, 2000, { 1000, 500, 64, 64 }, 400, 300, 1.0, 0, 0, 1 };
  pv_layout_make (&s, &l);
  TU_CHECK (l.out.x == 1000 && l.out.y == 500 && l.out.width == 64
            && l.dest.x == (400 - 64) / 2, "selection: %dx%d+%d+%d dest %d",
            l.out.width, l.out.height, l.out.x, l.out.y, l.dest.x);
  /* A coarse read: half the scale, each pixel twice as large. */
  v.zoom = 1.0;
  v.centre_x = 300;
  v.centre_y = 200;
  v.coarse = 2;
  pv_layout_make (&v, &l);
  TU_CHECK (l.scale == 0.5 && l.mag == 2 && l.out.width == 240
            && l.dest.width == 480, "coarse: scale %g mag %d, %d wide",
            l.scale, l.mag, l.out.width);
  /* Zoom steps: powers of two with the fit zoom among them. */
  const double fit = 0.3;
  TU_CHECK (pv_zoom_in (fit, fit) == 0.5 && pv_zoom_in (0.25, fit) == fit
            && pv_zoom_out (0.5, fit) == fit && pv_zoom_out (fit, fit) == fit
            && pv_zoom_in (4.0, fit) == 8.0 && pv_zoom_in (8.0, fit) == 8.0
            && pv_zoom_out (1.0, fit) == 0.5,
            "zoom steps: in(0.3)=%g in(0.25)=%g out(0.5)=%g out(0.3)=%g",
            pv_zoom_in (fit, fit), pv_zoom_in (0.25, fit),
            pv_zoom_out (0.5, fit), pv_zoom_out (fit, fit));
  TU_CHECK (pv_scaled_extent (600, 0.5) == 300
            && pv_scaled_extent (601, 0.5) == 301
            && pv_scaled_extent (3, 0.1) == 1, "scaled extents");
}

int
main (void)
{
  uint64_t seed = tu_seed ("test_preview_geometry");
  fixed_cases ();
  random_views (&seed);
  return tu_finish ("test_preview_geometry");
}
