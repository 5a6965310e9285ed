/* Per-pixel maths that the CPU backend and the CUDA kernels must share
 * exactly: one definition, compiled by gcc as static inline functions and
 * by nvcc as __host__ __device__ ones. */
#ifndef GB_PIXEL_MATH_H
#define GB_PIXEL_MATH_H

#include <math.h>

#ifdef __CUDACC__
#define GB_HD static __host__ __device__ __forceinline__
#else
#define GB_HD static inline
#endif

/* ---- sRGB transfer ------------------------------------------------------
 * The sRGB curve of a linear value, clamped to [0, 1]. */
GB_HD float
gb_srgb_from_linear (float v)
{
  if (!(v > 0.0f))
    return 0.0f;
  if (v >= 1.0f)
    return 1.0f;
  return v <= 0.0031308f ? 12.92f * v : 1.055f * powf (v, 1.0f / 2.4f) - 0.055f;
}

/* ---- edge-aware colour -------------------------------------------------
 * The edge-aware filter measures colour on perceptual values on a 0-255
 * scale, with premultiplication removed; pixels more transparent than
 * this count as black. */
#define GB_EDGE_ALPHA_MIN 1e-6f

GB_HD float
gb_edge_perceptual (float premultiplied, float alpha)
{
  return 255.0f * gb_srgb_from_linear (alpha > GB_EDGE_ALPHA_MIN
                                       ? premultiplied / alpha : 0.0f);
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

#endif
