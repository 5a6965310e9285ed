/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The exact block-parallel recursive Gaussians' fused kernel: short
 * lines, one kernel an axis.  Kernel code in an anonymous namespace:
 * included by recursive_blocks.cu only. */
#ifndef GB_RECURSIVE_BLOCKS_FUSED_CUH
#define GB_RECURSIVE_BLOCKS_FUSED_CUH

#include <cooperative_groups.h>

#include "common.cuh"

namespace {

/* ---- short lines: one kernel an axis -------------------------------------
 * When a line has at most FUSED_MAX_BLOCKS blocks, a tile of 32 whole
 * lines is filtered in one launch instead of four (on a 512 x 512 image
 * the launches were most of the time): a warp takes a block of the 32
 * lines, partials, then the carries in shared memory, then the finals.
 * The stages are the double ones (no table to build); the finals read
 * their block again (from L2: such an image is small).
 *
 * A tile is one thread block, or, where the tiles are too few to fill
 * the GPU (512 x 512 grey: 16 tiles an axis on 132 multiprocessors), a
 * cluster of up to 8 thread blocks that share out its blocks.  The
 * cluster's first thread block then holds the tile's states: the others
 * store their partial states into its shared memory and read their entry
 * states back from it (distributed shared memory). */
constexpr int FUSED_MAX_BLOCKS = 16;
constexpr int FUSED_MAX_CLUSTER = 8;   /* the portable cluster size */

/* Whether a tile's fused kernel runs F's stages on its blocks in shared
 * memory (F::STAGED: rolled loops) instead of in registers.  As one
 * thread block of up to 16 warps it has 128 registers a thread, which
 * YvV's blocks of 64 unrolled in registers overflowed (172 wanted).  In
 * clusters (at most 8 warps a thread block) the unrolled stages were
 * faster, as they were for blocks of 32 without. */
template <class F, bool CLUSTER>
constexpr bool staged_in = F::STAGED && !CLUSTER;

/* Its shared memory, in doubles before the warps' tiles: nb blocks'
 * states (S doubles each way), and in a cluster as many entry states
 * (fused_group) and two barriers. */
__host__ __device__ constexpr size_t
fused_states (int S, int nb, bool cluster)
{
  return (size_t) nb * 2 * S * 32 * (cluster ? 2 : 1) + (cluster ? 2 : 0);
}

/* All of it: the states, and the warps' tiles (`warps` of them) for rows,
 * or for columns too where the stages run on the blocks in shared memory
 * (staged_in). */
constexpr size_t
fused_shm (int S, int N, bool vert, bool staged, int nb, int warps,
           bool cluster = false)
{
  return sizeof (double) * fused_states (S, nb, cluster)
         + (vert && !staged ? 0 : sizeof (float) * warps * 32 * (N + 1));
}

/* Whether an axis of nb blocks a line takes the fused kernel; staged:
 * whether it may stage (F::STAGED), as it does where it runs without
 * clusters (on GPUs before Hopper, where it has to fit shared memory). */
bool
fused_fits (int S, int N, bool vert, bool staged, int nb)
{
  return nb <= FUSED_MAX_BLOCKS
         && fused_shm (S, N, vert, staged, nb, nb) <= gb_cuda_shm_optin ();
}

/* The carries of the fused kernel's 32 lines, in shared memory laid out
 * as the carry kernels' states (state_at with 32 lines).
 *
 * fused_walk steps through a line's nb blocks, forward (0 .. nb-1) or
 * backward, each in place on its states (S values from j0, and WITH_ZC
 * its causal entry state): the whole blocks with whole (z, zc), the
 * line's last block with last (its own map).  The next block's states are
 * loaded before the step, and the loop has no branch but its own: with
 * carry_walk's chunks of 2 and a branch a block to pick its map, a warp
 * spent many times a step's chain of three multiply-adds on each block.
 * sink (b, j0, z) gets each block's states once they are final
 * (fused_group::put_entries). */
template <int S, bool WITH_ZC, class Whole, class Last, class Sink>
__device__ __forceinline__ void
fused_walk (double *zs, int nb, int lane, int j0, bool forward, Whole whole,
            Last last, Sink sink)
{
  double z[S], zc[WITH_ZC ? S : 1], zn[S], zcn[WITH_ZC ? S : 1];
  const auto load = [&] (int b, double *to, double *toc) {
    state_load<S> (zs, b, j0, 32, lane, to);
    if constexpr (WITH_ZC)
      state_load<S> (zs, b, 0, 32, lane, toc);
  };
  const auto move = [&] () {
#pragma unroll
    for (int j = 0; j < S; j++)
      {
        z[j] = zn[j];
        if constexpr (WITH_ZC)
          zc[j] = zcn[j];
      }
  };
  const auto done = [&] (int b) {   /* block b's states are final */
    state_store<S> (zs, b, j0, 32, lane, z);
    sink (b, j0, z);
  };
  if (forward)
    {
      load (0, zn, zcn);
      for (int b = 0; b < nb - 1; b++)
        {
          move ();
          load (b + 1, zn, zcn);
          whole (z, zc);
          done (b);
        }
      move ();
      last (z, zc);
      done (nb - 1);
    }
  else
    {
      load (nb - 1, z, zc);
      if (nb == 1)
        {
          last (z, zc);
          done (0);
          return;
        }
      load (nb - 2, zn, zcn);
      last (z, zc);
      done (nb - 1);
      for (int b = nb - 2; b > 0; b--)   /* block 0 after: no load past */
        {
          move ();
          load (b - 1, zn, zcn);
          whole (z, zc);
          done (b);
        }
      move ();
      whole (z, zc);
      done (0);
    }
}

template <class Sink>
__device__ __forceinline__ void
fused_carries (const yvv_k &k, double *zs, int nb, int warp, int, int lane,
               double first, double last, Sink sink)
{
  if (warp != 0)
    return;
  double s[3] = { first, first, first }, t[3];
  fused_walk<3, false> (
      zs, nb, lane, 0, true,
      [&] (double *z, const double *) { gb_yvv_carry_causal (&k.full, s, z); },
      [&] (double *z, const double *) { gb_yvv_carry_causal (&k.tail, s, z); },
      sink);
  gb_yvv_carry_turn (&k.c, s, last, k.naive, t);
  fused_walk<3, true> (
      zs, nb, lane, 3, false,
      [&] (double *z, const double *zc) {
        gb_yvv_carry_anticausal (&k.full, t, z, zc);
      },
      [&] (double *z, const double *zc) {
        gb_yvv_carry_anticausal (&k.tail, t, z, zc);
      },
      sink);
}

template <class Sink>
__device__ __forceinline__ void
fused_carries (const deriche_f::K &k, double *zs, int nb, int warp,
               int warps, int lane, double first, double last, Sink sink)
{
  /* Warp 0 the causal pass, warp 1 (or 0 alone) the anticausal one. */
  for (int pass = 0; pass < 2; pass++)
    if (warp == (pass && warps > 1 ? 1 : 0))
      {
        double s[4];
        gb_deriche_carry_start (&k.m, pass ? last : first, s);
        fused_walk<4, false> (
            zs, nb, lane, 4 * pass, !pass,
            [&] (double *z, const double *) {
              gb_deriche_carry_step (&k.full, s, z);
            },
            [&] (double *z, const double *) {
              gb_deriche_carry_step (&k.tail, s, z);
            },
            sink);
      }
}

/* Distributed shared memory with transaction barriers (9.0): a store
 * into another thread block's shared memory that counts its bytes on a
 * barrier there, which its readers wait for.  Addresses are the 32-bit
 * ones of shared memory. */
__device__ __forceinline__ unsigned
shared_address (const void *p)
{
  return (unsigned) __cvta_generic_to_shared (p);
}

#if __CUDA_ARCH__ >= 900
/* Address a of this thread block's shared memory in rank's. */
__device__ __forceinline__ unsigned
at_rank (unsigned a, int rank)
{
  unsigned r;
  asm volatile ("mapa.shared::cluster.u32 %0, %1, %2;"
                : "=r"(r) : "r"(a), "r"(rank));
  return r;
}

/* Barrier bar waits for one arrival (expect) and `bytes' stored. */
__device__ __forceinline__ void
bar_init (unsigned bar)
{
  asm volatile ("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar)
                : "memory");
}

__device__ __forceinline__ void
bar_expect (unsigned bar, unsigned bytes)
{
  asm volatile ("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, "
                "[%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void
bar_wait (unsigned bar)
{
  asm volatile ("{\n\t.reg .pred done;\n"
                "WAIT_%=:\n\t"
                "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 "
                "done, [%0], 0;\n\t"
                "@!done bra WAIT_%=;\n}" :: "r"(bar) : "memory");
}

/* v into another block's shared memory (at, from at_rank), counted on
 * its barrier bar (ditto). */
__device__ __forceinline__ void
store_counted (unsigned at, double v, unsigned bar)
{
  asm volatile ("st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 "
                "[%0], %1, [%2];"
                :: "r"(at), "l"(__double_as_longlong (v)), "r"(bar)
                : "memory");
}

/* z[0..S) as S consecutive values of a line's states from at (state_at:
 * 32 lines apart), counted on bar. */
template <int S>
__device__ __forceinline__ void
store_states (unsigned at, const double *z, unsigned bar)
{
#pragma unroll
  for (int j = 0; j < S; j++)
    store_counted (at + (unsigned) (sizeof (double) * 32 * j), z[j], bar);
}
#endif

/* The thread blocks of a tile: one, or a cluster.
 *
 * One thread block holds the tile's states in its shared memory and
 * syncs around the carries.  In a cluster the first thread block holds
 * them, and the blocks exchange them by counted stores instead of
 * cluster barriers: each warp stores its block's partial states into the
 * first thread block's (counted on its barrier 0), whose carry warps wait
 * for all of them; the carries store each block's entry states into the
 * `entry' area of the thread block that has the block (counted on its
 * barrier 1), which its warp waits for.  Two cluster barriers, the
 * release fences they take and the reads from the first thread block's
 * memory were a quarter of the kernel's time. */
template <bool CLUSTER>
struct fused_group
{
  int rank = 0, size = 1;
  double *states;   /* this thread block's states: the tile's where it is
                       the only one or the first of a cluster */
  double *entry;    /* CLUSTER: this thread block's blocks' entry states */
  unsigned bars;    /* CLUSTER: its two barriers */
  unsigned in = 0, back = 0;   /* CLUSTER: the bytes they wait for */
  int per_warps = 0;           /* CLUSTER: 2^16 / warps, rounded up */

  __device__ __forceinline__
  fused_group (double *zs, int S, int nb) : states (zs)
  {
    /* fused_states' layout: the states, the entry states, the barriers */
    entry = zs + fused_states (S, nb, false);
    bars = shared_address (zs + fused_states (S, nb, true) - 2);
    if constexpr (CLUSTER)
      {
#if __CUDA_ARCH__ >= 900
        namespace cg = cooperative_groups;
        rank = (int) cg::this_cluster ().block_rank ();
        size = (int) cg::this_cluster ().num_blocks ();
#else
        __trap ();   /* the host launches clusters on 9.0 on only */
#endif
      }
  }

  __device__ __forceinline__ int
  tile () const
  {
    return blockIdx.x / size;
  }

  /* CLUSTER, before announce_start: the barriers, for in_bytes of
   * partial states (the first thread block) and back_bytes of entry
   * states. */
  __device__ __forceinline__ void
  init (unsigned in_bytes, unsigned back_bytes, int warps)
  {
    in = in_bytes;
    back = back_bytes;
    per_warps = (65536 + warps - 1) / warps;
#if __CUDA_ARCH__ >= 900
    if (CLUSTER && threadIdx.x == 0)
      {
        bar_init (bars);
        bar_init (bars + 8);
        asm volatile ("fence.mbarrier_init.release.cluster;" ::: "memory");
      }
#endif
  }

  /* CLUSTER, after wait_started: the barriers' one arrival each, with
   * the bytes they are to see (racecheck took it for a race with their
   * initialisation before wait_started).  Stores may have counted before
   * this: a barrier's count of bytes may go below zero. */
  __device__ __forceinline__ void
  expect () const
  {
#if __CUDA_ARCH__ >= 900
    if (CLUSTER && threadIdx.x == 0)
      {
        bar_expect (bars, in);
        bar_expect (bars + 8, back);
      }
#endif
  }

  /* A thread block may write another's shared memory only once that one
   * has started (racecheck: "a block that might not have entered yet"):
   * every thread announces its block's start first thing, and waits for
   * the others' just before its first remote store, by when they have
   * long arrived.  No memory ordering but the barriers' initialisation
   * (init's fence). */
  __device__ __forceinline__ void
  announce_start () const
  {
#if __CUDA_ARCH__ >= 900
    if constexpr (CLUSTER)
      __cluster_barrier_arrive_relaxed ();
#endif
  }

  __device__ __forceinline__ void
  wait_started () const
  {
#if __CUDA_ARCH__ >= 900
    if constexpr (CLUSTER)
      __cluster_barrier_wait ();
#endif
  }

  /* Without a cluster: the states written before are visible to the
   * thread block. */
  __device__ __forceinline__ void
  sync () const
  {
    __syncthreads ();
  }

#if __CUDA_ARCH__ >= 900
  /* CLUSTER: block b's partial states (zc, za), line `lane', into the
   * first thread block's states. */
  template <int S>
  __device__ __forceinline__ void
  put_states (int b, int lane, const double *zc, const double *za) const
  {
    const unsigned at = at_rank (shared_address (states), 0)
                        + (unsigned) (sizeof (double)
                                      * state_at (S, b, 0, 32, lane));
    const unsigned bar = at_rank (bars, 0);
    store_states<S> (at, zc, bar);
    store_states<S> (at + (unsigned) (sizeof (double) * 32 * S), za, bar);
  }

  /* CLUSTER: values j0 .. j0 + S - 1 of block b's states, line `lane',
   * into the entry states of the thread block that has block b.  Inside
   * the carries' loops: the thread block is b * per_warps >> 16 (b / warps
   * for the b and warps there), and the addresses are computed once (a
   * pair of mapa for each value, and b / warps, had made the carries
   * about twice as long as without the stores). */
  template <int S>
  __device__ __forceinline__ void
  put_entries (int b, int j0, int lane, const double *z) const
  {
    const int r = (b * per_warps) >> 16;
    const unsigned at = at_rank (shared_address (entry), r)
                        + (unsigned) (sizeof (double)
                                      * state_at (S, b, j0, 32, lane));
    const unsigned bar = at_rank (bars + 8, r);
    store_states<S> (at, z, bar);
  }
#endif
};

/* The fused kernel's partial states (zc, za) into the tile's states,
 * then its carries: on return the blocks' entry states are in the
 * tile's states, and in a cluster on their way to the thread blocks that
 * have the blocks (take_states). */
template <class F, int C, bool VERT, bool CLUSTER, bool P>
__device__ __forceinline__ void
share_states (const fused_group<CLUSTER> &grp, double *zs,
              const typename F::K &k, const float *src, int w, int h,
              int nb, int warp, int warps, int lane, int b, bool has_block,
              const tile<C, VERT, F::N, P> &t, const double *zc,
              const double *za)
{
  constexpr int S = F::S;
  if constexpr (CLUSTER)
    {
#if __CUDA_ARCH__ >= 900
      grp.wait_started ();   /* the stores go to other blocks */
      grp.expect ();
      if (has_block && t.valid)
        grp.template put_states<S> (b, lane, zc, za);
      if (t.valid && grp.rank == 0)
        {
          double first, last;
          line_ends<C, VERT> (src, w, h, t.line, &first, &last);
          bar_wait (grp.bars);
          fused_carries (k, zs, nb, warp, warps, lane, first, last,
                         [&] (int bb, int j0, const double *z) {
            grp.template put_entries<S> (bb, j0, lane, z);
          });
        }
#endif
    }
  else
    {
      if (has_block && t.valid)
        {
          state_store<S> (zs, b, 0, 32, lane, zc);
          state_store<S> (zs, b, S, 32, lane, za);
        }
      grp.sync ();
      if (t.valid)
        {
          double first, last;
          line_ends<C, VERT> (src, w, h, t.line, &first, &last);
          fused_carries (k, zs, nb, warp, warps, lane, first, last,
                         [] (int, int, const double *) {});
        }
      grp.sync ();
    }
}

/* Block b's entry states (zc, za). */
template <int S, int C, bool VERT, int N, bool CLUSTER, bool P>
__device__ __forceinline__ void
take_states (const fused_group<CLUSTER> &grp, int b, bool has_block,
             const tile<C, VERT, N, P> &t, int lane, double *zc,
             double *za)
{
  if (!has_block || !t.valid)
    return;
  const double *from = grp.states;
  if constexpr (CLUSTER)
    {
#if __CUDA_ARCH__ >= 900
      bar_wait (grp.bars + 8);
      from = grp.entry;
#endif
    }
  state_load<S> (from, b, 0, 32, lane, zc);
  state_load<S> (from, b, S, 32, lane, za);
}

/* Bytes of states each way for the blocks [b0, b0 + n) of nb, on a tile
 * of `lines' lines (thread 0 of the fused kernel's thread block). */
__device__ __forceinline__ unsigned
state_bytes (int S, int b0, int n, int nb, int lines)
{
  const int blocks = max (0, min (n, nb - b0));
  return (unsigned) (blocks * lines * 2 * S * sizeof (double));
}

/* The line's short last block (n < N samples) as a whole block: the
 * samples past the line's end are its last sample (tile::load with
 * PART_PADDED).  Since the filters' exact borders extend a line by its
 * end samples for ever, the line so padded gives the same output on its
 * own samples, and its blocks all take the whole blocks' code and
 * constants (the carries' `tail' is `full', launch_fused).  Whole-block
 * and short-block code in one kernel thrashed the instruction cache:
 * the warps of a line's last blocks ran the one while the others ran the
 * other, and an image a little short of whole blocks took several times
 * as long as one of whole blocks.
 *
 * In a cluster, a thread block has at most half a tile's warps: the
 * registers that frees keep YvV's blocks of 32 from spilling. */
template <class F, int C, bool VERT, bool CLUSTER>
__global__ void __launch_bounds__ (32 * FUSED_MAX_BLOCKS / (CLUSTER ? 2 : 1))
fused_kernel (const float *__restrict__ src, float *__restrict__ dst, int w,
              int h, int nb, bool padded,
              const __grid_constant__ typename F::K k)
{
  constexpr int N = F::N, S = F::S;
  constexpr bool STAGED = staged_in<F, CLUSTER>;
  extern __shared__ double zs[];   /* states (fused_states), then tiles */
  fused_group<CLUSTER> grp (zs, S, nb);
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int warps = blockDim.x >> 5, b = grp.rank * warps + warp;
  /* Warps past the line's end (the cluster's last thread block) only
   * wait for the others to start. */
  const bool has_block = !CLUSTER || b < nb;
  const int n = has_block ? min (N, (VERT ? h : w) - b * N) : 0;
  float *sm = (float *) (zs + fused_states (S, nb, CLUSTER))
              + (size_t) warp * tile_floats<N>;
  const tile<C, VERT, N, !STAGED> t (grp.tile (), w, h);
  double zc[S], za[S];
  if constexpr (CLUSTER)
    {
      /* The tile's lines (the same in every warp of the cluster). */
      const int lines = __popc (__ballot_sync (~0u, t.valid));
      grp.init (grp.rank == 0 ? state_bytes (S, 0, nb, nb, lines) : 0,
                state_bytes (S, grp.rank * warps, warps, nb, lines), warps);
    }
  grp.announce_start ();
  pdl_wait_then_release ();   /* src may be the kernel before's output */
  if constexpr (STAGED)
    {
      /* The stages on the block in shared memory, in rolled loops. */
      float *x = t.lane_samples (sm);
      if (has_block)
        {
          t.fill (src, w, h, b, n, sm);
          if (t.valid)
            F::partial_staged (x, t.stride, n, k, zc, za);
        }
      share_states<F> (grp, zs, k, src, w, h, nb, warp, warps, lane, b,
                       has_block, t, zc, za);
      if (has_block)
        t.fill (src, w, h, b, n, sm);
      take_states<S> (grp, b, has_block, t, lane, zc, za);
      if (has_block)
        {
          if (t.valid)
            F::final_staged (x, t.stride, n, k, zc, za);
          t.flush (dst, w, h, b, n, sm);
        }
    }
  else
    {
      /* A line's short last block runs as a whole one, padded (above),
       * where launch_fused says so (fused_pads). */
      const bool whole = n == N || padded;
      float v[N];
      if (has_block)
        {
          t.load (src, w, h, b, n, sm, v);
          if (t.valid)
            {
              if (whole)
                F::partial_d (v, N, k, zc, za);
              else
                F::partial_d (v, n, k, zc, za);
            }
        }
      share_states<F> (grp, zs, k, src, w, h, nb, warp, warps, lane, b,
                       has_block, t, zc, za);
      if (has_block)
        t.load (src, w, h, b, n, sm, v);
      take_states<S> (grp, b, has_block, t, lane, zc, za);
      if (has_block)
        {
          if (t.valid)
            {
              if (whole)   /* the stages' sample tests fold away */
                F::final_d (v, N, k, zc, za);
              else
                F::final_d (v, n, k, zc, za);
            }
          t.store (dst, w, h, b, n, sm, v);
        }
    }
}

/* Thread blocks a tile's cluster (1: no cluster) for `tiles` tiles of nb
 * blocks: the fewest that give the GPU about a thread block per
 * multiprocessor. */
int
fused_cluster (int tiles, int nb)
{
  if (!gb_cuda_clusters ())
    return 1;
  int cl = 1;
  while (cl < FUSED_MAX_CLUSTER && cl < nb
         && (long) tiles * cl * 2 <= gb_cuda_sm_count ())
    cl *= 2;
  const int warps = (nb + cl - 1) / cl;
  return (nb + warps - 1) / warps;   /* no thread block without a block */
}

/* Whether the fused kernel runs a line's short last block padded:
 * where it keeps blocks in registers, and where the borders are exact
 * (the naive start of the anticausal pass sits at the line's end).  For
 * YvV only where its carries may split a line (sigma <= 50): the padded
 * block's map is P = A^N instead of A^n, and at sigma 500 those powers
 * lost digits (test_gpu: 4e-6 to 6e-6 relative on 47x1, 37x23, 100x70
 * and 1000x33, past the 4e-6 allowed there). */
inline bool
fused_pads (const yvv_k &k)
{
  return !k.naive && k.segments;
}

inline bool
fused_pads (const deriche_f::K &)
{
  return true;
}

template <class F, int C, bool VERT, bool CLUSTER>
gb_status
launch_fused (const typename F::K &k0, const float *src, float *dst, int w,
              int h, int nb, int tiles, int cl, cudaStream_t s)
{
  const bool padded = !staged_in<F, CLUSTER> && fused_pads (k0);
  typename F::K k = k0;
  if (padded)
    k.tail = k.full;
  const int warps = (nb + cl - 1) / cl;
  const size_t shm = fused_shm (F::S, F::N, VERT, staged_in<F, CLUSTER>, nb,
                               warps, CLUSTER);
  /* For the longest lines it may take here. */
  static const cudaError_t allowed = allow_shared (
    fused_kernel<F, C, VERT, CLUSTER>,
    std::min (gb_cuda_shm_optin (),
              fused_shm (F::S, F::N, VERT, staged_in<F, CLUSTER>,
                         FUSED_MAX_BLOCKS, FUSED_MAX_BLOCKS, CLUSTER)),
    false);
  if (shm > 48 * 1024 && allowed != cudaSuccess)
    return gb_cuda_fail (allowed, GB_ERR_CUDA_LAUNCH,
                         "cudaFuncSetAttribute (fused_kernel)");
  return launch ("fused_kernel", fused_kernel<F, C, VERT, CLUSTER>,
                 dim3 (tiles * cl), dim3 (32 * warps), shm, s,
                 CLUSTER ? cl : 1, F::PDL & PDL_FUSED, src, dst, w, h, nb,
                 padded, k);
}

template <class F, int C, bool VERT>
gb_status
run_fused (const typename F::K &k, const float *src, float *dst, int w, int h,
           int nb, cudaStream_t s)
{
  const int tiles = VERT ? (w * C + 31) / 32
                         : (h + tile_rows<C> - 1) / tile_rows<C>;
  const int cl = fused_cluster (tiles, nb);
  /* fused_fits took the layout without clusters; the cluster's holds the
   * entry states as well (fused_group). */
  if (cl > 1
      && fused_shm (F::S, F::N, VERT, staged_in<F, true>, nb,
                    (nb + cl - 1) / cl, true) <= gb_cuda_shm_optin ())
    return launch_fused<F, C, VERT, true> (k, src, dst, w, h, nb, tiles, cl,
                                           s);
  return launch_fused<F, C, VERT, false> (k, src, dst, w, h, nb, tiles, 1, s);
}

} // namespace

#endif
