/* The exact block-parallel recursive Gaussians' two-axis path for large
 * images of 3 or 4 channels: both axes from two reads of the image and
 * one write (Nehab, Maximo, Lima and Hoppe 2011, algorithm 5's overlap of
 * the axes).  A thread block takes an N x N tile of pixels.
 *
 *   partials_2d_kernel  reads the tile once and makes both axes' partial
 *                       states: the rows' as run_axis does, and the
 *                       columns' of the image itself (not yet of its rows'
 *                       output);
 *   (the rows' carries)
 *   summary_kernel      turns the columns' partial states into those of
 *                       the rows' output (below);
 *   (the columns' carries)
 *   finals_2d_kernel    reads the tile again and finishes its rows, then
 *                       its columns, from their entry states, and writes
 *                       it.
 *
 * Why summary_kernel is exact: a column block's partial states are fixed
 * linear combinations of its N samples, W x (W: 2S x N), the same for
 * every column; a row block's output is R0 x + H e, its samples filtered
 * from zero states plus the response to its entry states e (2S values a
 * row).  So the partial states of the rows' output over a tile are
 *   W (R0 X + H E) = R0 (W X) + H (W E):
 * the 2S rows W X (the columns' partial states of the image, which
 * partials_2d_kernel stored) filtered as row blocks from the entry
 * states W E, the columns' partial stage run over the tile's rows' entry
 * states.  Both in double: a state's rounding is amplified by the carries
 * (recursive_blocks.cu).  The column carries also need the rows' output at
 * the image's first and last rows (their replicated borders), which
 * summary_kernel makes too.
 *
 * The previous design (pair_kernel, until 2026-11) wrote the rows' output
 * and read it back for the columns' finals: the image was read three
 * times and written twice. */
#ifndef GB_RECURSIVE_BLOCKS_2D_CUH
#define GB_RECURSIVE_BLOCKS_2D_CUH

#include <cstdint>

#include "recursive_blocks_common.cuh"

namespace {

/* The tile's row pitch, C mod 32 floats: the 32 threads reading sample i
 * of their row lines hit 32 different banks, and a column's samples are
 * a row apart. */
template <class F, int C> constexpr int pair_pitch = F::N * C + C;

/* The tile's bytes (dynamic shared memory), blocks of N. */
constexpr size_t
pair_shm (int N, int C)
{
  return sizeof (float) * N * (N * C + C);
}

/* The tile kernels' static shared memory at most: partials_2d_kernel's
 * two whole-block tables. */
template <class F>
constexpr size_t pair_tabs = 2 * sizeof (typename F::Tab);

/* Rows [0, ny) x floats [0, nx * C) of a tile: sm <-> g (row pitch
 * gp); each thread takes one float a row.  NC: loads through the
 * read-only cache (not where the kernel writes the image it reads). */
template <class F, int C, bool TO_SHARED, bool NC = true, class G>
__device__ __forceinline__ void
pair_move (float *sm, G *g, size_t gp, int nx, int ny)
{
  constexpr int N = F::N, P = pair_pitch<F, C>;
  const int t = threadIdx.x;
  const auto move = [&] (int r) {
    if constexpr (TO_SHARED)
      sm[r * P + t] = g[r * gp + t];
    else
      g[r * gp + t] = sm[r * P + t];
  };
  /* Whole RGBA tiles a float4 a thread, four rows a step (P is then a
   * multiple of 4): a quarter of the load and store instructions, which
   * queued behind the tile's shared-memory traffic (Nsight Compute's
   * mio_throttle, 3.7 cycles an instruction; H200, 4K RGBA yvrg
   * 0.289-0.292 -> 0.284-0.289 ms, 6000 x 4000 RGBA 0.769-0.775 ->
   * 0.762-0.767).  F::PAIR_FLOAT4 says where it gains. */
  if constexpr (C == 4 && F::PAIR_FLOAT4)
    if (nx == N && ny == N && (uintptr_t) g % 16 == 0)
      {
        constexpr int Q = N * C / 4;   /* float4 a row */
        const int q = t % Q;
#pragma unroll 4
        for (int r = t / Q; r < N; r += 4)
          {
            float4 *s4 = (float4 *) (sm + r * P) + q;
            G *g4 = g + r * gp + 4 * q;
            if constexpr (TO_SHARED && NC)
              *s4 = __ldg ((const float4 *) g4);
            else if constexpr (TO_SHARED)
              *s4 = *(const float4 *) g4;
            else
              *(float4 *) g4 = *s4;
          }
        return;
      }
  if (nx == N && ny == N)
    {
#pragma unroll 16
      for (int r = 0; r < N; r++)
        move (r);
    }
  else if (t < nx * C)
    for (int r = 0; r < ny; r++)
      move (r);
}

/* Registers for 24 warps a multiprocessor (YvV RGBA: 80, three thread
 * blocks; the compiler chose 128, two).  Measured on pair_kernel, whose
 * shape the tile kernels keep: H200, 4K RGBA yvrg 130 -> 123 us; 6000 x
 * 4000 RGBA yvrg 0.847-0.850 -> 0.814-0.818 ms, Deriche 0.922-0.931 ->
 * 0.888-0.892.  The lines are filtered where they lie in shared memory.
 * Holding a row's block in registers, as the tiled kernels do, took 127
 * registers (6000 x 4000 yvrg 0.844-0.847 ms) or, held to 80, spilled
 * (0.833-0.836). */
constexpr int PAIR_WARPS_SM = 24;

/* The tile at block (bx, by) of N x N pixels, its nx x ny pixels inside
 * the image, and the offset of its first float. */
template <class F, int C>
struct pair_site
{
  int bx, by, nx, ny;
  size_t pitch, at;

  __device__ __forceinline__
  pair_site (int w, int h, bool up)
    : bx (blockIdx.x), by (grid_y (up)), nx (min (F::N, w - bx * F::N)),
      ny (min (F::N, h - by * F::N)), pitch ((size_t) w * C),
      at ((size_t) by * F::N * pitch + (size_t) bx * F::N * C)
  {
  }
};

template <class F, int C>
__global__ void __launch_bounds__ (F::N * C, PAIR_WARPS_SM * 32 / (F::N * C))
partials_2d_kernel (const float *__restrict__ src,
                    typename F::T *__restrict__ st_x,
                    typename F::T *__restrict__ st_y,
                    const typename F::Tab *__restrict__ tab_x_g,
                    const typename F::Tab *__restrict__ tab_y_g, int w, int h,
                    const __grid_constant__ typename F::K kx,
                    const __grid_constant__ typename F::K ky)
{
  constexpr int P = pair_pitch<F, C>;
  extern __shared__ __align__ (16) float pair_sm[];
  __shared__ typename F::Tab tab_x, tab_y;
  const int t = threadIdx.x;
  const pair_site<F, C> p (w, h, true);
  /* As partial_kernel: the tile before the wait where F's partials start
   * early (the image is older than the table kernel). */
  constexpr bool early = F::PDL_PAIR & PDL_PARTIAL;
  if constexpr (!early)
    pdl_wait_then_release ();
  pair_move<F, C, true> (pair_sm, src + p.at, p.pitch, p.nx, p.ny);
  if constexpr (early)
    pdl_wait_then_release ();
  tab_stage (tab_x_g, &tab_x);
  tab_stage (tab_y_g, &tab_y);   /* syncs: the tile is in */
  const int r = t / C;   /* the rows: row r, channel t % C */
  if (r < p.ny)
    partial_to_states<F> (pair_sm + r * P + t % C, p.nx, kx, &tab_x, st_x,
                          p.bx, h * C, (p.by * F::N + r) * C + t % C, C);
  if (p.nx < F::N)
    {
      /* A short block's partial (in double, F::partial_d) may leave its
       * causal output over the samples: the columns take them afresh. */
      __syncthreads ();
      pair_move<F, C, true> (pair_sm, src + p.at, p.pitch, p.nx, p.ny);
      __syncthreads ();
    }
  else if (p.ny < F::N)
    __syncthreads ();   /* likewise the columns': after the rows' reads */
  if (t < p.nx * C)   /* the columns: column line t of the tile */
    partial_to_states<F> (pair_sm + t, p.ny, ky, &tab_y, st_y, p.by, w * C,
                          p.bx * F::N * C + t, P);
}

/* ---- the stages on lines of doubles (summary_kernel) -------------------- */

/* n doubles x[i * stride] from zero states: zc, za as F::partial_d.  x
 * is left holding YvV's causal output. */
__device__ __forceinline__ void
partial_dd (const yvv_k &k, double *x, int stride, int n, double *zc,
            double *za)
{
  const gb_yvv_coeffs &c = k.c;
  double p[3] = { 0.0, 0.0, 0.0 };
  for (int i = 0; i < n; i++)
    x[i * stride] = gb_yvv_step (c.B, c.a1, c.a2, c.a3, x[i * stride], p);
  for (int j = 0; j < 3; j++)
    {
      zc[j] = p[j];
      p[j] = 0.0;
    }
  for (int i = n - 1; i >= 0; i--)
    gb_yvv_step (c.B, c.a1, c.a2, c.a3, x[i * stride], p);
  for (int j = 0; j < 3; j++)
    za[j] = p[j];
}

__device__ __forceinline__ void
partial_dd (const deriche_f::K &k, double *x, int stride, int n, double *zc,
            double *za)
{
  double s[4] = { 0.0, 0.0, 0.0, 0.0 };
  for (int i = 0; i < n; i++)
    gb_deriche_sums_step (&k.m, x[i * stride], s);
  gb_deriche_times_c (&k.m, s, zc);
  for (int j = 0; j < 4; j++)
    s[j] = 0.0;
  for (int i = n - 1; i >= 0; i--)
    gb_deriche_sums_step (&k.m, x[i * stride], s);
  gb_deriche_times_c (&k.m, s, za);
}

/* n doubles x[i * stride] filtered from entry states s and t, in place,
 * as F::final_d; tmp (as x): Deriche's causal part. */
__device__ __forceinline__ void
final_dd (const yvv_k &k, double *x, double *, int stride, int n,
          const double *s, const double *t)
{
  const gb_yvv_coeffs &c = k.c;
  double p[3] = { s[0], s[1], s[2] };
  for (int i = 0; i < n; i++)
    x[i * stride] = gb_yvv_step (c.B, c.a1, c.a2, c.a3, x[i * stride], p);
  for (int j = 0; j < 3; j++)
    p[j] = t[j];
  for (int i = n - 1; i >= 0; i--)
    x[i * stride] = gb_yvv_step (c.B, c.a1, c.a2, c.a3, x[i * stride], p);
}

__device__ __forceinline__ void
final_dd (const deriche_f::K &k, double *x, double *tmp, int stride, int n,
          const double *s, const double *t)
{
  double u[4] = { s[0], s[1], s[2], s[3] };
  for (int i = 0; i < n; i++)
    {
      const double xi = x[i * stride];
      tmp[i * stride] = gb_deriche_modes_step (&k.m, xi, u) - k.m.h0 * xi;
    }
  for (int j = 0; j < 4; j++)
    u[j] = t[j];
  for (int i = n - 1; i >= 0; i--)
    x[i * stride] = tmp[i * stride]
                    + gb_deriche_modes_step (&k.m, x[i * stride], u);
}

/* The columns' partial states of a tile's rows' output (the header says
 * how), in place in st_y; for the tiles on the image's first and last
 * rows also those rows' output, into ends (row 0, then row h - 1). */
template <class F, int C>
__global__ void __launch_bounds__ (F::N * C)
summary_kernel (const float *__restrict__ src, float *__restrict__ ends,
                const typename F::T *__restrict__ st_x,
                typename F::T *__restrict__ st_y,
                const typename F::Tab *__restrict__ tab_x_g, int w, int h,
                const __grid_constant__ typename F::K kx,
                const __grid_constant__ typename F::K ky)
{
  constexpr int N = F::N, S = F::S, L = N * C;   /* a tile's lines */
  /* e[j][r * C + ch]: value j of the entry states of the tile's row r,
   * channel ch; sum[j][x * C + ch]: value j of column x's partial
   * states, each j a row of the tile's width. */
  __shared__ double e[2 * S][L], sum[2 * S][L], tmp[2 * S][L];
  __shared__ double m[2 * S][2 * S][C];   /* W E: [j of sum][j of e] */
  __shared__ float row[L];
  __shared__ typename F::FTab tab[1];
  const int t = threadIdx.x;
  const pair_site<F, C> p (w, h, false);
  pdl_wait_then_release ();   /* the rows' entry states */
  if constexpr (F::FINAL_TAB)
    tab_stage (tab_x_g, tab);
  if (t < p.ny * C)
    for (int j = 0; j < 2 * S; j++)
      e[j][t] = st_x[state_at (S, p.bx, j, h * C, p.by * N * C + t)];
  if (t < p.nx * C)
    for (int j = 0; j < 2 * S; j++)
      sum[j][t] = st_y[state_at (S, p.by, j, w * C, p.bx * L + t)];
  __syncthreads ();
  for (int i = t; i < 2 * S * C; i += blockDim.x)
    {
      const int j = i / C, ch = i % C;
      double zc[S], za[S];
      partial_dd (ky, &e[j][ch], C, p.ny, zc, za);
      for (int q = 0; q < S; q++)
        {
          m[q][j][ch] = zc[q];
          m[S + q][j][ch] = za[q];
        }
    }
  __syncthreads ();
  for (int i = t; i < 2 * S * C; i += blockDim.x)
    {
      const int q = i / C, ch = i % C;
      double s[S], a[S];
      for (int j = 0; j < S; j++)
        {
          s[j] = m[q][j][ch];
          a[j] = m[q][S + j][ch];
        }
      final_dd (kx, &sum[q][ch], &tmp[q][ch], C, p.nx, s, a);
    }
  __syncthreads ();
  if (t < p.nx * C)
    for (int j = 0; j < 2 * S; j++)
      st_y[state_at (S, p.by, j, w * C, p.bx * L + t)]
        = (typename F::T) sum[j][t];
  /* The image's first and last rows' output, as finals_2d_kernel makes
   * it (the same stage on the same input). */
  for (int end = 0; end < 2; end++)
    {
      const int y = end ? h - 1 : 0;
      if (y / N != p.by)
        continue;
      const float *in = src + (size_t) y * p.pitch + (size_t) p.bx * L;
      if (t < p.nx * C)
        row[t] = in[t];
      __syncthreads ();
      if (t < C)
        final_from_states<F> (row + t, p.nx, kx, tab, st_x, p.bx, h * C,
                              y * C + t, C);
      __syncthreads ();
      if (t < p.nx * C)
        ends[(size_t) end * p.pitch + (size_t) p.bx * L + t] = row[t];
      __syncthreads ();
    }
}

/* Both axes' finals on the tile, rows then columns, from their entry
 * states; src may be dst (each tile is read whole before it is
 * written). */
template <class F, int C>
__global__ void __launch_bounds__ (F::N * C, PAIR_WARPS_SM * 32 / (F::N * C))
finals_2d_kernel (const float *src, float *dst,
                  const typename F::T *__restrict__ st_x,
                  const typename F::T *__restrict__ st_y,
                  const typename F::Tab *__restrict__ tab_x_g,
                  const typename F::Tab *__restrict__ tab_y_g, int w, int h,
                  const __grid_constant__ typename F::K kx,
                  const __grid_constant__ typename F::K ky)
{
  constexpr int P = pair_pitch<F, C>;
  extern __shared__ __align__ (16) float pair_sm[];
  __shared__ typename F::FTab tab_x[1], tab_y[1];
  const int t = threadIdx.x;
  const pair_site<F, C> p (w, h, false);
  /* The input and the tables are older than the columns' carries: only
   * the states wait. */
  pair_move<F, C, true, false> (pair_sm, src + p.at, p.pitch, p.nx, p.ny);
  if constexpr (F::FINAL_TAB)
    {
      tab_stage (tab_x_g, tab_x);
      tab_stage (tab_y_g, tab_y);   /* syncs: the tile is in */
    }
  else
    __syncthreads ();
  pdl_wait_then_release ();
  const int r = t / C;
  if (r < p.ny)
    final_from_states<F> (pair_sm + r * P + t % C, p.nx, kx, tab_x, st_x,
                          p.bx, h * C, (p.by * F::N + r) * C + t % C, C);
  __syncthreads ();
  if (t < p.nx * C)
    final_from_states<F> (pair_sm + t, p.ny, ky, tab_y, st_y, p.by, w * C,
                          p.bx * F::N * C + t, P);
  __syncthreads ();
  pair_move<F, C, false> (pair_sm, dst + p.at, p.pitch, p.nx, p.ny);
}

} // namespace

#endif
