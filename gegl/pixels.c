/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One engine call over GEGL buffers (pixels.h): the area is read in
 * bands of rows at the request's mipmap level, converted by babl to the
 * format the engine takes, framed by the edge mode's border where it
 * meets the image's edge, blurred by gb_blur_native, and the output
 * rectangle written back. */
#include "config.h"

#include <string.h>

#include "bounded.h"
#include "memory.h"
#include "pixels.h"
#include "region.h"

/* What the engine's band callbacks move, in level coordinates: rows of
 * `area` (pixels of the input) framed by one pixel of the border colour
 * on the sides where the area meets the image's edge (frame[] left, top,
 * right, bottom), so that the engine, running with replicated borders,
 * sees the image's border there and the input's own pixels elsewhere;
 * rows of `out` to the output. */
typedef struct
{
  GeglOperation *operation;
  GeglBuffer *input, *output;
  GeglRectangle area, out;
  gint frame[4];
  guchar border_pixel[16];
  gsize bpp;
  const Babl *format;
  gint level;
} op_io;

/* One band's rows of the area moved in parts on GEGL's worker threads: a
 * buffer's get and set convert and copy tile by tile in the calling
 * thread, and a whole image's worth of them would otherwise run on one
 * core. */
typedef struct
{
  op_io *io;
  gint y;
  guchar *pixels;
  gsize stride;
} op_band;

/* What starting one more thread costs, in rows of `width` pixels: about
 * 16384 pixels' worth of copying. */
static gdouble
thread_cost (gint width)
{
  return MAX (1.0, 16384.0 / MAX (width, 1));
}

static void
read_part (gsize offset, gsize rows, gpointer user)
{
  op_band *b = user;
  GeglRectangle r = { b->io->area.x, b->io->area.y + b->y + (gint) offset,
                      b->io->area.width, (gint) rows };
  gegl_buffer_get (b->io->input, &r, 1.0 / (1 << b->io->level),
                   b->io->format,
                   b->pixels + offset * b->stride
                   + (gsize) b->io->frame[0] * b->io->bpp,
                   (gint) b->stride, GEGL_ABYSS_CLAMP);
}

static void
write_part (gsize offset, gsize rows, gpointer user)
{
  op_band *b = user;
  GeglRectangle r = { b->io->out.x, b->io->out.y + b->y + (gint) offset,
                      b->io->out.width, (gint) rows };
  gegl_buffer_set (b->io->output, &r, b->io->level, b->io->format,
                   b->pixels + offset * b->stride, (gint) b->stride);
}

static void
fill_border (const op_io *io, guchar *row, gint n)
{
  for (gint i = 0; i < n; i++)
    memcpy (row + (gsize) i * io->bpp, io->border_pixel, io->bpp);
}

/* Rows [y, y + rows) of the framed area. */
static gb_status
read_rows (void *user, int y, int rows, void *dst, size_t stride)
{
  op_io *io = user;
  const gint width = io->area.width + io->frame[0] + io->frame[2];
  guchar *d = dst;
  for (gint i = 0; i < rows; )
    {
      const gint r = y + i - io->frame[1];   /* the area's row */
      if (r < 0 || r >= io->area.height)
        {
          fill_border (io, d + (gsize) i * stride, width);
          i++;
          continue;
        }
      const gint n = MIN (rows - i, io->area.height - r);
      op_band b = { io, r, d + (gsize) i * stride, stride };
      gegl_parallel_distribute_range ((gsize) n, thread_cost (width),
                                      read_part, &b);
      for (gint k = 0; k < n; k++)
        {
          guchar *row = d + (gsize) (i + k) * stride;
          if (io->frame[0])
            fill_border (io, row, 1);
          if (io->frame[2])
            fill_border (io, row + (gsize) (width - 1) * io->bpp, 1);
        }
      i += n;
    }
  return GB_OK;
}

static gb_status
write_rows (void *user, int y, int rows, const void *src, size_t stride)
{
  op_io *io = user;
  op_band b = { io, y, (guchar *) src, stride };
  gegl_parallel_distribute_range ((gsize) rows,
                                  thread_cost (io->out.width),
                                  write_part, &b);
  return GB_OK;
}

static int
on_progress (double fraction, void *user)
{
  op_io *io = user;
  gegl_operation_progress (io->operation, fraction, "");
  return 0;
}

void
cudablur_pass_through (GeglBuffer *input, GeglBuffer *output,
                       const Babl *format, gint level,
                       const GeglRectangle *out)
{
  const gsize bpp = babl_format_get_bytes_per_pixel (format);
  guchar *row = g_try_malloc (bpp * (gsize) out->width);
  if (!row)
    return;
  for (gint y = 0; y < out->height; y++)
    {
      GeglRectangle r = { out->x, out->y + y, out->width, 1 };
      gegl_buffer_get (input, &r, 1.0 / (1 << level), format, row,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_CLAMP);
      gegl_buffer_set (output, &r, level, format, row, GEGL_AUTO_ROWSTRIDE);
    }
  g_free (row);
}

/* The border colour in the engine's format, for the frame: 0 or 1 in
 * every channel, encoded as the engine encodes it. */
static void
border_pixel (const op_io *io, gb_border border,
              const gb_pixel_format *format, guchar *pixel)
{
  const gint c = format->channels, alpha = c == 2 || c == 4;
  gfloat colour[4];
  for (gint k = 0; k < c; k++)
    colour[k] = alpha && k == c - 1 ? (border != GB_BORDER_NONE)
                                    : (border == GB_BORDER_WHITE);
  memset (pixel, 0, 16);
  gb_encode_rows (format, colour, (size_t) c, pixel, io->bpp, 1, 1, 1);
}

gb_status
cudablur_blur_rect (GeglOperation *operation, GeglBuffer *input,
                    GeglBuffer *output, const gb_params *params,
                    const gb_pixel_format *engine_format,
                    const Babl *io_format, gint level,
                    const GeglRectangle *out, const GeglRectangle *image,
                    gboolean finite, gboolean whole, gdouble *pixels,
                    gb_report *report)
{
  gb_params p = *params;
  op_io io = { operation, input, output, { 0 }, *out, { 0 }, { 0 },
               babl_format_get_bytes_per_pixel (io_format), io_format,
               level };
  const gint rx = whole ? 0 : cudablur_reach (&p, 0, GB_BACKEND_CPU);
  const gint ry = whole ? 0 : cudablur_reach (&p, 1, GB_BACKEND_CPU);
  GeglRectangle want = { out->x - rx, out->y - ry, out->width + 2 * rx,
                         out->height + 2 * ry };
  if (!gegl_rectangle_intersect (&io.area, &want, image))
    return GB_OK;
  /* The edge mode's border, where the area meets the image's edge. */
  if (finite && p.border != GB_BORDER_CLAMP)
    {
      io.frame[0] = io.area.x == image->x;
      io.frame[1] = io.area.y == image->y;
      io.frame[2] = io.area.x + io.area.width == image->x + image->width;
      io.frame[3] = io.area.y + io.area.height == image->y + image->height;
      border_pixel (&io, p.border, engine_format, io.border_pixel);
    }
  p.border = GB_BORDER_CLAMP;
  const GeglRectangle framed = {
    io.area.x - io.frame[0], io.area.y - io.frame[1],
    io.area.width + io.frame[0] + io.frame[2],
    io.area.height + io.frame[1] + io.frame[3] };
  gb_native_io nio = { *engine_format, framed.width, framed.height,
                       out->x - framed.x, out->y - framed.y, out->width,
                       out->height, read_rows, write_rows, &io };
  gb_report engine_report = { 0 };
  /* Progress for a whole image on GIMP's main thread, where the filter
   * tool's status bar listens (never from GIMP's other threads); blocks
   * are short, and GIMP's merge shows its own progress between them. */
  const gboolean on_main = g_main_context_is_owner (g_main_context_default ());
  /* Within the memory budget: in bands where the whole area would not
   * fit. */
  cudablur_budget budget;
  cudablur_budget_lookup (&budget);
  const cudablur_region region = {
    input, output, io_format, io.area, *out, level,
    { io.frame[0], io.frame[1], io.frame[2], io.frame[3] }, io.border_pixel };
  const gb_status st = cudablur_blur_bounded (&p, &nio, &region, &budget,
                                              whole && on_main ? on_progress
                                                               : NULL,
                                              &io, &engine_report);
  *pixels += (gdouble) framed.width * framed.height;
  *report = engine_report;
  return st;
}
