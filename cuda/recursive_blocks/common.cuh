/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parts of the exact block-parallel recursive Gaussians
 * (recursive_blocks.cu says how they work) that its tiled kernels and
 * its fused kernel (fused.cuh) share: the filters'
 * per-block stages, the tiles lines are read through, the block states,
 * the carries' walk along a line, and the launch helper.  Kernel code in
 * an anonymous namespace: included by recursive_blocks.cu only. */
#ifndef GB_RECURSIVE_BLOCKS_COMMON_CUH
#define GB_RECURSIVE_BLOCKS_COMMON_CUH

#include <algorithm>
#include <type_traits>

#include "cuda_internal.h"
#include "device_util.cuh"
#include "../../engine/coefficients.h"
#include "../../engine/recursive_blocks.h"

namespace {

constexpr int WARPS = 4;            /* tiles per thread block */

/* Room for a table at the start of the scratch buffer: the larger
 * filter's whole-block table, rounded up to 256 bytes so that the states
 * after it stay aligned (2 304: Deriche's gb_deriche_blockf). */
constexpr size_t TAB_BYTES
  = (std::max (sizeof (gb_yvv_blockw), sizeof (gb_deriche_blockf)) + 255)
    / 256 * 256;

/* Launches that may start while the kernel before them finishes
 * (programmatic dependent launch, Hopper on; see launch ()): a filter's
 * PDL says which, and its PDL_PAIR which where the rows' finals make the
 * columns' partial states (run_pair).  For Deriche all of them gain; for
 * YvV the table kernel, the carries and the finals gain, but its partials
 * lost on every image tried and wait, and so do its carries and finals in
 * run_pair and with one warp a line (yvv_base::pdl). */
enum : unsigned
{
  PDL_TAB = 1,
  PDL_PARTIAL = 2,
  PDL_CARRY = 4,
  PDL_FINAL = 8,
  PDL_FUSED = 16
};

/* ---- filters ------------------------------------------------------------ */

struct yvv_k
{
  gb_yvv_coeffs c;
  gb_yvv_block full, tail;   /* the maps of a whole block and the last */
  int naive;
  int segments;   /* whether the carries may split a line */
};

/* Blocks of NN samples, in double: the stages the fused kernel runs
 * (and the tiled kernels for a line's short last block). */
template <int NN>
struct yvv_base
{
  using T = double;             /* a block state's type in memory */
  static constexpr int S = 3;   /* values per state */
  static constexpr int N = NN;
  static constexpr unsigned PDL = PDL_TAB | PDL_CARRY | PDL_FINAL
                                  | PDL_FUSED;
  /* run_pair's: its carries and finals lost there by starting early
   * (above), and yvv_carry_kernel reads its lines' ends before it waits,
   * which for run_pair's columns are pair_kernel's output. */
  static constexpr unsigned PDL_PAIR = PDL_TAB | PDL_FUSED;

  /* run_axis's.  With one warp a line (past GB_YVV_SEGMENT_MAX_SIGMA)
   * the carries and finals lost by starting early, so there they wait. */
  static unsigned
  pdl (const yvv_k &k)
  {
    return k.segments ? PDL : PDL_PAIR;
  }
  using K = yvv_k;

  static __device__ __forceinline__ void
  partial_d (float *v, int n, const K &k, double *zc, double *za,
             int stride = 1)
  {
    gb_yvv_partial (v, stride, n, N, &k.c, zc, za);
  }

  static __device__ __forceinline__ void
  final_d (float *v, int n, const K &k, const double *s, const double *t,
           int stride = 1)
  {
    gb_yvv_final (v, stride, n, N, &k.c, s, t);
  }

  /* The fused kernel's stages where it runs without clusters
   * (staged_in) on blocks of 64: the same steps as partial_d and
   * final_d, on the block in shared memory (x[i * stride], i < n), in
   * loops of 8 steps, so that the block takes no registers. */
  static constexpr bool STAGED = NN > 32;

  static __device__ __forceinline__ void
  sweep (float *x, int stride, int n, bool backward, bool write,
         const gb_yvv_coeffs *c, double p[3])
  {
    const int step = backward ? -stride : stride;
    float *q = x + (backward ? (n - 1) * stride : 0);
#pragma unroll 8
    for (int i = 0; i < n; i++, q += step)
      {
        const float o = (float) gb_yvv_step (c->B, c->a1, c->a2, c->a3, *q,
                                             p);
        if (write)
          *q = o;
      }
  }

  static __device__ __forceinline__ void
  partial_staged (float *x, int stride, int n, const K &k, double *zc,
                  double *za)
  {
    for (int j = 0; j < 3; j++)
      zc[j] = za[j] = 0.0;
    sweep (x, stride, n, false, true, &k.c, zc);
    sweep (x, stride, n, true, false, &k.c, za);
  }

  static __device__ __forceinline__ void
  final_staged (float *x, int stride, int n, const K &k, const double *s,
                const double *t)
  {
    double p[3] = { s[0], s[1], s[2] };
    sweep (x, stride, n, false, true, &k.c, p);
    p[0] = t[0];
    p[1] = t[1];
    p[2] = t[2];
    sweep (x, stride, n, true, true, &k.c, p);
  }
};

/* Blocks of GB_BLOCK_LEN_YVV, the length the whole-block tables have. */
struct yvv_f : yvv_base<GB_BLOCK_LEN_YVV>
{
  /* Whole blocks' tables: built on the device (tab_kernel) and staged in
   * shared memory by each thread block that uses them.  As kernel
   * parameters (3 KB, when they held the causal weights too) they made
   * every launch slower and thrashed the constant cache; uploaded from
   * the host, each axis waited on a copy from pageable memory. */
  using Tab = gb_yvv_blockw;
  struct FTab   /* the finals' share of it: none */
  {
    int unused;
  };
  static constexpr bool FINAL_TAB = false;
  /* The row finals' thread blocks a multiprocessor (final_kernel's
   * launch bound; 0: the compiler's choice, 96 registers). */
  static constexpr int ROW_FINAL_MIN_BLOCKS = 0;
  static constexpr int ROW_PARTIAL_MIN_BLOCKS = 0;   /* likewise */
  /* pair_kernel moves whole RGBA tiles a float4 a thread (its
   * pair_move). */
  static constexpr bool PAIR_FLOAT4 = true;

  static __device__ __forceinline__ void
  tab_row (const K &k, int i, Tab *tab)
  {
    gb_yvv_blockw_row (&k.c, i, tab);
  }

  static __device__ __forceinline__ void
  partial (float *v, int n, const K &k, const Tab *tab, T *zc, T *za,
           int stride = 1)
  {
    if (n == N)
      gb_yvv_partial_w (v, stride, &k.c, tab, zc, za);
    else
      partial_d (v, n, k, zc, za, stride);
  }

  static __device__ __forceinline__ void
  final (float *v, int n, const K &k, const FTab *, const T *s, const T *t,
         int stride = 1)
  {
    final_d (v, n, k, s, t, stride);
  }
};

/* Short lines on a GPU they leave mostly idle, fused kernel only: blocks
 * of 32 halve each thread's serial chain and double the threads; with
 * more lines blocks of 64 stay faster. */
using yvv_short = yvv_base<32>;

struct deriche_f
{
  using T = float;
  static constexpr int S = 4;
  static constexpr int N = GB_BLOCK_LEN_DERICHE;
  static constexpr bool STAGED = false;   /* the fused kernel's: yvv_base */
  static constexpr unsigned PDL = PDL_TAB | PDL_PARTIAL | PDL_CARRY
                                  | PDL_FINAL | PDL_FUSED;
  static constexpr unsigned PDL_PAIR = PDL;
  struct K
  {
    gb_deriche_modes m;
    gb_deriche_block full, tail;
  };
  using Tab = gb_deriche_blockf;
  using FTab = Tab;

  static unsigned
  pdl (const K &)
  {
    return PDL;
  }
  static constexpr bool FINAL_TAB = true;
  /* Held to 96 registers, five thread blocks instead of the compiler's
   * four: the rows ran faster.  The columns' final was slower held so and
   * keeps the compiler's choice. */
  static constexpr int ROW_FINAL_MIN_BLOCKS = 5;
  /* Its row partials likewise at 80 registers, six thread blocks
   * instead of five. */
  static constexpr int ROW_PARTIAL_MIN_BLOCKS = 6;
  /* Deriche's pair_kernel with float4 moves spilled registers and was
   * slower. */
  static constexpr bool PAIR_FLOAT4 = false;

  static __device__ __forceinline__ void
  tab_row (const K &k, int i, Tab *tab)
  {
    gb_deriche_blockf_row (&k.m, i, tab);
  }

  static __device__ __forceinline__ void
  partial_d (float *v, int n, const K &k, double *zc, double *za,
             int stride = 1)
  {
    gb_deriche_partial (v, stride, n, N, &k.m, zc, za);
  }

  static __device__ __forceinline__ void
  final_d (float *v, int n, const K &k, const double *s, const double *t,
           int stride = 1)
  {
    float tmp[N];
    gb_deriche_final (v, stride, n, N, &k.m, s, t, tmp);
  }

  /* Whole blocks (n == N, known at compile time in the kernels) in
   * single precision; a line's short last block in double. */
  static __device__ __forceinline__ void
  partial (float *v, int n, const K &k, const Tab *tab, T *zc, T *za,
           int stride = 1)
  {
    if (n == N)
      {
        gb_deriche_partial_f (v, stride, tab, zc, za);
        return;
      }
    double c[S], a[S];
    partial_d (v, n, k, c, a, stride);
    for (int j = 0; j < S; j++)
      {
        zc[j] = (float) c[j];
        za[j] = (float) a[j];
      }
  }

  static __device__ __forceinline__ void
  final (float *v, int n, const K &k, const Tab *tab, const T *s,
         const T *t, int stride = 1)
  {
    if (n == N)
      {
        float tmp[N];
        gb_deriche_final_f (v, stride, tab, s, t, tmp);
        return;
      }
    double sd[S], td[S];
    for (int j = 0; j < S; j++)
      {
        sd[j] = s[j];
        td[j] = t[j];
      }
    final_d (v, n, k, sd, td, stride);
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

/* PART_PADDED (the fused kernel where its blocks are in registers): a
 * line's short last block is loaded padded (load), and a partial row
 * tile (that block, the image's last rows) moves in unrolled loops too,
 * the samples past it predicated off (move_part).  As loops to n and h
 * its loads went one at a time, and in the fused kernel the warp of a
 * line's last block held up its tile.  The tiled kernels keep the loops:
 * unrolled there (in batches of 16), yvv's RGB row finals took 128
 * registers instead of 96 and Deriche's grey ones spilled.  So does the
 * fused kernel where it stages its blocks in shared memory. */
template <int C, bool VERT, int SEG, bool PART_PADDED = false>
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

  /* Where this thread's samples are once the block is in shared memory
   * (fill): sample i at lane_samples (sm)[i * stride].  Rows: its row of
   * the warp's tile; columns: a row of 32 x (SEG + 1) floats a lane.
   * Either way the 32 lanes' sample i lie in 32 banks. */
  static constexpr int stride = VERT ? 1 : C;

  __device__ __forceinline__ float *
  lane_samples (float *sm) const
  {
    return VERT ? sm + lane * (SEG + 1)
                : sm + (lane / C) * tile_pitch<C, SEG> + lane % C;
  }

  /* A partial row tile's first nr rows, ne floats of each, between
   * memory (rows, pitch floats apart) and shared memory (TO_SHARED: into
   * sm), as pair_move: unrolled, the rest predicated off (PART_PADDED). */
  template <bool TO_SHARED, class G>
  __device__ __forceinline__ void
  move_part (G *rows, size_t pitch, int ne, int nr, float *sm) const
  {
#pragma unroll
    for (int r = 0; r < tile_rows<C>; r++)
#pragma unroll
      for (int e = lane; e < SEG * C; e += 32)
        if (r < nr && e < ne)
          {
            G *g = rows + r * pitch + e;
            float *t = sm + r * tile_pitch<C, SEG> + e;
            if constexpr (TO_SHARED)
              *t = *g;
            else
              *g = *t;
          }
  }

  /* v[n..SEG) = v[n-1]: the fused kernel's padding (fused_kernel), in the
   * short block's branch of load only. */
  static __device__ __forceinline__ void
  pad (float *v, int n)
  {
    float last = v[0];
#pragma unroll
    for (int i = 0; i < SEG; i++)
      {
        if (i < n)
          last = v[i];
        else
          v[i] = last;
      }
  }

  /* v[0..n) = block b of this thread's line; with PART_PADDED, v[n..SEG)
   * = v[n-1] (pad). */
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
          {
#pragma unroll
            for (int i = 0; i < SEG; i++, p += pitch)
              if (i < n)
                v[i] = *p;
            if constexpr (PART_PADDED)
              pad (v, n);
          }
      }
    else
      {
        fill (src, w, h, b, n, sm);
        const float *mine = lane_samples (sm);
        if (valid && n == SEG)
#pragma unroll
          for (int i = 0; i < SEG; i++)
            v[i] = mine[i * C];
        else if (valid)
          {
#pragma unroll
            for (int i = 0; i < SEG; i++)
              if (i < n)
                v[i] = mine[i * C];
            if constexpr (PART_PADDED)
              pad (v, n);
          }
      }
  }

  /* Block b of this thread's line into shared memory (lane_samples). */
  __device__ __forceinline__ void
  fill (const float *src, int w, int h, int b, int n, float *sm) const
  {
    if constexpr (VERT)
      {
        float v[SEG];
        load (src, w, h, b, n, sm, v);
        float *mine = lane_samples (sm);
        if (valid)
#pragma unroll
          for (int i = 0; i < SEG; i++)
            if (i < n)
              mine[i] = v[i];
      }
    else
      {
        const size_t pitch = (size_t) w * C;
        const float *rows = src + (size_t) row0 * pitch + (size_t) b * SEG * C;
        if (n == SEG && row0 + tile_rows<C> <= h)   /* a whole tile */
#pragma unroll
          for (int r = 0; r < tile_rows<C>; r++, rows += pitch)
#pragma unroll
            for (int e = lane; e < SEG * C; e += 32)
              sm[r * tile_pitch<C, SEG> + e] = rows[e];
        else if constexpr (PART_PADDED)
          move_part<true> (rows, pitch, n * C, h - row0, sm);
        else
          for (int r = 0; r < tile_rows<C> && row0 + r < h; r++, rows += pitch)
            for (int e = lane; e < n * C; e += 32)
              sm[r * tile_pitch<C, SEG> + e] = rows[e];
        __syncwarp ();
      }
  }

  /* Block b of this thread's line = v[0..n). */
  __device__ __forceinline__ void
  store (float *dst, int w, int h, int b, int n, float *sm, const float *v)
  const
  {
    if constexpr (VERT)
      {
        const size_t pitch = (size_t) w * C;
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
        float *mine = lane_samples (sm);
        if (valid && n == SEG)
#pragma unroll
          for (int i = 0; i < SEG; i++)
            mine[i * C] = v[i];
        else if (valid)
#pragma unroll
          for (int i = 0; i < SEG; i++)
            if (i < n)
              mine[i * C] = v[i];
        flush (dst, w, h, b, n, sm);
      }
  }

  /* Block b of this thread's line = its samples in shared memory. */
  __device__ __forceinline__ void
  flush (float *dst, int w, int h, int b, int n, float *sm) const
  {
    const size_t pitch = (size_t) w * C;
    if constexpr (VERT)
      {
        const float *mine = lane_samples (sm);
        float *p = dst + (size_t) b * SEG * pitch + line;
        if (valid)
#pragma unroll 8
          for (int i = 0; i < n; i++, p += pitch)
            *p = mine[i];
      }
    else
      {
        __syncwarp ();
        float *rows = dst + (size_t) row0 * pitch + (size_t) b * SEG * C;
        if (n == SEG && row0 + tile_rows<C> <= h)
#pragma unroll
          for (int r = 0; r < tile_rows<C>; r++, rows += pitch)
#pragma unroll
            for (int e = lane; e < SEG * C; e += 32)
              rows[e] = sm[r * tile_pitch<C, SEG> + e];
        else if constexpr (PART_PADDED)
          move_part<false> (rows, pitch, n * C, h - row0, sm);
        else
          for (int r = 0; r < tile_rows<C> && row0 + r < h; r++, rows += pitch)
            for (int e = lane; e < n * C; e += 32)
              rows[e] = sm[r * tile_pitch<C, SEG> + e];
      }
  }
};

/* Block states: for block b, S values of the causal state then S of the
 * anticausal one, each a plane of `lines` values (threads of a warp hold
 * neighbouring lines: coalesced); the carries work on them in double.
 * (Host code too: nvcc lets a host template call a __device__ function
 * without a word, and the call does nothing.) */
__host__ __device__ __forceinline__ size_t
state_at (int S, int b, int j, int lines, int line)
{
  return (size_t) (b * 2 * S + j) * lines + line;
}

template <int S, class T, class U>
__device__ __forceinline__ void
state_load (const T *st, int b, int j0, int lines, int line, U *z)
{
#pragma unroll
  for (int j = 0; j < S; j++)
    z[j] = st[state_at (S, b, j0 + j, lines, line)];
}

template <int S, class T, class U>
__device__ __forceinline__ void
state_store (T *st, int b, int j0, int lines, int line, const U *z)
{
#pragma unroll
  for (int j = 0; j < S; j++)
    st[state_at (S, b, j0 + j, lines, line)] = (T) z[j];
}

/* A line's block b (n samples, `stride' apart) from zero states, to its
 * two edge states (partial_kernel, pair_kernel's columns). */
template <class F>
__device__ __forceinline__ void
partial_to_states (float *v, int n, const typename F::K &k,
                   const typename F::Tab *tab, typename F::T *st, int b,
                   int lines, int line, int stride = 1)
{
  typename F::T zc[F::S], za[F::S];
  if (n == F::N)   /* whole blocks: the stages' sample tests fold away */
    F::partial (v, F::N, k, tab, zc, za, stride);
  else
    F::partial (v, n, k, tab, zc, za, stride);
  state_store<F::S> (st, b, 0, lines, line, zc);
  state_store<F::S> (st, b, F::S, lines, line, za);
}

/* The same block from its entry states (the carries') to the output
 * (final_kernel, pair_kernel's rows). */
template <class F>
__device__ __forceinline__ void
final_from_states (float *v, int n, const typename F::K &k,
                   const typename F::FTab *tab, const typename F::T *st,
                   int b, int lines, int line, int stride = 1)
{
  typename F::T s[F::S], a[F::S];
  state_load<F::S> (st, b, 0, lines, line, s);
  state_load<F::S> (st, b, F::S, lines, line, a);
  if (n == F::N)
    F::final (v, F::N, k, tab, s, a, stride);
  else
    F::final (v, n, k, tab, s, a, stride);
}

/* The thread block's row of the grid, counted from the end if up.  The
 * grid's rows go down the image, thread blocks start about in order, and
 * the partials (and pair_kernel) walk it upwards, the finals downwards:
 * each kernel that reads the image after another starts on what that one
 * touched last, still in L2. */
__device__ __forceinline__ int
grid_y (bool up)
{
  return up ? (int) gridDim.y - 1 - (int) blockIdx.y : (int) blockIdx.y;
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

/* The carries walk a line's blocks in order: a linear recurrence
 * s <- P_b s + z_b per block.  One thread walking all of a line's blocks
 * left the GPU idle (8640 threads for the rows of a 4K RGBA image, a
 * third of the filter's time), so G warps share each line: warp g takes
 * a segment of the blocks, and since the recurrence composes, a segment
 * acts as an affine map s -> T s + a.  Phase 1: each warp walks its
 * segment from a zero state, giving a (T, a product of the blocks' own
 * maps, is the same for every line and comes from the host:
 * recursive_blocks.cu's seg_maps); phase 2: each warp composes the maps
 * of the segments before it (their a in shared memory) onto the line's
 * start, which gives its segment's true entry state; phase 3: it walks
 * its segment again from there and stores every block's entry state.
 * YvV's warp alone on its line runs only phase 3.  Lanes hold
 * neighbouring lines, so the states' loads are coalesced. */
constexpr int CHUNK = 8;          /* blocks whose loads are issued together */
constexpr int CARRY_MAX_WARPS = 12;
/* Deriche's carries issue 4 blocks' loads at a time and are held to 80
 * registers, two thread blocks of 12 warps a multiprocessor: with 8 they
 * took 137 registers, one thread block, and waited on memory.  YvV's
 * (3 x 3 maps) spill below 147 registers and keep the 8: with 4 they
 * were still one thread block and slower; held to two thread blocks they
 * spilled. */
constexpr int DERICHE_CHUNK = 4;

/* Walks positions [p0, p1) of a line's blocks (block b = p, or nb-1-p
 * against the line), their loads issued CHUNK at a time so that one
 * memory latency serves CHUNK steps.  step (b, z, zc) gets block b's
 * partial state z (values j0.. of its states) and, WITH_ZC, its causal
 * entry state zc; with STORE, z is stored back after the step. */
template <int S, bool WITH_ZC, bool STORE, int CH = CHUNK, class T,
          class Step>
__device__ __forceinline__ void
carry_walk (T *st, int nb, int lines, int line, int j0, bool forward, int p0,
            int p1, Step step)
{
  for (int c = p0; c < p1; c += CH)
    {
      double z[CH][S], zc[WITH_ZC ? CH : 1][S];
#pragma unroll
      for (int i = 0; i < CH; i++)
        if (c + i < p1)
          {
            const int b = forward ? c + i : nb - 1 - c - i;
            state_load<S> (st, b, j0, lines, line, z[i]);
            if (WITH_ZC)
              state_load<S> (st, b, 0, lines, line, zc[WITH_ZC ? i : 0]);
          }
#pragma unroll
      for (int i = 0; i < CH; i++)
        if (c + i < p1)
          {
            const int b = forward ? c + i : nb - 1 - c - i;
            step (b, z[i], zc[WITH_ZC ? i : 0]);
            if (STORE)
              state_store<S> (st, b, j0, lines, line, z[i]);
          }
    }
}

/* Block b's carry constants among a line's nb blocks (the last one may be
 * short). */
template <class K>
__device__ __forceinline__ auto
block_of (const K &k, int b, int nb)
{
  return b == nb - 1 ? &k.tail : &k.full;
}

/* Launches kern on s, in clusters of `cluster` thread blocks where that
 * is more than 1, and, `early` and where the device allows, as a
 * programmatic dependent of the kernel before it: it may then be resident
 * and load what it may (device_util.cuh says what) while that one
 * finishes, instead of the GPU draining and filling up between kernels
 * of a few microseconds.  Every kernel here waits with
 * pdl_wait_then_release (), launched early or not. */
template <class... P, class... A>
gb_status
launch (const char *what, void (*kern) (P...), dim3 grid, dim3 block,
        size_t shm, cudaStream_t s, int cluster, unsigned early, A... args)
{
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr[2];
  int n = 0;
  if (cluster > 1)
    {
      attr[n].id = cudaLaunchAttributeClusterDimension;
      attr[n].val.clusterDim.x = cluster;
      attr[n].val.clusterDim.y = 1;
      attr[n].val.clusterDim.z = 1;
      n++;
    }
  if (early && gb_cuda_pdl ())
    {
      attr[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
      attr[n].val.programmaticStreamSerializationAllowed = 1;
      n++;
    }
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = shm;
  cfg.stream = s;
  cfg.attrs = attr;
  cfg.numAttrs = n;
  const cudaError_t e = cudaLaunchKernelEx (&cfg, kern, args...);
  if (e != cudaSuccess)
    return gb_cuda_fail (e, GB_ERR_CUDA_LAUNCH, what);
  return gb_cuda_check_launch (what);
}

} // namespace

#endif
