/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The edge-aware filter's spacings: the domain transform's distances
 * between neighbours, computed once a call. */
#include "cuda_internal.h"
#include "device_util.cuh"
#include "edge_parts.h"
#include "../engine/pixel_math.h"

namespace {

/* Spacings: dt_y[y][x] between (x, y-1) and (x, y); dt_xT[x][y] between
 * (x-1, y) and (x, y), stored transposed for the row passes.  A thread
 * block covers a tile of SP_TILE x SP_TILE pixels: each pixel's
 * perceptual colour is computed once into shared memory with the row
 * above and the column to the left (the sRGB curve is a power; computing
 * it for each neighbour again made this kernel compute-bound), and the
 * transposed plane is written through shared memory so that both planes'
 * writes are whole rows.  Where the first pass filters rows, imgT gets
 * the image transposed (w x h) from the same tiles, instead of a
 * transpose kernel reading the image again after this one. */
constexpr int SP_TILE = 32, SP_ROWS = 8;   /* blockDim (SP_TILE, SP_ROWS) */

/* gb_edge_perceptual, with the sRGB curve's power through the hardware's
 * log2 and exp2 (__powf: a relative error near 1e-7, far below what a
 * spacing can tell), which is faster.  Falling back to
 * gb_edge_perceptual outside the power's range kept powf in the kernel
 * and was slower. */
__device__ __forceinline__ float
perceptual_fast (float premultiplied, float alpha, int perceptual)
{
  const float v = alpha > GB_EDGE_ALPHA_MIN ? premultiplied / alpha : 0.0f;
  if (perceptual)
    return 255.0f * gb_clamp01 (v);
  if (!(v > 0.0f))
    return 0.0f;
  if (v >= 1.0f)
    return 255.0f;
  return 255.0f * (v > GB_SRGB_ENCODE_KNEE ? 1.055f * __powf (v, 1.0f / 2.4f)
                                               - 0.055f
                                           : 12.92f * v);
}

template <int C, bool TRANSPOSE>
__global__ void
spacings_kernel (const float *__restrict__ img, int w, int h, float rx2,
                 float ry2, int perceptual_input, float *__restrict__ dty,
                 float *__restrict__ dtxT, float *__restrict__ imgT)
{
  constexpr int NC = C >= 3 ? 3 : 1;
  constexpr bool ALPHA = C == 2 || C == 4;
  constexpr int T1 = SP_TILE + 1;
  __shared__ float pc[T1][T1][NC];          /* [y - y0 + 1][x - x0 + 1] */
  __shared__ float sxT[SP_TILE][SP_TILE + 1];
  /* The tile's pixels as read, [y - y0][x - x0], a row one pixel longer
   * than the tile so that a warp reading down a column of it hits every
   * bank once (RGBA: 8 float4 a phase, 132 floats a row apart). */
  __shared__ __align__ (16) float raw[TRANSPOSE ? SP_TILE : 1]
                                     [TRANSPOSE ? (SP_TILE + 1) * C : 1];
  const int x0 = blockIdx.x * SP_TILE, y0 = blockIdx.y * SP_TILE;
  const int tx = threadIdx.x, ty = threadIdx.y;
  /* A thread's pixels of the tile and its border (at most NQ), all
   * loaded before any is converted (one at a time was slower). */
  constexpr int NQ = (T1 * T1 + SP_TILE * SP_ROWS - 1) / (SP_TILE * SP_ROWS);
  const int q0 = ty * SP_TILE + tx;
  auto at = [&] (int j, int &xx, int &yy) {
    const int q = q0 + j * SP_TILE * SP_ROWS;
    xx = x0 - 1 + q % T1;
    yy = y0 - 1 + q / T1;
    return q < T1 * T1 && xx >= 0 && yy >= 0 && xx < w && yy < h;
  };
  float v[NQ][C];
#pragma unroll
  for (int j = 0; j < NQ; j++)
    {
      int xx, yy;
      if (at (j, xx, yy))
        load_px<C> (img + ((size_t) yy * w + xx) * C, v[j]);
    }
#pragma unroll
  for (int j = 0; j < NQ; j++)
    {
      int xx, yy;
      if (!at (j, xx, yy))
        continue;
      const float a = ALPHA ? v[j][C - 1] : 1.0f;
#pragma unroll
      for (int k = 0; k < NC; k++)
        pc[yy - y0 + 1][xx - x0 + 1][k]
          = perceptual_fast (v[j][k], a, perceptual_input);
      if constexpr (TRANSPOSE)
        if (xx >= x0 && yy >= y0)
          store_px<C> (&raw[yy - y0][(xx - x0) * C], v[j]);
    }
  __syncthreads ();
  for (int r = ty; r < SP_TILE; r += SP_ROWS)
    {
      const int x = x0 + tx, y = y0 + r;
      if (x >= w || y >= h)
        continue;
      float sx = 0.f, sy = 0.f;
#pragma unroll
      for (int k = 0; k < NC; k++)
        {
          const float c0 = pc[r + 1][tx + 1][k];
          if (x > 0)
            sx += (c0 - pc[r + 1][tx][k]) * (c0 - pc[r + 1][tx][k]);
          if (y > 0)
            sy += (c0 - pc[r][tx + 1][k]) * (c0 - pc[r][tx + 1][k]);
        }
      dty[(size_t) y * w + x] = gb_edge_spacing (ry2, sy);
      sxT[tx][r] = gb_edge_spacing (rx2, sx);
    }
  __syncthreads ();
  for (int r = ty; r < SP_TILE; r += SP_ROWS)
    {
      const int x = x0 + r, y = y0 + tx;
      if (x < w && y < h)
        {
          dtxT[(size_t) x * h + y] = sxT[r][tx];
          if constexpr (TRANSPOSE)
            {
              float v[C];
              load_px<C, false> (&raw[tx][r * C], v);
              store_px<C> (imgT + ((size_t) x * h + y) * C, v);
            }
        }
    }
}

template <int C>
gb_status
launch_spacings (const float *img, int w, int h, float rx2, float ry2,
                 int perceptual, float *dty, float *dtxT, float *imgT,
                 cudaStream_t s)
{
  dim3 blk (SP_TILE, SP_ROWS),
       grid ((w + SP_TILE - 1) / SP_TILE, (h + SP_TILE - 1) / SP_TILE);
  if (imgT)
    spacings_kernel<C, true><<<grid, blk, 0, s>>> (
        img, w, h, rx2, ry2, perceptual, dty, dtxT, imgT);
  else
    spacings_kernel<C, false><<<grid, blk, 0, s>>> (
        img, w, h, rx2, ry2, perceptual, dty, dtxT, nullptr);
  return gb_cuda_check_launch ("spacings_kernel");
}

} // namespace

gb_status
gb_cuda_edge_spacings (int channels, const float *img, int w, int h,
                       float rx2, float ry2, int perceptual, float *dty,
                       float *dtxT, float *imgT, cudaStream_t s)
{
  switch (channels)
    {
    case 1: return launch_spacings<1> (img, w, h, rx2, ry2, perceptual, dty, dtxT, imgT, s);
    case 2: return launch_spacings<2> (img, w, h, rx2, ry2, perceptual, dty, dtxT, imgT, s);
    case 3: return launch_spacings<3> (img, w, h, rx2, ry2, perceptual, dty, dtxT, imgT, s);
    default: return launch_spacings<4> (img, w, h, rx2, ry2, perceptual, dty, dtxT, imgT, s);
    }
}
