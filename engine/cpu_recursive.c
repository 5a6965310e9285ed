/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recursive Gaussian filters on the CPU: Young-van Vliet, the two-way
 * partitioned Young-van Vliet, and Deriche.
 *
 * A "line" is L slices of n floats, slice i at x + i * step, filtered in
 * place.  For the vertical pass a slice is a run of columns of one row,
 * read straight from the image; for the horizontal pass a block of rows is
 * first gathered side by side (slice i = pixel i of each row), so both
 * passes run their inner loops over n contiguous values, which the
 * compiler vectorises.
 *
 * The recursions' states are double (at large sigma the feedback
 * coefficients sum to within 1e-8 of 1, which float cannot resolve) and
 * the values between passes are stored as float, as on the GPU: half the
 * memory traffic of a double copy of every line. */
#include <math.h>
#include <string.h>

#include "cpu_backend.h"
#include "coefficients.h"
#include "pixel_math.h"

typedef struct
{
  gb_boundary boundary;
  gb_yvv_coeffs yvv;
  gb_deriche_modes der;
  gb_fir_quotients centre;   /* two-way: the centre pixel's FIR */
} rec_axis;

/* Per-line scratch: s, L slices of floats (Deriche's causal part), and
 * STATE_SLICES slices of double states. */
enum { STATE_SLICES = 12 };

#define X(i) (x + (size_t) (i) * step)

/* The steps' inner loops, one slice each: functions of their own with
 * restrict pointers, so that the compiler vectorises them (in the line
 * loops the state pointers rotate, which its analysis cannot follow). */
static inline void
yvv_step (int n, double B, double a1, double a2, double a3,
          float *restrict x, const double *restrict p1,
          const double *restrict p2, double *restrict p3)
{
  for (int j = 0; j < n; j++)
    {
      double v = B * x[j] + a1 * p1[j] + a2 * p2[j] + a3 * p3[j];
      p3[j] = v;
      x[j] = (float) v;
    }
}

/* Deriche's two complex modes (gb_deriche_modes) at one sample of n
 * lines: u_j = q_j u_j + c_j x, returning Re sum_j u_j.  u holds four
 * slices: re and im of mode 0, then of mode 1. */
static inline double
deriche_modes_lane (const gb_deriche_modes *m, double x, double *restrict u0r,
                    double *restrict u0i, double *restrict u1r,
                    double *restrict u1i, int j)
{
  const double a = m->q_re[0] * u0r[j] - m->q_im[0] * u0i[j] + m->c_re[0] * x;
  const double b = m->q_re[0] * u0i[j] + m->q_im[0] * u0r[j] + m->c_im[0] * x;
  const double c = m->q_re[1] * u1r[j] - m->q_im[1] * u1i[j] + m->c_re[1] * x;
  const double d = m->q_re[1] * u1i[j] + m->q_im[1] * u1r[j] + m->c_im[1] * x;
  u0r[j] = a;
  u0i[j] = b;
  u1r[j] = c;
  u1i[j] = d;
  return a + c;
}

/* Causal step: y+ = Re sum u - h0 x into s.  The constants are copied
 * first: stores through u could alias *mp as far as the compiler knows,
 * which keeps it from vectorising. */
static inline void
deriche_causal_step (int n, const gb_deriche_modes *mp,
                     const float *restrict x, double *restrict *u,
                     float *restrict s)
{
  const gb_deriche_modes mc = *mp, *m = &mc;
  double *restrict u0r = u[0], *restrict u0i = u[1], *restrict u1r = u[2],
         *restrict u1i = u[3];
  for (int j = 0; j < n; j++)
    s[j] = (float) (deriche_modes_lane (m, x[j], u0r, u0i, u1r, u1i, j)
                    - m->h0 * x[j]);
}

/* Anticausal step, in place: x <- y+ + Re sum v. */
static inline void
deriche_anticausal_step (int n, const gb_deriche_modes *mp,
                         float *restrict x, double *restrict *u,
                         const float *restrict s)
{
  const gb_deriche_modes mc = *mp, *m = &mc;
  double *restrict u0r = u[0], *restrict u0i = u[1], *restrict u1r = u[2],
         *restrict u1i = u[3];
  for (int j = 0; j < n; j++)
    x[j] = (float) ((double) s[j]
                    + deriche_modes_lane (m, x[j], u0r, u0i, u1r, u1i, j));
}

/* Causal YvV over slices [i0, i1) in direction dir (+1 or -1), in place:
 * each slice's input becomes its output.  p1..p3 hold the three previous
 * outputs (double) and are left holding the last three. */
static void
yvv_run (const gb_yvv_coeffs *c, float *x, size_t step, int i0, int i1,
         int dir, int n, double **p1, double **p2, double **p3)
{
  const double B = c->B, a1 = c->a1, a2 = c->a2, a3 = c->a3;
  double *q1 = *p1, *q2 = *p2, *q3 = *p3;
  for (int i = i0; i != i1; i += dir)
    {
      /* The oldest state becomes the newest. */
      yvv_step (n, B, a1, a2, a3, X (i), q1, q2, q3);
      double *o = q3;
      q3 = q2;
      q2 = q1;
      q1 = o;
    }
  *p1 = q1;
  *p2 = q2;
  *p3 = q3;
}

static void
fill (double *d, const float *s, int n)
{
  for (int j = 0; j < n; j++)
    d[j] = s[j];
}

/* One-way YvV: causal pass from the left, anticausal from the right. */
GB_CPU_CLONES static void
yvv_line (const rec_axis *a, float *x, size_t step, int L, int n, float *s,
          double *st)
{
  const gb_yvv_coeffs *c = &a->yvv;
  double *p1 = st, *p2 = st + n, *p3 = st + 2 * n, *u = st + 3 * n;
  (void) s;
  /* The last input, before the causal pass overwrites it. */
  fill (u, X (L - 1), n);
  /* Replicated left border: the causal pass starts in its steady state,
   * which is the first input itself. */
  fill (p1, X (0), n);
  memcpy (p2, p1, sizeof (double) * n);
  memcpy (p3, p1, sizeof (double) * n);
  yvv_run (c, x, step, 0, L, 1, n, &p1, &p2, &p3);

  /* The anticausal start from the last three causal values (exact, in
   * double; the steady state stands in before the line begins). */
  for (int j = 0; j < n; j++)
    {
      double out[3];
      if (a->boundary == GB_BOUNDARY_NAIVE)
        out[0] = out[1] = out[2] = p1[j];
      else
        gb_yvv_right_start (c->M, p1[j], p2[j], p3[j], u[j], out);
      p1[j] = out[0];
      p2[j] = out[1];
      p3[j] = out[2];
    }
  yvv_run (c, x, step, L - 1, -1, -1, n, &p1, &p2, &p3);
}

/* Two-way partitioned YvV (the paper's Algorithm 1): the left half runs
 * causal then anticausal, the right half anticausal then causal, the centre
 * pixel is an FIR value that seeds both second passes. */
GB_CPU_CLONES static void
twoway_line (const rec_axis *a, float *x, size_t step, int L, int n,
             float *s, double *st)
{
  const gb_yvv_coeffs *c = &a->yvv;
  const int m = L / 2;   /* Pc; Bl = [0, m), Br = (m, L) */
  double *p1 = st, *p2 = st + n, *p3 = st + 2 * n, *pc = st + 3 * n;
  (void) s;

  /* Pc: the FIR blur at the centre, replicate borders, from the input. */
  for (int j = 0; j < n; j++)
    pc[j] = gb_twoway_centre (X (0) + j, (ptrdiff_t) step, L,
                              a->centre.radius, a->centre.norm,
                              a->centre.q1);
  /* First pass: Bl causal from the left, Br anticausal from the right. */
  fill (p1, X (0), n);
  memcpy (p2, p1, sizeof (double) * n);
  memcpy (p3, p1, sizeof (double) * n);
  yvv_run (c, x, step, 0, m, 1, n, &p1, &p2, &p3);
  fill (p1, X (L - 1), n);
  memcpy (p2, p1, sizeof (double) * n);
  memcpy (p3, p1, sizeof (double) * n);
  yvv_run (c, x, step, L - 1, m, -1, n, &p1, &p2, &p3);
  /* The centre, stored as float and read back so that both halves start
   * from the same value, as on the GPU; it stands in for the three values
   * beyond it in the second passes. */
  float *xm = X (m);
  for (int j = 0; j < n; j++)
    xm[j] = (float) pc[j];
  for (int half = 0; half < 2; half++)
    {
      fill (p1, xm, n);
      memcpy (p2, p1, sizeof (double) * n);
      memcpy (p3, p1, sizeof (double) * n);
      if (half == 0)
        yvv_run (c, x, step, m - 1, -1, -1, n, &p1, &p2, &p3);
      else
        yvv_run (c, x, step, m + 1, L, 1, n, &p1, &p2, &p3);
    }
}

/* Deriche: y = causal + anticausal, both on the input, in modal form
 * (engine/coefficients.h): the causal part Re sum u - h0 x goes to s, the
 * anticausal modes include x[i] itself, so y = s + Re sum v can be
 * written over x as the pass goes.  Beyond the line the input is
 * constant, so both passes start in their steady states. */
GB_CPU_CLONES static void
deriche_line (const rec_axis *a, float *x, size_t step, int L, int n,
              float *s, double *st)
{
  const gb_deriche_modes *m = &a->der;
  double *u[4];
  for (int k = 0; k < 4; k++)
    u[k] = st + (size_t) k * n;
  for (int pass = 0; pass < 2; pass++)
    {
      const float *edge = pass == 0 ? X (0) : X (L - 1);
      for (int j = 0; j < n; j++)
        {
          u[0][j] = m->ss_re[0] * edge[j];
          u[1][j] = m->ss_im[0] * edge[j];
          u[2][j] = m->ss_re[1] * edge[j];
          u[3][j] = m->ss_im[1] * edge[j];
        }
      if (pass == 0)
        for (int i = 0; i < L; i++)
          deriche_causal_step (n, m, X (i), u, s + (size_t) i * n);
      else
        for (int i = L - 1; i >= 0; i--)
          deriche_anticausal_step (n, m, X (i), u, s + (size_t) i * n);
    }
}

#undef X

typedef void (*line_fn) (const rec_axis *, float *, size_t, int, int,
                         float *, double *);

/* Rows filtered together (gathered side by side) and columns per
 * vertical slice: n = 24 to 64 values per step. */
enum { H_ROWS = 16, V_BLOCK_PX = 16 };

static int
h_rows (int c)
{
  return c >= 3 ? H_ROWS / 2 : H_ROWS;
}

typedef struct
{
  const rec_axis *axis;
  line_fn fn;
  const gb_image *src, *dst;
  int vertical;
  size_t s_floats;      /* where the state doubles start in scratch */
} rec_pass;

static void
rec_item (void *ctx, long item, void *scratch)
{
  const rec_pass *p = ctx;
  const gb_image *s = p->src, *d = p->dst;
  const int c = s->channels;
  float *buf = scratch;
  double *st = (double *) ((char *) scratch + p->s_floats * sizeof (float));
  if (p->vertical)
    {
      /* A block of columns, gathered into contiguous rows (the filter then
       * walks memory in order rather than at the image's row stride),
       * filtered, and written back. */
      const int x0 = (int) item * V_BLOCK_PX, h = s->height;
      const int nx = s->width - x0 < V_BLOCK_PX ? s->width - x0 : V_BLOCK_PX;
      const size_t n = (size_t) nx * c;
      float *t = buf, *cs = buf + (size_t) h * n;
      for (int y = 0; y < h; y++)
        memcpy (t + (size_t) y * n, s->data + (size_t) y * s->stride
                                    + (size_t) x0 * c, n * sizeof (float));
      p->fn (p->axis, t, n, h, (int) n, cs, st);
      for (int y = 0; y < h; y++)
        memcpy (d->data + (size_t) y * d->stride + (size_t) x0 * c,
                t + (size_t) y * n, n * sizeof (float));
      return;
    }
  /* Gather R rows side by side: slice x holds pixel x of every row. */
  const int R0 = h_rows (c), w = s->width;
  const int y0 = (int) item * R0;
  const int R = s->height - y0 < R0 ? s->height - y0 : R0;
  const int n = R * c;
  float *t = buf, *cs = buf + (size_t) w * n;
  for (int r = 0; r < R; r++)
    {
      const float *row = s->data + (size_t) (y0 + r) * s->stride;
      for (int x = 0; x < w; x++)
        for (int ch = 0; ch < c; ch++)
          t[(size_t) x * n + r * c + ch] = row[(size_t) x * c + ch];
    }
  p->fn (p->axis, t, (size_t) n, w, n, cs, st);
  for (int r = 0; r < R; r++)
    {
      float *row = d->data + (size_t) (y0 + r) * d->stride;
      for (int x = 0; x < w; x++)
        for (int ch = 0; ch < c; ch++)
          row[(size_t) x * c + ch] = t[(size_t) x * n + r * c + ch];
    }
}

static gb_status
make_axis (const gb_params *p, double sigma, rec_axis *a)
{
  memset (a, 0, sizeof *a);
  a->boundary = gb_research_of (p)->naive_borders ? GB_BOUNDARY_NAIVE : GB_BOUNDARY_EXACT;
  if (!(sigma > 0.0))
    return GB_OK;
  if (p->algorithm == GB_ALGO_DERICHE)
    gb_deriche_modes_make (sigma, &a->der);
  else
    gb_yvv_coeffs_make (sigma, &a->yvv);
  if (p->algorithm == GB_ALGO_YVV_TWO_WAY)
    gb_fir_quotients_make (sigma, &a->centre);
  return GB_OK;
}

static line_fn
line_for (gb_algorithm algorithm)
{
  switch (algorithm)
    {
    case GB_ALGO_YVV: return yvv_line;
    case GB_ALGO_YVV_TWO_WAY: return twoway_line;
    default: return deriche_line;
    }
}

static gb_status
run_axis (const gb_params *params, int vertical, const rec_axis *axis,
          const gb_image *src, const gb_image *dst,
          const gb_progress_span *progress)
{
  rec_pass p = { axis, line_for (params->algorithm), src, dst, vertical, 0 };
  const int c = src->channels;
  long items;
  size_t n, L;
  if (vertical)
    {
      items = (src->width + V_BLOCK_PX - 1) / V_BLOCK_PX;
      n = (size_t) V_BLOCK_PX * c;
      L = (size_t) src->height;
      p.s_floats = 2 * L * n;   /* the gathered columns and Deriche's part */
    }
  else
    {
      items = (src->height + h_rows (c) - 1) / h_rows (c);
      n = (size_t) h_rows (c) * c;
      L = (size_t) src->width;
      p.s_floats = 2 * L * n;   /* the gathered rows and Deriche's part */
    }
  p.s_floats = (p.s_floats + 1) & ~(size_t) 1;   /* doubles aligned */
  size_t scratch = p.s_floats * sizeof (float)
                   + (size_t) STATE_SLICES * n * sizeof (double);
  return gb_parallel_for (items, rec_item, &p, scratch, params->threads,
                          progress);
}

gb_status
gb_cpu_recursive (const gb_params *params, const gb_image *src,
                  const gb_image *dst, const gb_progress_span *progress)
{
  int do_x = params->sigma_x > 0.0, do_y = params->sigma_y > 0.0;
  rec_axis ax, ay;
  gb_status st;
  gb_progress_span first = { 0 }, second = { 0 };
  const gb_progress_span *p1 = NULL, *p2 = NULL;

  if (!do_x && !do_y)
    {
      gb_image_copy (src, dst);
      return GB_OK;
    }
  memset (&ax, 0, sizeof ax);
  memset (&ay, 0, sizeof ay);
  if ((st = make_axis (params, params->sigma_x, &ax)) != GB_OK
      || (st = make_axis (params, params->sigma_y, &ay)) != GB_OK)
    goto out;
  if (progress && progress->fn)
    {
      first = second = *progress;
      if (do_x && do_y)
        {
          first.span = progress->span / 2;
          second.base = progress->base + first.span;
          second.span = progress->span - first.span;
        }
      p1 = &first;
      p2 = do_x && do_y ? &second : &first;
    }
  /* Each block of lines is gathered before it is written back, so both
   * passes may run in place: rows src -> dst, then columns dst -> dst. */
  if (do_x)
    st = run_axis (params, 0, &ax, src, dst, p1);
  if (st == GB_OK && do_y)
    st = run_axis (params, 1, &ay, do_x ? dst : src, dst, p2);
out:
  return st;
}
