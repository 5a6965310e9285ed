/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The block-parallel recursive filters' stages (engine/recursive_blocks.h,
 * which the GPU kernels run on lines staged in shared memory) run here on
 * the CPU, block by block: partials, carries, finals.  Each line must
 * equal the CPU backend's sequential filter (replicated borders,
 * Triggs-Sdika or naive starts) for every block length, including blocks
 * shorter than the filters' order and a short last block, on random lines
 * and on a row of a photograph, from sigma 0.5 to 1500 (YvV to
 * GB_YVV_BLOCK_MAX_SIGMA). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recursive_blocks.h"
#include "testutil.h"

/* The sequential reference: the CPU backend on a one-row image. */
static int
sequential (gb_algorithm a, double sigma, int naive, const float *x, int L,
            float *out)
{
  gb_params p;
  gb_research r;
  tu_params_cpu (&p, a, sigma, 0.0);
  gb_research_init (&r);
  r.naive_borders = naive;
  p.research = &r;
  gb_image src = { (float *) x, L, 1, 1, (size_t) L };
  gb_image dst = { out, L, 1, 1, (size_t) L };
  return gb_blur (&p, &src, &dst, NULL, NULL, NULL) == GB_OK;
}

/* YvV's carries as the GPU splits them (cuda/recursive_blocks/recursive_blocks.cu): the
 * line's blocks in segments of seg blocks; each segment's affine map
 * (a, T) from a zero state, composed onto the line's start for each
 * segment's entry state, then the segment walked from there. */
static void
yvv_carries_segmented (const gb_yvv_coeffs *c, const gb_yvv_block *full,
                       const gb_yvv_block *tail, int nb, int seg, int naive,
                       double first, double last, double (*zc)[3],
                       double (*za)[3])
{
  const int G = (nb + seg - 1) / seg;
  double (*a)[3] = malloc (sizeof *a * G), (*T)[3][3] = malloc (sizeof *T * G);
  double end[3] = { 0.0, 0.0, 0.0 };
  if (!a || !T)
    {
      TU_CHECK (0, "allocation");
      goto out;
    }
  for (int pass = 0; pass < 2; pass++)
    {
      for (int g = 0; g < G; g++)
        {
          double m[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
          a[g][0] = a[g][1] = a[g][2] = 0.0;
          for (int p = g * seg; p < nb && p < (g + 1) * seg; p++)
            {
              const int b = pass ? nb - 1 - p : p;
              const gb_yvv_block *bl = b == nb - 1 ? tail : full;
              double z[3];
              memcpy (z, pass ? za[b] : zc[b], sizeof z);
              if (pass)
                gb_yvv_carry_anticausal (bl, a[g], z, zc[b]);
              else
                gb_yvv_carry_causal (bl, a[g], z);
              gb_mat3_mul (bl->P, m, m);
            }
          memcpy (T[g], m, sizeof m);
        }
      double start[3] = { first, first, first };
      if (pass)
        gb_yvv_carry_turn (c, end, last, naive, start);
      for (int g = 0; g < G; g++)
        {
          double e[3];
          memcpy (e, start, sizeof e);
          for (int q = 0; q < g; q++)
            {
              double o[3];
              memcpy (o, a[q], sizeof o);
              gb_mat3_apply_add (T[q], e, o);   /* o = a + T e */
              memcpy (e, o, sizeof e);
            }
          for (int p = g * seg; p < nb && p < (g + 1) * seg; p++)
            {
              const int b = pass ? nb - 1 - p : p;
              const gb_yvv_block *bl = b == nb - 1 ? tail : full;
              if (pass)
                gb_yvv_carry_anticausal (bl, e, za[b], zc[b]);
              else
                gb_yvv_carry_causal (bl, e, zc[b]);
            }
          if (g == G - 1)
            memcpy (end, e, sizeof e);
        }
    }
out:
  free (a);
  free (T);
}

/* Young-van Vliet in blocks of n; seg > 0: carries in segments of seg
 * blocks. */
static void
yvv_blocks (double sigma, int naive, const float *x, int L, int n, int seg,
            float *out)
{
  gb_yvv_coeffs c;
  gb_yvv_coeffs_make (sigma, &c);
  const int nb = (L + n - 1) / n, tail_n = L - (nb - 1) * n;
  gb_yvv_block full, tail;
  gb_yvv_block_make (&c, n, &full);
  gb_yvv_block_make (&c, tail_n, &tail);
  double (*zc)[3] = malloc (sizeof *zc * nb);
  double (*za)[3] = malloc (sizeof *za * nb);
  float *part = malloc (sizeof (float) * L);
  if (!zc || !za || !part)
    {
      TU_CHECK (0, "allocation");
      goto out;
    }
  memcpy (part, x, sizeof (float) * L);
  memcpy (out, x, sizeof (float) * L);
  /* Whole blocks of the GPU's length go through the weighted sums, as
   * there. */
  gb_yvv_blockw wsum;
  gb_yvv_blockw_make (&c, &wsum);
  for (int k = 0; k < nb; k++)
    if (n == GB_BLOCK_LEN_YVV && (k < nb - 1 || tail_n == n))
      gb_yvv_partial_w (part + (size_t) k * n, 1, &c, &wsum, zc[k], za[k]);
    else
      gb_yvv_partial (part + (size_t) k * n, 1, k == nb - 1 ? tail_n : n, n,
                      &c, zc[k], za[k]);
  if (seg > 0)
    yvv_carries_segmented (&c, &full, &tail, nb, seg, naive, x[0], x[L - 1],
                           zc, za);
  else
    {
      double s[3] = { x[0], x[0], x[0] }, t[3];
      for (int k = 0; k < nb; k++)
        gb_yvv_carry_causal (k == nb - 1 ? &tail : &full, s, zc[k]);
      gb_yvv_carry_turn (&c, s, x[L - 1], naive, t);
      for (int k = nb - 1; k >= 0; k--)
        gb_yvv_carry_anticausal (k == nb - 1 ? &tail : &full, t, za[k],
                                 zc[k]);
    }
  for (int k = 0; k < nb; k++)
    gb_yvv_final (out + (size_t) k * n, 1, k == nb - 1 ? tail_n : n, n, &c,
                  zc[k], za[k]);
out:
  free (zc);
  free (za);
  free (part);
}

/* Deriche in blocks of n, in modal form. */
static void
deriche_blocks (double sigma, const float *x, int L, int n, float *out)
{
  gb_deriche_modes m;
  gb_deriche_modes_make (sigma, &m);
  const int nb = (L + n - 1) / n, tail_n = L - (nb - 1) * n;
  gb_deriche_block full, tail;
  gb_deriche_block_make (&m, n, &full);
  gb_deriche_block_make (&m, tail_n, &tail);
  double (*zc)[4] = malloc (sizeof *zc * nb);
  double (*za)[4] = malloc (sizeof *za * nb);
  float *tmp = malloc (sizeof (float) * n);
  if (!zc || !za || !tmp)
    {
      TU_CHECK (0, "allocation");
      goto out;
    }
  for (int k = 0; k < nb; k++)
    gb_deriche_partial (x + (size_t) k * n, 1, k == nb - 1 ? tail_n : n, n,
                        &m, zc[k], za[k]);
  double s[4];
  gb_deriche_carry_start (&m, x[0], s);
  for (int k = 0; k < nb; k++)
    gb_deriche_carry_step (k == nb - 1 ? &tail : &full, s, zc[k]);
  gb_deriche_carry_start (&m, x[L - 1], s);
  for (int k = nb - 1; k >= 0; k--)
    gb_deriche_carry_step (k == nb - 1 ? &tail : &full, s, za[k]);
  memcpy (out, x, sizeof (float) * L);
  for (int k = 0; k < nb; k++)
    gb_deriche_final (out + (size_t) k * n, 1, k == nb - 1 ? tail_n : n, n,
                      &m, zc[k], za[k], tmp);
out:
  free (zc);
  free (za);
  free (tmp);
}

/* Deriche as the GPU runs it: blocks of GB_BLOCK_LEN_DERICHE, whole ones
 * in single precision (gb_deriche_blockf), the short last one through the
 * double stages, block states kept in float between the kernels and
 * carried in double. */
static void
deriche_blocks_gpu (double sigma, const float *x, int L, float *out)
{
  enum { N = GB_BLOCK_LEN_DERICHE };
  gb_deriche_modes m;
  gb_deriche_modes_make (sigma, &m);
  const int nb = (L + N - 1) / N, tail_n = L - (nb - 1) * N;
  gb_deriche_block full, tail;
  gb_deriche_block_make (&m, N, &full);
  gb_deriche_block_make (&m, tail_n, &tail);
  gb_deriche_blockf *t = malloc (sizeof *t);
  float (*zc)[4] = malloc (sizeof *zc * nb);
  float (*za)[4] = malloc (sizeof *za * nb);
  if (!t || !zc || !za)
    {
      TU_CHECK (0, "allocation");
      goto out;
    }
  gb_deriche_blockf_make (&m, t);
  for (int k = 0; k < nb; k++)
    if (k < nb - 1 || tail_n == N)
      gb_deriche_partial_f (x + (size_t) k * N, 1, t, zc[k], za[k]);
    else
      {
        double c[4], a[4];
        gb_deriche_partial (x + (size_t) k * N, 1, tail_n, N, &m, c, a);
        for (int i = 0; i < 4; i++)
          {
            zc[k][i] = (float) c[i];
            za[k][i] = (float) a[i];
          }
      }
  for (int pass = 0; pass < 2; pass++)
    {
      double s[4], z[4];
      gb_deriche_carry_start (&m, pass ? x[L - 1] : x[0], s);
      for (int j = 0; j < nb; j++)
        {
          const int k = pass ? nb - 1 - j : j;
          float *zk = pass ? za[k] : zc[k];
          for (int i = 0; i < 4; i++)
            z[i] = zk[i];
          gb_deriche_carry_step (k == nb - 1 ? &tail : &full, s, z);
          for (int i = 0; i < 4; i++)
            zk[i] = (float) z[i];
        }
    }
  memcpy (out, x, sizeof (float) * L);
  for (int k = 0; k < nb; k++)
    {
      float tmp[N];
      if (k < nb - 1 || tail_n == N)
        gb_deriche_final_f (out + (size_t) k * N, 1, t, zc[k], za[k], tmp);
      else
        {
          double s[4], a[4];
          for (int i = 0; i < 4; i++)
            {
              s[i] = zc[k][i];
              a[i] = za[k][i];
            }
          gb_deriche_final (out + (size_t) k * N, 1, tail_n, N, &m, s, a,
                            tmp);
        }
    }
out:
  free (t);
  free (zc);
  free (za);
}

/* got against ref: the largest difference relative to the largest |ref|
 * (by tu_compare, so that a non-finite sample counts as infinitely far),
 * and the relative L2 error in *l2. */
static double
rel_max (const float *got, const float *ref, int L, double *l2)
{
  const tu_image a = { { (float *) got, L, 1, 1, (size_t) L }, NULL };
  const tu_image b = { { (float *) ref, L, 1, 1, (size_t) L }, NULL };
  double worst, scale = 0.0;
  tu_compare (&a, &b, l2, &worst);
  for (int i = 0; i < L; i++)
    scale = fmax (scale, fabs ((double) ref[i]));
  return worst / (scale > 0 ? scale : 1.0);
}

static void
one_line (const float *x, int L, const char *what)
{
  static const double sigmas[] = { 0.5, 1.0, 5.0, 30.0, 200.0, 500.0, 1500.0 };
  static const int blocks[] = { 1, 2, 3, 4, 7, 32, 64, 128, 1000 };
  float *ref = malloc (sizeof (float) * L), *got = malloc (sizeof (float) * L);
  if (!ref || !got)
    {
      TU_CHECK (0, "allocation");
      free (ref);
      free (got);
      return;
    }
  for (size_t s = 0; s < sizeof sigmas / sizeof *sigmas; s++)
    for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++)
      {
        const int n = blocks[b];
        if (n > 4 * L && n != 1000)
          continue;
        /* Past GB_YVV_BLOCK_MAX_SIGMA the kernels run YvV line by line;
         * blocks of 1000 drift to 1.4e-6 at sigma 500 (the kernels' are
         * GB_BLOCK_LEN long). */
        const int yvv = sigmas[s] <= GB_YVV_BLOCK_MAX_SIGMA
                        && (n <= 128 || sigmas[s] <= 200.0);
        for (int naive = 0; naive < 2 && yvv; naive++)
          if (sequential (GB_ALGO_YVV, sigmas[s], naive, x, L, ref))
            {
              double l2;
              memset (got, 0xff, sizeof (float) * L);   /* NaN: unwritten */
              yvv_blocks (sigmas[s], naive, x, L, n, 0, got);
              const double e = rel_max (got, ref, L, &l2);
              TU_CHECK (e <= 1e-6, "yvv%s sigma %g, %s (%d), blocks of %d: "
                        "%.3g off the sequential filter (rel L2 %.3g)",
                        naive ? " naive" : "", sigmas[s], what, L, n, e, l2);
            }
        if (sequential (GB_ALGO_DERICHE, sigmas[s], 0, x, L, ref))
          {
            double l2;
            memset (got, 0xff, sizeof (float) * L);
            deriche_blocks (sigmas[s], x, L, n, got);
            const double e = rel_max (got, ref, L, &l2);
            TU_CHECK (e <= 1e-6, "deriche sigma %g, %s (%d), blocks of %d: "
                      "%.3g off the sequential filter (rel L2 %.3g)",
                      sigmas[s], what, L, n, e, l2);
          }
      }
  /* YvV's carries in segments, as the GPU splits them up to
   * GB_YVV_SEGMENT_MAX_SIGMA (and a sigma past it, where they would
   * drift, to show the bound is needed: GB_TEST_VERBOSE). */
  static const double seg_sigmas[] = { 1.0, 5.0, 20.0, 50.0, 350.0 };
  for (size_t s = 0; s < sizeof seg_sigmas / sizeof *seg_sigmas; s++)
    for (int seg = 1; seg <= 8; seg *= 2)
      if (sequential (GB_ALGO_YVV, seg_sigmas[s], 0, x, L, ref))
        {
          double l2;
          memset (got, 0xff, sizeof (float) * L);
          yvv_blocks (seg_sigmas[s], 0, x, L, GB_BLOCK_LEN_YVV, seg, got);
          const double e = rel_max (got, ref, L, &l2);
          if (seg_sigmas[s] <= GB_YVV_SEGMENT_MAX_SIGMA)
            TU_CHECK (e <= 1e-6, "yvv sigma %g, %s (%d), carries in "
                      "segments of %d blocks: %.3g off the sequential filter "
                      "(rel L2 %.3g)", seg_sigmas[s], what, L, seg, e, l2);
          if (getenv ("GB_TEST_VERBOSE"))
            printf ("yvv segments of %d, sigma %g %s (%d): max %.3g, "
                    "L2 %.3g\n", seg, seg_sigmas[s], what, L, e, l2);
        }
  /* The GPU's single-precision blocks: within the GPU tests' bounds
   * (relative L2 1e-6, largest difference 1e-5). */
  for (size_t s = 0; s < sizeof sigmas / sizeof *sigmas; s++)
    if (sequential (GB_ALGO_DERICHE, sigmas[s], 0, x, L, ref))
      {
        double l2;
        memset (got, 0xff, sizeof (float) * L);
        deriche_blocks_gpu (sigmas[s], x, L, got);
        const double e = rel_max (got, ref, L, &l2);
        TU_CHECK (l2 <= 1e-6 && e <= 1e-5, "deriche in float blocks, sigma "
                  "%g, %s (%d): %.3g off the sequential filter (rel L2 %.3g)",
                  sigmas[s], what, L, e, l2);
        if (getenv ("GB_TEST_VERBOSE"))
          printf ("float blocks sigma %g %s (%d): max %.3g, L2 %.3g\n",
                  sigmas[s], what, L, e, l2);
      }
  free (ref);
  free (got);
}

int
main (void)
{
  uint64_t seed = tu_seed ("test_blocks");
  static const int lengths[] = { 1, 2, 3, 5, 37, 130, 1000, 4000 };
  for (size_t k = 0; k < sizeof lengths / sizeof *lengths; k++)
    {
      tu_image line;
      if (!tu_alloc (&line, lengths[k], 1, 1, 0))
        continue;
      tu_fill_random (&line, &seed);
      one_line (line.mem, lengths[k], "random");
      tu_free (&line);
    }
  tu_image photo;
  if (tu_load_pnm (&photo, "coffee.ppm", 1, 0))
    {
      one_line (photo.view.data + (size_t) 200 * photo.view.stride,
                photo.view.width, "a row of coffee.ppm");
      tu_free (&photo);
    }
  return tu_finish ("test_blocks");
}
