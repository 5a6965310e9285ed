/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Native formats and gb_blur_native on the CPU:
 *   - decoding every 8- and 16-bit code equals the sRGB formula evaluated
 *     here in double; encoding rounds to the nearest code (checked against
 *     the formula in double on random values and around every 8-bit
 *     threshold); every code survives a round trip at any alpha;
 *   - half floats: all 65536 codes round-trip, and float -> half rounds as
 *     the compiler's _Float16 does;
 *   - gb_blur_native equals decode, gb_blur, encode of the same pixels
 *     byte for byte, for every sample type, curve and channel count, with
 *     an output rectangle inside the area; reads cover the area, every
 *     output row is written once, in order; tiny sigmas copy the pixels
 *     through untouched;
 *   - failing callbacks stop the run with their status, and bad io is
 *     refused before any callback. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "convert.h"
#include "native_util.h"

static double
srgb_decode_ref (double v)
{
  return v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
}

static double
srgb_encode_ref (double v)
{
  return v <= 0.0031308049535603713 ? v * 12.92
                                    : 1.055 * pow (v, 1.0 / 2.4) - 0.055;
}

static uint64_t
next (uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static double
uniform (uint64_t *s)
{
  return (double) (next (s) >> 11) / 9007199254740992.0;
}

static void
tables_against_formula (uint64_t *seed)
{
  const gb_convert_luts *l = gb_convert_luts_host ();
  int bad = 0;
  for (int k = 0; k < 256; k++)
    bad += l->u8_srgb[k] != (float) srgb_decode_ref (k / 255.0)
           || l->u8_linear[k] != (float) (k / 255.0);
  for (int k = 0; k < 65536; k++)
    bad += l->u16_srgb[k] != (float) srgb_decode_ref (k / 65535.0);
  TU_CHECK (bad == 0, "%d decode table entries differ from the formula", bad);

  /* 8-bit sRGB encoding against the formula: random values, and values
   * one float step either side of every threshold. */
  gb_pixel_format f = { GB_SAMPLE_U8, GB_TRC_SRGB, 1 };
  int wrong = 0;
  for (int i = 0; i < 2000000; i++)
    {
      float v = i < 1000000 ? (float) uniform (seed)
                            : (float) (uniform (seed) * 0.01);
      unsigned char code;
      gb_encode_rows (&f, &v, 1, &code, 1, 1, 1, 1);
      double e = srgb_encode_ref (v) * 255.0;
      int want = (int) floor (e + 0.5);
      /* A tie within float rounding may go either way. */
      if (code != want && fabs (e - floor (e) - 0.5) > 1e-4)
        wrong++;
    }
  for (int k = 0; k < 255; k++)
    {
      float t = l->u8_threshold[k];
      float lo = nextafterf (t, 0.0f), hi = t;
      unsigned char a, b;
      gb_encode_rows (&f, &lo, 1, &a, 1, 1, 1, 1);
      gb_encode_rows (&f, &hi, 1, &b, 1, 1, 1, 1);
      wrong += a != k || b != k + 1;
    }
  TU_CHECK (wrong == 0, "%d 8-bit sRGB encodings are not the nearest code",
            wrong);

  /* The guess table's promise: one threshold at most per bin. */
  int crowded = 0;
  for (int i = 0; i < GB_U8_BINS; i++)
    {
      int n = 0;
      for (int k = 0; k < 255; k++)
        n += l->u8_threshold[k] >= (float) i / GB_U8_BINS
             && l->u8_threshold[k] < (float) (i + 1) / GB_U8_BINS;
      crowded += n > 1;
    }
  TU_CHECK (crowded == 0, "%d bins hold more than one threshold", crowded);
}

/* Every code of 8- and 16-bit grey+alpha, at several alphas, decodes and
 * encodes back to itself; so do all halves. */
static void
round_trips (void)
{
  static const int trcs[2] = { GB_TRC_LINEAR, GB_TRC_SRGB };
  int bad = 0;
  for (int t = 0; t < 2; t++)
    {
      gb_pixel_format f8 = { GB_SAMPLE_U8, trcs[t], 2 };
      unsigned char in8[2], out8[2];
      float work[2];
      for (int a = 0; a < 256; a += 17)
        for (int v = 0; v < 256; v++)
          {
            in8[0] = (unsigned char) v;
            in8[1] = (unsigned char) a;
            gb_decode_rows (&f8, in8, 2, work, 2, 1, 1, 1);
            gb_encode_rows (&f8, work, 2, out8, 2, 1, 1, 1);
            bad += memcmp (in8, out8, 2) != 0;
          }
      gb_pixel_format f16 = { GB_SAMPLE_U16, trcs[t], 2 };
      uint16_t in16[2], out16[2];
      for (int a = 0; a < 65536; a += 4369)
        for (int v = 0; v < 65536; v++)
          {
            in16[0] = (uint16_t) v;
            in16[1] = (uint16_t) a;
            gb_decode_rows (&f16, in16, 4, work, 2, 1, 1, 1);
            gb_encode_rows (&f16, work, 2, out16, 4, 1, 1, 1);
            bad += memcmp (in16, out16, 4) != 0;
          }
    }
  TU_CHECK (bad == 0, "%d integer codes changed in a round trip", bad);

  int half_bad = 0;
  for (int h = 0; h < 65536; h++)
    {
      float v = gb_half_to_float ((uint16_t) h);
      if (isnan (v))
        half_bad += !isnan (gb_half_to_float (gb_float_to_half (v)));
      else
        half_bad += gb_float_to_half (v) != h;
    }
  TU_CHECK (half_bad == 0, "%d half codes changed in a round trip", half_bad);
}

static void
half_rounding (uint64_t *seed)
{
  int bad = 0;
  for (int i = 0; i < 4000000; i++)
    {
      union { uint32_t u; float f; } v;
      v.u = (uint32_t) next (seed);
      if (i % 2)   /* half the draws inside the half range */
        v.f = (float) ((uniform (seed) - 0.5) * 140000.0
                       * pow (2.0, -(double) (next (seed) % 30)));
      if (isnan (v.f))
        continue;
      _Float16 ref = (_Float16) v.f;
      uint16_t want;
      memcpy (&want, &ref, 2);
      bad += gb_float_to_half (v.f) != want;
      float back = gb_half_to_float (want);
      bad += memcmp (&back, &(float) { (float) ref }, 4) != 0;
    }
  TU_CHECK (bad == 0, "%d halves differ from _Float16", bad);
}

/* ---- gb_blur_native against decode, gb_blur, encode ------------------- */

static void
native_matches_border (const gb_pixel_format *f, gb_algorithm a, double sx,
                       double sy, gb_border border, uint64_t *seed)
{
  const int w = 67, h = 45, ox = 5, oy = 7, ow = 50, oh = 30;
  const int c = f->channels;
  const size_t bpp = gb_pixel_format_bytes (f), row = bpp * w, orow = bpp * ow;
  unsigned char *area = malloc (row * h), *got = malloc (orow * oh);
  unsigned char *want = malloc (orow * oh);
  float *work = malloc (sizeof (float) * w * h * c);
  if (!area || !got || !want || !work)
    {
      TU_CHECK (0, "allocation");
      goto out;
    }
  tu_fill_native (f, area, (size_t) w * h * c, seed);
  memset (got, 0xa5, orow * oh);

  gb_params p;
  tu_params_cpu (&p, a, sx, sy);
  p.border = border;
  tu_sink s;
  gb_native_io io;
  tu_sink_init (&s, &io, f, area, w, h, ox, oy, ow, oh, got);
  gb_report rep;
  gb_status st = gb_blur_native (&p, &io, NULL, NULL, &rep);
  TU_CHECK (st == GB_OK, "%s %s: %s", tu_format_name (f), gb_algorithm_name (a),
            gb_status_message (st));
  const int identity = !(gb_effective_sigma (sx) > 0)
                       && !(gb_effective_sigma (sy) > 0);
  TU_CHECK (s.order_errors == 0 && s.next_write == oh
            && s.next_read == (identity ? oy + oh : h),
            "%s: callbacks out of order (%d), read to %d, wrote to %d",
            tu_format_name (f), s.order_errors, s.next_read, s.next_write);
  if (identity)
    {
      /* The pixels go back as they came, not through a conversion (which
       * is exact for integers but not for premultiplied floats). */
      long moved = 0;
      for (int y = 0; y < oh; y++)
        moved += memcmp (got + (size_t) y * orow,
                         area + (size_t) (oy + y) * row + ox * bpp, orow) != 0;
      TU_CHECK (moved == 0, "%s: %ld rows changed by a tiny sigma",
                tu_format_name (f), moved);
      goto out;
    }

  /* The reference: the same conversions, the float blur. */
  gb_decode_rows (f, area, row, work, (size_t) w * c, w, h, 1);
  gb_image img = { work, w, h, c, (size_t) w * c };
  gb_blur (&p, &img, &img, NULL, NULL, NULL);
  gb_encode_rows (f, work + ((size_t) oy * w + ox) * c, (size_t) w * c, want,
                  orow, ow, oh, 1);
  long diff = 0;
  for (size_t i = 0; i < orow * oh; i++)
    diff += got[i] != want[i];
  TU_CHECK (diff == 0, "%s %s sx=%g sy=%g border %d: %ld bytes differ from "
            "decode, gb_blur, encode", tu_format_name (f),
            gb_algorithm_name (a), sx, sy, (int) border, diff);
out:
  free (area);
  free (got);
  free (want);
  free (work);
}

static void
native_matches_float (const gb_pixel_format *f, gb_algorithm a, double sx,
                      double sy, uint64_t *seed)
{
  native_matches_border (f, a, sx, sy, GB_BORDER_CLAMP, seed);
}

static void
every_format (uint64_t *seed)
{
  for (int t = 0; t < GB_SAMPLE_COUNT; t++)
    for (int trc = 0; trc < 2; trc++)
      for (int c = 1; c <= 4; c++)
        {
          gb_pixel_format f = { (gb_sample_type) t, (gb_trc) trc, c };
          native_matches_float (&f, GB_ALGO_FIR, 2.5, 1.5, seed);
        }
  gb_pixel_format rgba8 = { GB_SAMPLE_U8, GB_TRC_SRGB, 4 };
  for (int a = GB_ALGO_AUTO; a < GB_ALGO_COUNT; a++)
    native_matches_float (&rgba8, (gb_algorithm) a, 6.0, 3.0, seed);
  /* Borders: the frame goes through the callbacks as it goes through the
   * float blur, for every algorithm and, with the FIR, every format. */
  for (int b = GB_BORDER_NONE; b < GB_BORDER_COUNT; b++)
    {
      for (int a = GB_ALGO_AUTO; a < GB_ALGO_COUNT; a++)
        native_matches_border (&rgba8, (gb_algorithm) a, 6.0, 3.0,
                               (gb_border) b, seed);
      for (int t = 0; t < GB_SAMPLE_COUNT; t++)
        for (int c = 1; c <= 4; c++)
          {
            gb_pixel_format f = { (gb_sample_type) t, GB_TRC_SRGB, c };
            native_matches_border (&f, GB_ALGO_FIR, 2.5, 1.5, (gb_border) b,
                                   seed);
          }
    }
  /* Rows and columns on different algorithms (the x axis below 0.5). */
  native_matches_float (&rgba8, GB_ALGO_DERICHE, 0.3, 4.0, seed);
  /* Tiny sigmas: the pixels go back untouched. */
  gb_pixel_format rgbaf = { GB_SAMPLE_FLOAT, GB_TRC_LINEAR, 4 };
  native_matches_float (&rgbaf, GB_ALGO_FIR, 1e-300, 0.0, seed);
  native_matches_float (&rgba8, GB_ALGO_AUTO, 0.1, 0.1, seed);
}

static void
failures_and_refusals (uint64_t *seed)
{
  gb_pixel_format f = { GB_SAMPLE_U8, GB_TRC_SRGB, 3 };
  const int w = 40, h = 30;
  unsigned char area[40 * 30 * 3], out[40 * 30 * 3];
  tu_fill_native (&f, area, sizeof area, seed);
  gb_params p;
  gb_params_init (&p);
  p.backend = GB_BACKEND_CPU;

  for (int which = 0; which < 2; which++)
    {
      tu_sink s;
      gb_native_io io;
      tu_sink_init (&s, &io, &f, area, w, h, 0, 0, w, h, out);
      if (which == 0)
        s.fail_read = GB_ERR_IO;
      else
        s.fail_write = GB_ERR_IO;
      gb_status st = gb_blur_native (&p, &io, NULL, NULL, NULL);
      TU_CHECK (st == GB_ERR_IO, "failing %s: %s", which ? "write" : "read",
                gb_status_message (st));
      TU_CHECK (which == 1 || s.writes == 0, "a failed read still wrote");
    }

  tu_sink s;
  gb_native_io good;
  tu_sink_init (&s, &good, &f, area, w, h, 0, 0, w, h, out);
  const gb_read_fn read_cb = good.read;
  const gb_write_fn write_cb = good.write;
  struct { const char *what; gb_native_io io; gb_status want; } bad[] = {
    { "format", { { GB_SAMPLE_COUNT, GB_TRC_SRGB, 3 }, w, h, 0, 0, w, h,
                  read_cb, write_cb, &s }, GB_ERR_FORMAT },
    { "channels", { { GB_SAMPLE_U8, GB_TRC_SRGB, 5 }, w, h, 0, 0, w, h,
                    read_cb, write_cb, &s }, GB_ERR_FORMAT },
    { "rectangle", { f, w, h, 1, 0, w, h, read_cb, write_cb, &s },
      GB_ERR_SIZE },
    { "empty rectangle", { f, w, h, 0, 0, 0, h, read_cb, write_cb, &s },
      GB_ERR_SIZE },
    { "read", { f, w, h, 0, 0, w, h, NULL, write_cb, &s }, GB_ERR_NULL },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      gb_report rep;
      gb_status st = gb_blur_native (&p, &bad[i].io, NULL, NULL, &rep);
      TU_CHECK (st == bad[i].want, "bad %s: got \"%s\"", bad[i].what,
                gb_status_message (st));
      TU_CHECK (strlen (rep.reason) > 0, "bad %s: no reason", bad[i].what);
    }
  TU_CHECK (s.reads == 0 && s.next_read == 0 && s.next_write == 0,
            "a refused call used its callbacks");
  p.sigma_x = -1.0;
  TU_CHECK (gb_blur_native (&p, &good, NULL, NULL, NULL) == GB_ERR_SIGMA,
            "a negative sigma was accepted");
}

int
main (void)
{
  uint64_t seed = tu_seed ("test_native");
  tables_against_formula (&seed);
  round_trips ();
  half_rounding (&seed);
  every_format (&seed);
  failures_and_refusals (&seed);
  return tu_finish ("test_native");
}
