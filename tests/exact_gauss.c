/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdlib.h>

#include "exact_gauss.h"

/* The taps exp(-i^2 / 2 sigma^2), |i| <= r, normalised (r 0: identity). */
static double *
kernel (double sigma, int r)
{
  double *k = malloc (sizeof (double) * (2 * r + 1)), sum = 0;
  if (!k)
    return NULL;
  for (int i = -r; i <= r; i++)
    sum += k[i + r] = r ? exp (-0.5 * i * i / (sigma * sigma)) : 1.0;
  for (int i = 0; i <= 2 * r; i++)
    k[i] /= sum;
  return k;
}

static int
radius6 (double sigma)
{
  return sigma > 0 ? (int) ceil (6.0 * sigma) : 0;
}

int
tu_exact_gaussian (const tu_image *img, double sx, double sy, double *out)
{
  return tu_exact_gaussian_border (img, sx, sy, NULL, out);
}

int
tu_exact_gaussian_border (const tu_image *img, double sx, double sy,
                          const float *colour, double *out)
{
  return tu_gaussian_radius_border (img, sx, radius6 (sx), sy, radius6 (sy),
                                    colour, out);
}

int
tu_gaussian_radius_border (const tu_image *img, double sx, int rx, double sy,
                           int ry, const float *colour, double *out)
{
  const gb_image *v = &img->view;
  int w = v->width, h = v->height, c = v->channels;
  double *kx = kernel (sx, rx), *ky = kernel (sy, ry);
  double *tmp = malloc (sizeof (double) * w * h * c);
  if (!kx || !ky || !tmp)
    {
      free (kx);
      free (ky);
      free (tmp);
      return 0;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int ch = 0; ch < c; ch++)
        {
          double acc = 0;
          for (int i = -rx; i <= rx; i++)
            {
              int xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i;
              acc += kx[i + rx]
                     * (colour && xx != x + i
                        ? colour[ch]
                        : v->data[(size_t) y * v->stride
                                  + (size_t) xx * c + ch]);
            }
          tmp[((size_t) y * w + x) * c + ch] = acc;
        }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int ch = 0; ch < c; ch++)
        {
          double acc = 0;
          for (int j = -ry; j <= ry; j++)
            {
              int yy = y + j < 0 ? 0 : y + j >= h ? h - 1 : y + j;
              /* Beyond the image, rows of the colour stay the colour. */
              acc += ky[j + ry] * (colour && yy != y + j
                                   ? colour[ch]
                                   : tmp[((size_t) yy * w + x) * c + ch]);
            }
          out[((size_t) y * w + x) * c + ch] = acc;
        }
  free (kx);
  free (ky);
  free (tmp);
  return 1;
}

static double
psnr_from (double sum_sq, size_t n)
{
  double mse = sum_sq / (double) n;
  return mse > 0 ? 10.0 * log10 (255.0 * 255.0 / mse) : INFINITY;
}

double
tu_psnr_vs (const tu_image *img, const double *ref)
{
  const gb_image *v = &img->view;
  size_t n = (size_t) v->width * v->height * v->channels;
  double s = 0;
  for (int y = 0; y < v->height; y++)
    for (int i = 0; i < v->width * v->channels; i++)
      {
        double d = 255.0 * (v->data[(size_t) y * v->stride + i]
                            - ref[(size_t) y * v->width * v->channels + i]);
        s += isfinite (d) ? d * d : INFINITY;
      }
  return psnr_from (s, n);
}

double
tu_psnr (const tu_image *a, const tu_image *b)
{
  const gb_image *u = &a->view, *v = &b->view;
  size_t n = (size_t) u->width * u->height * u->channels;
  double s = 0;
  for (int y = 0; y < u->height; y++)
    for (int i = 0; i < u->width * u->channels; i++)
      {
        double d = 255.0 * (u->data[(size_t) y * u->stride + i]
                            - v->data[(size_t) y * v->stride + i]);
        s += isfinite (d) ? d * d : INFINITY;
      }
  return psnr_from (s, n);
}
