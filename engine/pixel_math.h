/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Per-pixel maths that the CPU backend and the CUDA kernels must share
 * exactly: one definition, compiled by gcc as static inline functions and
 * by nvcc as __host__ __device__ ones. */
#ifndef GB_PIXEL_MATH_H
#define GB_PIXEL_MATH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define GB_HD static __host__ __device__ __forceinline__
#else
#define GB_HD static inline
#endif

/* ---- sRGB transfer ------------------------------------------------------
 * babl's sRGB curve, both ways, unclamped (float formats keep values
 * outside [0, 1]; the linear segment carries negative ones). */
#define GB_SRGB_ENCODE_KNEE 0.003130804954f   /* linear segment below */

GB_HD float
gb_srgb_encode (float v)
{
  return v > GB_SRGB_ENCODE_KNEE ? 1.055f * powf (v, 1.0f / 2.4f) - 0.055f
                                 : 12.92f * v;
}

GB_HD float
gb_srgb_decode (float v)
{
  return v > 0.04045f ? powf ((v + 0.055f) / 1.055f, 2.4f) : v / 12.92f;
}

/* In double, for the tables the integer formats use. */
GB_HD double
gb_srgb_decode_d (double v)
{
  return v > 0.04045 ? pow ((v + 0.055) / 1.055, 2.4) : v / 12.92;
}

/* The sRGB curve of a linear value clamped to [0, 1]. */
GB_HD float
gb_srgb_from_linear (float v)
{
  if (!(v > 0.0f))
    return 0.0f;
  if (v >= 1.0f)
    return 1.0f;
  return gb_srgb_encode (v);
}

/* ---- alpha -------------------------------------------------------------
 * babl's BABL_ALPHA_FLOOR: when premultiplying or dividing by an alpha
 * this close to 0 it uses the floor instead, so a transparent pixel keeps
 * its colour through a round trip. */
#define GB_ALPHA_FLOOR (1.0f / 65536.0f)

GB_HD float
gb_alpha_used (float a)
{
  return a <= GB_ALPHA_FLOOR && a >= -GB_ALPHA_FLOOR ? GB_ALPHA_FLOOR : a;
}

/* ---- samples -----------------------------------------------------------
 * IEEE half floats, and integer codes rounded to nearest from [0, 1]. */
GB_HD float
gb_half_to_float (uint16_t h)
{
  const uint32_t sign = (uint32_t) (h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu, bits;
  if (e == 0x1fu)
    bits = sign | 0x7f800000u | (m << 13);              /* inf, NaN */
  else if (e != 0)
    bits = sign | ((e + 112u) << 23) | (m << 13);       /* normal */
  else if (m == 0)
    bits = sign;                                         /* zero */
  else
    {                                                    /* subnormal */
      e = 113u;
      while (!(m & 0x400u))
        {
          m <<= 1;
          e--;
        }
      bits = sign | (e << 23) | ((m & 0x3ffu) << 13);
    }
  union { uint32_t u; float f; } v = { bits };
  return v.f;
}

/* Round to nearest, ties to even, as the hardware and babl do. */
GB_HD uint16_t
gb_float_to_half (float f)
{
  union { float f; uint32_t u; } v = { f };
  const uint32_t sign = (v.u >> 16) & 0x8000u;
  const uint32_t a = v.u & 0x7fffffffu;
  if (a >= 0x7f800000u)                       /* inf, NaN */
    return (uint16_t) (sign | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0u));
  if (a >= 0x477ff000u)                       /* rounds past 65504 */
    return (uint16_t) (sign | 0x7c00u);
  if (a < 0x38800000u)                        /* below 2^-14: subnormal */
    {
      if (a < 0x33000000u)                    /* below half of 2^-24 */
        return (uint16_t) sign;
      const uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u;
      const uint32_t shift = 126u - e;        /* 14..24 */
      uint32_t r = m >> shift;
      const uint32_t rest = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
      r += rest > half || (rest == half && (r & 1u));
      return (uint16_t) (sign | r);
    }
  uint32_t r = ((a >> 13) - (112u << 10));
  const uint32_t rest = a & 0x1fffu;
  r += rest > 0x1000u || (rest == 0x1000u && (r & 1u));
  return (uint16_t) (sign | r);
}

GB_HD float
gb_clamp01 (float v)
{
  return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;   /* NaN -> 0 */
}

GB_HD uint8_t
gb_quantise_u8 (float v)
{
  return (uint8_t) (gb_clamp01 (v) * 255.0f + 0.5f);
}

GB_HD uint16_t
gb_quantise_u16 (float v)
{
  return (uint16_t) (gb_clamp01 (v) * 65535.0f + 0.5f);
}

GB_HD uint32_t
gb_quantise_u32 (float v)
{
  return (uint32_t) ((double) gb_clamp01 (v) * 4294967295.0 + 0.5);
}

/* ---- 8-bit sRGB encoding by table ---------------------------------------
 * Exact rounding of the curve without a pow per sample: threshold[k] is
 * the linear value at which code k becomes k + 1 (threshold[255] = inf),
 * guess[i] the code of i / GB_U8_BINS.  Thresholds are at least 3e-4
 * apart (the curve's steepest slope, 12.92, at 0), more than a bin, so a
 * bin holds at most one of them and one comparison corrects the guess. */
#define GB_U8_BINS 4096

GB_HD uint8_t
gb_encode_u8_table (float v, const float *threshold, const uint8_t *guess)
{
  v = gb_clamp01 (v);
  const int k = guess[(int) (v * (float) GB_U8_BINS)];
  return (uint8_t) (k + (v >= threshold[k]));
}

/* ---- edge-aware colour -------------------------------------------------
 * The edge-aware filter measures colour on perceptual values on a 0-255
 * scale, with premultiplication removed; pixels more transparent than
 * this count as black.  Data already perceptual (gb_params.perceptual) is
 * only clamped, not encoded again. */
#define GB_EDGE_ALPHA_MIN 1e-6f

GB_HD float
gb_edge_perceptual (float premultiplied, float alpha, int perceptual)
{
  const float v = alpha > GB_EDGE_ALPHA_MIN ? premultiplied / alpha : 0.0f;
  return 255.0f * (perceptual ? gb_clamp01 (v) : gb_srgb_from_linear (v));
}

/* ---- edge-aware spacings ----------------------------------------------
 * dt = sqrt (1 + (sigma_s / sigma_r)^2 |dI|^2) on a 0-255 scale.  The
 * squared ratio is capped so that a tiny range sigma cannot overflow to
 * inf (inf * 0 would be NaN), and dt itself is capped where b^dt is 0 for
 * every sigma the engine accepts: exp (-1.723 / 1500 * 1e6) = 0. */
#define GB_EDGE_RATIO2_MAX 1e30
#define GB_EDGE_DT_MAX 1e6f

GB_HD double
gb_edge_ratio2 (double sigma, double range_sigma)
{
  double r = sigma / range_sigma;
  double r2 = r * r;
  return r2 < GB_EDGE_RATIO2_MAX ? r2 : GB_EDGE_RATIO2_MAX;
}

GB_HD float
gb_edge_spacing (float ratio2, float sum_sq)
{
  float dt = sqrtf (1.0f + ratio2 * sum_sq);
  return dt < GB_EDGE_DT_MAX ? dt : GB_EDGE_DT_MAX;
}

/* ---- Young-van Vliet right border ---------------------------------------
 * The anticausal pass's starting values out[n+1], out[n+2], out[n+3] at the
 * right end of a line, from the causal values w0 = w[n], w1 = w[n-1],
 * w2 = w[n-2] and the last input u (replicated beyond the end), through
 * the Triggs-Sdika matrix M (gb_yvv_coeffs).  In double, summed left to
 * right without contraction on both backends (gcc builds with
 * -ffp-contract=off; nvcc would fuse a plain a * b + c). */
#ifdef __CUDA_ARCH__
#define GB_MUL_D(a, b) __dmul_rn ((a), (b))
#define GB_ADD_D(a, b) __dadd_rn ((a), (b))
#else
#define GB_MUL_D(a, b) ((a) * (b))
#define GB_ADD_D(a, b) ((a) + (b))
#endif

GB_HD void
gb_yvv_right_start (const double M[3][3], double w0, double w1, double w2,
                    double u, double out[3])
{
  const double d0 = w0 - u, d1 = w1 - u, d2 = w2 - u;
  for (int i = 0; i < 3; i++)
    out[i] = GB_ADD_D (GB_ADD_D (GB_ADD_D (u, GB_MUL_D (M[i][0], d0)),
                                 GB_MUL_D (M[i][1], d1)),
                       GB_MUL_D (M[i][2], d2));
}

/* ---- two-way centre -----------------------------------------------------
 * The two-way filter's seed: the FIR blur at the centre m = L / 2 of a
 * line of L samples x[0], x[pitch], ... (replicated borders), with taps
 * norm * exp(-k^2 / 2 sigma^2) made by forward quotients in double (the
 * gb_fir_quotients constants) and summed into four partial sums by k mod
 * 4, so both backends add in the same order. */
GB_HD double
gb_twoway_centre (const float *x, ptrdiff_t pitch, int L, int radius,
                  double norm, double q1)
{
  const int m = L / 2;
  double acc[4] = { GB_MUL_D (norm, (double) x[m * pitch]), 0.0, 0.0, 0.0 };
  double g = norm, q2 = q1 * q1;
  for (int k = 1; k <= radius; k++)
    {
      g = GB_MUL_D (g, q1);
      q1 = GB_MUL_D (q1, q2);
      const int lo = m - k < 0 ? 0 : m - k;
      const int hi = m + k > L - 1 ? L - 1 : m + k;
      acc[k & 3] = GB_ADD_D (acc[k & 3],
                             GB_MUL_D (g, (double) x[lo * pitch]
                                          + (double) x[hi * pitch]));
    }
  return acc[0] + ((acc[1] + acc[2]) + acc[3]);
}

#endif
