/* Recursive Gaussian filters on the CPU: Young-van Vliet, the two-way
 * partitioned Young-van Vliet, and Deriche.
 *
 * A "line" is a sequence of L slices of n floats: for a row, a slice is
 * one pixel (n = channels); for the vertical pass, a slice is a run of
 * several columns of one row, so the loops over a slice are contiguous and
 * vectorise.  Recursions run in double precision: at large sigma the
 * feedback coefficients sum to within 1e-8 of 1, which float cannot
 * resolve. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_backend.h"
#include "recursive.h"

typedef struct
{
  gb_algorithm algorithm;
  gb_boundary boundary;
  gb_yvv_coeffs yvv;
  gb_deriche_coeffs der;
  double *fir;        /* two-way centre pixel: normalised taps 0..fir_r */
  int fir_r;
} rec_axis;

/* Scratch of one line: w (L slices) plus 8 slices for starting states. */
static size_t
line_scratch_doubles (int L, int n)
{
  return ((size_t) L + 8) * (size_t) n;
}

#define X(i) (x + (size_t) (i) * xstep)
#define Y(i) (y + (size_t) (i) * ystep)

/* Causal YvV over slices [i0, i1) in direction dir (+1 or -1), reading xs
 * (floats, or doubles when xd) and writing w; p1..p3 are the three previous
 * values. */
static void
yvv_pass (const gb_yvv_coeffs *c, const float *x, size_t xstep,
          const double *xd, int i0, int i1, int dir, int n, double *w,
          const double *p1, const double *p2, const double *p3)
{
  const double B = c->B, a1 = c->a1, a2 = c->a2, a3 = c->a3;
  for (int i = i0; i != i1; i += dir)
    {
      double *restrict wi = w + (size_t) i * n;
      if (xd)
        {
          const double *restrict xi = xd + (size_t) i * n;
          for (int j = 0; j < n; j++)
            wi[j] = B * xi[j] + a1 * p1[j] + a2 * p2[j] + a3 * p3[j];
        }
      else
        {
          const float *restrict xi = X (i);
          for (int j = 0; j < n; j++)
            wi[j] = B * xi[j] + a1 * p1[j] + a2 * p2[j] + a3 * p3[j];
        }
      p3 = p2;
      p2 = p1;
      p1 = wi;
    }
}

static void
fill_from_float (double *d, const float *s, int n)
{
  for (int j = 0; j < n; j++)
    d[j] = s[j];
}

static void
store_line (float *y, size_t ystep, const double *w, int L, int n)
{
  for (int i = 0; i < L; i++)
    {
      float *restrict yi = Y (i);
      const double *restrict wi = w + (size_t) i * n;
      for (int j = 0; j < n; j++)
        yi[j] = (float) wi[j];
    }
}

/* One-way YvV: causal pass from the left, anticausal from the right. */
static void
yvv_line (const rec_axis *a, const float *x, size_t xstep, int L, int n,
          double *scratch, float *y, size_t ystep)
{
  const gb_yvv_coeffs *c = &a->yvv;
  double *w = scratch, *s = scratch + (size_t) L * n;
  double *x0 = s, *o1 = s + n, *o2 = s + 2 * n, *o3 = s + 3 * n;

  /* Replicated left border: the causal pass starts in its steady state,
   * which is the first input itself. */
  fill_from_float (x0, X (0), n);
  yvv_pass (c, x, xstep, NULL, 0, L, 1, n, w, x0, x0, x0);

  /* The anticausal start, from the last three causal values (the steady
   * state x0 stands in before the line begins). */
  const double *wl[3];
  for (int k = 0; k < 3; k++)
    wl[k] = L - 1 - k >= 0 ? w + (size_t) (L - 1 - k) * n : x0;
  const float *u = X (L - 1);
  for (int j = 0; j < n; j++)
    {
      if (a->boundary == GB_BOUNDARY_NAIVE)
        o1[j] = o2[j] = o3[j] = wl[0][j];
      else
        {
          double wv[3] = { wl[0][j], wl[1][j], wl[2][j] }, out[3];
          gb_yvv_right_start (c, wv, u[j], out);
          o1[j] = out[0];
          o2[j] = out[1];
          o3[j] = out[2];
        }
    }
  /* In place: w[i] becomes out[i] once read. */
  yvv_pass (c, NULL, 0, w, L - 1, -1, -1, n, w, o1, o2, o3);
  store_line (y, ystep, w, L, n);
}

/* Two-way partitioned YvV (the paper's Algorithm 1): the left half runs
 * causal then anticausal, the right half anticausal then causal, the centre
 * pixel is an FIR value that seeds both second passes. */
static void
twoway_line (const rec_axis *a, const float *x, size_t xstep, int L, int n,
             double *scratch, float *y, size_t ystep)
{
  const gb_yvv_coeffs *c = &a->yvv;
  double *w = scratch, *s = scratch + (size_t) L * n;
  double *xl = s, *xr = s + n;
  const int m = L / 2;   /* Pc; Bl = [0, m), Br = (m, L) */

  fill_from_float (xl, X (0), n);
  fill_from_float (xr, X (L - 1), n);
  /* First pass: Bl causal from the left, Br anticausal from the right. */
  yvv_pass (c, x, xstep, NULL, 0, m, 1, n, w, xl, xl, xl);
  yvv_pass (c, x, xstep, NULL, L - 1, m, -1, n, w, xr, xr, xr);
  /* Pc: the FIR blur at the centre, replicate borders. */
  double *pc = w + (size_t) m * n;
  for (int j = 0; j < n; j++)
    pc[j] = a->fir[0] * X (m)[j];
  for (int k = 1; k <= a->fir_r; k++)
    {
      const float *l = X (m - k < 0 ? 0 : m - k);
      const float *r = X (m + k >= L ? L - 1 : m + k);
      for (int j = 0; j < n; j++)
        pc[j] += a->fir[k] * ((double) l[j] + r[j]);
    }
  /* Second pass from Pc outwards, Pc standing in for the three values
   * beyond it, in place. */
  yvv_pass (c, NULL, 0, w, m - 1, -1, -1, n, w, pc, pc, pc);
  yvv_pass (c, NULL, 0, w, m + 1, L, 1, n, w, pc, pc, pc);
  store_line (y, ystep, w, L, n);
}

/* Deriche: y = causal + anticausal, both on the input, slice by slice. */
static void
deriche_line (const rec_axis *a, const float *x, size_t xstep, int L, int n,
              double *scratch, float *y, size_t ystep)
{
  const gb_deriche_coeffs *c = &a->der;
  double *w = scratch, *s = scratch + (size_t) L * n;
  const double n0 = c->n[0], n1 = c->n[1], n2 = c->n[2], n3 = c->n[3];
  const double m1 = c->m[1], m2 = c->m[2], m3 = c->m[3], m4 = c->m[4];
  const double d1 = c->d[1], d2 = c->d[2], d3 = c->d[3], d4 = c->d[4];
  double *start = s, *ring[4] = { s + n, s + 2 * n, s + 3 * n, s + 4 * n };

  /* Causal: x[-k] = x[0], y+[-k] = x[0] * causal_gain. */
  for (int j = 0; j < n; j++)
    start[j] = X (0)[j] * c->causal_gain;
  for (int i = 0; i < L; i++)
    {
      const float *x0 = X (i), *x1 = X (i >= 1 ? i - 1 : 0);
      const float *x2 = X (i >= 2 ? i - 2 : 0), *x3 = X (i >= 3 ? i - 3 : 0);
      const double *y1 = i >= 1 ? w + (size_t) (i - 1) * n : start;
      const double *y2 = i >= 2 ? w + (size_t) (i - 2) * n : start;
      const double *y3 = i >= 3 ? w + (size_t) (i - 3) * n : start;
      const double *y4 = i >= 4 ? w + (size_t) (i - 4) * n : start;
      double *restrict wi = w + (size_t) i * n;
      for (int j = 0; j < n; j++)
        wi[j] = n0 * x0[j] + n1 * x1[j] + n2 * x2[j] + n3 * x3[j]
                - d1 * y1[j] - d2 * y2[j] - d3 * y3[j] - d4 * y4[j];
    }
  /* Anticausal: x[L-1+k] = x[L-1], y-[L-1+k] = x[L-1] * anticausal_gain;
   * y-[i] goes to ring[i % 4], where y-[i+4] was. */
  for (int r = 0; r < 4; r++)
    for (int j = 0; j < n; j++)
      ring[r][j] = X (L - 1)[j] * c->anticausal_gain;
  for (int i = L - 1; i >= 0; i--)
    {
      const float *x1 = X (i + 1 < L ? i + 1 : L - 1);
      const float *x2 = X (i + 2 < L ? i + 2 : L - 1);
      const float *x3 = X (i + 3 < L ? i + 3 : L - 1);
      const float *x4 = X (i + 4 < L ? i + 4 : L - 1);
      const double *y1 = ring[(i + 1) & 3], *y2 = ring[(i + 2) & 3];
      const double *y3 = ring[(i + 3) & 3];
      double *y4 = ring[i & 3];
      double *restrict wi = w + (size_t) i * n;
      for (int j = 0; j < n; j++)
        {
          double v = m1 * x1[j] + m2 * x2[j] + m3 * x3[j] + m4 * x4[j]
                     - d1 * y1[j] - d2 * y2[j] - d3 * y3[j] - d4 * y4[j];
          y4[j] = v;
          wi[j] += v;
        }
    }
  store_line (y, ystep, w, L, n);
}

#undef X
#undef Y

typedef void (*line_fn) (const rec_axis *, const float *, size_t, int, int,
                         double *, float *, size_t);

typedef struct
{
  const rec_axis *axis;
  line_fn fn;
  const gb_image *src, *dst;
  int vertical;
  int lines_per_item;   /* rows (horizontal) or column blocks (vertical) */
  int block_px;         /* columns per vertical slice */
} rec_pass;

enum { V_BLOCK_PX = 16, H_ROWS_PER_ITEM = 4 };

static void
rec_item (void *ctx, long item, void *scratch)
{
  const rec_pass *p = ctx;
  const gb_image *s = p->src, *d = p->dst;
  const int c = s->channels;
  if (!p->vertical)
    {
      int y0 = (int) item * p->lines_per_item;
      for (int y = y0; y < y0 + p->lines_per_item && y < s->height; y++)
        p->fn (p->axis, s->data + (size_t) y * s->stride, (size_t) c,
               s->width, c, scratch, d->data + (size_t) y * d->stride,
               (size_t) c);
    }
  else
    {
      int x0 = (int) item * p->block_px;
      int nx = s->width - x0 < p->block_px ? s->width - x0 : p->block_px;
      p->fn (p->axis, s->data + (size_t) x0 * c, s->stride, s->height,
             nx * c, scratch, d->data + (size_t) x0 * c, d->stride);
    }
}

static gb_status
make_axis (const gb_params *p, double sigma, rec_axis *a)
{
  memset (a, 0, sizeof *a);
  a->algorithm = p->algorithm;
  a->boundary = p->naive_borders ? GB_BOUNDARY_NAIVE : GB_BOUNDARY_EXACT;
  if (p->algorithm == GB_ALGO_DERICHE)
    gb_deriche_coeffs_make (sigma, &a->der);
  else
    gb_yvv_coeffs_make (sigma, &a->yvv);
  if (p->algorithm == GB_ALGO_YVRG_TWO_WAY)
    {
      a->fir_r = gb_fir_radius (sigma);
      a->fir = malloc (sizeof (double) * (a->fir_r + 1));
      if (!a->fir)
        return GB_ERR_NO_MEMORY;
      gb_fir_taps_direct (sigma, a->fir, a->fir_r);
    }
  return GB_OK;
}

static line_fn
line_for (gb_algorithm algorithm)
{
  switch (algorithm)
    {
    case GB_ALGO_YVRG: return yvv_line;
    case GB_ALGO_YVRG_TWO_WAY: return twoway_line;
    default: return deriche_line;
    }
}

static gb_status
run_axis (const gb_params *params, int vertical, const rec_axis *axis,
          const gb_image *src, const gb_image *dst,
          const gb_progress_span *progress)
{
  rec_pass p = { axis, line_for (params->algorithm), src, dst, vertical,
                 H_ROWS_PER_ITEM, V_BLOCK_PX };
  long items;
  size_t scratch;
  if (vertical)
    {
      items = (src->width + V_BLOCK_PX - 1) / V_BLOCK_PX;
      scratch = line_scratch_doubles (src->height, V_BLOCK_PX * src->channels);
    }
  else
    {
      items = (src->height + H_ROWS_PER_ITEM - 1) / H_ROWS_PER_ITEM;
      scratch = line_scratch_doubles (src->width, src->channels);
    }
  return gb_parallel_for (items, rec_item, &p, scratch * sizeof (double),
                          params->threads, progress);
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
  /* Each line is read whole before it is written, so both passes may run
   * in place: rows src -> dst, then columns dst -> dst. */
  if (do_x)
    st = run_axis (params, 0, &ax, src, dst, p1);
  if (st == GB_OK && do_y)
    st = run_axis (params, 1, &ay, do_x ? dst : src, dst, p2);
out:
  free (ax.fir);
  free (ay.fir);
  return st;
}
