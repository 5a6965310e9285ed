/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The edge-aware filter's exact blocks (Algorithm A within float
 * rounding): a block's end state is its partial result from zero plus the
 * product of its steps' b^delta times its entry state, so partials (a
 * thread a block, one forward sweep for both directions), carries (a
 * thread a line, direction, subfilter and channel) and a final (two lanes
 * a block, one a direction) give the whole line's recursion. */
#include <initializer_list>

#include "edge_common.cuh"
#include "edge_parts.h"

namespace {

/* The exact blocks' partials: every block (after the first, before the
 * last) from zero states, keeping only its end states and the products
 * of its steps' b^delta; the first block's causal pass and the last's
 * anticausal one start from the line's true states (as Algorithm A), so
 * their end states are already true.  One forward sweep does both
 * directions: the causal pass as its recursion, the anticausal one's end
 * state (at pixel s) as the weighted sum it is,
 *   h_s = sum_p W_p (R_(p+1) f_p + S_(p+1) f_(p+1)),
 *   W_p = b^delta_(s+1) ... b^delta_p,
 * so that both take their step factors from one computation (the
 * factors at pixel q serve the causal step at q and the anticausal term
 * at q - 1), and each channel's share of the anticausal state is one
 * complex multiply-add by f_(q-1)'s whole weight, W_(q-2) S_(q-1) +
 * W_(q-1) R_q.  Both sweeps as recursions, in two threads, computed the
 * factors twice and took four multiply-adds more a channel.  With three
 * or four channels it needs more than 80 registers (it spilled 24 and
 * 288 bytes), so five thread blocks a multiprocessor. */
template <int C>
constexpr int PARTIAL_MIN_BLOCKS = C >= 3 ? 5 : EDGE_MIN_BLOCKS;

template <int C, bool HOLD>
__global__ void __launch_bounds__ (EDGE_THREADS, PARTIAL_MIN_BLOCKS<C>)
edge_partial_kernel (const float *__restrict__ in, const float *__restrict__ dt,
                     float *__restrict__ st, int lines, int L, int blocks,
                     dt_k k)
{
  constexpr hold_is<HOLD> hold {};
  const int n = lines * blocks;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const int line = t % lines, blk = t / lines;
  const int s = (int) ((long) L * blk / blocks);
  const int e = (int) ((long) L * (blk + 1) / blocks);
  if (e <= s)
    return;
  const size_t pitch = (size_t) lines * C;
  const float *f = in + (size_t) line * C;
  const float *d = dt + line;
#define DT(idx) __ldg (d + (size_t) (idx) * lines)

  /* The causal state as g_q = m_q + P_q f_q: then
   *   m_q = b^delta_q m_(q-1) + c f_(q-1),  c = b^delta_q P_(q-1) + Q_q,
   * six float instructions a channel and subfilter where b^delta g +
   * P f + Q f' took eight, for four more a pixel and subfilter (c): fewer
   * instructions in RGBA and RGB (grey's few more are won back by the
   * sweep's pointers).  The final keeps its step: each pixel's value
   * would need P f added back.
   * Pixel s: the causal pass's first step (from zero, or the line's true
   * start: m = 0, P = ss); the weights start at 1. */
  cplx m[2][C], h[2][C], w[2], ws[2], bds[2], pp[2];
  float fp[C];
  load_px<C> (f + (size_t) s * pitch, fp);
  if (blk == 0)
    {
#pragma unroll
      for (int i = 0; i < 2; i++)
        {
          bds[i] = { 1.f, 0.f };
          pp[i] = k.ss[i];
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            m[i][ch] = { 0.f, 0.f };
        }
    }
  else
    {
      float fb[C];
      load_px<C> (f + (size_t) (s - 1) * pitch, fb);
      const float db = DT (s);
#pragma unroll
      for (int i = 0; i < 2; i++)
        {
          step_k sk = step_factors (k, hold, i, db);
          bds[i] = sk.bd;
          pp[i] = sk.P;
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            m[i][ch] = cscale (sk.Q, fb[ch]);
        }
    }
#pragma unroll
  for (int i = 0; i < 2; i++)
    {
      w[i] = { 1.f, 0.f };
      ws[i] = { 0.f, 0.f };
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        h[i][ch] = { 0.f, 0.f };
    }

  /* Pixels s+1 .. e-1, EB at a time, all loads in flight before use. */
  sweep sw = sweep_at (f, d, pitch, lines, s + 1);
  for (int x0 = s + 1; x0 < e; x0 += EB)
    {
      float fb[EB][C], db[EB];
      load_batch<C> (sw, e - x0, fb, db);
#pragma unroll
      for (int b = 0; b < EB; b++)
        if (x0 + b < e)
          {
#pragma unroll
            for (int i = 0; i < 2; i++)
              {
                step_k sk = step_factors (k, hold, i, db[b]);
                const cplx wq = cmadd (w[i], sk.R, ws[i]);   /* f_(q-1)'s */
                const cplx c = cmadd (sk.bd, pp[i], sk.Q);
                ws[i] = cmul (w[i], sk.S);
                w[i] = cmul (w[i], sk.bd);
                pp[i] = sk.P;
#pragma unroll
                for (int ch = 0; ch < C; ch++)
                  {
                    h[i][ch] = { fmaf (wq.re, fp[ch], h[i][ch].re),
                                 fmaf (wq.im, fp[ch], h[i][ch].im) };
                    m[i][ch] = cmadd (sk.bd, m[i][ch], cscale (c, fp[ch]));
                  }
              }
#pragma unroll
            for (int ch = 0; ch < C; ch++)
              fp[ch] = fb[b][ch];
          }
    }

  cplx g[2][C];
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      g[i][ch] = { fmaf (pp[i].re, fp[ch], m[i][ch].re),
                   fmaf (pp[i].im, fp[ch], m[i][ch].im) };

  /* The causal product: b^delta_s W_(e-1).  The anticausal pass's last
   * term: past a block that is not the line's last, pixel e's factors
   * and input (its product is then W_e); the last block's pass starts at
   * its last pixel from the line's true state, b ss f_(e-1). */
  cplx pc[2], pa[2];
  float fe[C] = {};
  const bool last = blk == blocks - 1;
  if (!last)
    load_px<C> (f + (size_t) e * pitch, fe);
  const float de = last ? 1.f : DT (e);
#pragma unroll
  for (int i = 0; i < 2; i++)
    {
      pc[i] = cmul (bds[i], w[i]);
      cplx wl, wn = { 0.f, 0.f };   /* f_(e-1)'s and f_e's weights */
      if (last)
        {
          wl = cmadd (w[i], k.bss[i], ws[i]);
          pa[i] = w[i];
        }
      else
        {
          step_k sk = step_factors (k, hold, i, de);
          wl = cmadd (w[i], sk.R, ws[i]);
          wn = cmul (w[i], sk.S);
          pa[i] = cmul (w[i], sk.bd);
        }
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        h[i][ch] = { fmaf (wl.re, fp[ch], fmaf (wn.re, fe[ch], h[i][ch].re)),
                     fmaf (wl.im, fp[ch], fmaf (wn.im, fe[ch], h[i][ch].im)) };
    }
  state_put<C> (st, blk, 0, lines, line, g, pc);
  state_put<C> (st, blk, pass_floats<C>, lines, line, h, pa);
#undef DT
}

/* The exact blocks' final, two lanes a block: in each warp, lanes 0-15
 * sweep the block of their line causally and lanes 16-31 the same lines'
 * blocks anticausally, in the same instructions (the direction picks
 * positions and factors, not code), so that a block's two sweeps run at
 * once instead of one after the other.  A pixel's two halves meet in
 * shared memory: the lane that reaches it first (the causal one in the
 * block's first half, the anticausal one in its second) keeps its value
 * there, and the other adds it and writes the sum (the odd middle pixel,
 * reached by both at once, goes through a shuffle), so that every output
 * is written once and nothing is read back from global memory.  Shared
 * memory: PAIR_LINES lines x nmax pixels x C floats a warp.
 *
 * TOUT: the output transposed ([lines][L][C], the lines as rows), which
 * saves the filter's passes the transposes between them (run_iterations).  The
 * sums then stay in shared memory, a line's block contiguous, and the
 * warp writes each line's block as one run once all are summed.  The 16
 * lanes of a direction hit different banks: in RGBA a pixel is a float4
 * and a line's pitch 4 mod 32 floats; else the pitch is odd, float by
 * float (RGB's pitch 3 mod 32 as well cost a thread block a
 * multiprocessor). */
/* Six thread blocks a multiprocessor (80 registers, no spills; the
 * compiler chose 94, five): with RGBA blocks of at most 32 pixels their
 * shared memory fits six too (gb_cuda_edge_blocks), which is faster. */
constexpr int PAIR_LINES = 16, PAIR_WARPS = 4, PAIR_MIN_BLOCKS = 6;

/* A line's floats in shared memory when the output is transposed: at
 * least C nmax; 4 mod 32 in RGBA, else odd. */
__host__ __device__ constexpr int
pair_pitch_t (int C, int nmax)
{
  return C == 4 ? C * nmax + ((4 - C * nmax) % 32 + 32) % 32
                : (C * nmax) | 1;
}

/* Shared memory of a thread block of edge_final_pair_kernel. */
constexpr size_t
pair_shm (int C, int nmax, bool tout)
{
  return sizeof (float) * PAIR_WARPS * PAIR_LINES
         * (size_t) (tout ? pair_pitch_t (C, nmax) : C * nmax);
}

template <int C, bool TOUT, bool HOLD>
__global__ void __launch_bounds__ (32 * PAIR_WARPS, PAIR_MIN_BLOCKS)
edge_final_pair_kernel (const float *__restrict__ in, float *__restrict__ out,
                        const float *__restrict__ dt,
                        const float *__restrict__ st, int lines, int L,
                        int blocks, int nmax, dt_k k)
{
  constexpr hold_is<HOLD> hold {};
  extern __shared__ __align__ (16) float held[];
  const int lane = threadIdx.x & 31, dir = lane >> 4;
  const int groups = (lines + PAIR_LINES - 1) / PAIR_LINES;
  const long wid = (long) blockIdx.x * PAIR_WARPS + (threadIdx.x >> 5);
  if (wid >= (long) groups * blocks)   /* whole warps */
    return;
  /* A warp's lanes share one block, so every test on i below is the
   * same in all of them (the shuffle and __syncwarp need that); a lane
   * past the last line works on the last line and writes nothing. */
  const int blk = (int) (wid / groups);
  const int first = (int) (wid % groups) * PAIR_LINES;   /* warp's lines */
  const int line0 = first + (lane & 15);
  const bool valid = line0 < lines;
  const int line = valid ? line0 : lines - 1;
  const int s = (int) ((long) L * blk / blocks);
  const int e = (int) ((long) L * (blk + 1) / blocks);
  const int nb = e - s, half = nb / 2;
  const size_t pitch = (size_t) lines * C;
  const float *f = in + (size_t) line * C;
  float *o = out + (size_t) line * C;
  const float *d = dt + line;
  const int tp = pair_pitch_t (C, nmax);
  float *const warp_held = held + (size_t) (threadIdx.x >> 5) * PAIR_LINES
                                  * (TOUT ? tp : nmax * C);
  float *mine = warp_held + (lane & 15) * (TOUT ? tp : C);
  /* Step i is at pixel p0 + i * step; its factors are those of the
   * spacing at p + dir (before p causally, after it anticausally). */
  const int p0 = dir ? e - 1 : s, step = dir ? -1 : 1;
  const bool line_end = dir ? blk == blocks - 1 : blk == 0;
  const dir_k dk = dir_factors (k, hold, dir);

  /* Step i's value v at pixel p: kept (first half), added to the other
   * lane's and written (second half), or, the odd middle pixel, summed
   * through a shuffle.  In RGBA the halves run as loops of their own
   * (below), so that their steps test nothing: one loop testing i at
   * every step, with the branches, reconvergence and register moves that
   * cost, took about a third more instructions than the halves' loops
   * and was slower.  With fewer channels the one loop stays: there the
   * three copies of the step were slower while executing fewer
   * instructions. */
  auto value = [&] (const cplx (&gg)[2][C], float (&v)[C]) {
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      v[ch] = gg[0][ch].re + gg[1][ch].re;
  };
  auto slot_of = [&] (int p) {
    return mine + (size_t) (p - s) * (TOUT ? C : PAIR_LINES * C);
  };
  auto put = [&] (float *slot, const float (&u)[C]) {
    if constexpr (TOUT && C == 4)
      store_px<C> (slot, u);
    else
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        slot[ch] = u[ch];
  };
  auto keep = [&] (int p, const cplx (&gg)[2][C]) {
    float v[C];
    value (gg, v);
    put (slot_of (p), v);
  };
  auto add = [&] (int p, const cplx (&gg)[2][C]) {
    float v[C], kept[C];
    value (gg, v);
    float *slot = slot_of (p);
    if constexpr (TOUT && C == 4)
      load_px<C, false> (slot, kept);
    else
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        kept[ch] = slot[ch];
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      kept[ch] += v[ch];
    if constexpr (TOUT)
      put (slot, kept);
    else
      {
        if (valid)
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            o[(size_t) p * pitch + ch] = kept[ch];
      }
  };
  auto middle = [&] (int p, const cplx (&gg)[2][C]) {
    float v[C], sum[C];
    value (gg, v);
#pragma unroll
    for (int ch = 0; ch < C; ch++)
      sum[ch] = v[ch] + __shfl_xor_sync (0xffffffffu, v[ch], 16);
    if constexpr (TOUT)
      {
        if (dir == 0)
          put (slot_of (p), sum);
      }
    else
      {
        if (dir == 0 && valid)
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            o[(size_t) p * pitch + ch] = sum[ch];
      }
  };

  /* Step 0: from the line's true start at its end pixel, or from the
   * block's entry state (edge_carry_kernel) with the pixel before it. */
  cplx g[2][C];
  float f2[C];
  load_px<C> (f + (size_t) p0 * pitch, f2);
  if (line_end)
    {
#pragma unroll
      for (int i = 0; i < 2; i++)
        {
          const cplx c = dir ? k.bss[i] : k.ss[i];
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            g[i][ch] = cscale (c, f2[ch]);
        }
    }
  else
    {
      cplx unused[2];
      state_get<C> (st, blk, dir ? pass_floats<C> : 0, lines, line, g, unused);
      float fb[C];
      load_px<C> (f + (size_t) (p0 - step) * pitch, fb);
      const float db = __ldg (d + (size_t) (p0 + dir) * lines);
#pragma unroll
      for (int i = 0; i < 2; i++)
        {
          const step_xy sk = step_dir (k, hold, dk, i, db);
#pragma unroll
          for (int ch = 0; ch < C; ch++)
            g[i][ch] = cstep (sk.bd, g[i][ch], sk.X, f2[ch], sk.Y, fb[ch]);
        }
    }
  if (half > 0)
    keep (p0, g);
  else
    middle (p0, g);   /* a block of one pixel */

  /* Steps [from, to), their loads EB at a time, each pixel's value
   * emitted by em. */
  auto walk = [&] (int from, int to, auto em) {
    for (int i0 = from; i0 < to; i0 += EB)
      {
        float fb[EB][C], db[EB];
        load_batch<C> (f, d, pitch, lines, p0 + i0 * step, step, dir,
                       to - i0, fb, db);
#pragma unroll
        for (int b = 0; b < EB; b++)
          if (i0 + b < to)
            {
#pragma unroll
              for (int i = 0; i < 2; i++)
                {
                  const step_xy sk = step_dir (k, hold, dk, i, db[b]);
#pragma unroll
                  for (int ch = 0; ch < C; ch++)
                    g[i][ch] = cstep (sk.bd, g[i][ch], sk.X, fb[b][ch], sk.Y,
                                      f2[ch]);
                }
#pragma unroll
              for (int ch = 0; ch < C; ch++)
                f2[ch] = fb[b][ch];
              em (p0 + (i0 + b) * step, g);
            }
      }
  };
  if constexpr (C == 4)
    {
      walk (1, half, keep);
      __syncwarp ();   /* the first half's values are all kept */
      if ((nb & 1) && half > 0)
        walk (half, half + 1, middle);
      walk (half + (nb & 1) > 1 ? half + (nb & 1) : 1, nb, add);
    }
  else
    walk (1, nb, [&] (int p, const cplx (&gg)[2][C]) {
      const int i = (p - p0) * step;
      if (i == half)
        __syncwarp ();   /* the first half's values are all kept */
      if (i < half)
        keep (p, gg);
      else if (i == half && (nb & 1))
        middle (p, gg);
      else
        add (p, gg);
    });
  if constexpr (TOUT)
    {
      /* Line l's block is floats [s C, e C) of output row l. */
      __syncwarp ();
      const int n = min (PAIR_LINES, lines - first);
      for (int l = 0; l < n; l++)
        {
          float *row = out + ((size_t) (first + l) * L + s) * C;
          const float *sums = warp_held + l * tp;
          if constexpr (C == 4)
            for (int j = lane; j < nb; j += 32)
              reinterpret_cast<float4 *> (row)[j]
                = reinterpret_cast<const float4 *> (sums)[j];
          else
            for (int j = lane; j < nb * C; j += 32)
              row[j] = sums[j];
        }
    }
}

/* The exact blocks' carries: block by block, the state entering a block
 * is the one leaving the block before it,
 *   g_out = partial + (product of b^delta) g_in,
 * forward for the causal pass (the first block's partial is already true)
 * and backward for the anticausal one (the last block's is).  Each chain
 * (line, pass, subfilter, channel) is its own first-order recursion, so a
 * thread runs one chain: one thread per line spent a quarter of the pass
 * waiting on one state after another.  Loads go CARRY_BATCH blocks ahead
 * of the recursion, all in flight at once (16 measured best; 32 lost on
 * large images).  The partials are replaced by the entry states; the
 * products stay. */
constexpr int CARRY_BATCH = 16;

template <int C>
__global__ void
edge_carry_kernel (float *__restrict__ st, int lines, int blocks)
{
  const long t = (long) blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long) lines * 4 * C)
    return;
  const int line = (int) (t % lines), chain = (int) (t / lines);
  const int pass = chain / (2 * C), i = chain / C % 2, ch = chain % C;
  /* floats of this chain's state and of its product within a block */
  const int jg = pass * pass_floats<C> + i * (2 * C + 2) + 2 * ch;
  const int jp = pass * pass_floats<C> + i * (2 * C + 2) + 2 * C;
  auto blk_of = [&] (int n) { return pass ? blocks - 1 - n : n; };
  cplx g = { st[state_at<C> (blk_of (0), jg, lines, line)],
             st[state_at<C> (blk_of (0), jg + 1, lines, line)] };
  for (int n0 = 1; n0 < blocks; n0 += CARRY_BATCH)
    {
      cplx z[CARRY_BATCH], p[CARRY_BATCH];
#pragma unroll
      for (int q = 0; q < CARRY_BATCH; q++)
        if (n0 + q < blocks)
          {
            const int blk = blk_of (n0 + q);
            z[q] = { st[state_at<C> (blk, jg, lines, line)],
                     st[state_at<C> (blk, jg + 1, lines, line)] };
            p[q] = { st[state_at<C> (blk, jp, lines, line)],
                     st[state_at<C> (blk, jp + 1, lines, line)] };
          }
#pragma unroll
      for (int q = 0; q < CARRY_BATCH; q++)
        if (n0 + q < blocks)
          {
            const int blk = blk_of (n0 + q);
            st[state_at<C> (blk, jg, lines, line)] = g.re;
            st[state_at<C> (blk, jg + 1, lines, line)] = g.im;
            g = cmadd (p[q], g, z[q]);
          }
    }
}

/* Whether the exact blocks' final takes edge_final_pair_kernel (TOUT:
 * writing the output transposed): where its shared memory fits without
 * asking for more (RGBA: blocks of up to 48 pixels, 41 writing
 * transposed; gb_cuda_edge_blocks keeps them to 32, other channel counts
 * to 40).  Else edge_cols_kernel, which writes it as read. */
template <int C>
bool
pair_fits (int exact, int L, int blocks, bool tout)
{
  return exact && blocks > 1
         && pair_shm (C, (L + blocks - 1) / blocks, tout) <= 48 * 1024;
}

template <int C, bool TOUT>
gb_status
launch_pair (const float *in, float *out, const float *dt, const float *st,
             int lines, int L, int blocks, const dt_k &k, cudaStream_t s)
{
  /* All of the unified L1 as shared memory if the driver lets us: a
   * hint (without it, fewer thread blocks fit), so a refusal is cleared
   * and ignored.  As many thread blocks a multiprocessor as it then
   * holds. */
  const auto kern = k.hold ? edge_final_pair_kernel<C, TOUT, true>
                           : edge_final_pair_kernel<C, TOUT, false>;
  static const bool hinted = [] {
    for (auto f : { edge_final_pair_kernel<C, TOUT, true>,
                    edge_final_pair_kernel<C, TOUT, false> })
      cudaFuncSetAttribute (f, cudaFuncAttributePreferredSharedMemoryCarveout,
                            100);
    cudaGetLastError ();
    return true;
  }();
  (void) hinted;
  const int nmax = (L + blocks - 1) / blocks;
  const long warps = (long) (lines + PAIR_LINES - 1) / PAIR_LINES * blocks;
  kern<<<(unsigned) ((warps + PAIR_WARPS - 1) / PAIR_WARPS), 32 * PAIR_WARPS,
         pair_shm (C, nmax, TOUT), s>>> (in, out, dt, st, lines, L, blocks,
                                          nmax, k);
  return gb_cuda_check_launch ("edge_final_pair_kernel");
}

template <int C>
gb_status
launch_exact (const float *in, float *out, const float *dt, float *st,
              int lines, int L, int blocks, float warmup, double sigma,
              int hold, bool tout, cudaStream_t s)
{
  const dt_k k = to_kernel (sigma, hold);
  const int threads = EDGE_THREADS;
  const long n = (long) lines * blocks;
  const unsigned grid = (unsigned) ((n + threads - 1) / threads);
  gb_status r;
  (k.hold ? edge_partial_kernel<C, true> : edge_partial_kernel<C, false>)
      <<<grid, threads, 0, s>>> (in, dt, st, lines, L, blocks, k);
  if ((r = gb_cuda_check_launch ("edge_partial_kernel")) != GB_OK)
    return r;
  /* One thread per chain, in small thread blocks to spread them. */
  const long chains = (long) lines * 4 * C;
  edge_carry_kernel<C><<<(unsigned) ((chains + 63) / 64), 64, 0, s>>> (
      st, lines, blocks);
  if ((r = gb_cuda_check_launch ("edge_carry_kernel")) != GB_OK)
    return r;
  if (pair_fits<C> (1, L, blocks, tout))
    return tout ? launch_pair<C, true> (in, out, dt, st, lines, L, blocks, k, s)
                : launch_pair<C, false> (in, out, dt, st, lines, L, blocks, k,
                                         s);
  return gb_cuda_edge_cols (C, true, in, out, dt, st, lines, L, blocks,
                            warmup, sigma, hold, s);
}

} // namespace

gb_status
gb_cuda_edge_exact (int channels, const float *in, float *out,
                    const float *dt, float *st, int lines, int L, int blocks,
                    float warmup, double sigma, int hold, bool tout,
                    cudaStream_t s)
{
  switch (channels)
    {
    case 1: return launch_exact<1> (in, out, dt, st, lines, L, blocks, warmup, sigma, hold, tout, s);
    case 2: return launch_exact<2> (in, out, dt, st, lines, L, blocks, warmup, sigma, hold, tout, s);
    case 3: return launch_exact<3> (in, out, dt, st, lines, L, blocks, warmup, sigma, hold, tout, s);
    default: return launch_exact<4> (in, out, dt, st, lines, L, blocks, warmup, sigma, hold, tout, s);
    }
}

bool
gb_cuda_edge_pair_fits (int channels, int L, int blocks, bool tout)
{
  switch (channels)
    {
    case 1: return pair_fits<1> (1, L, blocks, tout);
    case 2: return pair_fits<2> (1, L, blocks, tout);
    case 3: return pair_fits<3> (1, L, blocks, tout);
    default: return pair_fits<4> (1, L, blocks, tout);
    }
}
