/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One pixel between a native format and the work format (linear light,
 * colour premultiplied by alpha, float), as babl converts it.  Shared by
 * the CPU's row loops (engine/convert.c) and the CUDA kernels
 * (cuda/convert.cu), so both backends produce the same codes. */
#ifndef GB_CONVERT_PIXEL_H
#define GB_CONVERT_PIXEL_H

#include "gblur.h"
#include "pixel_math.h"

/* Lookup tables, host or device pointers (engine/convert.c builds them). */
typedef struct
{
  const float *u8_linear;       /* 256: code / 255 */
  const float *u8_srgb;         /* 256: sRGB-decoded code / 255 */
  const float *u8_threshold;    /* 256: see gb_encode_u8_table */
  const uint8_t *u8_guess;      /* GB_U8_BINS + 1 */
  const float *u16_srgb;        /* 65536: sRGB-decoded code / 65535 */
} gb_convert_luts;

GB_HD void
gb_decode_pixel (int type, int trc, int c, const unsigned char *src,
                 float *dst, const gb_convert_luts *l)
{
  const int alpha = c == 2 || c == 4, nc = c - alpha;
  float v[4];
  for (int k = 0; k < c; k++)
    {
      const int srgb = trc == GB_TRC_SRGB && k < nc;
      switch (type)
        {
        case GB_SAMPLE_U8:
          v[k] = srgb ? l->u8_srgb[src[k]] : l->u8_linear[src[k]];
          break;
        case GB_SAMPLE_U16:
          {
            const uint16_t s = ((const uint16_t *) src)[k];
            v[k] = srgb ? l->u16_srgb[s] : (float) s * (1.0f / 65535.0f);
          }
          break;
        case GB_SAMPLE_U32:
          v[k] = (float) (((const uint32_t *) src)[k] / 4294967295.0);
          v[k] = srgb ? gb_srgb_decode (v[k]) : v[k];
          break;
        case GB_SAMPLE_HALF:
          v[k] = gb_half_to_float (((const uint16_t *) src)[k]);
          v[k] = srgb ? gb_srgb_decode (v[k]) : v[k];
          break;
        default:
          v[k] = ((const float *) src)[k];
          v[k] = srgb ? gb_srgb_decode (v[k]) : v[k];
        }
    }
  if (alpha)
    {
      const float a = gb_alpha_used (v[nc]);
      for (int k = 0; k < nc; k++)
        v[k] *= a;
    }
  for (int k = 0; k < c; k++)
    dst[k] = v[k];
}

GB_HD void
gb_encode_pixel (int type, int trc, int c, const float *src,
                 unsigned char *dst, const gb_convert_luts *l)
{
  const int alpha = c == 2 || c == 4, nc = c - alpha;
  float v[4];
  for (int k = 0; k < c; k++)
    v[k] = src[k];
  if (alpha)
    {
      const float recip = 1.0f / gb_alpha_used (v[nc]);
      for (int k = 0; k < nc; k++)
        v[k] *= recip;
    }
  for (int k = 0; k < c; k++)
    {
      const int srgb = trc == GB_TRC_SRGB && k < nc;
      switch (type)
        {
        case GB_SAMPLE_U8:
          dst[k] = srgb ? gb_encode_u8_table (v[k], l->u8_threshold,
                                              l->u8_guess)
                        : gb_quantise_u8 (v[k]);
          break;
        case GB_SAMPLE_U16:
          ((uint16_t *) dst)[k] =
            gb_quantise_u16 (srgb ? gb_srgb_encode (gb_clamp01 (v[k])) : v[k]);
          break;
        case GB_SAMPLE_U32:
          ((uint32_t *) dst)[k] =
            gb_quantise_u32 (srgb ? gb_srgb_encode (gb_clamp01 (v[k])) : v[k]);
          break;
        case GB_SAMPLE_HALF:
          ((uint16_t *) dst)[k] =
            gb_float_to_half (srgb ? gb_srgb_encode (v[k]) : v[k]);
          break;
        default:
          ((float *) dst)[k] = srgb ? gb_srgb_encode (v[k]) : v[k];
        }
    }
}

#endif
