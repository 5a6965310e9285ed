/* Recursive Gaussian filters on the GPU: Young-van Vliet one line per
 * thread, the two-way partitioned Young-van Vliet (three threads per
 * line: two half-lines and the centre pixel, as in the paper's
 * Algorithm 1), and Deriche.
 *
 * The kernels filter columns: thread x walks down column x, so a warp
 * reads 32 neighbouring pixels of a row at each step (coalesced).  Rows are
 * filtered as the columns of a transposed copy (tiled transposes through
 * shared memory).  Recursion states are double: at large sigma the
 * feedback coefficients sum to within 1e-8 of 1. */
#include <math.h>
#include <stdlib.h>

#include "cuda_internal.h"
#include "../engine/recursive.h"
#include "../engine/cpu_backend.h"

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

struct deriche_k
{
  double n[4], m[5], d[5];
  double causal_gain, anticausal_gain;
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
    r.v[ch] = (double) __ldg (p + ch);
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

/* out[x][y] = in[y][x] for pixels of C floats. */
template <int C>
__global__ void
transpose_kernel (const float *__restrict__ in, float *__restrict__ out,
                  int w, int h)
{
  __shared__ float tile[T_TILE][T_TILE * C + 1];
  int x = blockIdx.x * T_TILE + threadIdx.x;
  int y0 = blockIdx.y * T_TILE;
  for (int j = threadIdx.y; j < T_TILE; j += T_ROWS)
    if (x < w && y0 + j < h)
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        tile[j][threadIdx.x * C + ch] = in[((size_t) (y0 + j) * w + x) * C + ch];
  __syncthreads ();
  int ox = y0 + threadIdx.x;                 /* column in out = row in in */
  int oy0 = blockIdx.x * T_TILE;
  for (int j = threadIdx.y; j < T_TILE; j += T_ROWS)
    if (ox < h && oy0 + j < w)
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        out[((size_t) (oy0 + j) * h + ox) * C + ch] = tile[threadIdx.x][j * C + ch];
}

/* ------------------------------------------------------ Young-van Vliet */

/* Causal pass over rows [i0, i1) in direction dir, from x to w, starting
 * from states p1..p3.  Returns the last three states. */
template <int C>
__device__ __forceinline__ void
yvv_run (const yvv_k &k, const float *x, float *w, size_t pitch, int i0,
         int i1, int dir, px<C> &p1, px<C> &p2, px<C> &p3)
{
  for (int i = i0; i != i1; i += dir)
    {
      px<C> xi = load<C> (x + (size_t) i * pitch), o;
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        o.v[ch] = k.B * xi.v[ch] + k.a1 * p1.v[ch] + k.a2 * p2.v[ch]
                  + k.a3 * p3.v[ch];
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
          double d0 = p1.v[ch] - u.v[ch], d1 = p2.v[ch] - u.v[ch];
          double d2 = p3.v[ch] - u.v[ch];
          o1.v[ch] = u.v[ch] + k.M[0][0] * d0 + k.M[0][1] * d1 + k.M[0][2] * d2;
          o2.v[ch] = u.v[ch] + k.M[1][0] * d0 + k.M[1][1] * d1 + k.M[1][2] * d2;
          o3.v[ch] = u.v[ch] + k.M[2][0] * d0 + k.M[2][1] * d1 + k.M[2][2] * d2;
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
                    int L, yvv_k k, const double *__restrict__ fir, int fir_r)
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
          px<C> acc;
          px<C> c = load<C> (xs + (size_t) m * pitch);
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            acc.v[ch] = fir[0] * c.v[ch];
          for (int t = 1; t <= fir_r; t++)
            {
              px<C> a = load<C> (xs + (size_t) max (m - t, 0) * pitch);
              px<C> b = load<C> (xs + (size_t) min (m + t, L - 1) * pitch);
#pragma unroll
              for (int ch = 0; ch < C; ch++)
                acc.v[ch] += fir[t] * (a.v[ch] + b.v[ch]);
            }
          store<C> (ws + (size_t) m * pitch, acc);
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

template <int C>
__global__ void
deriche_cols_kernel (const float *__restrict__ src, float *dst, int lines,
                     int L, deriche_k k)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= lines)
    return;
  const size_t pitch = (size_t) lines * C;
  const float *xs = src + (size_t) x * C;
  float *ys = dst + (size_t) x * C;

  px<C> x1, x2, x3, y1, y2, y3, y4;
  px<C> s = load<C> (xs);
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    {
      x1.v[ch] = x2.v[ch] = x3.v[ch] = s.v[ch];
      y1.v[ch] = y2.v[ch] = y3.v[ch] = y4.v[ch] = s.v[ch] * k.causal_gain;
    }
  for (int i = 0; i < L; i++)
    {
      px<C> xi = load<C> (xs + (size_t) i * pitch), yi;
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        yi.v[ch] = k.n[0] * xi.v[ch] + k.n[1] * x1.v[ch] + k.n[2] * x2.v[ch]
                   + k.n[3] * x3.v[ch] - k.d[1] * y1.v[ch] - k.d[2] * y2.v[ch]
                   - k.d[3] * y3.v[ch] - k.d[4] * y4.v[ch];
      store<C> (ys + (size_t) i * pitch, yi);
      x3 = x2; x2 = x1; x1 = xi;
      y4 = y3; y3 = y2; y2 = y1; y1 = yi;
    }
  px<C> x4;
  s = load<C> (xs + (size_t) (L - 1) * pitch);
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    {
      x1.v[ch] = x2.v[ch] = x3.v[ch] = x4.v[ch] = s.v[ch];
      y1.v[ch] = y2.v[ch] = y3.v[ch] = y4.v[ch] = s.v[ch] * k.anticausal_gain;
    }
  for (int i = L - 1; i >= 0; i--)
    {
      px<C> yi, xi = load<C> (xs + (size_t) i * pitch);
      px<C> yc = load<C> (ys + (size_t) i * pitch), o;
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        {
          yi.v[ch] = k.m[1] * x1.v[ch] + k.m[2] * x2.v[ch] + k.m[3] * x3.v[ch]
                     + k.m[4] * x4.v[ch] - k.d[1] * y1.v[ch] - k.d[2] * y2.v[ch]
                     - k.d[3] * y3.v[ch] - k.d[4] * y4.v[ch];
          o.v[ch] = yc.v[ch] + yi.v[ch];
        }
      store<C> (ys + (size_t) i * pitch, o);
      x4 = x3; x3 = x2; x2 = x1; x1 = xi;
      y4 = y3; y3 = y2; y2 = y1; y1 = yi;
    }
}

/* ----------------------------------------------------------- launchers */

struct axis_plan
{
  gb_algorithm algorithm;
  yvv_k yvv;
  deriche_k der;
  double *d_fir;
  int fir_r;
};

gb_status
make_axis (const gb_params *p, double sigma, axis_plan *a)
{
  *a = axis_plan {};
  a->algorithm = p->algorithm;
  if (p->algorithm == GB_ALGO_DERICHE)
    {
      gb_deriche_coeffs c;
      gb_deriche_coeffs_make (sigma, &c);
      for (int i = 0; i < 4; i++)
        a->der.n[i] = c.n[i];
      for (int i = 0; i < 5; i++)
        {
          a->der.m[i] = c.m[i];
          a->der.d[i] = c.d[i];
        }
      a->der.causal_gain = c.causal_gain;
      a->der.anticausal_gain = c.anticausal_gain;
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
  a->yvv.naive = p->naive_borders;
  if (p->algorithm == GB_ALGO_YVRG_TWO_WAY)
    {
      a->fir_r = gb_fir_radius (sigma);
      double *taps = (double *) malloc (sizeof (double) * (a->fir_r + 1));
      if (!taps)
        return GB_ERR_NO_MEMORY;
      gb_fir_taps_direct (sigma, taps, a->fir_r);
      cudaError_t e = cudaMalloc ((void **) &a->d_fir,
                                  sizeof (double) * (a->fir_r + 1));
      if (e == cudaSuccess)
        e = cudaMemcpy (a->d_fir, taps, sizeof (double) * (a->fir_r + 1),
                        cudaMemcpyHostToDevice);
      free (taps);
      if (e != cudaSuccess)
        return gb_cuda_fail (e, GB_ERR_CUDA_COPY, "two-way taps");
    }
  return GB_OK;
}

template <int C>
gb_status
launch_cols (const axis_plan *a, const float *src, float *dst, int lines,
             int L, cudaStream_t s)
{
  switch (a->algorithm)
    {
    case GB_ALGO_YVRG:
      yvv_cols_kernel<C><<<(lines + COLS_PER_BLOCK - 1) / COLS_PER_BLOCK,
                           COLS_PER_BLOCK, 0, s>>> (src, dst, lines, L, a->yvv);
      return gb_cuda_check_launch ("yvv_cols_kernel");
    case GB_ALGO_YVRG_TWO_WAY:
      twoway_cols_kernel<C><<<(lines + TWO_WAY_COLS - 1) / TWO_WAY_COLS,
                              dim3 (TWO_WAY_COLS, 3), 0, s>>> (
          src, dst, lines, L, a->yvv, a->d_fir, a->fir_r);
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

template <int C>
gb_status
run_c (const axis_plan *ax, const axis_plan *ay, int do_x, int do_y,
       float *a, float *b, float *c, int w, int h, cudaStream_t s,
       float **result)
{
  gb_status st = GB_OK;
  float *cur = a;
  if (do_x)
    {
      /* Rows: transpose, filter the columns, transpose back. */
      if ((st = launch_transpose<C> (cur, b, w, h, s)) != GB_OK
          || (st = launch_cols<C> (ax, b, c, h, w, s)) != GB_OK
          || (st = launch_transpose<C> (c, b, h, w, s)) != GB_OK)
        return st;
      cur = b;
    }
  if (do_y)
    {
      float *out = cur == a ? b : a;
      if ((st = launch_cols<C> (ay, cur, out, w, h, s)) != GB_OK)
        return st;
      cur = out;
    }
  *result = cur;
  return GB_OK;
}

} // namespace

gb_status
gb_recursive_run (const gb_params *p, float *a, float *b, float *c, int w,
                  int h, int channels, cudaStream_t s, float **result)
{
  axis_plan ax {}, ay {};
  int do_x = p->sigma_x > 0.0, do_y = p->sigma_y > 0.0;
  gb_status st = GB_OK;
  *result = a;
  if (do_x)
    st = make_axis (p, p->sigma_x, &ax);
  if (st == GB_OK && do_y)
    st = make_axis (p, p->sigma_y, &ay);
  if (st == GB_OK)
    switch (channels)
      {
      case 1: st = run_c<1> (&ax, &ay, do_x, do_y, a, b, c, w, h, s, result); break;
      case 2: st = run_c<2> (&ax, &ay, do_x, do_y, a, b, c, w, h, s, result); break;
      case 3: st = run_c<3> (&ax, &ay, do_x, do_y, a, b, c, w, h, s, result); break;
      default: st = run_c<4> (&ax, &ay, do_x, do_y, a, b, c, w, h, s, result); break;
      }
  /* The kernels must finish before their taps are freed. */
  cudaError_t e = cudaStreamSynchronize (s);
  if (st == GB_OK && e != cudaSuccess)
    st = gb_cuda_fail (e, GB_ERR_CUDA_LAUNCH, "recursive filter");
  cudaFree (ax.d_fir);
  cudaFree (ay.d_fir);
  return st;
}
