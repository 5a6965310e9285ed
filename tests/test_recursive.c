/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Young-van Vliet, two-way and Deriche on the CPU against the exact
 * Gaussian (double precision, replicated borders) on real photographs, at
 * PSNR floors; constant images; odd sizes; poisoned outputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "exact_gauss.h"
#include "coefficients.h"

static const double sigmas[] = { 1.5, 5.0, 15.0, 45.0, 100.0 };

static int
blur (gb_algorithm a, double sx, double sy, const tu_image *src, tu_image *out)
{
  gb_params p;
  tu_params_cpu (&p, a, sx, sy);
  gb_status st = gb_blur (&p, &src->view, &out->view, NULL, NULL, NULL);
  TU_CHECK (st == GB_OK, "%s: %s", gb_algorithm_name (a),
            gb_status_message (st));
  TU_CHECK (tu_count_nonfinite (out) == 0, "%s sx=%g: unwritten pixels",
            gb_algorithm_name (a), sx);
  TU_CHECK (tu_count_padding_written (out) == 0, "%s: padding written",
            gb_algorithm_name (a));
  return st == GB_OK;
}

static void
photo (const char *file, int c)
{
  tu_image src, out;
  if (!tu_load_pnm (&src, file, c, 0)
      || !tu_alloc (&out, src.view.width, src.view.height, c, 1))
    {
      TU_CHECK (0, "load %s", file);
      return;
    }
  double *ref = malloc (sizeof (double) * src.view.width * src.view.height * c);
  for (size_t k = 0; k < sizeof sigmas / sizeof sigmas[0]; k++)
    {
      double s = sigmas[k];
      if (!ref || !tu_exact_gaussian (&src, s, s, ref))
        {
          TU_CHECK (0, "reference");
          break;
        }
      tu_poison (&out);
      blur (GB_ALGO_YVV, s, s, &src, &out);
      double p_yvv = tu_psnr_vs (&out, ref);
      tu_poison (&out);
      blur (GB_ALGO_DERICHE, s, s, &src, &out);
      double p_der = tu_psnr_vs (&out, ref);
      tu_poison (&out);
      blur (GB_ALGO_YVV_TWO_WAY, s, s, &src, &out);
      double p_two = tu_psnr_vs (&out, ref);
      tu_poison (&out);
      blur (GB_ALGO_FIR, s, s, &src, &out);
      double p_fir = tu_psnr_vs (&out, ref);
      printf ("%-14s c=%d sigma %5.1f: yvv %.1f dB, deriche %.1f dB, "
              "two-way %.1f dB, fir %.1f dB\n", file, c, s, p_yvv, p_der,
              p_two, p_fir);
      TU_CHECK (p_yvv >= 43.0, "%s sigma %g: yvv PSNR %.2f < 43", file, s,
                p_yvv);
      TU_CHECK (p_der >= 48.0, "%s sigma %g: deriche PSNR %.2f < 48", file,
                s, p_der);
      /* The two-way method's centre seeds cost accuracy by design (the
       * paper reports about 30 dB); this floor only catches breakage. */
      TU_CHECK (p_two >= 25.0, "%s sigma %g: two-way PSNR %.2f < 25", file,
                s, p_two);
    }
  free (ref);
  tu_free (&src);
  tu_free (&out);
}

static void
constant_and_sizes (uint64_t *seed)
{
  static const struct { int w, h; } sizes[] = {
    { 1, 1 }, { 1, 40 }, { 40, 1 }, { 2, 3 }, { 37, 23 }, { 300, 200 } };
  for (int a = 0; a < GB_ALGO_COUNT; a++)
    if (tu_recursive (a))
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (int c = 1; c <= 4; c += 3)
        {
          tu_image src, out;
          if (!tu_alloc (&src, sizes[s].w, sizes[s].h, c, 2)
              || !tu_alloc (&out, sizes[s].w, sizes[s].h, c, 3))
            return;
          tu_fill_constant (&src, 0.3f);
          for (double sigma = 0.8; sigma < 1000; sigma *= 7)
            {
              tu_poison (&out);
              blur ((gb_algorithm) a, sigma, sigma * 0.5, &src, &out);
              double worst = 0;
              for (int y = 0; y < sizes[s].h; y++)
                for (int i = 0; i < sizes[s].w * c; i++)
                  {
                    double d = fabs (out.view.data[(size_t) y * out.view.stride
                                                   + i] - 0.3);
                    worst = isfinite (d) && d < worst ? worst : d;
                  }
              TU_CHECK (worst <= 1e-5, "%s %dx%d sigma %g: constant image "
                        "changed by %.3g", gb_algorithm_name (a), sizes[s].w,
                        sizes[s].h, sigma, worst);
            }
          /* Random data stays within the input's range. */
          tu_fill_random (&src, seed);
          blur ((gb_algorithm) a, 3.0, 2.0, &src, &out);
          tu_free (&src);
          tu_free (&out);
        }
}

/* The oracle for the closed-form Triggs-Sdika matrix: M = B X A with X
 * the solution of the Stein equation X = A X A + e1 e1^T, solved as a 9x9
 * linear system by Gaussian elimination with partial pivoting.  The
 * system's condition grows with q (a double solve is off by 1 % of M at
 * sigma 1500), so the oracle works in quadruple precision where the
 * compiler has it. */
#ifdef __SIZEOF_FLOAT128__
typedef __float128 wide;
#else
typedef long double wide;
#endif

static wide
wide_abs (wide v)
{
  return v < 0 ? -v : v;
}

static void
stein_m (const gb_yvv_coeffs *c, double M[3][3])
{
  const wide A[3][3] = { { c->a1, c->a2, c->a3 }, { 1, 0, 0 }, { 0, 1, 0 } };
  wide K[9][10];
  /* Row-major vec: vec(A X A) = (A kron A^T) vec(X). */
  for (int r = 0; r < 9; r++)
    {
      int i = r / 3, j = r % 3;
      for (int col = 0; col < 9; col++)
        K[r][col] = (r == col) - A[i][col / 3] * A[col % 3][j];
      K[r][9] = (i == 0 && j == 0);
    }
  for (int p = 0; p < 9; p++)
    {
      int best = p;
      for (int r = p + 1; r < 9; r++)
        if (wide_abs (K[r][p]) > wide_abs (K[best][p]))
          best = r;
      for (int col = 0; col < 10; col++)
        {
          wide t = K[p][col];
          K[p][col] = K[best][col];
          K[best][col] = t;
        }
      for (int r = 0; r < 9; r++)
        if (r != p)
          {
            wide f = K[r][p] / K[p][p];
            for (int col = p; col < 10; col++)
              K[r][col] -= f * K[p][col];
          }
    }
  wide X[3][3];
  for (int r = 0; r < 9; r++)
    X[r / 3][r % 3] = K[r][9] / K[r][r];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        wide v = 0;
        for (int k = 0; k < 3; k++)
          v += X[i][k] * A[k][j];
        M[i][j] = (double) (c->B * v);
      }
}

static void
closed_form_matches_stein (void)
{
  static const double ss[] = { 0.5, 0.8, 1.0, 2.0, 2.5, 3.7, 10.0, 42.0,
                               100.0, 300.0, 1500.0 };
  for (size_t k = 0; k < sizeof ss / sizeof ss[0]; k++)
    {
      gb_yvv_coeffs c;
      double M[3][3], worst = 0, scale = 0;
      gb_yvv_coeffs_make (ss[k], &c);
      stein_m (&c, M);
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          {
            worst = fmax (worst, fabs (M[i][j] - c.M[i][j]));
            scale = fmax (scale, fabs (M[i][j]));
          }
      /* 1e-8: the closed form divides B out as 1 - a1 - a2 - a3, which
       * the rounded coefficients meet to about 1e-9 at sigma 1500. */
      TU_CHECK (scale > 0.1 && worst <= 1e-8 * scale,
                "sigma %g: closed-form M off the Stein solve by %.3g "
                "(largest entry %.3g)", ss[k], worst, scale);
    }
}

/* Exact borders: a short line blurred with replicate borders equals the
 * middle of the same line extended by replication far beyond the filter's
 * reach (where whatever the far borders do has died out). */
static void
borders_are_exact (uint64_t *seed)
{
  static const double ss[] = { 2.0, 20.0, 150.0 };
  /* The one-way recursive filters, whose replicated borders are exact
   * (the two-way filter's centre seed is not). */
  static const gb_algorithm one_way[] = { GB_ALGO_YVV, GB_ALGO_DERICHE };
  for (size_t w = 0; w < sizeof one_way / sizeof one_way[0]; w++)
    for (size_t k = 0; k < 3; k++)
      for (int naive = 0; naive < (one_way[w] == GB_ALGO_YVV ? 2 : 1);
           naive++)
        {
          const gb_algorithm a = one_way[w];
          const int n = 50, ext = (int) (40 * ss[k]) + 100;
          tu_image line, long_line, out, long_out;
          if (!tu_alloc (&line, n, 1, 1, 0) || !tu_alloc (&out, n, 1, 1, 0)
              || !tu_alloc (&long_line, n + 2 * ext, 1, 1, 0)
              || !tu_alloc (&long_out, n + 2 * ext, 1, 1, 0))
            return;
          tu_fill_random (&line, seed);
          for (int i = 0; i < n + 2 * ext; i++)
            long_line.mem[i] = line.mem[i < ext ? 0 : i >= ext + n ? n - 1 : i - ext];
          gb_params p;
          gb_research r;
          tu_params_cpu (&p, (gb_algorithm) a, ss[k], 0);
          gb_research_init (&r);
          r.naive_borders = naive;
          p.research = &r;
          gb_blur (&p, &line.view, &out.view, NULL, NULL, NULL);
          r.naive_borders = 0;
          gb_blur (&p, &long_line.view, &long_out.view, NULL, NULL, NULL);
          double worst = 0;
          for (int i = 0; i < n; i++)
            worst = fmax (worst, fabs (out.mem[i] - long_out.mem[ext + i]));
          if (naive)
            TU_CHECK (worst > 1e-3, "%s sigma %g: naive borders should differ "
                      "from replication (%.3g)", gb_algorithm_name (p.algorithm),
                      ss[k], worst);
          else
            TU_CHECK (worst <= 2e-6, "%s sigma %g: border start off by %.3g",
                      gb_algorithm_name (p.algorithm), ss[k], worst);
          tu_free (&line); tu_free (&out); tu_free (&long_line);
          tu_free (&long_out);
        }
}

int
main (void)
{
  uint64_t seed = tu_seed ("test_recursive");
  photo ("camera.pgm", 1);
  photo ("astronaut.ppm", 3);
  constant_and_sizes (&seed);
  borders_are_exact (&seed);
  closed_form_matches_stein ();
  return tu_finish ("test_recursive");
}
