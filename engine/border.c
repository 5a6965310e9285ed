/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Borders other than the replicated edge (border.h). */
#include <stdlib.h>
#include <string.h>

#include "border.h"
#include "convert_pixel.h"

int
gb_border_colour (gb_border border, int channels, float colour[4])
{
  const int alpha = channels == 2 || channels == 4;
  const float v = border == GB_BORDER_WHITE ? 1.0f : 0.0f;
  const float a = border == GB_BORDER_NONE ? 0.0f : 1.0f;
  for (int k = 0; k < channels; k++)
    colour[k] = alpha && k == channels - 1 ? a : v;
  return border != GB_BORDER_CLAMP;
}

gb_status
gb_blur_framed (const gb_params *params, const gb_image *src,
                const gb_image *dst, gb_progress_fn progress, void *user,
                gb_report *report, gb_blur_fn blur)
{
  const int w = src->width + 2, h = src->height + 2, c = src->channels;
  float colour[4];
  gb_border_colour (params->border, c, colour);
  float *frame = malloc (sizeof (float) * (size_t) w * h * c);
  if (!frame)
    return GB_ERR_NO_MEMORY;
  for (int y = 0; y < h; y++)
    {
      float *row = frame + (size_t) y * w * c;
      const int inside = y > 0 && y < h - 1;
      for (int x = 0; x < w; x++)
        if (!inside || x == 0 || x == w - 1)
          memcpy (row + (size_t) x * c, colour, sizeof (float) * c);
      if (inside)
        memcpy (row + c, src->data + (size_t) (y - 1) * src->stride,
                sizeof (float) * (size_t) src->width * c);
    }
  gb_params p = *params;
  p.border = GB_BORDER_CLAMP;
  const gb_image framed = { frame, w, h, c, (size_t) w * c };
  gb_status st = blur (&p, &framed, &framed, progress, user, report);
  if (st == GB_OK)
    for (int y = 0; y < src->height; y++)
      memcpy (dst->data + (size_t) y * dst->stride,
              frame + ((size_t) (y + 1) * w + 1) * c,
              sizeof (float) * (size_t) src->width * c);
  free (frame);
  return st;
}

static void
fill_pixels (unsigned char *dst, const unsigned char *pixel, size_t bpp,
             int n)
{
  for (int i = 0; i < n; i++)
    memcpy (dst + (size_t) i * bpp, pixel, bpp);
}

/* Rows [y, y + rows) of the framed area: the first and last are all
 * border, the others the inner area's rows between two border pixels. */
static gb_status
framed_read (void *user, int y, int rows, void *dst, size_t stride)
{
  const gb_framed_io *f = user;
  const int W = f->inner->width, H = f->inner->height;
  unsigned char *d = dst;
  int i = 0;
  while (i < rows)
    {
      const int r = y + i;
      if (r == 0 || r == H + 1)
        {
          fill_pixels (d + (size_t) i * stride, f->pixel, f->bpp, W + 2);
          i++;
          continue;
        }
      const int end = y + rows < H + 1 ? y + rows : H + 1;
      const int n = end - r;
      gb_status st = f->inner->read (f->inner->user, r - 1, n,
                                     d + (size_t) i * stride + f->bpp, stride);
      if (st != GB_OK)
        return st;
      for (int k = 0; k < n; k++)
        {
          unsigned char *row = d + (size_t) (i + k) * stride;
          memcpy (row, f->pixel, f->bpp);
          memcpy (row + (size_t) (W + 1) * f->bpp, f->pixel, f->bpp);
        }
      i += n;
    }
  return GB_OK;
}

/* The output rectangle is the inner one, moved: its rows pass through. */
static gb_status
framed_write (void *user, int y, int rows, const void *src, size_t stride)
{
  const gb_framed_io *f = user;
  return f->inner->write (f->inner->user, y, rows, src, stride);
}

void
gb_frame_io (const gb_native_io *inner, gb_border border, gb_framed_io *f,
             gb_native_io *framed)
{
  float colour[4];
  const int c = inner->format.channels;
  gb_border_colour (border, c, colour);
  f->inner = inner;
  f->bpp = gb_pixel_format_bytes (&inner->format);
  /* The colour's components are 0 or 1: exact in every format and either
   * transfer curve, so no conversion table is needed. */
  for (int k = 0; k < c; k++)
    {
      const int one = colour[k] != 0.0f;
      switch (inner->format.type)
        {
        case GB_SAMPLE_U8:
          f->pixel[k] = one ? 255 : 0;
          break;
        case GB_SAMPLE_U16:
          ((uint16_t *) f->pixel)[k] = one ? 65535 : 0;
          break;
        case GB_SAMPLE_U32:
          ((uint32_t *) f->pixel)[k] = one ? 4294967295u : 0;
          break;
        case GB_SAMPLE_HALF:
          ((uint16_t *) f->pixel)[k] = gb_float_to_half (one ? 1.0f : 0.0f);
          break;
        default:
          ((float *) f->pixel)[k] = one ? 1.0f : 0.0f;
        }
    }
  *framed = *inner;
  framed->width = inner->width + 2;
  framed->height = inner->height + 2;
  framed->out_x = inner->out_x + 1;
  framed->out_y = inner->out_y + 1;
  framed->read = framed_read;
  framed->write = framed_write;
  framed->user = f;
}
