/* Exact block-parallel recursive Gaussians on the GPU (Nehab, Maximo,
 * Lima and Hoppe 2011): Young-van Vliet and Deriche with every line cut
 * into blocks of GB_BLOCK_LEN_* samples.  Three kernels per axis:
 *   partials  every block from zero states -> its two edge states;
 *   carries   one thread per line walks its blocks' states in order and
 *             turns them into the true entry states (exact replicated
 *             borders, as the sequential filters);
 *   finals    every block again from its true states -> the output.
 * The per-block maths is engine/recursive_blocks.h, which tests/
 * test_blocks runs on the CPU against the sequential filters.
 *
 * Each warp owns a tile of 32 lines x one block; a thread keeps its
 * line's block in registers (the stages' loops run to the constant
 * block length).  Columns are read straight from memory (a warp reads 32
 * neighbouring floats of a row per step); rows go through a warp-private
 * shared-memory tile whose row pitch is C mod 32 floats, so that the 32
 * threads reading sample i of their rows hit 32 different banks.  No
 * transposed copies: each axis reads the image twice and writes it once.
 * The block states (double) live in the caller's scratch buffer. */
#include "cuda_internal.h"
#include "../engine/coefficients.h"
#include "../engine/recursive_blocks.h"

namespace {

constexpr int WARPS = 4;            /* tiles per thread block */
constexpr int CARRY_THREADS = 64;   /* small thread blocks: the carries have
                                       one thread per line (8640 for the
                                       rows of a 4K RGBA image) */

/* ---- filters ------------------------------------------------------------ */

struct yvv_f
{
  static constexpr int S = 3;   /* doubles per state */
  static constexpr int N = GB_BLOCK_LEN_YVV;
  struct K
  {
    gb_yvv_coeffs c;
    gb_yvv_block full, tail;
    int naive;
  };

  static __device__ __forceinline__ void
  partial (float *v, int n, const K &k, double *zc, double *za)
  {
    gb_yvv_partial (v, 1, n, N, &k.c, zc, za);
  }

  static __device__ __forceinline__ void
  final (float *v, int n, const K &k, const double *s, const double *t)
  {
    gb_yvv_final (v, 1, n, N, &k.c, s, t);
  }
};

struct deriche_f
{
  static constexpr int S = 4;
  static constexpr int N = GB_BLOCK_LEN_DERICHE;
  struct K
  {
    gb_deriche_modes m;
    gb_deriche_block full, tail;
  };

  static __device__ __forceinline__ void
  partial (float *v, int n, const K &k, double *zc, double *za)
  {
    gb_deriche_partial (v, 1, n, N, &k.m, zc, za);
  }

  static __device__ __forceinline__ void
  final (float *v, int n, const K &k, const double *s, const double *t)
  {
    float tmp[N];
    gb_deriche_final (v, 1, n, N, &k.m, s, t, tmp);
  }
};

/* ---- tiles ---------------------------------------------------------------
 * Lines are scalar: VERT, line l = x * C + ch is a column of floats, sample
 * i at i * pitch + l; rows, line l = y * C + ch, sample i at y * pitch +
 * i * C + ch.  A row tile holds 32 / C image rows. */

template <int C> constexpr int tile_rows = 32 / C;   /* image rows */
template <int C, int SEG> constexpr int tile_pitch = SEG * C + C;
/* Floats of a warp's row tile, any C <= 4. */
template <int SEG> constexpr int tile_floats = 32 * (SEG + 1);

template <int C, bool VERT, int SEG>
struct tile
{
  int lane, line, valid, row0;

  __device__ __forceinline__
  tile (int t, int w, int h)
  {
    lane = threadIdx.x & 31;
    if constexpr (VERT)
      {
        line = t * 32 + lane;
        valid = line < w * C;
        row0 = 0;
      }
    else
      {
        row0 = t * tile_rows<C>;
        line = (row0 + lane / C) * C + lane % C;
        valid = lane < tile_rows<C> * C && row0 + lane / C < h;
      }
  }

  /* v[0..n) = block b of this thread's line. */
  __device__ __forceinline__ void
  load (const float *src, int w, int h, int b, int n, float *sm, float *v)
  const
  {
    const size_t pitch = (size_t) w * C;
    if constexpr (VERT)
      {
        /* A pointer stepped a row at a time, and no per-sample tests in
         * whole blocks: address arithmetic and predicates outnumbered the
         * filter's own instructions. */
        const float *p = src + (size_t) b * SEG * pitch + line;
        if (valid && n == SEG)
#pragma unroll
          for (int i = 0; i < SEG; i++, p += pitch)
            v[i] = *p;
        else if (valid)
#pragma unroll
          for (int i = 0; i < SEG; i++, p += pitch)
            if (i < n)
              v[i] = *p;
      }
    else
      {
        const float *rows = src + (size_t) row0 * pitch + (size_t) b * SEG * C;
        if (n == SEG && row0 + tile_rows<C> <= h)   /* a whole tile */
#pragma unroll
          for (int r = 0; r < tile_rows<C>; r++, rows += pitch)
#pragma unroll
            for (int e = lane; e < SEG * C; e += 32)
              sm[r * tile_pitch<C, SEG> + e] = rows[e];
        else
          for (int r = 0; r < tile_rows<C> && row0 + r < h; r++, rows += pitch)
            for (int e = lane; e < n * C; e += 32)
              sm[r * tile_pitch<C, SEG> + e] = rows[e];
        __syncwarp ();
        const float *mine = sm + (lane / C) * tile_pitch<C, SEG> + lane % C;
        if (valid && n == SEG)
#pragma unroll
          for (int i = 0; i < SEG; i++)
            v[i] = mine[i * C];
        else if (valid)
#pragma unroll
          for (int i = 0; i < SEG; i++)
            if (i < n)
              v[i] = mine[i * C];
      }
  }

  /* Block b of this thread's line = v[0..n). */
  __device__ __forceinline__ void
  store (float *dst, int w, int h, int b, int n, float *sm, const float *v)
  const
  {
    const size_t pitch = (size_t) w * C;
    if constexpr (VERT)
      {
        float *p = dst + (size_t) b * SEG * pitch + line;
        if (valid && n == SEG)
#pragma unroll
          for (int i = 0; i < SEG; i++, p += pitch)
            *p = v[i];
        else if (valid)
#pragma unroll
          for (int i = 0; i < SEG; i++, p += pitch)
            if (i < n)
              *p = v[i];
      }
    else
      {
        __syncwarp ();   /* the tile's last readers are done */
        float *mine = sm + (lane / C) * tile_pitch<C, SEG> + lane % C;
        if (valid && n == SEG)
#pragma unroll
          for (int i = 0; i < SEG; i++)
            mine[i * C] = v[i];
        else if (valid)
#pragma unroll
          for (int i = 0; i < SEG; i++)
            if (i < n)
              mine[i * C] = v[i];
        __syncwarp ();
        float *rows = dst + (size_t) row0 * pitch + (size_t) b * SEG * C;
        if (n == SEG && row0 + tile_rows<C> <= h)
#pragma unroll
          for (int r = 0; r < tile_rows<C>; r++, rows += pitch)
#pragma unroll
            for (int e = lane; e < SEG * C; e += 32)
              rows[e] = sm[r * tile_pitch<C, SEG> + e];
        else
          for (int r = 0; r < tile_rows<C> && row0 + r < h; r++, rows += pitch)
            for (int e = lane; e < n * C; e += 32)
              rows[e] = sm[r * tile_pitch<C, SEG> + e];
      }
  }
};

/* Block states: for block b, S doubles of the causal state then S of the
 * anticausal one, each a plane of `lines` doubles (threads of a warp hold
 * neighbouring lines: coalesced). */
__device__ __forceinline__ size_t
state_at (int S, int b, int j, int lines, int line)
{
  return (size_t) (b * 2 * S + j) * lines + line;
}

template <int S>
__device__ __forceinline__ void
state_load (const double *st, int b, int j0, int lines, int line, double *z)
{
#pragma unroll
  for (int j = 0; j < S; j++)
    z[j] = st[state_at (S, b, j0 + j, lines, line)];
}

template <int S>
__device__ __forceinline__ void
state_store (double *st, int b, int j0, int lines, int line, const double *z)
{
#pragma unroll
  for (int j = 0; j < S; j++)
    st[state_at (S, b, j0 + j, lines, line)] = z[j];
}

/* Where a thread of the partial and final kernels works: block b (of n
 * samples) of the line its tile gives it, among `lines` lines. */
template <class F, int C, bool VERT>
struct block_site
{
  int b, n, lines;
  tile<C, VERT, F::N> t;

  __device__ __forceinline__
  block_site (int w, int h)
    : b (VERT ? blockIdx.y : blockIdx.x),
      n (min (F::N, (VERT ? h : w) - b * F::N)),
      lines ((VERT ? w : h) * C),
      t ((VERT ? blockIdx.x : blockIdx.y) * WARPS + (threadIdx.x >> 5), w, h)
  {
  }
};

template <class F, int C, bool VERT>
__global__ void __launch_bounds__ (32 * WARPS)
partial_kernel (const float *__restrict__ src, double *__restrict__ st,
                int w, int h, const __grid_constant__ typename F::K k)
{
  __shared__ float sm[WARPS][VERT ? 1 : tile_floats<F::N>];
  const block_site<F, C, VERT> at (w, h);
  float v[F::N];
  at.t.load (src, w, h, at.b, at.n, sm[threadIdx.x >> 5], v);
  if (!at.t.valid)
    return;
  double zc[F::S], za[F::S];
  if (at.n == F::N)   /* whole blocks: the stages' sample tests fold away */
    F::partial (v, F::N, k, zc, za);
  else
    F::partial (v, at.n, k, zc, za);
  state_store<F::S> (st, at.b, 0, at.lines, at.t.line, zc);
  state_store<F::S> (st, at.b, F::S, at.lines, at.t.line, za);
}

template <class F, int C, bool VERT>
__global__ void __launch_bounds__ (32 * WARPS)
final_kernel (const float *__restrict__ src, float *__restrict__ dst,
              const double *__restrict__ st, int w, int h,
              const __grid_constant__ typename F::K k)
{
  __shared__ float sm[WARPS][VERT ? 1 : tile_floats<F::N>];
  const block_site<F, C, VERT> at (w, h);
  float v[F::N];
  at.t.load (src, w, h, at.b, at.n, sm[threadIdx.x >> 5], v);
  if (at.t.valid)
    {
      double s[F::S], a[F::S];
      state_load<F::S> (st, at.b, 0, at.lines, at.t.line, s);
      state_load<F::S> (st, at.b, F::S, at.lines, at.t.line, a);
      if (at.n == F::N)
        F::final (v, F::N, k, s, a);
      else
        F::final (v, at.n, k, s, a);
    }
  at.t.store (dst, w, h, at.b, at.n, sm[threadIdx.x >> 5], v);
}

/* ---- carries ------------------------------------------------------------ */

/* The line's end samples (replicated beyond it). */
template <int C, bool VERT>
__device__ __forceinline__ void
line_ends (const float *src, int w, int h, int line, double *first,
           double *last)
{
  const size_t pitch = (size_t) w * C;
  if constexpr (VERT)
    {
      *first = src[line];
      *last = src[(size_t) (h - 1) * pitch + line];
    }
  else
    {
      const float *row = src + (size_t) (line / C) * pitch + line % C;
      *first = row[0];
      *last = row[(size_t) (w - 1) * C];
    }
}

/* The carries walk a line's blocks in order, but the states' loads do
 * not depend on the walk: they are issued CHUNK blocks at a time, so that
 * one memory latency serves CHUNK steps.  step (b, z, zc) turns block b's
 * partial state z (doubles j0.. of its states) into its entry state;
 * with CAUSAL it also gets the block's causal entry state zc. */
constexpr int CHUNK = 8;

template <int S, bool CAUSAL, class Step>
__device__ __forceinline__ void
carry_walk (double *st, int nb, int lines, int line, int j0, bool forward,
            Step step)
{
  for (int c = 0; c < nb; c += CHUNK)
    {
      double z[CHUNK][S], zc[CAUSAL ? CHUNK : 1][S];
#pragma unroll
      for (int i = 0; i < CHUNK; i++)
        if (c + i < nb)
          {
            const int b = forward ? c + i : nb - 1 - c - i;
            state_load<S> (st, b, j0, lines, line, z[i]);
            if (CAUSAL)
              state_load<S> (st, b, 0, lines, line, zc[CAUSAL ? i : 0]);
          }
#pragma unroll
      for (int i = 0; i < CHUNK; i++)
        if (c + i < nb)
          {
            const int b = forward ? c + i : nb - 1 - c - i;
            step (b, z[i], zc[CAUSAL ? i : 0]);
            state_store<S> (st, b, j0, lines, line, z[i]);
          }
    }
}

template <int C, bool VERT>
__global__ void
yvv_carry_kernel (const float *__restrict__ src, double *__restrict__ st,
                  int w, int h, int nb, const __grid_constant__ yvv_f::K k)
{
  const int lines = (VERT ? w : h) * C;
  const int line = blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= lines)
    return;
  double first, last;
  line_ends<C, VERT> (src, w, h, line, &first, &last);
  double s[3] = { first, first, first }, t[3];
  carry_walk<3, false> (st, nb, lines, line, 0, true,
                        [&] (int b, double *z, const double *) {
                          gb_yvv_carry_causal (b == nb - 1 ? &k.tail
                                                           : &k.full, s, z);
                        });
  gb_yvv_carry_turn (&k.c, s, last, k.naive, t);
  carry_walk<3, true> (st, nb, lines, line, 3, false,
                       [&] (int b, double *z, const double *zc) {
                         gb_yvv_carry_anticausal (b == nb - 1 ? &k.tail
                                                              : &k.full,
                                                  t, z, zc);
                       });
}

template <int C, bool VERT>
__global__ void
deriche_carry_kernel (const float *__restrict__ src, double *__restrict__ st,
                      int w, int h, int nb,
                      const __grid_constant__ deriche_f::K k)
{
  /* The two passes' carries are independent: blockIdx.y picks one. */
  const int lines = (VERT ? w : h) * C;
  const int line = blockIdx.x * blockDim.x + threadIdx.x;
  const bool causal = blockIdx.y == 0;
  if (line >= lines)
    return;
  double first, last, s[4];
  line_ends<C, VERT> (src, w, h, line, &first, &last);
  gb_deriche_carry_start (&k.m, causal ? first : last, s);
  carry_walk<4, false> (st, nb, lines, line, causal ? 0 : 4, causal,
                        [&] (int b, double *z, const double *) {
                          gb_deriche_carry_step (b == nb - 1 ? &k.tail
                                                             : &k.full, s, z);
                        });
}

/* ---- launchers ---------------------------------------------------------- */

template <int C, bool VERT>
gb_status
carry_c (const float *src, double *st, int w, int h, int nb,
         const yvv_f::K &k, cudaStream_t s)
{
  const int lines = (VERT ? w : h) * C;
  yvv_carry_kernel<C, VERT><<<(lines + CARRY_THREADS - 1) / CARRY_THREADS,
                              CARRY_THREADS, 0, s>>> (src, st, w, h, nb, k);
  return gb_cuda_check_launch ("yvv_carry_kernel");
}

template <int C, bool VERT>
gb_status
carry_c (const float *src, double *st, int w, int h, int nb,
         const deriche_f::K &k, cudaStream_t s)
{
  const int lines = (VERT ? w : h) * C;
  const dim3 grid ((lines + CARRY_THREADS - 1) / CARRY_THREADS, 2);
  deriche_carry_kernel<C, VERT><<<grid, CARRY_THREADS, 0, s>>> (src, st, w, h,
                                                                nb, k);
  return gb_cuda_check_launch ("deriche_carry_kernel");
}

template <class F, int C, bool VERT>
gb_status
run_axis (const typename F::K &k, const float *src, float *dst, double *st,
          int w, int h, cudaStream_t s)
{
  constexpr int SEG = F::N;
  const int L = VERT ? h : w, nb = (L + SEG - 1) / SEG;
  const int tiles = VERT ? (w * C + 31) / 32
                         : (h + tile_rows<C> - 1) / tile_rows<C>;
  /* Neighbouring thread blocks take neighbouring pieces of the same
   * rows, so that the image streams through DRAM a row band at a time. */
  const int groups = (tiles + WARPS - 1) / WARPS;
  const dim3 grid (VERT ? groups : nb, VERT ? nb : groups);
  gb_status st_;
  partial_kernel<F, C, VERT><<<grid, 32 * WARPS, 0, s>>> (src, st, w, h, k);
  if ((st_ = gb_cuda_check_launch ("partial_kernel")) != GB_OK
      || (st_ = carry_c<C, VERT> (src, st, w, h, nb, k, s)) != GB_OK)
    return st_;
  final_kernel<F, C, VERT><<<grid, 32 * WARPS, 0, s>>> (src, dst, st, w, h,
                                                        k);
  return gb_cuda_check_launch ("final_kernel");
}

template <class F>
gb_status
run_f (const typename F::K &k, bool vertical, const float *src, float *dst,
       double *st, int w, int h, int c, cudaStream_t s)
{
  switch (c * 2 + (vertical ? 1 : 0))
    {
    case 2: return run_axis<F, 1, false> (k, src, dst, st, w, h, s);
    case 3: return run_axis<F, 1, true> (k, src, dst, st, w, h, s);
    case 4: return run_axis<F, 2, false> (k, src, dst, st, w, h, s);
    case 5: return run_axis<F, 2, true> (k, src, dst, st, w, h, s);
    case 6: return run_axis<F, 3, false> (k, src, dst, st, w, h, s);
    case 7: return run_axis<F, 3, true> (k, src, dst, st, w, h, s);
    case 8: return run_axis<F, 4, false> (k, src, dst, st, w, h, s);
    default: return run_axis<F, 4, true> (k, src, dst, st, w, h, s);
    }
}

/* Doubles of block state per line and block, and the block length. */
int
state_doubles (gb_algorithm a)
{
  return 2 * (a == GB_ALGO_DERICHE ? deriche_f::S : yvv_f::S);
}

int
block_len (gb_algorithm a)
{
  return a == GB_ALGO_DERICHE ? deriche_f::N : yvv_f::N;
}

} // namespace

int
gb_cuda_blocks_apply (const gb_params *p, double sigma, int L)
{
  if (p->blocks_per_stripe == 1 || L < 1)
    return 0;
  if (p->algorithm == GB_ALGO_YVRG && !(sigma <= GB_YVV_BLOCK_MAX_SIGMA))
    return 0;
  if (p->algorithm != GB_ALGO_YVRG && p->algorithm != GB_ALGO_DERICHE)
    return 0;
  /* The states must fit the scratch buffer: per line, L floats. */
  const long nb = (L + block_len (p->algorithm) - 1) / block_len (p->algorithm);
  return nb * state_doubles (p->algorithm) * (long) sizeof (double)
         <= (long) L * (long) sizeof (float);
}

gb_status
gb_cuda_blocks_run (const gb_params *p, double sigma, int vertical,
                    const float *src, float *dst, float *scratch, int w,
                    int h, int channels, cudaStream_t s)
{
  const int SEG = block_len (p->algorithm), L = vertical ? h : w;
  const int nb = (L + SEG - 1) / SEG, tail_n = L - (nb - 1) * SEG;
  double *st = (double *) scratch;
  if (p->algorithm == GB_ALGO_DERICHE)
    {
      deriche_f::K k;
      gb_deriche_modes_make (sigma, &k.m);
      gb_deriche_block_make (&k.m, SEG, &k.full);
      gb_deriche_block_make (&k.m, tail_n, &k.tail);
      return run_f<deriche_f> (k, vertical, src, dst, st, w, h, channels, s);
    }
  yvv_f::K k;
  gb_yvv_coeffs_make (sigma, &k.c);
  gb_yvv_block_make (&k.c, SEG, &k.full);
  gb_yvv_block_make (&k.c, tail_n, &k.tail);
  k.naive = p->naive_borders;
  return run_f<yvv_f> (k, vertical, src, dst, st, w, h, channels, s);
}
