/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Exact block-parallel recursive Gaussians on the GPU (Nehab, Maximo,
 * Lima and Hoppe 2011): Young-van Vliet and Deriche with every line cut
 * into blocks of GB_BLOCK_LEN_* samples.  Per axis:
 *   tables    one small kernel builds the whole blocks' tables
 *             (engine/recursive_blocks.h) in the scratch buffer;
 *   partials  every block from zero states -> its two edge states;
 *   carries   the true entry states of every block (exact replicated
 *             borders, as the sequential filters), a line's blocks shared
 *             by up to CARRY_MAX_WARPS warps in segments;
 *   finals    every block again from its true states -> the output.
 * On large images of 3 or 4 channels the rows' finals also make the
 * columns' partial states (pair_kernel), which saves the columns a read.
 * Lines of at most FUSED_MAX_BLOCKS blocks take one fused kernel instead
 * (carries in shared memory); YvV's in blocks of 32 where the image has
 * too few lines to fill the GPU (yvv_short).  The per-block maths is engine/
 * recursive_blocks.h, which tests/test_blocks runs on the CPU against the
 * sequential filters.  Deriche's whole blocks run in single precision
 * (gb_deriche_blockf) and its block states are floats; YvV's cascade
 * needs double states (its companion matrix's powers amplify a state's
 * rounding by up to 1/B).
 *
 * Each warp owns a tile of 32 lines x one block; a thread keeps its
 * line's block in registers (the stages' loops run to the constant
 * block length).  Columns are read straight from memory (a warp reads 32
 * neighbouring floats of a row per step); rows go through a warp-private
 * shared-memory tile whose row pitch is C mod 32 floats, so that the 32
 * threads reading sample i of their rows hit 32 different banks.  No
 * transposed copies: each axis reads the image twice and writes it once
 * (once and once for the columns after pair_kernel).
 * The table and the block states live in the caller's scratch buffer.
 * The filters' stages, the tiles, the block states and the carries' walk
 * are in common.cuh, the fused kernel in fused.cuh; here the tiled
 * kernels, pair_kernel, the carry kernels and the launchers. */
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda_internal.h"
#include "fault.h"
#include "common.cuh"
#include "fused.cuh"

namespace {

/* Where a thread of the partial and final kernels works: block b (of n
 * samples) of the line its tile gives it, among `lines` lines. */
template <class F, int C, bool VERT>
struct block_site
{
  int b, n, lines;
  tile<C, VERT, F::N> t;

  __device__ __forceinline__
  block_site (int w, int h, bool up)
    : b (VERT ? grid_y (up) : blockIdx.x),
      n (min (F::N, (VERT ? h : w) - b * F::N)),
      lines ((VERT ? w : h) * C),
      t ((VERT ? blockIdx.x : grid_y (up)) * WARPS + (threadIdx.x >> 5), w,
         h)
  {
  }
};

/* The table is built in shared memory while the kernel before may still
 * read the previous one (the previous axis's finals), then copied out.
 * Thread block 1, where there is one, builds a second table (tab2 from
 * k2): run_pair's columns', which then no longer waits on its own launch
 * after the rows'. */
template <class F>
__global__ void
tab_kernel (typename F::Tab *tab, const __grid_constant__ typename F::K k,
            typename F::Tab *tab2, const __grid_constant__ typename F::K k2)
{
  __shared__ typename F::Tab t;
  static_assert (sizeof t % sizeof (int) == 0, "table of words");
  const bool second = blockIdx.x == 1;
  if (threadIdx.x < F::N)
    F::tab_row (second ? k2 : k, threadIdx.x, &t);
  __syncthreads ();
  pdl_wait_then_release ();
  int *to = (int *) (second ? tab2 : tab);
  for (int i = threadIdx.x; i < (int) (sizeof t / sizeof (int));
       i += blockDim.x)
    to[i] = ((const int *) &t)[i];
}

/* A thread block's copy of the whole blocks' table. */
template <class Tab>
__device__ __forceinline__ void
tab_stage (const Tab *__restrict__ g, Tab *sh)
{
  static_assert (sizeof (Tab) % sizeof (int) == 0, "table of words");
  for (int i = threadIdx.x; i < (int) (sizeof (Tab) / sizeof (int));
       i += blockDim.x)
    ((int *) sh)[i] = __ldg ((const int *) g + i);
  __syncthreads ();
}

template <class F, int C, bool VERT>
__global__ void __launch_bounds__ (32 * WARPS,
                                   VERT ? 0 : F::ROW_PARTIAL_MIN_BLOCKS)
partial_kernel (const float *__restrict__ src, typename F::T *__restrict__ st,
                const typename F::Tab *__restrict__ tab_g, int w, int h,
                const __grid_constant__ typename F::K k)
{
  __shared__ float sm[WARPS][VERT ? 1 : tile_floats<F::N>];
  __shared__ typename F::Tab tab;
  const block_site<F, C, VERT> at (w, h, true);
  float v[F::N];
  /* Launched early, it loads its block (the axis's input, made before the
   * table kernel ran) while the table kernel finishes; else the table
   * first (YvV with its block loaded first was slower). */
  constexpr bool early = F::PDL & PDL_PARTIAL;
  if constexpr (!early)
    {
      pdl_wait_then_release ();
      tab_stage (tab_g, &tab);
    }
  at.t.load (src, w, h, at.b, at.n, sm[threadIdx.x >> 5], v);
  if constexpr (early)
    {
      pdl_wait_then_release ();
      tab_stage (tab_g, &tab);
    }
  if (at.t.valid)
    partial_to_states<F> (v, at.n, k, &tab, st, at.b, at.lines, at.t.line);
}

template <class F, int C, bool VERT>
__global__ void __launch_bounds__ (32 * WARPS,
                                   VERT ? 0 : F::ROW_FINAL_MIN_BLOCKS)
final_kernel (const float *__restrict__ src, float *__restrict__ dst,
              const typename F::T *__restrict__ st,
              const typename F::Tab *__restrict__ tab_g, int w, int h,
              const __grid_constant__ typename F::K k)
{
  __shared__ float sm[WARPS][VERT ? 1 : tile_floats<F::N>];
  __shared__ typename F::FTab tab[1];
  /* The input and the table are older than the partials: only the
   * states wait for the carries. */
  if constexpr (F::FINAL_TAB)
    tab_stage (tab_g, tab);
  const block_site<F, C, VERT> at (w, h, false);
  float v[F::N];
  at.t.load (src, w, h, at.b, at.n, sm[threadIdx.x >> 5], v);
  pdl_wait_then_release ();
  if (at.t.valid)
    final_from_states<F> (v, at.n, k, tab, st, at.b, at.lines, at.t.line);
  at.t.store (dst, w, h, at.b, at.n, sm[threadIdx.x >> 5], v);
}

/* ---- the rows' finals with the columns' partials -------------------------
 * Where both axes run in tiled blocks of the same length N (Nehab et al.'s
 * algorithm 5 does the same), a thread block takes an N x N tile of
 * pixels: it finishes the tile's rows from their entry states, and while
 * the result is still in shared memory runs the columns' partials over
 * it, so the columns' axis does not read the image for its partials.
 * N * C threads: a thread a row line (pixel row, channel) for the rows,
 * then a thread a column line for the columns.  The tile's row pitch is
 * C mod 32 floats: the 32 threads reading sample i of their row lines hit
 * 32 different banks, and a column's samples are a row apart. */
template <class F, int C> constexpr int pair_pitch = F::N * C + C;

/* The images that take it: 3 or 4 channels and at least this many
 * floats, where it measured faster.  Grey images lose (thread blocks of N
 * threads), as do smaller ones: each thread block's load, rows and
 * columns run one after another, and short of several waves of thread
 * blocks nothing hides that. */
constexpr long PAIR_MIN_FLOATS = 1L << 24;

/* The tile's bytes (dynamic shared memory), blocks of N. */
constexpr size_t
pair_shm (int N, int C)
{
  return sizeof (float) * N * (N * C + C);
}

/* Its static shared memory: the columns' table and the rows' share of
 * theirs (pair_kernel's tab_y and tab_x). */
template <class F>
constexpr size_t pair_tabs = sizeof (typename F::Tab)
                             + sizeof (typename F::FTab);

/* Rows [0, ny) x floats [0, nx * C) of a tile: sm <-> g (row pitch
 * gp); each thread takes one float a row. */
template <class F, int C, bool TO_SHARED, class G>
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
   * queued behind the tile's shared-memory traffic.  F::PAIR_FLOAT4 says
   * where it gains. */
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
            if constexpr (TO_SHARED)
              *s4 = __ldg ((const float4 *) g4);
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
 * blocks, faster than the compiler's 128 and two).  The lines are
 * filtered where they lie in shared memory: holding a row's block in
 * registers, as the tiled kernels do, took 127 registers or, held to 80,
 * spilled, and was slower either way. */
constexpr int PAIR_WARPS_SM = 24;

template <class F, int C>
__global__ void __launch_bounds__ (F::N * C, PAIR_WARPS_SM * 32 / (F::N * C))
pair_kernel (const float *__restrict__ src, float *__restrict__ dst,
             const typename F::T *__restrict__ st_x,
             typename F::T *__restrict__ st_y,
             const typename F::Tab *__restrict__ tab_x_g,
             const typename F::Tab *__restrict__ tab_y_g, int w, int h,
             const __grid_constant__ typename F::K kx,
             const __grid_constant__ typename F::K ky)
{
  constexpr int N = F::N, P = pair_pitch<F, C>;
  extern __shared__ __align__ (16) float pair_sm[];
  __shared__ typename F::Tab tab_y;
  __shared__ typename F::FTab tab_x[1];
  const int t = threadIdx.x, bx = blockIdx.x, by = grid_y (true);
  const int nx = min (N, w - bx * N), ny = min (N, h - by * N);
  const size_t pitch = (size_t) w * C,
               at = (size_t) by * N * pitch + (size_t) bx * N * C;
  /* The input and the tables are older than the rows' partials: only the
   * rows' states wait for their carries. */
  pair_move<F, C, true> (pair_sm, src + at, pitch, nx, ny);
  if constexpr (F::FINAL_TAB)
    tab_stage (tab_x_g, tab_x);
  tab_stage (tab_y_g, &tab_y);   /* syncs: the tile is in */
  pdl_wait_then_release ();
  const int r = t / C;   /* the rows: row r, channel t % C */
  if (r < ny)
    final_from_states<F> (pair_sm + r * P + t % C, nx, kx, tab_x, st_x, bx,
                          h * C, (by * N + r) * C + t % C, C);
  __syncthreads ();
  pair_move<F, C, false> (pair_sm, dst + at, pitch, nx, ny);
  if (t < nx * C)   /* the columns: column line t of the tile */
    partial_to_states<F> (pair_sm + t, ny, ky, &tab_y, st_y, by, w * C,
                          bx * N * C + t, P);
}

/* Where a carry thread works: its line, and its warp's segment. */
struct carry_site
{
  int lane, g, G, line, seg, p0, p1;   /* seg: blocks a segment */
  bool ok;

  __device__ __forceinline__
  carry_site (int nb, int lines)
    : lane (threadIdx.x & 31), g (threadIdx.x >> 5), G (blockDim.x >> 5),
      line (blockIdx.x * 32 + lane), seg ((nb + G - 1) / G)
  {
    p0 = min (nb, g * seg);
    p1 = min (nb, p0 + seg);
    ok = line < lines;
  }

  /* Value v of segment q's map, in shared memory (V values a segment). */
  __device__ __forceinline__ double &
  at (double *sh, int V, int q, int v) const
  {
    return sh[(q * V + v) * 32 + lane];
  }
};

/* The linear parts of a line's segment maps in the carry kernels (the
 * products of its blocks' maps, P for YvV, p = q^n for each of Deriche's
 * modes): the same for every line, so made once on the host
 * (seg_maps_make) rather than by every thread walking its segment (in
 * phase 1, YvV's 27 multiply-adds a block beside its 9 or 18).  A
 * segment of `seg' whole blocks maps by full = P^seg; the line's last
 * segment (len blocks) by causal_end = P_tail P^(len-1) in the causal
 * pass, and in the anticausal one (which walks from the line's end) the
 * first segment by anticausal_end = P^(seg-1) P_tail and the last by
 * last = P^len. */
template <class M>
struct seg_maps
{
  M full, last, causal_end, anticausal_end;
};
typedef double yvv_map[3][3];
typedef double deriche_map[4];   /* p of mode 0 (re, im), then mode 1 */

/* The map of segment q (of seg blocks) of a line of nb blocks. */
template <class M>
__device__ __forceinline__ const M &
seg_map (const seg_maps<M> &m, bool causal, int q, int seg, int nb)
{
  const bool end = (q + 1) * seg >= nb;
  if (causal)
    return end ? m.causal_end : m.full;
  return q == 0 ? m.anticausal_end : end ? m.last : m.full;
}

/* Of the segments before warp g's, those with blocks (phase 2 composes
 * them; an empty one maps by the identity). */
__device__ __forceinline__ int
segs_before (int g, int seg, int nb)
{
  return min (g, (nb + seg - 1) / seg);
}

/* YvV: the causal carries, then (after the turn at the line's end) the
 * anticausal ones, whose steps also take each block's causal entry
 * state.  Shared memory: each segment's a (3 values a lane), then the
 * causal state at the line's end.  One warp a line (G = 1: sigma past
 * GB_YVV_SEGMENT_MAX_SIGMA, or too few blocks) walks each pass once,
 * from the line's start. */
/* Both carry kernels: up to CARRY_MAX_WARPS warps (without the bound,
 * YvV's took more registers than 12 warps may have, and lines of 6000
 * failed to launch). */
template <int C, bool VERT>
__global__ void __launch_bounds__ (32 * CARRY_MAX_WARPS)
yvv_carry_kernel (const float *__restrict__ src, yvv_f::T *__restrict__ st,
                  int w, int h, int nb, const __grid_constant__ yvv_f::K k,
                  const __grid_constant__ seg_maps<yvv_map> maps)
{
  extern __shared__ double sh[];
  constexpr int V = 3;
  const int lines = (VERT ? w : h) * C;
  const carry_site cs (nb, lines);
  const auto blk = [&] (int b) { return block_of (k, b, nb); };
  double first = 0.0, last = 0.0, s[3] = { 0.0, 0.0, 0.0 }, t[3];
  /* The line's ends before the wait: in run_axis the input is three
   * launches old; run_pair's columns read pair_kernel's output, and there
   * YvV's carries do not start early (PDL_PAIR). */
  if (cs.ok)
    line_ends<C, VERT> (src, w, h, cs.line, &first, &last);
  pdl_wait_then_release ();
  for (int pass = 0; pass < 2; pass++)
    {
      const bool causal = pass == 0;
      /* This warp's segment, from state x (phase 1 from zero, without
       * storing; phase 3 from its true entry state, storing each
       * block's). */
      const auto walk = [&] (auto store, double *x) {
        if (causal)
          carry_walk<3, false, store.value> (st, nb, lines, cs.line, 0, true,
                                             cs.p0, cs.p1,
                                             [&] (int b, double *z,
                                                  const double *) {
            gb_yvv_carry_causal (blk (b), x, z);
          });
        else
          carry_walk<3, true, store.value> (st, nb, lines, cs.line, 3, false,
                                            cs.p0, cs.p1,
                                            [&] (int b, double *z,
                                                 const double *zc) {
            gb_yvv_carry_anticausal (blk (b), x, z, zc);
          });
      };
      double e[3];   /* the segment's entry state */
      for (int v = 0; v < 3; v++)
        e[v] = causal ? first : t[v];
      if (cs.G > 1)
        {
          double a[3] = { 0.0, 0.0, 0.0 };
          if (cs.ok)
            walk (std::false_type (), a);
          for (int v = 0; v < 3; v++)
            cs.at (sh, V, cs.g, v) = a[v];
          __syncthreads ();
          for (int q = 0; q < segs_before (cs.g, cs.seg, nb); q++)
            {
              double o[3];
              for (int i = 0; i < 3; i++)
                o[i] = cs.at (sh, V, q, i);
              gb_mat3_apply_add (seg_map (maps, causal, q, cs.seg, nb), e,
                                 o);
              for (int i = 0; i < 3; i++)
                e[i] = o[i];
            }
        }
      if (cs.ok)
        walk (std::true_type (), e);
      if (!causal)
        break;
      /* The last warp's segment ends the line: its state there gives
       * the anticausal start.  The syncs also keep phase 2's reads of
       * the segments' a before the anticausal pass overwrites them, and
       * make the causal entry states stored above visible. */
      double *end = sh + (size_t) cs.G * V * 32;
      __syncthreads ();
      if (cs.g == cs.G - 1)
        for (int v = 0; v < 3; v++)
          end[v * 32 + cs.lane] = e[v];
      __syncthreads ();
      for (int v = 0; v < 3; v++)
        s[v] = end[v * 32 + cs.lane];
      gb_yvv_carry_turn (&k.c, s, last, k.naive, t);
    }
}

/* Deriche: the two passes' carries are independent (blockIdx.y picks
 * one); a segment's map is per mode s -> p s + a, p complex. */
template <int C, bool VERT>
__global__ void __launch_bounds__ (32 * CARRY_MAX_WARPS, 2)
deriche_carry_kernel (const float *__restrict__ src,
                      deriche_f::T *__restrict__ st, int w, int h, int nb,
                      const __grid_constant__ deriche_f::K k,
                      const __grid_constant__ seg_maps<deriche_map> maps)
{
  extern __shared__ double sh[];
  constexpr int V = 4;
  const int lines = (VERT ? w : h) * C;
  const carry_site cs (nb, lines);
  const bool causal = blockIdx.y == 0;
  const auto blk = [&] (int b) { return block_of (k, b, nb); };
  /* This warp's segment from state x: phase 1 (from zero, without
   * storing) and phase 3 (from its entry state, storing each block's). */
  const auto walk = [&] (auto store, double *x) {
    carry_walk<4, false, store.value, DERICHE_CHUNK> (
        st, nb, lines, cs.line, causal ? 0 : 4, causal, cs.p0, cs.p1,
        [&] (int b, double *z, const double *) {
          gb_deriche_carry_step (blk (b), x, z);
        });
  };
  double a[4] = { 0.0, 0.0, 0.0, 0.0 };
  pdl_wait_then_release ();
  if (cs.ok)
    walk (std::false_type (), a);
  for (int v = 0; v < 4; v++)
    cs.at (sh, V, cs.g, v) = a[v];
  __syncthreads ();
  if (!cs.ok)
    return;
  double first, last, e[4];
  line_ends<C, VERT> (src, w, h, cs.line, &first, &last);
  gb_deriche_carry_start (&k.m, causal ? first : last, e);
  for (int q = 0; q < segs_before (cs.g, cs.seg, nb); q++)
    {
      const deriche_map &p = seg_map (maps, causal, q, cs.seg, nb);
      for (int j = 0; j < 2; j++)
        {
          const double pr = p[2 * j], pi = p[2 * j + 1];
          const double re = pr * e[2 * j] - pi * e[2 * j + 1]
                            + cs.at (sh, V, q, 2 * j);
          e[2 * j + 1] = pr * e[2 * j + 1] + pi * e[2 * j]
                         + cs.at (sh, V, q, 2 * j + 1);
          e[2 * j] = re;
        }
    }
  walk (std::true_type (), e);
}

/* ---- launchers ---------------------------------------------------------- */

/* Warps a line's carries share: segments of about CHUNK blocks. */
inline int
carry_warps (int nb, int chunk)
{
  return std::min (CARRY_MAX_WARPS, std::max (1, (nb + chunk - 1) / chunk));
}

/* YvV's carry kernel's shared memory with G warps a line. */
constexpr size_t
yvv_carry_shm (int G)
{
  return sizeof (double) * 32 * (G * 3 + 3);
}

/* The blocks' maps as the carry kernels compose them, YvV's 3 x 3 P and
 * Deriche's complex p of each mode: of a block (map_of), r = a b
 * (map_mul) and r = a^n (map_pow, n >= 0). */
inline void
map_of (const gb_yvv_block &b, yvv_map &r)
{
  memcpy (r, b.P, sizeof r);
}

inline void
map_of (const gb_deriche_block &b, deriche_map &r)
{
  for (int j = 0; j < 2; j++)
    {
      r[2 * j] = b.p_re[j];
      r[2 * j + 1] = b.p_im[j];
    }
}

inline void
map_mul (const yvv_map &a, const yvv_map &b, yvv_map &r)
{
  gb_mat3_mul (a, b, r);
}

inline void
map_mul (const deriche_map &a, const deriche_map &b, deriche_map &r)
{
  for (int j = 0; j < 2; j++)
    {
      const double re = a[2 * j] * b[2 * j] - a[2 * j + 1] * b[2 * j + 1];
      r[2 * j + 1] = a[2 * j] * b[2 * j + 1] + a[2 * j + 1] * b[2 * j];
      r[2 * j] = re;
    }
}

inline void
map_pow (const yvv_map &a, int n, yvv_map &r)
{
  yvv_map o = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
  for (int i = 0; i < n; i++)
    gb_mat3_mul (a, o, o);
  memcpy (r, o, sizeof o);
}

inline void
map_pow (const deriche_map &a, int n, deriche_map &r)
{
  for (int j = 0; j < 2; j++)
    gb_cpow_int (a[2 * j], a[2 * j + 1], n, &r[2 * j], &r[2 * j + 1]);
}

/* The segment maps of a line of nb blocks shared by G warps (K: the
 * filter's carry constants, its full and tail blocks). */
template <class M, class K>
seg_maps<M>
seg_maps_make (const K &k, int nb, int G)
{
  seg_maps<M> m;
  const int seg = (nb + G - 1) / G, len = nb - (nb - 1) / seg * seg;
  M full, tail, p;
  map_of (k.full, full);
  map_of (k.tail, tail);
  map_pow (full, seg, m.full);
  map_pow (full, len, m.last);
  map_pow (full, len - 1, p);
  map_mul (tail, p, m.causal_end);
  map_pow (full, seg - 1, p);
  map_mul (p, tail, m.anticausal_end);
  return m;
}

/* How many thread blocks of G warps (1 to CARRY_MAX_WARPS) of a kernel
 * a multiprocessor holds at once (0 where the runtime could not say:
 * that G is then not chosen, and the error is cleared so that the next
 * launch's check does not report it). */
struct blocks_per_sm
{
  int n[CARRY_MAX_WARPS + 1] = {};

  template <class Kernel, class Shm>
  blocks_per_sm (Kernel kern, Shm shm)
  {
    for (int G = 1; G <= CARRY_MAX_WARPS; G++)
      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&n[G], kern, 32 * G,
                                                         shm (G))
          != cudaSuccess)
        {
          n[G] = 0;
          (void) cudaGetLastError ();
        }
  }
};

/* Warps a line's YvV carries share, G.  A warp walks a segment of `seg'
 * blocks twice and composes the G - 1 segments' maps before its own, and
 * the thread blocks (G warps for 32 lines; 168 registers a thread) run in
 * W waves of what the GPU holds at once: more warps shorten the chains
 * but may take a wave more.  W (8 seg + G - 20) is a least-squares fit
 * to the kernel's measured times over images from 1920x1080 RGB to
 * 7680x4320 RGBA, both axes; the G it picks comes within a few per cent
 * of the fastest for each.  Up to the most warps. */
inline int
yvv_carry_warps (const blocks_per_sm &fit, int nb, int lines)
{
  const int most = carry_warps (nb, CHUNK), groups = (lines + 31) / 32;
  int best = most;
  long best_cost = -1;
  for (int G = 1; G <= most; G++)
    {
      if (fit.n[G] < 1)
        continue;
      const long held = (long) fit.n[G] * gb_cuda_sm_count ();
      const long waves = (groups + held - 1) / held;
      const long cost = waves * (8L * ((nb + G - 1) / G) + G - 20);
      if (best_cost < 0 || cost < best_cost)
        {
          best = G;
          best_cost = cost;
        }
    }
  return best;
}

template <int C, bool VERT>
gb_status
carry_c (const float *src, yvv_f::T *st, int w, int h, int nb,
         const yvv_f::K &k, cudaStream_t s, unsigned pdl)
{
  static const blocks_per_sm fit (yvv_carry_kernel<C, VERT>, yvv_carry_shm);
  const int lines = (VERT ? w : h) * C;
  const int G = k.segments ? yvv_carry_warps (fit, nb, lines) : 1;
  const size_t shm = yvv_carry_shm (G);
  return launch ("yvv_carry_kernel", yvv_carry_kernel<C, VERT>,
                 dim3 ((lines + 31) / 32), dim3 (32 * G), shm, s, 1,
                 pdl & PDL_CARRY, src, st, w, h, nb, k,
                 seg_maps_make<yvv_map> (k, nb, G));
}

template <int C, bool VERT>
gb_status
carry_c (const float *src, deriche_f::T *st, int w, int h, int nb,
         const deriche_f::K &k, cudaStream_t s, unsigned pdl)
{
  const int lines = (VERT ? w : h) * C, G = carry_warps (nb, DERICHE_CHUNK);
  const size_t shm = sizeof (double) * 32 * G * 4;
  return launch ("deriche_carry_kernel", deriche_carry_kernel<C, VERT>,
                 dim3 ((lines + 31) / 32, 2), dim3 (32 * G), shm, s, 1,
                 pdl & PDL_CARRY, src, st, w, h, nb, k,
                 seg_maps_make<deriche_map> (k, nb, G));
}

/* An axis's thread blocks of WARPS tiles: neighbouring thread blocks take
 * neighbouring pieces of the same rows, so that the image streams through
 * DRAM a row band at a time. */
template <int C, bool VERT>
dim3
tiled_grid (int w, int h, int nb)
{
  const int tiles = VERT ? (w * C + 31) / 32
                         : (h + tile_rows<C> - 1) / tile_rows<C>;
  const int groups = (tiles + WARPS - 1) / WARPS;
  return dim3 (VERT ? groups : nb, VERT ? nb : groups);
}

/* The table kernel writes the table only once the kernel before it (the
 * previous axis's finals, which may read the old one) is done. */
template <class F>
gb_status
launch_tab (typename F::Tab *tab, const typename F::K &k, cudaStream_t s,
            typename F::Tab *tab2 = nullptr, const typename F::K *k2 = nullptr)
{
  return launch ("tab_kernel", tab_kernel<F>, dim3 (tab2 ? 2 : 1),
                 dim3 (32 * ((F::N + 31) / 32)), 0, s, 1, F::PDL & PDL_TAB,
                 tab, k, tab2, tab2 ? *k2 : k);
}

/* An axis's partials and carries: the states of its nb blocks a line.
 * pdl: which launches may start early (F::PDL, or F::PDL_PAIR). */
template <class F, int C, bool VERT>
gb_status
partials_and_carries (const typename F::K &k, const typename F::Tab *tab,
                      const float *src, typename F::T *st, int w, int h,
                      int nb, cudaStream_t s, unsigned pdl)
{
  const gb_status st_ = launch ("partial_kernel", partial_kernel<F, C, VERT>,
                                tiled_grid<C, VERT> (w, h, nb),
                                dim3 (32 * WARPS), 0, s, 1,
                                pdl & PDL_PARTIAL, src, st, tab, w, h, k);
  return st_ != GB_OK ? st_
                      : carry_c<C, VERT> (src, st, w, h, nb, k, s, pdl);
}

template <class F, int C, bool VERT>
gb_status
launch_final (const typename F::K &k, const typename F::Tab *tab,
              const float *src, float *dst, const typename F::T *st, int w,
              int h, int nb, cudaStream_t s, unsigned pdl)
{
  return launch ("final_kernel", final_kernel<F, C, VERT>,
                 tiled_grid<C, VERT> (w, h, nb), dim3 (32 * WARPS), 0, s, 1,
                 pdl & PDL_FINAL, src, dst, st, tab, w, h, k);
}

template <class F, int C, bool VERT>
gb_status
run_axis (const typename F::K &k, typename F::Tab *tab,
          const float *src, float *dst, typename F::T *st,
          int w, int h, cudaStream_t s)
{
  const int L = VERT ? h : w, nb = (L + F::N - 1) / F::N;
  if (fused_fits (F::S, F::N, VERT, F::STAGED, nb))
    return run_fused<F, C, VERT> (k, src, dst, w, h, nb, s);
  gb_status st_;
  if ((st_ = launch_tab<F> (tab, k, s)) != GB_OK
      || (st_ = partials_and_carries<F, C, VERT> (k, tab, src, st, w, h, nb,
                                                  s, F::pdl (k)))
             != GB_OK)
    return st_;
  return launch_final<F, C, VERT> (k, tab, src, dst, st, w, h, nb, s,
                                   F::pdl (k));
}

/* Both axes, src -> mid (rows) -> dst (columns), the rows' finals making
 * the columns' partial states (pair_kernel).  scratch: the rows' table,
 * the columns', then the rows' states and the columns'. */
template <class F, int C>
gb_status
run_pair (const typename F::K &kx, const typename F::K &ky, const float *src,
          float *mid, float *dst, float *scratch, int w, int h, cudaStream_t s)
{
  constexpr int N = F::N;
  const int nbx = (w + N - 1) / N, nby = (h + N - 1) / N;
  typename F::Tab *tab_x = (typename F::Tab *) scratch;
  typename F::Tab *tab_y = (typename F::Tab *) ((char *) scratch + TAB_BYTES);
  typename F::T *st_x = (typename F::T *) ((char *) scratch + 2 * TAB_BYTES);
  typename F::T *st_y = st_x + state_at (F::S, nbx, 0, h * C, 0);
  static const cudaError_t allowed
    = allow_shared (pair_kernel<F, C>, pair_shm (N, C), false);
  if (allowed != cudaSuccess)
    return gb_cuda_fail (allowed, GB_ERR_CUDA_LAUNCH,
                         "cudaFuncSetAttribute (pair_kernel)");
  gb_status st_;
  if ((st_ = launch_tab<F> (tab_x, kx, s, tab_y, &ky)) != GB_OK
      || (st_ = partials_and_carries<F, C, false> (kx, tab_x, src, st_x, w, h,
                                                   nbx, s, F::PDL_PAIR))
             != GB_OK
      || (st_ = launch ("pair_kernel", pair_kernel<F, C>, dim3 (nbx, nby),
                        dim3 (N * C), pair_shm (N, C), s, 1,
                        F::PDL_PAIR & PDL_FINAL, src, mid,
                        (const typename F::T *) st_x, st_y,
                        (const typename F::Tab *) tab_x,
                        (const typename F::Tab *) tab_y, w, h, kx, ky))
             != GB_OK
      || (st_ = carry_c<C, true> (mid, st_y, w, h, nby, ky, s, F::PDL_PAIR))
             != GB_OK)
    return st_;
  return launch_final<F, C, true> (ky, tab_y, mid, dst, st_y, w, h, nby, s,
                                   F::PDL_PAIR);
}

/* Calls fn (channels, vertical) with both as compile-time constants. */
template <class Fn>
gb_status
by_layout (int c, bool vertical, Fn fn)
{
  using std::integral_constant;
  using no = integral_constant<bool, false>;
  using yes = integral_constant<bool, true>;
  switch (c * 2 + (vertical ? 1 : 0))
    {
    case 2: return fn (integral_constant<int, 1> (), no ());
    case 3: return fn (integral_constant<int, 1> (), yes ());
    case 4: return fn (integral_constant<int, 2> (), no ());
    case 5: return fn (integral_constant<int, 2> (), yes ());
    case 6: return fn (integral_constant<int, 3> (), no ());
    case 7: return fn (integral_constant<int, 3> (), yes ());
    case 8: return fn (integral_constant<int, 4> (), no ());
    default: return fn (integral_constant<int, 4> (), yes ());
    }
}

template <class F>
gb_status
run_f (const typename F::K &k, bool vertical, const float *src, float *dst,
       float *scratch, int w, int h, int c, cudaStream_t s)
{
  /* scratch: the table, then the block states. */
  typename F::Tab *tab = (typename F::Tab *) scratch;
  typename F::T *st = (typename F::T *) ((char *) scratch + TAB_BYTES);
  static_assert (sizeof (typename F::Tab) <= TAB_BYTES, "table room");
  return by_layout (c, vertical, [&] (auto C, auto V) {
    return run_axis<F, C.value, V.value> (k, tab, src, dst, st, w, h, s);
  });
}

/* Whether an axis takes yvv_short: lines the fused kernel takes in
 * blocks of 32, and too few lines x blocks of 64 to fill the GPU (a
 * thread a block; 256 threads a multiprocessor, from the sweep). */
bool
yvv_short_fits (bool vertical, int L, int lines)
{
  const long nb = (L + yvv_short::N - 1) / yvv_short::N;
  const long nb_long = (L + yvv_f::N - 1) / yvv_f::N;
  return fused_fits (yvv_short::S, yvv_short::N, vertical,
                     yvv_short::STAGED, (int) nb)
         && (long) lines * nb_long <= 256L * gb_cuda_sm_count ();
}

/* Bytes of block state per line and block, and the block length. */
int
state_bytes (gb_algorithm a)
{
  return a == GB_ALGO_DERICHE ? 2 * deriche_f::S * sizeof (deriche_f::T)
                              : 2 * yvv_f::S * sizeof (yvv_f::T);
}

int
block_len (gb_algorithm a)
{
  return a == GB_ALGO_DERICHE ? deriche_f::N : yvv_f::N;
}

/* The carry constants of an axis of L samples in blocks of SEG. */
deriche_f::K
deriche_k (double sigma, int L, int SEG)
{
  deriche_f::K k;
  const int nb = (L + SEG - 1) / SEG;
  gb_deriche_modes_make (sigma, &k.m);
  gb_deriche_block_make (&k.m, SEG, &k.full);
  gb_deriche_block_make (&k.m, L - (nb - 1) * SEG, &k.tail);
  return k;
}

yvv_k
yvv_k_for (const gb_params *p, double sigma, int L, int SEG)
{
  yvv_k k;
  const int nb = (L + SEG - 1) / SEG;
  gb_yvv_coeffs_make (sigma, &k.c);
  gb_yvv_block_make (&k.c, SEG, &k.full);
  gb_yvv_block_make (&k.c, L - (nb - 1) * SEG, &k.tail);
  k.naive = gb_research_of (p)->naive_borders;
  k.segments = sigma <= GB_YVV_SEGMENT_MAX_SIGMA;
  return k;
}

/* Calls fn (channels), 3 or 4, with it as a compile-time constant. */
template <class Fn>
gb_status
by_channels_3_4 (int c, Fn fn)
{
  if (c == 3)
    return fn (std::integral_constant<int, 3> ());
  return fn (std::integral_constant<int, 4> ());
}

} // namespace

int
gb_cuda_blocks_apply (const gb_params *p, double sigma, int vertical, int L,
                      int lines)
{
  if (gb_research_of (p)->blocks_per_stripe == 1 || L < 1)
    return 0;
  if (p->algorithm == GB_ALGO_YVV && !(sigma <= GB_YVV_BLOCK_MAX_SIGMA))
    return 0;
  if (p->algorithm != GB_ALGO_YVV && p->algorithm != GB_ALGO_DERICHE)
    return 0;
  /* Short lines take one fused kernel, which needs no scratch; else the
   * table and the states must fit the scratch buffer, L floats a line. */
  const long nb = (L + block_len (p->algorithm) - 1) / block_len (p->algorithm);
  const bool der = p->algorithm == GB_ALGO_DERICHE;
  if (fused_fits (der ? deriche_f::S : yvv_f::S, der ? deriche_f::N : yvv_f::N,
                  vertical, der ? deriche_f::STAGED : yvv_f::STAGED,
                  (int) nb))
    return 1;
  return (long) TAB_BYTES + nb * state_bytes (p->algorithm) * (long) lines
         <= (long) L * lines * (long) sizeof (float);
}

gb_status
gb_cuda_blocks_run (const gb_params *p, double sigma, int vertical,
                    const float *src, float *dst, float *scratch, int w,
                    int h, int channels, cudaStream_t s)
{
  const int L = vertical ? h : w;
  const bool short_lines = p->algorithm == GB_ALGO_YVV
                           && yvv_short_fits (vertical, L,
                                              (vertical ? w : h) * channels);
  const int SEG = short_lines ? yvv_short::N : block_len (p->algorithm);
  if (p->algorithm == GB_ALGO_DERICHE)
    return run_f<deriche_f> (deriche_k (sigma, L, SEG), vertical, src, dst,
                             scratch, w, h, channels, s);
  const yvv_k k = yvv_k_for (p, sigma, L, SEG);
  if (short_lines)
    return by_layout (channels, vertical, [&] (auto C, auto V) {
      return run_fused<yvv_short, C.value, V.value> (k, src, dst, w, h,
                                                     (L + SEG - 1) / SEG, s);
    });
  return run_f<yvv_f> (k, vertical, src, dst, scratch, w, h, channels, s);
}

int
gb_cuda_blocks_pair_apply (const gb_params *px, double sx,
                           const gb_params *py, double sy, int w, int h,
                           int channels)
{
  const long floats = (long) w * h * channels;
  if (channels < 3 || (floats < PAIR_MIN_FLOATS && !gb_cuda_pairs_always ())
      || px->algorithm != py->algorithm
      || !gb_cuda_blocks_apply (px, sx, 0, w, h * channels)
      || !gb_cuda_blocks_apply (py, sy, 1, h, w * channels))
    return 0;
  const bool der = px->algorithm == GB_ALGO_DERICHE;
  const int S = der ? deriche_f::S : yvv_f::S;
  const int N = block_len (px->algorithm);
  const long nbx = (w + N - 1) / N, nby = (h + N - 1) / N;
  /* Lines the fused kernel takes (in blocks of N or, YvV, of 32) stay
   * with it. */
  const bool staged = der ? deriche_f::STAGED : yvv_f::STAGED;
  if (fused_fits (S, N, false, staged, (int) nbx)
      || fused_fits (S, N, true, staged, (int) nby))
    return 0;
  const size_t tabs = der ? pair_tabs<deriche_f> : pair_tabs<yvv_f>;
  return pair_shm (N, channels) + tabs <= gb_cuda_shm_optin ()
         && 2 * (long) TAB_BYTES + (nbx * h + nby * w) * channels
                             * (long) state_bytes (px->algorithm)
            <= floats * (long) sizeof (float);
}

gb_status
gb_cuda_blocks_pair_run (const gb_params *px, double sx, const gb_params *py,
                         double sy, const float *src, float *mid, float *dst,
                         float *scratch, int w, int h, int channels,
                         cudaStream_t s)
{
  if (px->algorithm == GB_ALGO_DERICHE)
    {
      const deriche_f::K kx = deriche_k (sx, w, deriche_f::N),
                         ky = deriche_k (sy, h, deriche_f::N);
      return by_channels_3_4 (channels, [&] (auto C) {
        return run_pair<deriche_f, C.value> (kx, ky, src, mid, dst, scratch,
                                             w, h, s);
      });
    }
  const yvv_k kx = yvv_k_for (px, sx, w, yvv_f::N),
              ky = yvv_k_for (py, sy, h, yvv_f::N);
  return by_channels_3_4 (channels, [&] (auto C) {
    return run_pair<yvv_f, C.value> (kx, ky, src, mid, dst, scratch, w, h, s);
  });
}
