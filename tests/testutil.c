/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

int tu_failures;
int tu_checks;

int
tu_alloc (tu_image *img, int w, int h, int c, int pad)
{
  size_t stride = (size_t) w * c + (size_t) pad;
  img->mem = malloc (stride * (size_t) h * sizeof (float));
  img->view = (gb_image) { img->mem, w, h, c, stride };
  if (!img->mem)
    return 0;
  tu_poison (img);
  return 1;
}

void
tu_free (tu_image *img)
{
  free (img->mem);
  img->mem = NULL;
  img->view.data = NULL;
}

void
tu_poison (tu_image *img)
{
  size_t n = img->view.stride * (size_t) img->view.height;
  for (size_t i = 0; i < n; i++)
    img->mem[i] = NAN;
}

static double
next_uniform (uint64_t *s)
{
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *s = x;
  return (double) (x >> 11) / 9007199254740992.0;
}

void
tu_fill_random (tu_image *img, uint64_t *seed)
{
  const gb_image *v = &img->view;
  for (int y = 0; y < v->height; y++)
    for (int i = 0; i < v->width * v->channels; i++)
      v->data[(size_t) y * v->stride + i] = (float) next_uniform (seed);
}

void
tu_fill_constant (tu_image *img, float value)
{
  const gb_image *v = &img->view;
  for (int y = 0; y < v->height; y++)
    for (int i = 0; i < v->width * v->channels; i++)
      v->data[(size_t) y * v->stride + i] = value;
}

int
tu_load_pnm (tu_image *img, const char *name, int c, int pad)
{
  char path[1024], magic[3] = "";
  const char *dir = getenv ("GB_TEST_DATA");
  int w, h, maxval, file_c, ok = 0;
  snprintf (path, sizeof path, "%s/%s", dir ? dir : TEST_DATA_DIR, name);
  FILE *f = fopen (path, "rb");
  if (!f)
    {
      fprintf (stderr, "cannot open %s\n", path);
      return 0;
    }
  if (fscanf (f, "%2s %d %d %d", magic, &w, &h, &maxval) != 4
      || maxval != 255 || (strcmp (magic, "P6") && strcmp (magic, "P5")))
    goto out;
  fgetc (f);
  file_c = magic[1] == '6' ? 3 : 1;
  size_t n = (size_t) w * h * file_c;
  unsigned char *raw = malloc (n);
  if (!raw || fread (raw, 1, n, f) != n || !tu_alloc (img, w, h, c, pad))
    {
      free (raw);
      goto out;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const unsigned char *p = raw + ((size_t) y * w + x) * file_c;
        float rgb[3], grey;
        for (int k = 0; k < 3; k++)
          rgb[k] = p[file_c == 3 ? k : 0] / 255.0f;
        grey = 0.2126f * rgb[0] + 0.7152f * rgb[1] + 0.0722f * rgb[2];
        float alpha = 0.25f + 0.75f * (float) x / (float) (w > 1 ? w - 1 : 1);
        float *o = img->view.data + (size_t) y * img->view.stride
                   + (size_t) x * c;
        switch (c)
          {
          case 1: o[0] = grey; break;
          case 2: o[0] = grey; o[1] = alpha; break;
          case 3: memcpy (o, rgb, sizeof rgb); break;
          default: memcpy (o, rgb, sizeof rgb); o[3] = alpha; break;
          }
      }
  free (raw);
  ok = 1;
out:
  if (!ok)
    fprintf (stderr, "cannot read %s as binary PPM/PGM\n", path);
  fclose (f);
  return ok;
}

long
tu_count_nonfinite (const tu_image *img)
{
  const gb_image *v = &img->view;
  long bad = 0;
  for (int y = 0; y < v->height; y++)
    for (int i = 0; i < v->width * v->channels; i++)
      bad += !isfinite (v->data[(size_t) y * v->stride + i]);
  return bad;
}

long
tu_count_padding_written (const tu_image *img)
{
  const gb_image *v = &img->view;
  long bad = 0;
  for (int y = 0; y < v->height; y++)
    for (size_t i = (size_t) v->width * v->channels; i < v->stride; i++)
      bad += !isnan (v->data[(size_t) y * v->stride + i]);
  return bad;
}

static double *
gauss_table (double sigma, int *radius)
{
  int r = sigma > 0 ? (int) ceil (3.0 * sigma) : 0;
  double *g = malloc ((size_t) (2 * r + 1) * sizeof *g), sum = 0.0;
  if (!g)
    return NULL;
  for (int i = -r; i <= r; i++)
    sum += g[i + r] = r ? exp (-0.5 * (i / sigma) * (i / sigma)) : 1.0;
  for (int i = 0; i <= 2 * r; i++)
    g[i] /= sum;
  *radius = r;
  return g;
}

int
tu_kernel_make (tu_kernel *k, double sx, double sy)
{
  k->gx = gauss_table (sx, &k->rx);
  k->gy = gauss_table (sy, &k->ry);
  return k->gx && k->gy;
}

void
tu_kernel_free (tu_kernel *k)
{
  free (k->gx);
  free (k->gy);
}

static int
clampi (int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

double
tu_reference_at (const tu_kernel *k, const tu_image *src, int x, int y, int ch)
{
  const gb_image *v = &src->view;
  double acc = 0.0;
  for (int j = -k->ry; j <= k->ry; j++)
    {
      const float *row = v->data
                         + (size_t) clampi (y + j, 0, v->height - 1) * v->stride;
      for (int i = -k->rx; i <= k->rx; i++)
        acc += k->gy[j + k->ry] * k->gx[i + k->rx]
               * row[(size_t) clampi (x + i, 0, v->width - 1) * v->channels + ch];
    }
  return acc;
}

static double
error_at (const tu_kernel *k, const tu_image *src, const tu_image *out,
          int x, int y)
{
  double worst = 0.0;
  for (int ch = 0; ch < src->view.channels; ch++)
    {
      double ref = tu_reference_at (k, src, x, y, ch);
      double got = out->view.data[(size_t) y * out->view.stride
                                  + (size_t) x * out->view.channels + ch];
      double e = isfinite (got) ? fabs (got - ref) : INFINITY;
      if (e > worst)
        worst = e;
    }
  return worst;
}

double
tu_max_error_vs_reference (const tu_image *src, const tu_image *out,
                           double sx, double sy, long samples, uint64_t *seed)
{
  tu_kernel k;
  double worst = 0.0, e;
  int w = src->view.width, h = src->view.height;
  if (!tu_kernel_make (&k, sx, sy))
    {
      tu_kernel_free (&k);
      return -1.0;
    }
  if ((long) w * h <= samples)
    {
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          if ((e = error_at (&k, src, out, x, y)) > worst)
            worst = e;
    }
  else
    {
      const int xs[3] = { 0, w / 2, w - 1 }, ys[3] = { 0, h / 2, h - 1 };
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
          if ((e = error_at (&k, src, out, xs[a], ys[b])) > worst)
            worst = e;
      for (long s = 0; s < samples; s++)
        {
          int x = (int) (next_uniform (seed) * w) % w;
          int y = (int) (next_uniform (seed) * h) % h;
          if ((e = error_at (&k, src, out, x, y)) > worst)
            worst = e;
        }
    }
  tu_kernel_free (&k);
  return worst;
}

void
tu_compare (const tu_image *a, const tu_image *b, double *rel_l2,
            double *max_abs)
{
  const gb_image *u = &a->view, *v = &b->view;
  double num = 0.0, den = 0.0, mx = 0.0;
  for (int y = 0; y < u->height; y++)
    for (int i = 0; i < u->width * u->channels; i++)
      {
        double p = u->data[(size_t) y * u->stride + i];
        double q = v->data[(size_t) y * v->stride + i];
        double d = isfinite (p) && isfinite (q) ? fabs (p - q) : INFINITY;
        num += d * d;
        den += q * q;
        if (d > mx)
          mx = d;
      }
  *rel_l2 = den > 0 ? sqrt (num / den) : sqrt (num);
  *max_abs = mx;
}

uint64_t
tu_seed (const char *test_name)
{
  const char *env = getenv ("GB_TEST_SEED");
  uint64_t s = env ? strtoull (env, NULL, 0) : (uint64_t) time (NULL);
  if (s == 0)
    s = 88172645463325252ull;
  printf ("%s: GB_TEST_SEED=%llu\n", test_name, (unsigned long long) s);
  return s;
}

int
tu_finish (const char *test_name)
{
  printf ("%s: %d checks, %d failed\n", test_name, tu_checks, tu_failures);
  return tu_failures ? 1 : 0;
}

int
tu_uses (int a, unsigned uses)
{
  const gb_algorithm_info *info = gb_algorithm_get ((gb_algorithm) a);
  return info && (info->uses & uses) == uses;
}

int
tu_recursive (int a)
{
  const gb_algorithm_info *info = gb_algorithm_get ((gb_algorithm) a);
  return info && info->fir_below > 0.0;
}

void
tu_params_cpu (gb_params *p, int algorithm, double sigma_x, double sigma_y)
{
  gb_params_init (p);
  p->algorithm = (gb_algorithm) algorithm;
  p->backend = GB_BACKEND_CPU;
  p->sigma_x = sigma_x;
  p->sigma_y = sigma_y;
}

double
tu_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

int
tu_cmp_double (const void *a, const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}
