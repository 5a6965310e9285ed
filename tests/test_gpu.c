/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA backend against the CPU backend (float pipeline): every
 * algorithm, sizes, channels, sigmas, both tap modes, strides, in place,
 * multi-band pipelines, borders, perceptual data.  Exits 77 (skipped)
 * where no GPU can be used. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* What a comparison blurs with, besides the sigmas. */
typedef struct
{
  gb_algorithm algorithm;
  double range_sigma;
  int blocks, iterations;
  gb_edge_interpolation interpolation;
  gb_taps_mode taps;     /* the GPU's; the CPU reference uses the table */
  gb_border border;
  int perceptual;
} options;

static options
with_algorithm (gb_algorithm a)
{
  options o = { a, 50.0, 4, 2, GB_EDGE_HOLD, GB_TAPS_TABLE, GB_BORDER_CLAMP,
                0 };
  return o;
}

static int
blur_with (const options *o, gb_backend backend, double sx, double sy,
           const tu_image *src, tu_image *out, gb_report *rep)
{
  gb_params p;
  gb_research r;
  gb_params_init (&p);
  gb_research_init (&r);
  p.research = &r;
  p.algorithm = o->algorithm;
  p.backend = backend;
  p.range_sigma = o->range_sigma;
  r.blocks_per_stripe = o->blocks;
  p.iterations = o->iterations;
  r.edge_interpolation = o->interpolation;
  r.taps = backend == GB_BACKEND_CUDA ? o->taps : GB_TAPS_TABLE;
  p.border = o->border;
  p.perceptual = o->perceptual;
  p.sigma_x = sx;
  p.sigma_y = sy;
  gb_status st = gb_blur (&p, &src->view, &out->view, NULL, NULL, rep);
  TU_CHECK (st == GB_OK, "%s blur: %s", gb_backend_name (backend),
            gb_status_message (st));
  return st == GB_OK;
}

static void
compare_one (const options *o, const char *what, const tu_image *src,
             double sx, double sy, int pad)
{
  const gb_image *v = &src->view;
  tu_image gpu, cpu;
  gb_report rep;
  if (!tu_alloc (&gpu, v->width, v->height, v->channels, pad)
      || !tu_alloc (&cpu, v->width, v->height, v->channels, 0))
    {
      TU_CHECK (0, "allocation");
      return;
    }
  /* auto resolves per backend (the FIR reaches further on the GPU), so
   * the CPU reference runs what the GPU ran. */
  options ref = *o;
  int ok = blur_with (o, GB_BACKEND_CUDA, sx, sy, src, &gpu, &rep);
  if (ok)
    ref.algorithm = rep.algorithm_used;
  if (ok && blur_with (&ref, GB_BACKEND_CPU, sx, sy, src, &cpu, NULL))
    {
      TU_CHECK (rep.backend_used == GB_BACKEND_CUDA, "%s: ran on %s (%s)",
                what, gb_backend_name (rep.backend_used), rep.reason);
      long unwritten = tu_count_nonfinite (&gpu);
      TU_CHECK (unwritten == 0, "%s %dx%dx%d: %ld unwritten", what,
                v->width, v->height, v->channels, unwritten);
      TU_CHECK (tu_count_padding_written (&gpu) == 0, "%s: padding written",
                what);
      double l2, mx;
      tu_compare (&gpu, &cpu, &l2, &mx);
      /* Past sigma 100 (hundreds to thousands of taps) the two backends'
       * float sums differ in order more than the matrix's 1e-6 allows. */
      double l2_max = fmax (sx, sy) > 100 ? 4e-6 : 1e-6;
      double mx_max = 1e-5;
      /* The edge-aware kernels use single-precision complex arithmetic, as
       * the paper does; the CPU uses double. */
      if (tu_uses (o->algorithm, GB_USES_RANGE_SIGMA))
        l2_max = 1e-4, mx_max = 1e-3;
      TU_CHECK (l2 <= l2_max && mx <= mx_max,
                "%s %s %dx%dx%d sx=%g sy=%g taps=%d: rel L2 %.3g, max %.3g",
                gb_algorithm_name (o->algorithm), what, v->width, v->height,
                v->channels, sx, sy, (int) o->taps, l2, mx);
    }
  tu_free (&gpu);
  tu_free (&cpu);
}

/* The FIR over sizes from 1x1, every channel count, both tap modes. */
static void
fir_matrix (uint64_t *seed, int quick)
{
  /* 2.5 and 4 are the fused kernel's radii 8 and 12 (its two shapes'
   * largest halos); 7 and 30 take the two-pass kernels. */
  static const double sigmas[] = { 0.5, 1.0, 2.5, 4.0, 7.0, 30.0 };
  static const struct { int w, h, pad; } sizes[] = {
    { 1, 1, 0 }, { 1, 57, 3 }, { 61, 1, 0 }, { 37, 23, 5 }, { 1000, 700, 0 },
  };
  options o = with_algorithm (GB_ALGO_FIR);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0] - (quick ? 1 : 0); s++)
    for (int c = 1; c <= 4; c++)
      {
        tu_image src;
        if (!tu_alloc (&src, sizes[s].w, sizes[s].h, c, sizes[s].pad))
          continue;
        tu_fill_random (&src, seed);
        for (size_t k = 0; k < sizeof sigmas / sizeof sigmas[0]; k++)
          for (int taps = 0; taps < 2; taps++)
            {
              o.taps = (gb_taps_mode) taps;
              compare_one (&o, "random", &src, sigmas[k], sigmas[k],
                           sizes[s].pad ? 1 : 0);
            }
        tu_free (&src);
      }
}

/* Single axis, anisotropic, radii past one shared-memory chunk. */
static void
fir_pairs (uint64_t *seed)
{
  static const double pairs[][2] = { { 3, 0 }, { 0, 4.5 }, { 0.5, 12 },
                                     { 40, 2 }, { 150, 90 }, { 1500, 0.7 } };
  options o = with_algorithm (GB_ALGO_FIR);
  tu_image src;
  if (!tu_alloc (&src, 301, 203, 4, 4))
    return;
  tu_fill_random (&src, seed);
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
    for (int taps = 0; taps < 2; taps++)
      {
        o.taps = (gb_taps_mode) taps;
        compare_one (&o, "pairs", &src, pairs[i][0], pairs[i][1], 2);
      }
  tu_free (&src);
}

/* Real photographs, and an image big enough for several pipeline bands. */
static void
fir_photos_and_bands (uint64_t *seed, int quick)
{
  static const char *files[] = { "astronaut.ppm", "coffee.ppm", "camera.pgm" };
  options o = with_algorithm (GB_ALGO_FIR);
  for (int f = 0; f < 3; f++)
    for (int c = 1; c <= 4; c += 3)
      {
        tu_image src;
        if (!tu_load_pnm (&src, files[f], c, 0))
          {
            TU_CHECK (0, "load %s", files[f]);
            continue;
          }
        o.taps = GB_TAPS_TABLE;
        compare_one (&o, files[f], &src, 2.0, 2.0, 0);
        o.taps = GB_TAPS_INCREMENTAL;
        compare_one (&o, files[f], &src, 25.0, 10.0, 0);
        tu_free (&src);
      }
  tu_image big;
  if (!quick && tu_alloc (&big, 3001, 2003, 4, 0))
    {
      tu_fill_random (&big, seed);
      o.taps = GB_TAPS_TABLE;
      compare_one (&o, "bands", &big, 5.0, 5.0, 0);
      o.taps = GB_TAPS_INCREMENTAL;
      compare_one (&o, "bands fused", &big, 2.0, 1.0, 0);
      compare_one (&o, "bands fused 12", &big, 4.0, 3.0, 0);
      tu_free (&big);
    }
}

/* The recursive filters: odd sizes, all channel counts, small and very
 * large sigma; the exact block-parallel kernels (blocks_per_stripe 0:
 * one fused kernel up to 16 blocks a line, partials, segmented carries
 * and finals past it (2000 and 1300; 6200: the most warps a line),
 * short last blocks, partial row tiles; on Hopper the fused kernel's
 * clusters: 950 x 20 has a cluster thread block with a warp past the
 * line, 512 x 512 the benchmark's image; 1000 x 700 in RGB and RGBA has
 * too many tiles for clusters on 132 multiprocessors, so the fused
 * kernel runs a thread block a tile, its blocks of 64 in shared memory)
 * and the one-line-per-thread ones (1). */
static void
recursive_matrix (uint64_t *seed, int quick)
{
  static const double rs[] = { 0.8, 1.5, 5.0, 45.0, 500.0, 1500.0 };
  static const struct { int w, h, pad; } rsz[] = {
    { 1, 1, 0 }, { 1, 33, 1 }, { 47, 1, 0 }, { 2, 5, 0 }, { 37, 23, 3 },
    { 11, 16, 0 }, { 100, 70, 2 }, { 1000, 33, 0 }, { 33, 1000, 0 },
    { 640, 480, 0 }, { 2000, 40, 0 }, { 40, 1300, 1 }, { 6200, 2, 0 },
    { 3, 6200, 0 }, { 950, 20, 0 }, { 512, 512, 0 }, { 1000, 700, 1 } };
  for (int a = 0; a < GB_ALGO_COUNT; a++)
    {
      if (!tu_recursive (a))
        continue;
      options o = with_algorithm ((gb_algorithm) a);
      for (int blocks = 0; blocks < 2; blocks++)
        for (size_t z = 0; z < sizeof rsz / sizeof rsz[0]; z++)
          for (int c = 1; c <= 4; c++)
            {
              tu_image src;
              if ((quick && c == 2)
                  || !tu_alloc (&src, rsz[z].w, rsz[z].h, c, rsz[z].pad))
                continue;
              tu_fill_random (&src, seed);
              o.blocks = blocks;
              for (size_t k = 0; k < sizeof rs / sizeof rs[0]; k++)
                compare_one (&o, blocks ? "recursive lines" : "recursive",
                             &src, rs[k], rs[k] * 0.7, rsz[z].pad);
              tu_free (&src);
            }
    }
}

/* The rows' and columns' blocks run together (the rows' finals make the
 * columns' partial states) where both axes' lines are too long for the
 * fused kernel (YvV past 1024 samples, Deriche past 512), on 3 or 4
 * channels: on images of 2^24 floats or more, and with
 * GB_CUDA_PAIRS_ALWAYS on smaller ones.  Short last blocks on both axes
 * or none, a different sigma on each axis (either axis's table or
 * constants used for the other shows), strides, and a photograph mirrored
 * out to 1300 x 1200. */
static void
recursive_pairs (uint64_t *seed, int quick)
{
  static const struct { gb_algorithm a; int w, h, pad; } psz[] = {
    { GB_ALGO_YVV, 1100, 1050, 3 }, { GB_ALGO_YVV, 1088, 1152, 0 },
    { GB_ALGO_DERICHE, 600, 530, 1 }, { GB_ALGO_DERICHE, 544, 576, 0 } };
  static const double sig[][2] = { { 2.0, 7.0 }, { 40.0, 1.2 },
                                   { 300.0, 120.0 } };
  setenv ("GB_CUDA_PAIRS_ALWAYS", "1", 1);
  for (size_t z = 0; z < sizeof psz / sizeof psz[0]; z++)
    for (int c = 3; c <= 4; c++)
      {
        options o = with_algorithm (psz[z].a);
        tu_image src;
        if (!tu_alloc (&src, psz[z].w, psz[z].h, c, psz[z].pad))
          continue;
        tu_fill_random (&src, seed);
        o.blocks = 0;
        for (size_t k = 0; k < sizeof sig / sizeof sig[0]; k++)
          compare_one (&o, "pair", &src, sig[k][0], sig[k][1], psz[z].pad);
        tu_free (&src);
      }
  tu_image photo, big;
  if (!tu_load_pnm (&photo, "astronaut.ppm", 4, 0))
    {
      TU_CHECK (0, "load astronaut.ppm");
      unsetenv ("GB_CUDA_PAIRS_ALWAYS");
      return;
    }
  if (tu_alloc (&big, 1300, 1200, 4, 0))
    {
      const gb_image *p = &photo.view, *b = &big.view;
      for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++)
          {
            /* Mirrored: x, 2w - 1 - x, then x - 2w again. */
            const int px = x % (2 * p->width), py = y % (2 * p->height);
            const int sx = px < p->width ? px : 2 * p->width - 1 - px;
            const int sy = py < p->height ? py : 2 * p->height - 1 - py;
            for (int ch = 0; ch < 4; ch++)
              b->data[(size_t) y * b->stride + (size_t) x * 4 + ch]
                = p->data[(size_t) sy * p->stride + (size_t) sx * 4 + ch];
          }
      for (int a = 0; a < 2; a++)
        {
          options o = with_algorithm (a ? GB_ALGO_DERICHE : GB_ALGO_YVV);
          o.blocks = 0;
          compare_one (&o, "pair photo", &big, 6.0, 25.0, 0);
        }
      tu_free (&big);
    }
  tu_free (&photo);
  unsetenv ("GB_CUDA_PAIRS_ALWAYS");
  /* 3000 x 2000 RGB: 18 million floats, paired without being told. */
  tu_image large;
  if (!quick && tu_alloc (&large, 3000, 2000, 3, 0))
    {
      tu_fill_random (&large, seed);
      for (int a = 0; a < 2; a++)
        {
          options o = with_algorithm (a ? GB_ALGO_DERICHE : GB_ALGO_YVV);
          o.blocks = 0;
          compare_one (&o, "pair large", &large, 9.0, 3.5, 0);
        }
      tu_free (&large);
    }
}

/* The recursive blocks' fused kernel where it runs in thread-block
 * clusters (Hopper), only: few calls, for tests/test_gpu_racecheck.sh
 * (GB_TEST_CLUSTERS=1), which runs them under compute-sanitizer's
 * racecheck.  A cluster's blocks write the first block's shared memory. */
static void
cluster_cases (uint64_t *seed)
{
  static const struct { int w, h, c; } csz[] = {
    { 512, 512, 1 }, { 512, 512, 4 }, { 300, 200, 3 }, { 950, 20, 1 } };
  static const gb_algorithm algos[] = { GB_ALGO_YVV, GB_ALGO_DERICHE };
  for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++)
    for (size_t z = 0; z < sizeof csz / sizeof csz[0]; z++)
      {
        options o = with_algorithm (algos[a]);
        tu_image src;
        if (!tu_alloc (&src, csz[z].w, csz[z].h, csz[z].c, 0))
          continue;
        tu_fill_random (&src, seed);
        o.blocks = 0;
        compare_one (&o, "clusters", &src, 10.0, 7.0, 0);
        tu_free (&src);
      }
}

/* The edge-aware filters on photographs (both interpolations) and odd
 * sizes. */
static void
edge_cases (uint64_t *seed)
{
  static const char *files[] = { "astronaut.ppm", "camera.pgm" };
  static const struct { int w, h; } esz[] = { { 1, 1 }, { 1, 29 }, { 33, 1 },
                                               { 37, 23 }, { 100, 70 },
                                               { 1000, 33 } };
  for (int a = 0; a < GB_ALGO_COUNT; a++)
    {
      if (!tu_uses (a, GB_USES_RANGE_SIGMA))
        continue;
      options o = with_algorithm ((gb_algorithm) a);
      for (int f = 0; f < 2; f++)
        for (int c = 1; c <= 4; c += 3)
          {
            tu_image src;
            if (!tu_load_pnm (&src, files[f], c, 0))
              continue;
            for (int k = 0; k < 2; k++)
              {
                o.interpolation = (gb_edge_interpolation) k;
                o.range_sigma = k ? 100.0 : 20.0;
                compare_one (&o, files[f], &src, 5.0, 5.0, 0);
                compare_one (&o, files[f], &src, 50.0, 30.0, 0);
              }
            tu_free (&src);
          }
      /* Algorithm A runs in exact blocks on the GPU: automatic, line by
       * line, a count that leaves a short last block, and blocks of one
       * pixel (more blocks than the line has pixels). */
      o = with_algorithm ((gb_algorithm) a);
      for (int b = 0; b < 4 && !tu_uses (a, GB_USES_KAPPA); b++)
        for (int c = 1; c <= 4; c += 3)
          {
            static const int counts[] = { 0, 1, 7, 600 };
            tu_image src;
            if (!tu_load_pnm (&src, files[0], c, 0))
              continue;
            o.blocks = counts[b];
            compare_one (&o, "exact blocks", &src, 50.0, 30.0, 0);
            tu_free (&src);
          }
      /* One axis, and iteration counts that end on either layout: the
       * passes write their output transposed or not to suit the next. */
      o = with_algorithm ((gb_algorithm) a);
      for (int c = 1; c <= 4; c += 2)
        {
          tu_image src;
          if (!tu_load_pnm (&src, files[0], c, 0))
            continue;
          for (int it = 1; it <= 3; it++)
            {
              o.iterations = it;
              compare_one (&o, "rows only", &src, 40.0, 0.0, 0);
              compare_one (&o, "columns only", &src, 0.0, 25.0, 0);
              compare_one (&o, "iterations", &src, 20.0, 60.0, 0);
            }
          tu_free (&src);
        }
      o = with_algorithm ((gb_algorithm) a);
      o.iterations = 3;
      for (size_t z = 0; z < sizeof esz / sizeof esz[0]; z++)
        for (int c = 1; c <= 4; c++)
          {
            tu_image src;
            if (!tu_alloc (&src, esz[z].w, esz[z].h, c, 2))
              continue;
            tu_fill_random (&src, seed);
            compare_one (&o, "edge sizes", &src, 4.0, 9.0, 1);
            tu_free (&src);
          }
    }
}

/* Borders and perceptual data: every algorithm, every border, one and
 * four channels, on a photograph (the frame and the edge-aware filter's
 * colour measure run the same way on both backends). */
static void
borders (void)
{
  for (int a = 0; a < GB_ALGO_COUNT; a++)
    for (int c = 1; c <= 4; c += 3)
      {
        tu_image src;
        if (!tu_load_pnm (&src, "astronaut.ppm", c, 1))
          continue;
        options o = with_algorithm ((gb_algorithm) a);
        for (int b = GB_BORDER_NONE; b < GB_BORDER_COUNT; b++)
          {
            o.border = (gb_border) b;
            compare_one (&o, "border", &src, 7.0, 3.0, 1);
          }
        o.border = GB_BORDER_CLAMP;
        o.perceptual = 1;
        compare_one (&o, "perceptual", &src, 7.0, 3.0, 1);
        tu_free (&src);
      }
}

/* In place: dst is the source view. */
static void
in_place (uint64_t *seed)
{
  options o = with_algorithm (GB_ALGO_FIR);
  tu_image a, ref;
  gb_report rep;
  if (tu_alloc (&a, 640, 480, 4, 3) && tu_alloc (&ref, 640, 480, 4, 3))
    {
      tu_fill_random (&a, seed);
      if (blur_with (&o, GB_BACKEND_CPU, 6, 3, &a, &ref, NULL)
          && blur_with (&o, GB_BACKEND_CUDA, 6, 3, &a, &a, &rep))
        {
          double l2, mx;
          tu_compare (&a, &ref, &l2, &mx);
          TU_CHECK (rep.backend_used == GB_BACKEND_CUDA && l2 <= 1e-6
                    && mx <= 1e-5, "in place: %s, L2 %.3g max %.3g",
                    gb_backend_name (rep.backend_used), l2, mx);
        }
    }
  tu_free (&a);
  tu_free (&ref);
}

int
main (void)
{
  char name[256];
  if (!gb_cuda_info (name, sizeof name))
    {
      printf ("test_gpu: skipped: %s\n", name);
      return TU_SKIP;
    }
  printf ("test_gpu: device %s\n", name);
  uint64_t seed = tu_seed ("test_gpu");
  /* GB_TEST_QUICK=1 leaves out the large images (for compute-sanitizer). */
  const int quick = getenv ("GB_TEST_QUICK") != NULL;
  if (getenv ("GB_TEST_CLUSTERS") != NULL)
    {
      cluster_cases (&seed);
      gb_shutdown ();
      return tu_finish ("test_gpu");
    }
  fir_matrix (&seed, quick);
  fir_pairs (&seed);
  fir_photos_and_bands (&seed, quick);
  recursive_matrix (&seed, quick);
  recursive_pairs (&seed, quick);
  edge_cases (&seed);
  borders ();
  in_place (&seed);
  gb_shutdown ();
  return tu_finish ("test_gpu");
}
