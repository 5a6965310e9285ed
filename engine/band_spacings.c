/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The edge-aware filter's spacings for a band or strip of
 * gb_blur_banded, from the area as first read: the same function as the
 * whole image's (gb_edge_spacings), of a pixel and its neighbour before
 * it along the pass, run on all cores.  A band's rows need nothing but
 * themselves (dtx); a strip's columns need the row above each chunk of
 * rows (dty). */
#include <stdlib.h>
#include <string.h>

#include "bands.h"
#include "cpu_backend.h"
#include "pixel_math.h"

/* Rows [1, h) of src hold the pixels, row 0 the row above them (or none
 * where above is 0): their spacings along the pass into dt. */
typedef struct
{
  const gb_image *src;
  int above, vertical, rows_per_item, perceptual;
  double rx2, ry2;
  float *dt;
} spacing_job;

static void
spacing_item (void *ctx, long item, void *scratch)
{
  const spacing_job *s = ctx;
  const int w = s->src->width, rows = s->src->height - s->above;
  const int r0 = (int) item * s->rows_per_item;
  const int r1 = r0 + s->rows_per_item < rows ? r0 + s->rows_per_item
                                              : rows;
  /* The first row of an item has its row above, except the image's. */
  const int from = r0 + s->above > 0 && s->vertical ? r0 + s->above - 1
                                                    : r0 + s->above;
  const int skip = r0 + s->above - from;
  gb_image part = *s->src;
  part.data = s->src->data + (size_t) from * s->src->stride;
  part.height = r1 + s->above - from;
  float *dtx = scratch, *dty = dtx + (size_t) w * (s->rows_per_item + 1);
  gb_edge_spacings (&part, s->rx2, s->ry2, s->perceptual, dtx, dty);
  memcpy (s->dt + (size_t) r0 * w,
          (s->vertical ? dty : dtx) + (size_t) skip * w,
          sizeof (float) * (size_t) w * (r1 - r0));
}

static gb_status
spacings (const gb_band_job *j, const gb_image *src, int above, int vertical,
          float *dt)
{
  const int w = src->width;
  spacing_job s = { src, above, vertical, 65536 / w + 1,
                    j->p.perceptual,
                    gb_edge_ratio2 (j->p.sigma_x, j->p.range_sigma),
                    gb_edge_ratio2 (j->p.sigma_y, j->p.range_sigma), dt };
  const int rows = src->height - above;
  const long items = (rows + s.rows_per_item - 1) / s.rows_per_item;
  return gb_parallel_for (items, spacing_item, &s,
                          2 * sizeof (float) * (size_t) w
                          * (s.rows_per_item + 1), j->p.threads, NULL);
}

gb_status
gb_band_spacings_of (gb_band_job *j, const gb_image *img, int vertical,
                     float *dt)
{
  return spacings (j, img, 0, vertical, dt);
}

gb_status
gb_band_spacings (gb_band_job *j, int x, int y, int w, int h, int vertical,
                  float *dt)
{
  const size_t c = (size_t) j->c;
  /* Chunks of rows of the floats, twice the native chunk. */
  int per = (int) (2 * j->chunk / (sizeof (float) * c * w));
  per = per < 1 ? 1 : per > h ? h : per;
  float *area = malloc (sizeof (float) * c * (size_t) w * (per + 1));
  gb_status st = area ? GB_OK : GB_ERR_NO_MEMORY;
  for (int r = 0; r < h && st == GB_OK; r += per)
    {
      const int n = h - r < per ? h - r : per;
      /* Columns need the row above the chunk (none above the image). */
      const int above = vertical && y + r > 0;
      st = gb_band_read_area (j, x, y + r - above, w, n + above, area,
                              c * w);
      if (st != GB_OK)
        break;
      const gb_image chunk = { area, w, n + above, j->c, c * w };
      st = spacings (j, &chunk, above, vertical, dt + (size_t) r * w);
    }
  free (area);
  return st;
}
