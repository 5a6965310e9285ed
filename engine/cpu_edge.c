/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Edge-aware recursive Gaussian on the CPU: the domain transform (Eqs. 1-2
 * of the edge-aware paper) and the complex non-uniform recursion (Eq. 4),
 * causal and anticausal parts computed separately and summed, horizontal
 * then vertical, for N iterations with the paper's sigma schedule.
 *
 * Lines are split into blocks: one block is Algorithm A (exact); several
 * are Algorithm C, each block after the first (before the last) starting
 * from Algorithm B's estimate: walk back (forward) until the transformed
 * distance reaches kappa * sigma, start there in the steady state of that
 * sample and filter up to the block. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_backend.h"
#include "pixel_math.h"
#include "coefficients.h"

typedef struct
{
  float *data;          /* image, filtered in place */
  size_t stride;        /* floats between rows */
  int w, h, c;
  const float *dt;      /* spacing of pixel k from k-1 along the pass */
  gb_dt_coeffs co;
  int vertical;
  int blocks;           /* per line */
  double warmup;        /* kappa * sigma */
  int hold;             /* GB_EDGE_HOLD interpolation */
} edge_pass;

/* Per-pixel factors of subfilter i for a spacing delta > 0:
 *   causal      g[k] = P f[k] + Q f[k-1] + bd g[k-1]
 *   anticausal  g[k] = R f[k] + S f[k+1] + bd g[k+1]
 * Linear (the paper's Eq. 4): the input is interpolated linearly across
 * the gap, Phi as printed.  Hold: each sample's value holds for half the
 * gap beyond the unit spacing, so a wide gap (an edge) lets nothing across;
 * both are the uniform recursion when delta = 1. */
typedef struct
{
  double complex bd, P, Q, R, S;
} step_k;

static step_k
step_factors (const gb_dt_coeffs *co, int i, double delta, int hold)
{
  step_k s;
  double complex a = co->a_re[i] + I * co->a_im[i];
  double complex b = co->b_re[i] + I * co->b_im[i];
  s.bd = exp (delta * co->logr[i]) * cexp (I * delta * co->theta[i]);
  if (hold)
    {
      double h = 0.5 * (delta - 1.0);
      double complex ss = co->ss_re[i] + I * co->ss_im[i];
      double complex bh = exp (h * co->logr[i]) * cexp (I * h * co->theta[i]);
      s.P = a + b * (1.0 - bh) * ss;
      s.Q = b * bh * (1.0 - bh) * ss;
      s.R = b * (1.0 - bh) * ss;
      s.S = a * s.bd + s.Q;
    }
  else
    {
      double complex r0 = co->r0_re[i] + I * co->r0_im[i];
      double complex r1 = co->r1_re[i] + I * co->r1_im[i];
      double complex q = (s.bd - 1.0) / (r0 * delta);
      double complex c1 = q - r1 * b, c2 = q - r1 * s.bd;
      s.P = a + c1;
      s.Q = -c2;
      s.R = c1;
      s.S = a * s.bd - c2;
    }
  return s;
}

/* One line of L pixels; px(k) points at pixel k, dtk(k) its spacing. */
static void
edge_line (const edge_pass *p, float *base, size_t step, const float *dt,
           size_t dtstep, int L, double *f, double *out)
{
  const int C = p->c;
  const gb_dt_coeffs *co = &p->co;
  for (int k = 0; k < L; k++)
    for (int ch = 0; ch < C; ch++)
      f[(size_t) k * C + ch] = base[(size_t) k * step + ch];
#define F(k, ch) f[(size_t) (k) * C + (ch)]
#define DT(k) ((double) dt[(size_t) (k) * dtstep])
  memset (out, 0, sizeof (double) * (size_t) L * C);

  for (int blk = 0; blk < p->blocks; blk++)
    {
      int s = (int) ((long) L * blk / p->blocks);
      int e = (int) ((long) L * (blk + 1) / p->blocks);
      if (e <= s)
        continue;
      for (int i = 0; i < 2; i++)
        {
          double complex ss = co->ss_re[i] + I * co->ss_im[i];
          double complex b = co->b_re[i] + I * co->b_im[i];
          double complex g[4];

          /* Causal: from the line's start exactly, else Algorithm B. */
          int m = s;
          for (double acc = 0.0; blk > 0 && m > 0 && acc < p->warmup; m--)
            acc += DT (m);
          for (int ch = 0; ch < C; ch++)
            g[ch] = ss * F (m, ch);
          for (int k = m + 1; k < e; k++)
            {
              step_k st = step_factors (co, i, DT (k), p->hold);
              for (int ch = 0; ch < C; ch++)
                g[ch] = st.P * F (k, ch) + st.Q * F (k - 1, ch)
                        + st.bd * g[ch];
              if (k >= s)
                for (int ch = 0; ch < C; ch++)
                  out[(size_t) k * C + ch] += creal (g[ch]);
            }
          if (m == s)   /* the start sample itself */
            for (int ch = 0; ch < C; ch++)
              out[(size_t) s * C + ch] += creal (ss * F (s, ch));

          /* Anticausal: from the line's end exactly, else Algorithm B
           * mirrored. */
          m = e - 1;
          for (double acc = 0.0; blk < p->blocks - 1 && m < L - 1
                                 && acc < p->warmup; )
            acc += DT (++m);
          for (int ch = 0; ch < C; ch++)
            g[ch] = b * ss * F (m, ch);
          if (m == e - 1)
            for (int ch = 0; ch < C; ch++)
              out[(size_t) m * C + ch] += creal (g[ch]);
          for (int k = m - 1; k >= s; k--)
            {
              step_k st = step_factors (co, i, DT (k + 1), p->hold);
              for (int ch = 0; ch < C; ch++)
                g[ch] = st.R * F (k, ch) + st.S * F (k + 1, ch)
                        + st.bd * g[ch];
              if (k < e)
                for (int ch = 0; ch < C; ch++)
                  out[(size_t) k * C + ch] += creal (g[ch]);
            }
        }
    }
  for (int k = 0; k < L; k++)
    for (int ch = 0; ch < C; ch++)
      base[(size_t) k * step + ch] = (float) out[(size_t) k * C + ch];
#undef F
#undef DT
}

static void
edge_item (void *ctx, long item, void *scratch)
{
  const edge_pass *p = ctx;
  int L = p->vertical ? p->h : p->w;
  double *f = scratch, *out = f + (size_t) L * p->c;
  if (p->vertical)
    edge_line (p, p->data + (size_t) item * p->c, p->stride,
               p->dt + item, (size_t) p->w, L, f, out);
  else
    edge_line (p, p->data + (size_t) item * p->stride, (size_t) p->c,
               p->dt + (size_t) item * p->w, 1, L, f, out);
}

/* Spacings from perceptual colour (alpha and premultiplication removed),
 * on a 0-255 scale (gb_edge_spacing); two rows of perceptual values at a
 * time, the current and the one above. */
gb_status
gb_edge_spacings (const gb_image *src, double ratio2_x, double ratio2_y,
                  int perceptual, float *dtx, float *dty)
{
  const int w = src->width, h = src->height, c = src->channels;
  const int nc = c >= 3 ? 3 : 1, alpha = c == 2 || c == 4;
  float *rows = malloc (sizeof (float) * 2 * (size_t) w * nc);
  if (!rows)
    return GB_ERR_NO_MEMORY;
  const float rx2 = (float) ratio2_x, ry2 = (float) ratio2_y;
  for (int y = 0; y < h; y++)
    {
      float *cur = rows + (size_t) (y & 1) * w * nc;
      const float *up = rows + (size_t) ((y + 1) & 1) * w * nc;
      for (int x = 0; x < w; x++)
        {
          const float *px = src->data + (size_t) y * src->stride
                            + (size_t) x * c;
          float a = alpha ? px[c - 1] : 1.0f;
          for (int k = 0; k < nc; k++)
            cur[(size_t) x * nc + k] = gb_edge_perceptual (px[k], a,
                                                           perceptual);
        }
      for (int x = 0; x < w; x++)
        {
          const float *q = cur + (size_t) x * nc;
          float sx = 0, sy = 0;
          for (int k = 0; k < nc; k++)
            {
              float dx = x ? q[k] - q[k - nc] : 0.0f;
              float dy = y ? q[k] - up[(size_t) x * nc + k] : 0.0f;
              sx += dx * dx;
              sy += dy * dy;
            }
          dtx[(size_t) y * w + x] = gb_edge_spacing (rx2, sx);
          dty[(size_t) y * w + x] = gb_edge_spacing (ry2, sy);
        }
    }
  free (rows);
  return GB_OK;
}

gb_status
gb_cpu_edge_pass (const gb_params *params, int iteration, int vertical,
                  const gb_image *img, const float *dt,
                  const gb_progress_span *progress)
{
  const double sigma = vertical ? params->sigma_y : params->sigma_x;
  if (!(sigma > 0.0))
    return GB_OK;
  const double si = gb_dt_iteration_sigma (sigma, iteration,
                                           params->iterations);
  edge_pass p = { .data = img->data, .stride = img->stride, .w = img->width,
                  .h = img->height, .c = img->channels,
                  /* The CPU runs whole lines in parallel already; 8
                   * blocks keep Algorithm C's result close to a GPU's. */
                  .blocks = gb_edge_blocks (params, 8),
                  .hold = gb_research_of (params)->edge_interpolation
                           == GB_EDGE_HOLD,
                  .vertical = vertical, .dt = dt,
                  .warmup = params->kappa * si };
  gb_dt_coeffs_make (si, &p.co);
  const int L = vertical ? img->height : img->width;
  return gb_parallel_for (vertical ? img->width : img->height, edge_item, &p,
                          sizeof (double) * 2 * (size_t) L * img->channels,
                          params->threads, progress);
}

gb_status
gb_cpu_edge (const gb_params *params, const gb_image *src,
             const gb_image *dst, const gb_progress_span *progress)
{
  const int w = src->width, h = src->height;
  const int N = params->iterations;
  gb_status st = GB_OK;
  float *dtx = malloc (sizeof (float) * (size_t) w * h);
  float *dty = malloc (sizeof (float) * (size_t) w * h);
  if (!dtx || !dty)
    {
      st = GB_ERR_NO_MEMORY;
      goto out;
    }
  if ((st = gb_edge_spacings (src,
                              gb_edge_ratio2 (params->sigma_x,
                                              params->range_sigma),
                              gb_edge_ratio2 (params->sigma_y,
                                              params->range_sigma),
                              params->perceptual, dtx, dty))
      != GB_OK)
    goto out;
  gb_image_copy (src, dst);

  int passes = 2 * N, done = 0;
  for (int it = 1; it <= N && st == GB_OK; it++)
    for (int v = 0; v < 2 && st == GB_OK; v++, done++)
      {
        gb_progress_span span = { 0 }, *ps = NULL;
        if (progress && progress->fn)
          {
            span = *progress;
            span.base = progress->base + progress->span * done / passes;
            span.span = progress->span / passes;
            ps = &span;
          }
        st = gb_cpu_edge_pass (params, it, v, dst, v ? dty : dtx, ps);
      }
out:
  free (dtx);
  free (dty);
  return st;
}
