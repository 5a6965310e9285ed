/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recursive Gaussian filters on the GPU: Young-van Vliet and Deriche one
 * line per thread, and the two-way partitioned Young-van Vliet (three
 * threads per line: two half-lines and the centre pixel, as in the
 * paper's Algorithm 1).  Young-van Vliet (to GB_YVV_BLOCK_MAX_SIGMA) and
 * Deriche run as exact block-parallel filters (recursive_blocks.cu)
 * wherever their block states fit the scratch buffer, and unless
 * blocks_per_stripe is 1; the kernels here serve the rest and are the
 * tests' and the benchmark's reference.
 *
 * The kernels filter columns: thread x walks down column x, so a warp
 * reads 32 neighbouring pixels of a row at each step (coalesced).  Rows are
 * filtered as the columns of a transposed copy (tiled transposes through
 * shared memory).  Recursion states are double: at large sigma the
 * feedback coefficients sum to within 1e-8 of 1. */
#include <math.h>

#include <new>

#include "cuda_internal.h"
#include "device_util.cuh"
#include "../engine/coefficients.h"
#include "../engine/pixel_math.h"
#include "../engine/recursive_blocks.h"

namespace {

constexpr int T_TILE = 32, T_ROWS = 8;   /* transpose tile and block rows */
constexpr int COLS_PER_BLOCK = 64;       /* column kernels: threads per block */
constexpr int TWO_WAY_COLS = 32;         /* two-way: lines per block */

struct yvv_k
{
  double B, a1, a2, a3;
  double M[3][3];
  int naive;
};

template <int C>
struct px
{
  double v[C];
};

template <int C>
__device__ __forceinline__ px<C>
load (const float *p)
{
  px<C> r;
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    r.v[ch] = (double) p[ch];   /* plain: some inputs were just written */
  return r;
}

template <int C>
__device__ __forceinline__ void
store (float *p, const px<C> &a)
{
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    p[ch] = (float) a.v[ch];
}

/* ------------------------------------------------------------ transpose */

/* out[x][y] = in[y][x] for pixels of C floats.  Pixels of 1, 2 or 4
 * floats move as one vector each way (a tile of vectors; the +1 column
 * keeps both the row writes and the column reads free of bank conflicts),
 * three as floats: moved float by float, an RGBA tile took four loads,
 * four shared stores with 4-way conflicts and four stores a pixel. */
template <int C>
__global__ void
transpose_kernel (const float *__restrict__ in, float *__restrict__ out,
                  int w, int h)
{
  const int x = blockIdx.x * T_TILE + threadIdx.x;
  const int y0 = blockIdx.y * T_TILE;
  const int ox = y0 + threadIdx.x;           /* column in out = row in in */
  const int oy0 = blockIdx.x * T_TILE;
  if constexpr (C == 3)
    {
      __shared__ float tile[T_TILE][T_TILE * C + 1];
      for (int j = threadIdx.y; j < T_TILE; j += T_ROWS)
        if (x < w && y0 + j < h)
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            tile[j][threadIdx.x * C + ch]
              = in[((size_t) (y0 + j) * w + x) * C + ch];
      __syncthreads ();
      for (int j = threadIdx.y; j < T_TILE; j += T_ROWS)
        if (ox < h && oy0 + j < w)
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            out[((size_t) (oy0 + j) * h + ox) * C + ch]
              = tile[threadIdx.x][j * C + ch];
    }
  else
    {
      typedef typename vec<C>::t V;
      __shared__ V tile[T_TILE][T_TILE + 1];
      const V *vin = reinterpret_cast<const V *> (in);
      V *vout = reinterpret_cast<V *> (out);
      for (int j = threadIdx.y; j < T_TILE; j += T_ROWS)
        if (x < w && y0 + j < h)
          tile[j][threadIdx.x] = vin[(size_t) (y0 + j) * w + x];
      __syncthreads ();
      for (int j = threadIdx.y; j < T_TILE; j += T_ROWS)
        if (ox < h && oy0 + j < w)
          vout[(size_t) (oy0 + j) * h + ox] = tile[threadIdx.x][j];
    }
}

/* ------------------------------------------------------ Young-van Vliet */

/* Rows are read BATCH at a time, all loads in flight before the first
 * use: a recursion step cannot start before its input arrives, and one
 * line per thread leaves too few threads to hide the latency otherwise. */
constexpr int BATCH = 16;

/* One step: the feedback from the previous output enters last, so only one
 * double FMA sits on the recursion's critical path. */
template <int C>
__device__ __forceinline__ px<C>
yvv_step (const yvv_k &k, const px<C> &x, const px<C> &p1, const px<C> &p2,
          const px<C> &p3)
{
  px<C> o;
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    o.v[ch] = fma (k.a1, p1.v[ch],
                   fma (k.a2, p2.v[ch], fma (k.a3, p3.v[ch], k.B * x.v[ch])));
  return o;
}

/* Causal pass over rows [i0, i1) in direction dir, from x to w (which may
 * be x itself), starting from states p1..p3, which it leaves holding the
 * last three outputs. */
template <int C>
__device__ __forceinline__ void
yvv_run (const yvv_k &k, const float *x, float *w, size_t pitch, int i0,
         int i1, int dir, px<C> &p1, px<C> &p2, px<C> &p3)
{
  int n = (i1 - i0) * dir, i = i0;
  for (; n >= BATCH; n -= BATCH, i += BATCH * dir)
    {
      px<C> xb[BATCH];
#pragma unroll
      for (int b = 0; b < BATCH; b++)
        xb[b] = load<C> (x + (size_t) (i + b * dir) * pitch);
#pragma unroll
      for (int b = 0; b < BATCH; b++)
        {
          px<C> o = yvv_step<C> (k, xb[b], p1, p2, p3);
          store<C> (w + (size_t) (i + b * dir) * pitch, o);
          p3 = p2;
          p2 = p1;
          p1 = o;
        }
    }
  for (; n > 0; n--, i += dir)
    {
      px<C> o = yvv_step<C> (k, load<C> (x + (size_t) i * pitch), p1, p2, p3);
      store<C> (w + (size_t) i * pitch, o);
      p3 = p2;
      p2 = p1;
      p1 = o;
    }
}

/* One line per thread: causal down the column into dst, then anticausal
 * up it, in place in dst. */
template <int C>
__global__ void
yvv_cols_kernel (const float *__restrict__ src, float *dst, int lines, int L,
                 yvv_k k)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= lines)
    return;
  const size_t pitch = (size_t) lines * C;
  const float *xs = src + (size_t) x * C;
  float *ws = dst + (size_t) x * C;
  px<C> x0 = load<C> (xs), u = load<C> (xs + (size_t) (L - 1) * pitch);
  px<C> p1 = x0, p2 = x0, p3 = x0;
  yvv_run<C> (k, xs, ws, pitch, 0, L, 1, p1, p2, p3);
  /* p1..p3 now hold w[L-1], w[L-2], w[L-3] (or the start for short lines) */
  px<C> o1, o2, o3;
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    {
      if (k.naive)
        o1.v[ch] = o2.v[ch] = o3.v[ch] = p1.v[ch];
      else
        {
          double o[3];
          gb_yvv_right_start (k.M, p1.v[ch], p2.v[ch], p3.v[ch], u.v[ch], o);
          o1.v[ch] = o[0];
          o2.v[ch] = o[1];
          o3.v[ch] = o[2];
        }
    }
  /* The anticausal pass reads back the float w it wrote; the recursion
   * itself stays in double. */
  yvv_run<C> (k, ws, ws, pitch, L - 1, -1, -1, o1, o2, o3);
}

/* Two-way: threadIdx.y 0 runs the top half (causal, then anticausal from
 * the centre), 1 the centre pixel by FIR, 2 the bottom half (anticausal,
 * then causal from the centre). */
template <int C>
__global__ void
twoway_cols_kernel (const float *__restrict__ src, float *dst, int lines,
                    int L, yvv_k k, gb_fir_quotients k_fir)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int role = threadIdx.y, m = L / 2;
  const size_t pitch = (size_t) lines * C;
  const float *xs = src + (size_t) x * C;
  float *ws = dst + (size_t) x * C;
  if (x < lines)
    {
      if (role == 0 && m > 0)
        {
          px<C> s = load<C> (xs);
          px<C> p1 = s, p2 = s, p3 = s;
          yvv_run<C> (k, xs, ws, pitch, 0, m, 1, p1, p2, p3);
        }
      else if (role == 2 && m + 1 < L)
        {
          px<C> s = load<C> (xs + (size_t) (L - 1) * pitch);
          px<C> p1 = s, p2 = s, p3 = s;
          yvv_run<C> (k, xs, ws, pitch, L - 1, m, -1, p1, p2, p3);
        }
      else if (role == 1)
        {
          /* The FIR taps come by forward quotients, so no table needs
           * uploading. */
          px<C> centre;
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            centre.v[ch] = gb_twoway_centre (xs + ch, (ptrdiff_t) pitch, L,
                                             k_fir.radius, k_fir.norm,
                                             k_fir.q1);
          store<C> (ws + (size_t) m * pitch, centre);
        }
    }
  __syncthreads ();
  if (x >= lines || role == 1)
    return;
  /* Second pass from the centre outwards, the centre value standing in
   * for the three values beyond it.  The centre was stored in float; read
   * it back as such so both halves see the same seed. */
  px<C> pc = load<C> (ws + (size_t) m * pitch);
  px<C> p1 = pc, p2 = pc, p3 = pc;
  if (role == 0)
    yvv_run<C> (k, ws, ws, pitch, m - 1, -1, -1, p1, p2, p3);
  else
    yvv_run<C> (k, ws, ws, pitch, m + 1, L, 1, p1, p2, p3);
}

/* -------------------------------------------------------------- Deriche */

/* Deriche one line per thread, in modal form (gb_deriche_modes, as the
 * CPU): the causal part Re sum u - h0 x into dst, then the anticausal
 * modes (which include x[i]) added to it on the way back.  The blocks
 * (recursive_blocks.cu) replace it wherever their states fit. */
template <int C>
__global__ void
deriche_cols_kernel (const float *__restrict__ src, float *dst, int lines,
                     int L, const __grid_constant__ gb_deriche_modes m)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= lines)
    return;
  const size_t pitch = (size_t) lines * C;
  const float *xs = src + (size_t) x * C;
  float *ys = dst + (size_t) x * C;
  for (int pass = 0; pass < 2; pass++)
    {
      const px<C> edge = load<C> (xs + (pass ? (size_t) (L - 1) * pitch : 0));
      double u[C][4];
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        gb_deriche_carry_start (&m, edge.v[ch], u[ch]);
      for (int k = 0; k < L; k++)
        {
          const size_t i = (size_t) (pass ? L - 1 - k : k) * pitch;
          const px<C> xi = load<C> (xs + i);
          px<C> o = pass ? load<C> (ys + i) : px<C> {};
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            {
              const double v = gb_deriche_modes_step (&m, xi.v[ch], u[ch]);
              o.v[ch] = pass ? o.v[ch] + v : v - m.h0 * xi.v[ch];
            }
          store<C> (ys + i, o);
        }
    }
}

/* ----------------------------------------------------------- launchers */

struct axis_plan
{
  gb_algorithm algorithm;
  yvv_k yvv;
  gb_deriche_modes der;
  gb_fir_quotients centre;   /* two-way: the centre pixel's FIR */
  gb_params params;          /* for the block-parallel kernels */
  double sigma;
};

gb_status
make_axis (const gb_params *p, double sigma, axis_plan *a)
{
  *a = axis_plan {};
  a->algorithm = p->algorithm;
  a->params = *p;
  a->sigma = sigma;
  if (p->algorithm == GB_ALGO_DERICHE)
    {
      gb_deriche_modes_make (sigma, &a->der);
      return GB_OK;
    }
  gb_yvv_coeffs c;
  gb_yvv_coeffs_make (sigma, &c);
  a->yvv.B = c.B;
  a->yvv.a1 = c.a1;
  a->yvv.a2 = c.a2;
  a->yvv.a3 = c.a3;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      a->yvv.M[i][j] = c.M[i][j];
  a->yvv.naive = gb_research_of (p)->naive_borders;
  if (p->algorithm == GB_ALGO_YVV_TWO_WAY)
    gb_fir_quotients_make (sigma, &a->centre);
  return GB_OK;
}

template <int C>
gb_status
launch_cols (const axis_plan *a, const float *src, float *dst, int lines,
             int L, cudaStream_t s)
{
  switch (a->algorithm)
    {
    case GB_ALGO_YVV:
      yvv_cols_kernel<C><<<(lines + COLS_PER_BLOCK - 1) / COLS_PER_BLOCK,
                           COLS_PER_BLOCK, 0, s>>> (src, dst, lines, L, a->yvv);
      return gb_cuda_check_launch ("yvv_cols_kernel");
    case GB_ALGO_YVV_TWO_WAY:
      twoway_cols_kernel<C><<<(lines + TWO_WAY_COLS - 1) / TWO_WAY_COLS,
                              dim3 (TWO_WAY_COLS, 3), 0, s>>> (
          src, dst, lines, L, a->yvv, a->centre);
      return gb_cuda_check_launch ("twoway_cols_kernel");
    default:
      deriche_cols_kernel<C><<<(lines + COLS_PER_BLOCK - 1) / COLS_PER_BLOCK,
                               COLS_PER_BLOCK, 0, s>>> (src, dst, lines, L,
                                                        a->der);
      return gb_cuda_check_launch ("deriche_cols_kernel");
    }
}

template <int C>
gb_status
launch_transpose (const float *in, float *out, int w, int h, cudaStream_t s)
{
  dim3 grid ((w + T_TILE - 1) / T_TILE, (h + T_TILE - 1) / T_TILE);
  transpose_kernel<C><<<grid, dim3 (T_TILE, T_ROWS), 0, s>>> (in, out, w, h);
  return gb_cuda_check_launch ("transpose_kernel");
}

/* A column of pixels of C interleaved floats is C independent columns of
 * floats: the column kernels filter scalars, w * C of them per row, so a
 * warp reads 128 contiguous bytes per step and RGBA images get four times
 * the threads. */
template <int C>
gb_status
run_c (const axis_plan *ax, const axis_plan *ay, int do_x, int do_y,
       float *a, float *b, float *c, int w, int h, cudaStream_t s,
       float **result)
{
  gb_status st = GB_OK;
  float *cur = a;
  if (do_x && do_y
      && gb_cuda_blocks_pair_apply (&ax->params, ax->sigma, &ay->params,
                                    ay->sigma, w, h, C))
    {
      /* Both axes in blocks: a -> b (rows) -> a (columns). */
      if ((st = gb_cuda_blocks_pair_run (&ax->params, ax->sigma, &ay->params,
                                         ay->sigma, a, b, a, c, w, h, C, s))
          != GB_OK)
        return st;
      *result = a;
      return GB_OK;
    }
  if (do_x && gb_cuda_blocks_apply (&ax->params, ax->sigma, 0, w, h * C))
    {
      /* Rows in blocks, straight from the image; c holds the states. */
      if ((st = gb_cuda_blocks_run (&ax->params, ax->sigma, 0, cur, b, c, w,
                                    h, C, s)) != GB_OK)
        return st;
      cur = b;
    }
  else if (do_x)
    {
      /* Rows: transpose, filter the columns, transpose back. */
      if ((st = launch_transpose<C> (cur, b, w, h, s)) != GB_OK
          || (st = launch_cols<1> (ax, b, c, h * C, w, s)) != GB_OK
          || (st = launch_transpose<C> (c, b, h, w, s)) != GB_OK)
        return st;
      cur = b;
    }
  if (do_y)
    {
      float *out = cur == a ? b : a;
      if (gb_cuda_blocks_apply (&ay->params, ay->sigma, 1, h, w * C))
        st = gb_cuda_blocks_run (&ay->params, ay->sigma, 1, cur, out, c, w,
                                 h, C, s);
      else
        st = launch_cols<1> (ay, cur, out, w * C, h, s);
      if (st != GB_OK)
        return st;
      cur = out;
    }
  *result = cur;
  return GB_OK;
}

} // namespace

gb_status
gb_cuda_transpose (const float *in, float *out, int w, int h, int channels,
              cudaStream_t s)
{
  switch (channels)
    {
    case 1: return launch_transpose<1> (in, out, w, h, s);
    case 2: return launch_transpose<2> (in, out, w, h, s);
    case 3: return launch_transpose<3> (in, out, w, h, s);
    default: return launch_transpose<4> (in, out, w, h, s);
    }
}

struct gb_cuda_rec_plan
{
  axis_plan ax, ay;
  int do_x, do_y;
};

gb_status
gb_cuda_rec_plan_make (const gb_params *p, gb_cuda_rec_plan **out)
{
  gb_cuda_rec_plan *pl = new (std::nothrow) gb_cuda_rec_plan {};
  gb_status st = GB_OK;
  *out = nullptr;
  if (!pl)
    return GB_ERR_NO_MEMORY;
  pl->do_x = p->sigma_x > 0.0;
  pl->do_y = p->sigma_y > 0.0;
  if (pl->do_x)
    st = make_axis (p, p->sigma_x, &pl->ax);
  if (st == GB_OK && pl->do_y)
    st = make_axis (p, p->sigma_y, &pl->ay);
  if (st != GB_OK)
    {
      delete pl;
      return st;
    }
  *out = pl;
  return GB_OK;
}

void
gb_cuda_rec_plan_free (gb_cuda_rec_plan *pl)
{
  delete pl;
}

gb_status
gb_cuda_rec_plan_launch (const gb_cuda_rec_plan *pl, float *a, float *b, float *c,
                    int w, int h, int channels, cudaStream_t s, float **result)
{
  *result = a;
  switch (channels)
    {
    case 1: return run_c<1> (&pl->ax, &pl->ay, pl->do_x, pl->do_y, a, b, c, w, h, s, result);
    case 2: return run_c<2> (&pl->ax, &pl->ay, pl->do_x, pl->do_y, a, b, c, w, h, s, result);
    case 3: return run_c<3> (&pl->ax, &pl->ay, pl->do_x, pl->do_y, a, b, c, w, h, s, result);
    default: return run_c<4> (&pl->ax, &pl->ay, pl->do_x, pl->do_y, a, b, c, w, h, s, result);
    }
}

gb_status
gb_cuda_recursive_run (const gb_params *p, float *a, float *b, float *c, int w,
                  int h, int channels, cudaStream_t s, float **result)
{
  gb_cuda_rec_plan *pl;
  gb_status st = gb_cuda_rec_plan_make (p, &pl);
  if (st != GB_OK)
    return st;
  st = gb_cuda_rec_plan_launch (pl, a, b, c, w, h, channels, s, result);
  cudaError_t e = cudaStreamSynchronize (s);
  if (st == GB_OK && e != cudaSuccess)
    st = gb_cuda_fail (e, GB_ERR_CUDA_LAUNCH, "recursive filter");
  gb_cuda_rec_plan_free (pl);
  return st;
}
