/* SPDX-License-Identifier: GPL-3.0-or-later */
/* make psnr-table: the shape of the two-way paper's Table 2 (PSNR between
 * one-way YvV, two-way YvV and the "basic" FIR with window N = 2 sigma, on
 * grey images of 512x512, 1280x720 and 1920x1080), first with the paper's
 * setup (its naive borders, its N x N FIR), then against the exact
 * Gaussian with replicated borders, with Deriche and our FIR beside; then,
 * where a GPU is usable, the same filters on the GPU backend (the exact
 * blocks for yvv and Deriche) against the exact Gaussian and against the
 * CPU backend. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "exact_gauss.h"

/* The paper's basic Gaussian filter: window N (radius N/2), normalised,
 * separable, replicated borders. */
static void
paper_fir (const tu_image *src, int N, tu_image *out)
{
  const gb_image *v = &src->view;
  int r = N / 2, w = v->width, h = v->height;
  double sigma = N / 2.0, *k = malloc (sizeof (double) * (2 * r + 1)), sum = 0;
  float *tmp = malloc (sizeof (float) * w * h);
  if (!k || !tmp)
    exit (1);
  for (int i = -r; i <= r; i++)
    sum += k[i + r] = exp (-0.5 * i * i / (sigma * sigma));
  for (int i = 0; i <= 2 * r; i++)
    k[i] /= sum;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double a = 0;
        for (int i = -r; i <= r; i++)
          {
            int xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i;
            a += k[i + r] * v->data[(size_t) y * v->stride + xx];
          }
        tmp[(size_t) y * w + x] = (float) a;
      }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double a = 0;
        for (int i = -r; i <= r; i++)
          {
            int yy = y + i < 0 ? 0 : y + i >= h ? h - 1 : y + i;
            a += k[i + r] * tmp[(size_t) yy * w + x];
          }
        out->view.data[(size_t) y * out->view.stride + x] = (float) a;
      }
  free (k);
  free (tmp);
}

/* Blurs on the CPU, or on the GPU when gpu is set; returns the backend
 * that ran (the GPU request falls back to the CPU without a GPU). */
static gb_backend
engine_blur_on (int gpu, gb_algorithm a, int naive, double sigma,
                const tu_image *src, tu_image *out)
{
  gb_params p;
  gb_research r;
  gb_report rep;
  tu_params_cpu (&p, a, sigma, sigma);
  gb_research_init (&r);
  r.naive_borders = naive;
  p.research = &r;
  if (gpu)
    p.backend = GB_BACKEND_CUDA;
  if (gb_blur (&p, &src->view, &out->view, NULL, NULL, &rep) != GB_OK)
    exit (1);
  return rep.backend_used;
}

static void
engine_blur (gb_algorithm a, int naive, double sigma, const tu_image *src,
             tu_image *out)
{
  engine_blur_on (0, a, naive, sigma, src, out);
}

/* Largest |a - b| on a 0-255 scale. */
static double
max_diff_255 (const tu_image *a, const tu_image *b)
{
  double m = 0;
  for (int y = 0; y < a->view.height; y++)
    for (int x = 0; x < a->view.width; x++)
      {
        double d = fabs ((double) a->view.data[(size_t) y * a->view.stride + x]
                         - b->view.data[(size_t) y * b->view.stride + x]);
        m = d > m ? d : m;
      }
  return 255.0 * m;
}

/* Bilinear resize of a grey image (to make the HD sizes from a photo). */
static void
resize (const tu_image *in, tu_image *out)
{
  const gb_image *a = &in->view, *b = &out->view;
  for (int y = 0; y < b->height; y++)
    for (int x = 0; x < b->width; x++)
      {
        double fx = (x + 0.5) * a->width / b->width - 0.5;
        double fy = (y + 0.5) * a->height / b->height - 0.5;
        int x0 = (int) floor (fx), y0 = (int) floor (fy);
        double tx = fx - x0, ty = fy - y0, v = 0;
        for (int j = 0; j < 2; j++)
          for (int i = 0; i < 2; i++)
            {
              int xx = x0 + i < 0 ? 0 : x0 + i >= a->width ? a->width - 1 : x0 + i;
              int yy = y0 + j < 0 ? 0 : y0 + j >= a->height ? a->height - 1 : y0 + j;
              v += (i ? tx : 1 - tx) * (j ? ty : 1 - ty)
                   * a->data[(size_t) yy * a->stride + xx];
            }
        b->data[(size_t) y * b->stride + x] = (float) v;
      }
}

int
main (void)
{
  static const struct { const char *name; int w, h; } sizes[] = {
    { "SD 512x512", 512, 512 }, { "HD 1280x720", 1280, 720 },
    { "Full HD 1920x1080", 1920, 1080 } };
  static const int windows[] = { 3, 30, 90 };
  tu_image camera, coffee;
  if (!tu_load_pnm (&camera, "camera.pgm", 1, 0)
      || !tu_load_pnm (&coffee, "coffee.ppm", 1, 0))
    return 1;

  printf ("### The paper's setup (naive borders, FIR with an N x N window)\n\n"
          "| image | window N | sigma | one-way vs two-way | FIR vs one-way "
          "| FIR vs two-way |\n|---|---|---|---|---|---|\n");
  /* GPU: yvv, yvv two-way, deriche, fir against the exact Gaussian,
   * then the largest difference from the CPU backend among them. */
  static const gb_algorithm on_gpu[] = { GB_ALGO_YVV, GB_ALGO_YVV_TWO_WAY,
                                         GB_ALGO_DERICHE, GB_ALGO_FIR };
  double rows[3][3][4], gpu_rows[3][3][5];
  int gpu = 1;
  for (int s = 0; s < 3; s++)
    {
      tu_image img, fir, one, two, one_x, der, ours;
      int w = sizes[s].w, h = sizes[s].h;
      if (!tu_alloc (&img, w, h, 1, 0) || !tu_alloc (&fir, w, h, 1, 0)
          || !tu_alloc (&one, w, h, 1, 0) || !tu_alloc (&two, w, h, 1, 0)
          || !tu_alloc (&one_x, w, h, 1, 0) || !tu_alloc (&der, w, h, 1, 0)
          || !tu_alloc (&ours, w, h, 1, 0))
        return 1;
      if (s == 0)
        resize (&camera, &img);
      else
        resize (&coffee, &img);
      double *exact = malloc (sizeof (double) * w * h);
      for (int k = 0; k < 3; k++)
        {
          int N = windows[k];
          double sigma = N / 2.0;
          paper_fir (&img, N, &fir);
          engine_blur (GB_ALGO_YVV, 1, sigma, &img, &one);
          engine_blur (GB_ALGO_YVV_TWO_WAY, 1, sigma, &img, &two);
          printf ("| %s | %d | %g | %.1f | %.1f | %.1f |\n", sizes[s].name, N,
                  sigma, tu_psnr (&one, &two), tu_psnr (&fir, &one),
                  tu_psnr (&fir, &two));
          engine_blur (GB_ALGO_YVV, 0, sigma, &img, &one_x);
          engine_blur (GB_ALGO_DERICHE, 0, sigma, &img, &der);
          engine_blur (GB_ALGO_FIR, 0, sigma, &img, &ours);
          if (!exact || !tu_exact_gaussian (&img, sigma, sigma, exact))
            return 1;
          rows[s][k][0] = tu_psnr_vs (&one_x, exact);
          rows[s][k][1] = tu_psnr_vs (&two, exact);
          rows[s][k][2] = tu_psnr_vs (&der, exact);
          rows[s][k][3] = tu_psnr_vs (&ours, exact);
          const tu_image *cpu_of[] = { &one_x, &two, &der, &ours };
          gpu_rows[s][k][4] = 0;
          for (int g = 0; g < 4 && gpu; g++)
            {
              /* two-way's CPU result above is the naive-border one */
              if (on_gpu[g] == GB_ALGO_YVV_TWO_WAY)
                engine_blur (GB_ALGO_YVV_TWO_WAY, 0, sigma, &img, &two);
              gpu = engine_blur_on (1, on_gpu[g], 0, sigma, &img, &fir)
                    == GB_BACKEND_CUDA;
              gpu_rows[s][k][g] = tu_psnr_vs (&fir, exact);
              double d = max_diff_255 (&fir, cpu_of[g]);
              gpu_rows[s][k][4] = d > gpu_rows[s][k][4] ? d : gpu_rows[s][k][4];
            }
        }
      free (exact);
      tu_free (&img); tu_free (&fir); tu_free (&one); tu_free (&two);
      tu_free (&one_x); tu_free (&der); tu_free (&ours);
    }
  printf ("\n### Against the exact Gaussian (replicated borders)\n\n"
          "| image | window N | sigma | yvrg (exact borders) | yvrg-two-way "
          "| deriche | fir (3 sigma) |\n|---|---|---|---|---|---|---|\n");
  for (int s = 0; s < 3; s++)
    for (int k = 0; k < 3; k++)
      printf ("| %s | %d | %g | %.1f | %.1f | %.1f | %.1f |\n", sizes[s].name,
              windows[k], windows[k] / 2.0, rows[s][k][0], rows[s][k][1],
              rows[s][k][2], rows[s][k][3]);
  if (gpu)
    {
      printf ("\n### The GPU backend against the exact Gaussian\n\n"
              "| image | window N | sigma | yvrg (blocks) | yvrg-two-way "
              "| deriche (blocks) | fir | largest GPU - CPU difference "
              "|\n|---|---|---|---|---|---|---|---|\n");
      for (int s = 0; s < 3; s++)
        for (int k = 0; k < 3; k++)
          printf ("| %s | %d | %g | %.1f | %.1f | %.1f | %.1f | %.2g |\n",
                  sizes[s].name, windows[k], windows[k] / 2.0,
                  gpu_rows[s][k][0], gpu_rows[s][k][1], gpu_rows[s][k][2],
                  gpu_rows[s][k][3], gpu_rows[s][k][4]);
    }
  else
    printf ("\nNo usable GPU: the GPU backend's table is left out.\n");
  printf ("\nPSNR in dB on a 0-255 scale. SD: scikit-image's camera.pgm; HD "
          "and Full HD: coffee.ppm in grey, resized bilinearly. The GPU "
          "difference is the largest |GPU - CPU| in 8-bit units over the four "
          "filters.\n");
  tu_free (&camera);
  tu_free (&coffee);
  return 0;
}
