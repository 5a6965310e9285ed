/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A region's blur within the memory budget (bounded.h).  In bands the
 * engine moves rectangles: the input's and the output's at the region's
 * level, and an intermediate buffer of work-format floats that lives in
 * GEGL's tiles, so that GEGL swaps it to disk beyond its tile cache.
 * Each rectangle moves in parts on GEGL's threads, as op.c's rows do. */
#define G_LOG_DOMAIN "cudablur"
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <gegl.h>

#include "bounded.h"
#include "last-run.h"
#include "op.h"

typedef struct
{
  const cudablur_region *region;
  GeglBuffer *scratch;
  const Babl *scratch_format;
} bands_io;

/* One rectangle's rows, parted among GEGL's threads. */
typedef struct
{
  GeglBuffer *buffer;
  const Babl *format;
  GeglRectangle rect;
  gdouble scale;          /* reading */
  gint level;             /* writing */
  guchar *pixels;
  gsize stride;
  gboolean write;
} rect_move;

static void
move_part (gsize offset, gsize rows, gpointer user)
{
  const rect_move *m = user;
  const GeglRectangle r = { m->rect.x, m->rect.y + (gint) offset,
                            m->rect.width, (gint) rows };
  guchar *at = m->pixels + offset * m->stride;
  if (m->write)
    gegl_buffer_set (m->buffer, &r, m->level, m->format, at,
                     (gint) m->stride);
  else
    gegl_buffer_get (m->buffer, &r, m->scale, m->format, at,
                     (gint) m->stride, GEGL_ABYSS_CLAMP);
}

static gb_status
move (rect_move *m)
{
  if (m->stride > G_MAXINT)
    return GB_ERR_SIZE;
  /* Starting a thread costs about 16384 pixels' worth of copying. */
  gegl_parallel_distribute_range ((gsize) m->rect.height,
                                  MAX (1.0, 16384.0 / MAX (m->rect.width, 1)),
                                  move_part, m);
  return GB_OK;
}

/* Pixels of the framed area: the frame in the border colour, the rest
 * from the input. */
static gb_status
read_area (void *user, int x, int y, int w, int h, void *dst, size_t stride)
{
  const bands_io *b = user;
  const cudablur_region *r = b->region;
  const gsize bpp = babl_format_get_bytes_per_pixel (r->format);
  const gint ax = x - r->frame[0], ay = y - r->frame[1];  /* in area */
  const gint x0 = MAX (ax, 0), y0 = MAX (ay, 0);
  const gint x1 = MIN (ax + w, r->area.width);
  const gint y1 = MIN (ay + h, r->area.height);
  guchar *d = dst;
  /* The frame: whole rows above and below the area, columns beside it. */
  for (gint i = 0; i < h; i++)
    {
      const gboolean outside = ay + i < y0 || ay + i >= y1;
      guchar *row = d + (gsize) i * stride;
      for (gint j = 0; j < w; j++)
        if (outside || ax + j < x0 || ax + j >= x1)
          memcpy (row + (gsize) j * bpp, r->border_pixel, bpp);
        else
          j = MAX (j, x1 - ax - 1);   /* skip the input's pixels */
    }
  if (x1 <= x0 || y1 <= y0)
    return GB_OK;
  rect_move m = { r->input, r->format,
                  { r->area.x + x0, r->area.y + y0, x1 - x0, y1 - y0 },
                  1.0 / (1 << r->level), 0,
                  d + (gsize) (y0 - ay) * stride + (gsize) (x0 - ax) * bpp,
                  stride, FALSE };
  return move (&m);
}

static gb_status
write_out (void *user, int x, int y, int w, int h, const void *src,
           size_t stride)
{
  const bands_io *b = user;
  const cudablur_region *r = b->region;
  rect_move m = { r->output, r->format,
                  { r->out.x + x, r->out.y + y, w, h }, 1.0, r->level,
                  (guchar *) src, stride, TRUE };
  return move (&m);
}

static gb_status
scratch_make (void *user, int width, int height, int channels)
{
  bands_io *b = user;
  b->scratch_format = babl_format_n (babl_type ("float"), channels);
  b->scratch = gegl_buffer_new (GEGL_RECTANGLE (0, 0, width, height),
                                b->scratch_format);
  return b->scratch ? GB_OK : GB_ERR_NO_MEMORY;
}

static gb_status
scratch_store (void *user, int x, int y, int w, int h, const void *src,
               size_t stride)
{
  const bands_io *b = user;
  rect_move m = { b->scratch, b->scratch_format, { x, y, w, h }, 1.0, 0,
                  (guchar *) src, stride, TRUE };
  return move (&m);
}

static gb_status
scratch_load (void *user, int x, int y, int w, int h, void *dst,
              size_t stride)
{
  const bands_io *b = user;
  rect_move m = { b->scratch, b->scratch_format, { x, y, w, h }, 1.0, 0,
                  dst, stride, FALSE };
  return move (&m);
}

gb_status
cudablur_blur_bounded (const gb_params *params, const gb_native_io *whole,
                       const cudablur_region *region,
                       cudablur_budget *budget, gb_progress_fn progress,
                       void *user, gb_report *report)
{
  const gboolean gpu = gb_backend_for (params, whole->width, whole->height)
                       == GB_BACKEND_CUDA;
  const gboolean host_fits = gb_native_memory (params, whole) <= budget->host;
  gboolean gpu_fits = TRUE;
  if (host_fits && gpu)
    {
      /* A cold device is not asked (that would start CUDA here rather
       * than beside the read) where the blur needs little of it. */
      const size_t device = gb_native_device_memory (params, whole);
      if (budget->gpu_known || gb_gpu_context_alive ()
          || device > ((size_t) 1 << 30))
        gpu_fits = device <= cudablur_budget_gpu (budget);
    }
  if (host_fits && gpu_fits)
    return gb_blur_native (params, whole, progress, user, report);
  gb_params cpu = *params;
  cpu.backend = GB_BACKEND_CPU;
  if (gpu && params->backend == GB_BACKEND_AUTO
      && gb_native_memory (&cpu, whole) <= budget->host)
    {
      /* Where the host holds the whole area and the GPU does not, the
       * CPU's whole area (rows streamed in and out) is faster and smaller
       * than the GPU's bands, whose intermediate of floats goes through
       * GEGL's tiles (docs/performance.md).  Device CUDA keeps the GPU. */
      g_debug ("%s: %dx%d: %.1f MB of the GPU's for the whole area, a "
               "budget of %.1f MB: on the CPU", CUDABLUR_OP_NAME,
               whole->width, whole->height,
               gb_native_device_memory (params, whole) / 1048576.0,
               cudablur_budget_gpu (budget) / 1048576.0);
      const gb_status st = gb_blur_native (&cpu, whole, progress, user,
                                           report);
      if (report)
        {
          report->gpu_status = CUDABLUR_GPU_SHORT;
          snprintf (report->reason, sizeof report->reason, "the whole area "
                    "needs more of the GPU's memory than its budget; ran on "
                    "the CPU");
        }
      return st;
    }
  g_debug ("%s: %dx%d: %.1f MB for the whole area, a budget of %.1f MB: "
           "in bands", CUDABLUR_OP_NAME, whole->width, whole->height,
           gb_native_memory (params, whole) / 1048576.0,
           budget->host / 1048576.0);

  bands_io b = { region, NULL, NULL };
  const gb_banded_io io = { whole->format, whole->width, whole->height,
                            whole->out_x, whole->out_y, whole->out_width,
                            whole->out_height, read_area, write_out,
                            scratch_make, scratch_store, scratch_load, &b };
  gb_report banded;
  const gb_status st = gb_blur_banded (params, &io, budget->host,
                                       gpu ? cudablur_budget_gpu (budget)
                                           : SIZE_MAX,
                                       progress, user, &banded);
  if (report)
    *report = banded;
  if (b.scratch)
    g_object_unref (b.scratch);
  /* G_MESSAGES_DEBUG=cudablur shows it (and the tests count it). */
  g_debug ("%s: %d bands and strips within %.1f MB: %s", CUDABLUR_OP_NAME,
           banded.bands, budget->host / 1048576.0, banded.reason);
  return st;
}
