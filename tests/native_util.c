/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test plumbing for gb_blur_native (native_util.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "native_util.h"
#include "pixel_math.h"

static gb_status
read_cb (void *user, int y, int rows, void *dst, size_t stride)
{
  tu_sink *s = user;
  if (s->fail_read != GB_OK && s->reads == s->fail_at)
    return s->fail_read;
  s->reads++;
  /* In order, without overlap; rows nobody needs may be skipped; a CPU
   * run after a failed GPU run starts again from the top. */
  if (y == 0 && s->next_read > 0)
    s->restarts++;
  else
    s->order_errors += y < s->next_read;
  s->order_errors += rows < 1 || y + rows > s->height;
  s->next_read = y + rows;
  for (int i = 0; i < rows; i++)
    memcpy ((unsigned char *) dst + (size_t) i * stride,
            s->area + (size_t) (y + i) * s->row, s->row);
  return GB_OK;
}

static gb_status
write_cb (void *user, int y, int rows, const void *src, size_t stride)
{
  tu_sink *s = user;
  if (s->fail_write != GB_OK && s->writes == s->fail_at)
    return s->fail_write;
  s->writes++;
  if (y == 0 && s->next_write > 0)
    s->restarts++;
  else
    s->order_errors += y != s->next_write;
  s->order_errors += rows < 1 || y + rows > s->out_height;
  s->next_write = y + rows;
  for (int i = 0; i < rows; i++)
    memcpy (s->out + (size_t) (y + i) * s->orow,
            (const unsigned char *) src + (size_t) i * stride, s->orow);
  return GB_OK;
}

void
tu_sink_init (tu_sink *s, gb_native_io *io, const gb_pixel_format *f,
              const unsigned char *area, int w, int h, int ox, int oy,
              int ow, int oh, unsigned char *out)
{
  const size_t bpp = gb_pixel_format_bytes (f);
  memset (s, 0, sizeof *s);
  s->area = area;
  s->out = out;
  s->row = bpp * (size_t) w;
  s->orow = bpp * (size_t) ow;
  s->height = h;
  s->out_height = oh;
  gb_native_io v = { *f, w, h, ox, oy, ow, oh, read_cb, write_cb, s };
  *io = v;
}

static uint64_t
next (uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

void
tu_fill_native (const gb_pixel_format *f, unsigned char *p, size_t n,
                uint64_t *seed)
{
  for (size_t i = 0; i < n; i++)
    {
      float u = (float) (next (seed) >> 40) / 16777216.0f;
      switch (f->type)
        {
        case GB_SAMPLE_U8: p[i] = (unsigned char) next (seed); break;
        case GB_SAMPLE_U16: ((uint16_t *) p)[i] = (uint16_t) next (seed); break;
        case GB_SAMPLE_U32: ((uint32_t *) p)[i] = (uint32_t) next (seed); break;
        case GB_SAMPLE_HALF: ((uint16_t *) p)[i] = gb_float_to_half (u); break;
        default: ((float *) p)[i] = u;
        }
    }
}

const char *
tu_format_name (const gb_pixel_format *f)
{
  static char buf[64];
  static const char *const types[] = { "u8", "u16", "u32", "half", "float" };
  snprintf (buf, sizeof buf, "%s %s %dch",
            (int) f->type >= 0 && f->type < GB_SAMPLE_COUNT ? types[f->type]
                                                            : "?",
            f->trc == GB_TRC_SRGB ? "sRGB" : "linear", f->channels);
  return buf;
}

static double
sample (const gb_pixel_format *f, const unsigned char *p, size_t i,
        double *step)
{
  switch (f->type)
    {
    case GB_SAMPLE_U8: *step = 1; return p[i];
    case GB_SAMPLE_U16: *step = 1; return ((const uint16_t *) p)[i];
    case GB_SAMPLE_U32:
      *step = 65537.0;   /* u32 carries no more than float precision */
      return ((const uint32_t *) p)[i];
    case GB_SAMPLE_HALF:
      {
        double v = gb_half_to_float (((const uint16_t *) p)[i]);
        *step = ldexp (1.0, -10) * fmax (fabs (v), ldexp (1.0, -14));
        return v;
      }
    default:
      {
        double v = ((const float *) p)[i];
        *step = 1e-5 * fmax (fabs (v), 1e-3);
        return v;
      }
    }
}

double
tu_native_diff (const gb_pixel_format *f, const unsigned char *a,
                const unsigned char *b, size_t n, double *share)
{
  double worst = 0.0;
  size_t differ = 0;
  for (size_t i = 0; i < n; i++)
    {
      double sa, sb;
      double va = sample (f, a, i, &sa), vb = sample (f, b, i, &sb);
      double d = fabs (va - vb) / fmax (sa, sb);
      differ += va != vb;
      if (!(d <= worst))
        worst = isnan (d) ? INFINITY : d;
    }
  *share = n ? (double) differ / (double) n : 0.0;
  return worst;
}
