/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The preview's zoom and scroll mapped onto the drawable
 * (preview-geometry.h). */
#include "preview-geometry.h"

#include <math.h>

#define ZOOM_MIN (1.0 / 64.0)
#define ZOOM_MAX 8.0

static int
clamp_int (int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

int
pv_scaled_extent (int size, double scale)
{
  /* The tolerance keeps an exact product (600 * 0.5) from rounding up. */
  int n = (int) ceil (size * scale - 1e-9);
  return n < 1 ? 1 : n;
}

double
pv_fit_zoom (const pv_view *v)
{
  if (v->bounds.width < 1 || v->bounds.height < 1 || v->area_width < 1
      || v->area_height < 1)
    return 1.0;
  double zx = (double) v->area_width / v->bounds.width;
  double zy = (double) v->area_height / v->bounds.height;
  double z = zx < zy ? zx : zy;
  z = z > 1.0 ? 1.0 : z;
  return z < ZOOM_MIN ? ZOOM_MIN : z;
}

/* The levels are the powers of two; the fit zoom sits between two of them
 * and counts as a level of its own.  1e-9 keeps a zoom that is a level
 * from counting as below or above itself. */
double
pv_zoom_in (double zoom, double fit)
{
  double next = ZOOM_MIN;
  while (next <= zoom * (1.0 + 1e-9) && next < ZOOM_MAX)
    next *= 2.0;
  if (next <= zoom * (1.0 + 1e-9))
    return zoom;   /* at the largest zoom already */
  if (fit > zoom * (1.0 + 1e-9) && fit < next)
    next = fit;
  return next;
}

double
pv_zoom_out (double zoom, double fit)
{
  double next = ZOOM_MAX;
  while (next >= zoom * (1.0 - 1e-9) && next > ZOOM_MIN)
    next /= 2.0;
  if (fit < zoom * (1.0 - 1e-9) && fit > next)
    next = fit;
  return next < fit ? fit : next;
}

/* One axis: the bounds [lo, lo + len) of the image (size pixels) seen
 * through `area` preview pixels around `centre`.  Fills the scaled output
 * interval, the destination interval and the image interval. */
static void
axis (int size, int lo, int len, int area, double centre, double scale,
      int mag, int *out0, int *outn, int *dest0, int *destn, int *img0,
      int *imgn)
{
  const int s_lo = (int) floor (lo * scale + 1e-9);
  const int s_hi = pv_scaled_extent (lo + len, scale) > pv_scaled_extent (size, scale)
                   ? pv_scaled_extent (size, scale)
                   : pv_scaled_extent (lo + len, scale);
  const int s_len = s_hi - s_lo > 0 ? s_hi - s_lo : 1;
  /* Scaled pixels that fit the area (whole ones when magnified). */
  int vis = area / mag;
  if (vis < 1)
    vis = 1;
  if (vis > s_len)
    vis = s_len;
  int start = (int) floor (centre * scale - vis / 2.0 + 0.5);
  start = clamp_int (start, s_lo, s_lo + s_len - vis);
  *out0 = start;
  *outn = vis;
  int dest = vis * mag < area ? vis * mag : area;
  *destn = dest;
  *dest0 = (area - dest) / 2;
  /* Image pixels under the visible ones, rounded outwards. */
  *img0 = (int) floor (start / scale + 1e-9);
  int img_end = (int) ceil ((start + vis) / scale - 1e-9);
  if (img_end > size)
    img_end = size;
  *imgn = img_end - *img0 > 0 ? img_end - *img0 : 1;
}

void
pv_layout_make (const pv_view *v, pv_layout *l)
{
  const double z = v->zoom > ZOOM_MAX ? ZOOM_MAX
                   : v->zoom < ZOOM_MIN ? ZOOM_MIN : v->zoom;
  const int coarse = v->coarse > 1 ? v->coarse : 1;
  l->scale = (z < 1.0 ? z : 1.0) / coarse;
  l->mag = (z < 1.0 ? 1 : (int) floor (z + 0.5)) * coarse;
  axis (v->image_width, v->bounds.x, v->bounds.width, v->area_width,
        v->centre_x, l->scale, l->mag, &l->out.x, &l->out.width,
        &l->dest.x, &l->dest.width, &l->image.x, &l->image.width);
  axis (v->image_height, v->bounds.y, v->bounds.height, v->area_height,
        v->centre_y, l->scale, l->mag, &l->out.y, &l->out.height,
        &l->dest.y, &l->dest.height, &l->image.y, &l->image.height);
}

pv_rect
pv_read_rect (const pv_view *v, const pv_layout *l, int halo_x, int halo_y)
{
  const int w = pv_scaled_extent (v->image_width, l->scale);
  const int h = pv_scaled_extent (v->image_height, l->scale);
  pv_rect r;
  r.x = clamp_int (l->out.x - halo_x, 0, w - 1);
  r.y = clamp_int (l->out.y - halo_y, 0, h - 1);
  int x1 = clamp_int (l->out.x + l->out.width + halo_x, r.x + 1, w);
  int y1 = clamp_int (l->out.y + l->out.height + halo_y, r.y + 1, h);
  r.width = x1 - r.x;
  r.height = y1 - r.y;
  return r;
}
