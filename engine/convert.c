/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Native formats to and from the work format on the CPU: the lookup
 * tables (built once, shared with the CUDA backend) and row loops on all
 * cores around the per-pixel conversions of convert_pixel.h. */
#include <pthread.h>
#include <stdlib.h>

#include "convert.h"
#include "pool.h"

static struct
{
  float u8_linear[256];
  float u8_srgb[256];
  float u8_threshold[256];
  uint8_t u8_guess[GB_U8_BINS + 1];
  float u16_srgb[65536];
} tables;

static gb_convert_luts luts;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void
build_tables (void)
{
  for (int k = 0; k < 256; k++)
    {
      tables.u8_linear[k] = (float) (k / 255.0);
      tables.u8_srgb[k] = (float) gb_srgb_decode_d (k / 255.0);
      /* Code k becomes k + 1 where the encoded value reaches k + 0.5. */
      tables.u8_threshold[k] = k < 255
        ? (float) gb_srgb_decode_d ((k + 0.5) / 255.0) : INFINITY;
    }
  int k = 0;
  for (int i = 0; i <= GB_U8_BINS; i++)
    {
      const float v = (float) i / (float) GB_U8_BINS;
      while (k < 255 && v >= tables.u8_threshold[k])
        k++;
      tables.u8_guess[i] = (uint8_t) k;
    }
  for (int s = 0; s < 65536; s++)
    tables.u16_srgb[s] = (float) gb_srgb_decode_d (s / 65535.0);
  luts.u8_linear = tables.u8_linear;
  luts.u8_srgb = tables.u8_srgb;
  luts.u8_threshold = tables.u8_threshold;
  luts.u8_guess = tables.u8_guess;
  luts.u16_srgb = tables.u16_srgb;
}

const gb_convert_luts *
gb_convert_luts_host (void)
{
  pthread_once (&tables_once, build_tables);
  return &luts;
}

size_t
gb_pixel_format_bytes (const gb_pixel_format *f)
{
  static const size_t sample[GB_SAMPLE_COUNT] = { 1, 2, 4, 2, 4 };
  if (!f || (int) f->type < 0 || f->type >= GB_SAMPLE_COUNT
      || (f->trc != GB_TRC_LINEAR && f->trc != GB_TRC_SRGB)
      || f->channels < 1 || f->channels > 4)
    return 0;
  return sample[f->type] * (size_t) f->channels;
}

typedef struct
{
  gb_pixel_format f;
  const unsigned char *native;
  size_t native_stride;
  float *work;
  size_t work_stride;
  int width, rows, rows_per_item;
  int encode;
  const gb_convert_luts *luts;
} convert_job;

/* The per-pixel functions inlined with a constant type, curve and channel
 * count, so that each combination gets a loop of plain table lookups. */
#define CONVERT_LOOP(TYPE, TRC, C)                                           \
  do {                                                                       \
    const size_t bpp_ = gb_pixel_format_bytes (&(gb_pixel_format) { TYPE, TRC, C }); \
    if (j->encode)                                                           \
      for (int x = 0; x < j->width; x++)                                    \
        gb_encode_pixel (TYPE, TRC, C, w + (size_t) x * C, n + x * bpp_, l); \
    else                                                                     \
      for (int x = 0; x < j->width; x++)                                    \
        gb_decode_pixel (TYPE, TRC, C, n + x * bpp_, w + (size_t) x * C, l); \
  } while (0)

#define BY_CHANNELS(TYPE, TRC)                                               \
  switch (c)                                                                 \
    {                                                                        \
    case 1: CONVERT_LOOP (TYPE, TRC, 1); break;                              \
    case 2: CONVERT_LOOP (TYPE, TRC, 2); break;                              \
    case 3: CONVERT_LOOP (TYPE, TRC, 3); break;                              \
    default: CONVERT_LOOP (TYPE, TRC, 4); break;                             \
    }

#define BY_CURVE(TYPE)                                                       \
  if (trc == GB_TRC_SRGB)                                                    \
    BY_CHANNELS (TYPE, GB_TRC_SRGB)                                          \
  else                                                                       \
    BY_CHANNELS (TYPE, GB_TRC_LINEAR)

static void
convert_row (const convert_job *j, unsigned char *n, float *w)
{
  const gb_convert_luts *l = j->luts;
  const int c = j->f.channels, trc = j->f.trc;
  switch (j->f.type)
    {
    case GB_SAMPLE_U8: BY_CURVE (GB_SAMPLE_U8); break;
    case GB_SAMPLE_U16: BY_CURVE (GB_SAMPLE_U16); break;
    case GB_SAMPLE_U32: BY_CURVE (GB_SAMPLE_U32); break;
    case GB_SAMPLE_HALF: BY_CURVE (GB_SAMPLE_HALF); break;
    default: BY_CURVE (GB_SAMPLE_FLOAT); break;
    }
}

static void
convert_item (void *ctx, long item, void *scratch)
{
  const convert_job *j = ctx;
  (void) scratch;
  int y0 = (int) item * j->rows_per_item;
  int y1 = y0 + j->rows_per_item < j->rows ? y0 + j->rows_per_item : j->rows;
  for (int y = y0; y < y1; y++)
    convert_row (j, (unsigned char *) j->native + (size_t) y * j->native_stride,
                 j->work + (size_t) y * j->work_stride);
}

static gb_status
convert_rows (const gb_pixel_format *f, const unsigned char *native,
              size_t native_stride, float *work, size_t work_stride,
              int width, int rows, int threads, int encode)
{
  const size_t bpp = gb_pixel_format_bytes (f);
  if (!bpp)
    return GB_ERR_FORMAT;
  if (!native || !work || width < 1 || rows < 0
      || native_stride < bpp * (size_t) width
      || work_stride < (size_t) f->channels * (size_t) width)
    return GB_ERR_NULL;
  convert_job j = { *f, native, native_stride, work, work_stride, width,
                    rows, 1, encode, gb_convert_luts_host () };
  /* Items of about 64 K pixels: enough of them to share among the
   * threads, few enough that starting them costs little. */
  j.rows_per_item = 65536 / width + 1;
  long items = (rows + j.rows_per_item - 1) / j.rows_per_item;
  if (items <= 1)
    {
      for (long i = 0; i < items; i++)
        convert_item (&j, i, NULL);
      return GB_OK;
    }
  return gb_parallel_for (items, convert_item, &j, 0, threads, NULL);
}

gb_status
gb_decode_rows (const gb_pixel_format *f, const void *src, size_t src_stride,
                float *dst, size_t dst_stride, int width, int rows,
                int threads)
{
  return convert_rows (f, src, src_stride, dst, dst_stride, width, rows,
                       threads, 0);
}

gb_status
gb_encode_rows (const gb_pixel_format *f, const float *src, size_t src_stride,
                void *dst, size_t dst_stride, int width, int rows,
                int threads)
{
  return convert_rows (f, dst, dst_stride, (float *) src, src_stride, width,
                       rows, threads, 1);
}
