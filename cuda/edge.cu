/* Edge-aware recursive Gaussian on the GPU (Algorithms A and C).
 *
 * The domain transform's spacings are computed once per call (rows'
 * spacings stored transposed), then each iteration filters rows (as the
 * columns of a transposed copy) and columns.  A column kernel thread owns
 * one block of one line: one block per line is Algorithm A; several are
 * Algorithm C, where a block after the first (before the last) starts from
 * Algorithm B's estimate, walking back (forward) until the transformed
 * distance reaches kappa * sigma.  Complex arithmetic in single precision,
 * powers b^delta in polar form (the paper's Section IV-C). */
#include <math.h>

#include "cuda_internal.h"
#include "../engine/pixel_math.h"
#include "../engine/coefficients.h"

namespace {

struct cplx
{
  float re, im;
};

__device__ __forceinline__ cplx
cmul (cplx a, cplx b)
{
  return { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re };
}

__device__ __forceinline__ cplx
cadd (cplx a, cplx b)
{
  return { a.re + b.re, a.im + b.im };
}

__device__ __forceinline__ cplx
cscale (cplx a, float s)
{
  return { a.re * s, a.im * s };
}

__device__ __forceinline__ cplx
cdiv (cplx a, cplx b)
{
  float d = b.re * b.re + b.im * b.im;
  return { (a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d };
}

/* b^delta = exp (delta log|b|) cis (delta arg b), with the hardware's fast
 * exp and sincos: where delta is large (an edge) the result is tiny and its
 * phase error does not matter. */
__device__ __forceinline__ cplx
cpow (float logr, float theta, float delta)
{
  float s, c, r = __expf (delta * logr);
  __sincosf (delta * theta, &s, &c);
  return { r * c, r * s };
}

struct dt_k
{
  cplx a[2], b[2], r0[2], r1[2], ss[2];
  cplx ab[2], bss[2];   /* a b and b ss, for the hold factors */
  float logr[2], theta[2];
  int hold;
};

/* A pixel of C floats through the read-only cache, one vector load where
 * C allows. */
template <int C>
__device__ __forceinline__ void
load_pixel (const float *p, float (&v)[C])
{
  if constexpr (C == 4)
    {
      float4 q = __ldg (reinterpret_cast<const float4 *> (p));
      v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
    }
  else if constexpr (C == 2)
    {
      float2 q = __ldg (reinterpret_cast<const float2 *> (p));
      v[0] = q.x; v[1] = q.y;
    }
  else
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      v[ch] = __ldg (p + ch);
}

struct step_k
{
  cplx bd, P, Q, R, S;
};

/* The same factors as engine/cpu_edge.c's step_factors. */
__device__ __forceinline__ step_k
step_factors (const dt_k &k, int i, float delta)
{
  step_k s;
  cplx one = { 1.f, 0.f };
  if (k.hold)
    {
      /* b^delta = b (b^h)^2 with h = (delta - 1) / 2: one power; then
       * R = b ss (1 - b^h), Q = b^h R, P = a + R, S = a b^delta + Q. */
      cplx bh = cpow (k.logr[i], k.theta[i], 0.5f * (delta - 1.0f));
      cplx bh2 = cmul (bh, bh);
      s.bd = cmul (k.b[i], bh2);
      cplx t = cmul (k.bss[i], bh);
      s.R = { k.bss[i].re - t.re, k.bss[i].im - t.im };
      s.Q = cmul (bh, s.R);
      s.P = cadd (k.a[i], s.R);
      s.S = cadd (cmul (k.ab[i], bh2), s.Q);
    }
  else
    {
      s.bd = cpow (k.logr[i], k.theta[i], delta);
      cplx q = cdiv ({ s.bd.re - one.re, s.bd.im }, cscale (k.r0[i], delta));
      cplx c1 = { q.re - cmul (k.r1[i], k.b[i]).re, q.im - cmul (k.r1[i], k.b[i]).im };
      cplx r1bd = cmul (k.r1[i], s.bd);
      cplx c2 = { q.re - r1bd.re, q.im - r1bd.im };
      s.P = cadd (k.a[i], c1);
      s.Q = { -c2.re, -c2.im };
      s.R = c1;
      cplx abd = cmul (k.a[i], s.bd);
      s.S = { abd.re - c2.re, abd.im - c2.im };
    }
  return s;
}

/* Spacings: dt_y[y][x] between (x, y-1) and (x, y); dt_xT[x][y] between
 * (x-1, y) and (x, y), stored transposed for the row passes. */
template <int C>
__global__ void
spacings_kernel (const float *__restrict__ img, int w, int h, float rx2,
                 float ry2, int perceptual_input, float *__restrict__ dty,
                 float *__restrict__ dtxT)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  constexpr int NC = C >= 3 ? 3 : 1;
  constexpr bool ALPHA = C == 2 || C == 4;
  auto perceptual = [&] (int xx, int yy, float (&p)[NC]) {
    const float *px = img + ((size_t) yy * w + xx) * C;
    float a = ALPHA ? px[C - 1] : 1.0f;
#pragma unroll
    for (int k = 0; k < NC; k++)
      p[k] = gb_edge_perceptual (px[k], a, perceptual_input);
  };
  float c0[NC], cl[NC], cu[NC];
  perceptual (x, y, c0);
  float sx = 0.f, sy = 0.f;
  if (x > 0)
    {
      perceptual (x - 1, y, cl);
#pragma unroll
      for (int k = 0; k < NC; k++)
        sx += (c0[k] - cl[k]) * (c0[k] - cl[k]);
    }
  if (y > 0)
    {
      perceptual (x, y - 1, cu);
#pragma unroll
      for (int k = 0; k < NC; k++)
        sy += (c0[k] - cu[k]) * (c0[k] - cu[k]);
    }
  dty[(size_t) y * w + x] = gb_edge_spacing (ry2, sy);
  dtxT[(size_t) x * h + y] = gb_edge_spacing (rx2, sx);
}

/* One block of one column: in/out are [L][lines][C], dt is [L][lines]. */
template <int C>
__global__ void
edge_cols_kernel (const float *__restrict__ in, float *__restrict__ out,
                  const float *__restrict__ dt, int lines, int L, int blocks,
                  float warmup, dt_k k)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= lines * blocks)
    return;
  const int line = t % lines, blk = t / lines;
  const int s = (int) ((long) L * blk / blocks);
  const int e = (int) ((long) L * (blk + 1) / blocks);
  if (e <= s)
    return;
  const size_t pitch = (size_t) lines * C;
  const float *f = in + (size_t) line * C;
  float *o = out + (size_t) line * C;
  const float *d = dt + line;
#define F(idx, ch) __ldg (f + (size_t) (idx) * pitch + (ch))
#define DT(idx) __ldg (d + (size_t) (idx) * lines)

  /* Causal, both subfilters at once; Algorithm B's start where needed.
   * Inputs and spacings are read EB at a time, all in flight before use.
   * The anticausal sweep below mirrors this loop; one templated sweep for
   * both directions measured 15 % slower (H200, 2048x2048 RGBA), so the
   * two stay written out. */
  constexpr int EB = 8;
  int m = s;
  for (float acc = 0.f; blk > 0 && m > 0 && acc < warmup; m--)
    acc += DT (m);
  cplx g[2][C];
  float fp[C];
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    fp[ch] = F (m, ch);
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      g[i][ch] = cscale (k.ss[i], fp[ch]);
  if (m == s)
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      o[(size_t) s * pitch + ch] = g[0][ch].re + g[1][ch].re;
  for (int x0 = m + 1; x0 < e; x0 += EB)
    {
      float fb[EB][C], db[EB];
#pragma unroll
      for (int b = 0; b < EB; b++)
        if (x0 + b < e)
          {
            db[b] = DT (x0 + b);
            load_pixel<C> (f + (size_t) (x0 + b) * pitch, fb[b]);
          }
#pragma unroll
      for (int b = 0; b < EB; b++)
        if (x0 + b < e)
          {
#pragma unroll
            for (int i = 0; i < 2; i++)
              {
                step_k st = step_factors (k, i, db[b]);
#pragma unroll
                for (int ch = 0; ch < C; ch++)
                  g[i][ch] = cadd (cadd (cscale (st.P, fb[b][ch]),
                                         cscale (st.Q, fp[ch])),
                                   cmul (st.bd, g[i][ch]));
              }
#pragma unroll
            for (int ch = 0; ch < C; ch++)
              fp[ch] = fb[b][ch];
            if (x0 + b >= s)
#pragma unroll
              for (int ch = 0; ch < C; ch++)
                o[(size_t) (x0 + b) * pitch + ch] = g[0][ch].re + g[1][ch].re;
          }
    }

  /* Anticausal, added to the causal part this thread wrote. */
  m = e - 1;
  for (float acc = 0.f; blk < blocks - 1 && m < L - 1 && acc < warmup;)
    acc += DT (++m);
  float fn[C];
#pragma unroll
  for (int ch = 0; ch < C; ch++)
    fn[ch] = F (m, ch);
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      g[i][ch] = cscale (cmul (k.b[i], k.ss[i]), fn[ch]);
  if (m == e - 1)
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      o[(size_t) m * pitch + ch] += g[0][ch].re + g[1][ch].re;
  for (int x0 = m - 1; x0 >= s; x0 -= EB)
    {
      float fb[EB][C], db[EB];
#pragma unroll
      for (int b = 0; b < EB; b++)
        if (x0 - b >= s)
          {
            db[b] = DT (x0 - b + 1);
            load_pixel<C> (f + (size_t) (x0 - b) * pitch, fb[b]);
          }
#pragma unroll
      for (int b = 0; b < EB; b++)
        if (x0 - b >= s)
          {
#pragma unroll
            for (int i = 0; i < 2; i++)
              {
                step_k st = step_factors (k, i, db[b]);
#pragma unroll
                for (int ch = 0; ch < C; ch++)
                  g[i][ch] = cadd (cadd (cscale (st.R, fb[b][ch]),
                                         cscale (st.S, fn[ch])),
                                   cmul (st.bd, g[i][ch]));
              }
#pragma unroll
            for (int ch = 0; ch < C; ch++)
              fn[ch] = fb[b][ch];
            if (x0 - b < e)
#pragma unroll
              for (int ch = 0; ch < C; ch++)
                o[(size_t) (x0 - b) * pitch + ch] += g[0][ch].re + g[1][ch].re;
          }
    }
#undef F
#undef DT
}

dt_k
to_kernel (double sigma, int hold)
{
  gb_dt_coeffs c;
  gb_dt_coeffs_make (sigma, &c);
  dt_k k;
  for (int i = 0; i < 2; i++)
    {
      k.a[i] = { (float) c.a_re[i], (float) c.a_im[i] };
      k.b[i] = { (float) c.b_re[i], (float) c.b_im[i] };
      k.r0[i] = { (float) c.r0_re[i], (float) c.r0_im[i] };
      k.r1[i] = { (float) c.r1_re[i], (float) c.r1_im[i] };
      k.ss[i] = { (float) c.ss_re[i], (float) c.ss_im[i] };
      double ab_re = c.a_re[i] * c.b_re[i] - c.a_im[i] * c.b_im[i];
      double ab_im = c.a_re[i] * c.b_im[i] + c.a_im[i] * c.b_re[i];
      double bss_re = c.b_re[i] * c.ss_re[i] - c.b_im[i] * c.ss_im[i];
      double bss_im = c.b_re[i] * c.ss_im[i] + c.b_im[i] * c.ss_re[i];
      k.ab[i] = { (float) ab_re, (float) ab_im };
      k.bss[i] = { (float) bss_re, (float) bss_im };
      k.logr[i] = (float) c.logr[i];
      k.theta[i] = (float) c.theta[i];
    }
  k.hold = hold;
  return k;
}

template <int C>
gb_status
launch_cols (const float *in, float *out, const float *dt, int lines, int L,
             int blocks, float warmup, const dt_k &k, cudaStream_t s)
{
  const int threads = 128;
  long n = (long) lines * blocks;
  edge_cols_kernel<C><<<(unsigned) ((n + threads - 1) / threads), threads, 0,
                        s>>> (in, out, dt, lines, L, blocks, warmup, k);
  return gb_cuda_check_launch ("edge_cols_kernel");
}

template <int C>
gb_status
run_c (const gb_params *p, float *a, float *b, float *dty, float *dtxT,
       int w, int h, int blocks_x, int blocks_y, cudaStream_t s,
       float **result)
{
  gb_status st;
  dim3 blk (32, 8), grid ((w + 31) / 32, (h + 7) / 8);
  spacings_kernel<C><<<grid, blk, 0, s>>> (
      a, w, h, (float) gb_edge_ratio2 (p->sigma_x, p->range_sigma),
      (float) gb_edge_ratio2 (p->sigma_y, p->range_sigma), p->perceptual,
      dty, dtxT);
  if ((st = gb_cuda_check_launch ("spacings_kernel")) != GB_OK)
    return st;
  const int hold = p->edge_interpolation == GB_EDGE_HOLD;
  float *cur = a, *other = b;
  for (int it = 1; it <= p->iterations; it++)
    {
      if (p->sigma_x > 0)
        {
          double si = gb_dt_iteration_sigma (p->sigma_x, it, p->iterations);
          /* rows: transpose into other, filter into cur, transpose back */
          if ((st = gb_cuda_transpose (cur, other, w, h, C, s)) != GB_OK
              || (st = launch_cols<C> (other, cur, dtxT, h, w, blocks_x,
                                       (float) (p->kappa * si),
                                       to_kernel (si, hold), s)) != GB_OK
              || (st = gb_cuda_transpose (cur, other, h, w, C, s)) != GB_OK)
            return st;
          float *t = cur; cur = other; other = t;
        }
      if (p->sigma_y > 0)
        {
          double si = gb_dt_iteration_sigma (p->sigma_y, it, p->iterations);
          if ((st = launch_cols<C> (cur, other, dty, w, h, blocks_y,
                                    (float) (p->kappa * si),
                                    to_kernel (si, hold), s)) != GB_OK)
            return st;
          float *t = cur; cur = other; other = t;
        }
    }
  *result = cur;
  return GB_OK;
}

} // namespace

int
gb_cuda_edge_blocks (const gb_params *p, int lines, int L, int sm_count)
{
  /* About 1024 threads per multiprocessor, blocks no shorter than 64
   * pixels: every block after the first re-filters a warm-up of kappa
   * sigma, so short blocks spend most of their time warming up (measured
   * on an H200, 2048x2048 RGBA, sigma 50: 64 blocks of 32 pixels 1.71 ms,
   * 32 blocks of 64 pixels 1.27 ms). */
  int want = (int) ((long) sm_count * 1024 / (lines > 0 ? lines : 1));
  int most = L / 64 > 1 ? L / 64 : 1;
  return gb_edge_blocks (p, want < 1 ? 1 : (want > most ? most : want));
}

gb_status
gb_cuda_edge_run (const gb_params *p, float *a, float *b, float *c, int w, int h,
             int channels, int sm_count, cudaStream_t s, float **result)
{
  /* c holds both spacing planes when the image has two channels or more;
   * a grey image's c has room for one, the other is allocated. */
  float *dty = c, *dtxT = nullptr, *extra = nullptr;
  size_t plane = (size_t) w * h;
  if (channels >= 2)
    dtxT = c + plane;
  else
    {
      GB_CUDA_TRY (cudaMalloc ((void **) &extra, plane * sizeof (float)),
                   GB_ERR_CUDA_NO_MEMORY);
      dtxT = extra;
    }
  int bx = gb_cuda_edge_blocks (p, h, w, sm_count);
  int by = gb_cuda_edge_blocks (p, w, h, sm_count);
  gb_status st;
  switch (channels)
    {
    case 1: st = run_c<1> (p, a, b, dty, dtxT, w, h, bx, by, s, result); break;
    case 2: st = run_c<2> (p, a, b, dty, dtxT, w, h, bx, by, s, result); break;
    case 3: st = run_c<3> (p, a, b, dty, dtxT, w, h, bx, by, s, result); break;
    default: st = run_c<4> (p, a, b, dty, dtxT, w, h, bx, by, s, result); break;
    }
  cudaError_t e = cudaStreamSynchronize (s);
  if (st == GB_OK && e != cudaSuccess)
    st = gb_cuda_fail (e, GB_ERR_CUDA_LAUNCH, "edge-aware filter");
  cudaFree (extra);
  return st;
}
