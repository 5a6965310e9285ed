/* SPDX-License-Identifier: GPL-3.0-or-later */
/* make bench: times every algorithm and backend on RGBA float images and,
 * in the same run, its peers: a device-to-device copy of the image (the
 * memory floor), NPP's nppiFilterGaussAdvancedBorder_32f_C4R where NPP is
 * present, and the CPU backend.  Prints a Markdown table.
 *
 *   tests/bench [--quick] [--no-cpu]
 *
 * Then the FIR against Deriche by sigma (auto's crossover), the recursive
 * filters' kernel time against sigma and the edge-aware kernels. */
#include "config.h"

#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gblur.h"
#include "testutil.h"

#include "backend.h"
#ifdef HAVE_NPP
#include <cuda_runtime.h>
#include <nppi.h>
#endif

/* Median wall time in ms of `reps` gb_blur calls (after one warm-up). */
static double
time_blur (const gb_params *p, const tu_image *src, tu_image *dst, int reps,
           gb_report *rep)
{
  double t[16];
  if (reps > 16)
    reps = 16;
  if (gb_blur (p, &src->view, &dst->view, NULL, NULL, rep) != GB_OK)
    return -1.0;
  for (int r = 0; r < reps; r++)
    {
      double t0 = tu_now ();
      if (gb_blur (p, &src->view, &dst->view, NULL, NULL, rep) != GB_OK)
        return -1.0;
      t[r] = (tu_now () - t0) * 1e3;
    }
  qsort (t, reps, sizeof *t, tu_cmp_double);
  return t[reps / 2];
}

static void
row (const char *size, double sigma, const char *method, const char *backend,
     double kernel_ms, double copy_ms, double mpx, double full_ms)
{
  char k[32] = "n/a", x[32] = "n/a", m[32] = "n/a", f[32] = "n/a";
  if (kernel_ms > 0)
    {
      snprintf (k, sizeof k, "%.3f", kernel_ms);
      if (copy_ms > 0)
        snprintf (x, sizeof x, "%.2f", kernel_ms / copy_ms);
      snprintf (m, sizeof m, "%.0f", mpx / (kernel_ms * 1e-3));
    }
  else if (full_ms > 0)
    snprintf (m, sizeof m, "%.0f", mpx / (full_ms * 1e-3));
  if (full_ms > 0)
    snprintf (f, sizeof f, "%.3f", full_ms);
  printf ("| %s | %g | %s | %s | %s | %s | %s | %s |\n", size, sigma, method,
          backend, k, x, m, f);
  fflush (stdout);
}

#ifdef HAVE_NPP
/* NPP's Gaussian with our taps (2r+1 of them), replicate borders. */
static double
time_npp (int w, int h, double sigma, int reps)
{
  int r = gb_fir_radius (sigma), n = 2 * r + 1;
  double *half = malloc (sizeof (double) * (r + 1));
  float *taps = malloc (sizeof (float) * n);
  float *d_src = NULL, *d_dst = NULL, *d_taps = NULL;
  cudaEvent_t e0 = NULL, e1 = NULL;
  double t[16], result = -1.0;
  size_t bytes = (size_t) w * h * 4 * sizeof (float);
  NppStreamContext ctx;
  struct cudaDeviceProp prop;

  if (!half || !taps)
    goto out;
  gb_fir_taps_direct (sigma, half, r);
  for (int k = -r; k <= r; k++)
    taps[k + r] = (float) half[k < 0 ? -k : k];
  memset (&ctx, 0, sizeof ctx);
  if (cudaGetDevice (&ctx.nCudaDeviceId) != cudaSuccess
      || cudaGetDeviceProperties (&prop, ctx.nCudaDeviceId) != cudaSuccess)
    goto out;
  ctx.hStream = 0;
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  if (cudaMalloc ((void **) &d_src, bytes) != cudaSuccess
      || cudaMalloc ((void **) &d_dst, bytes) != cudaSuccess
      || cudaMalloc ((void **) &d_taps, sizeof (float) * n) != cudaSuccess
      || cudaMemcpy (d_taps, taps, sizeof (float) * n, cudaMemcpyHostToDevice)
         != cudaSuccess
      || cudaMemset (d_src, 0x3c, bytes) != cudaSuccess
      || cudaEventCreate (&e0) != cudaSuccess
      || cudaEventCreate (&e1) != cudaSuccess)
    goto out;
  NppiSize size = { w, h };
  NppiPoint origin = { 0, 0 };
  for (int i = -1; i < reps; i++)
    {
      float ms = 0.f;
      cudaEventRecord (e0, 0);
      NppStatus ns = nppiFilterGaussAdvancedBorder_32f_C4R_Ctx (
          d_src, w * 16, size, origin, d_dst, w * 16, size, n, d_taps,
          NPP_BORDER_REPLICATE, ctx);
      cudaEventRecord (e1, 0);
      if (ns != NPP_SUCCESS || cudaEventSynchronize (e1) != cudaSuccess)
        {
          fprintf (stderr, "NPP failed: status %d\n", (int) ns);
          goto out;
        }
      cudaEventElapsedTime (&ms, e0, e1);
      if (i >= 0)
        t[i] = ms;
    }
  qsort (t, reps, sizeof *t, tu_cmp_double);
  result = t[reps / 2];
out:
  cudaEventDestroy (e0);
  cudaEventDestroy (e1);
  cudaFree (d_src);
  cudaFree (d_dst);
  cudaFree (d_taps);
  free (half);
  free (taps);
  return result;
}
#endif

/* Whether the GPU runs the algorithm in exact blocks
 * (cuda/recursive_blocks/recursive_blocks.cu; blocks_per_stripe 1 gives one line per
 * thread). */
#ifdef HAVE_CUDA
static int
blocked_on_gpu (gb_algorithm a)
{
  return a == GB_ALGO_YVV || a == GB_ALGO_DERICHE;
}
#endif

/* One algorithm at one sigma: GPU kernels (both tap modes for the FIR),
 * GPU with transfers, and the CPU. */
static void
run_algorithm (gb_algorithm a, const char *label, double sigma,
               const tu_image *src, tu_image *dst, int gpu, double copy_ms,
               int no_cpu, int cpu_reps)
{
  const gb_image *v = &src->view;
  double mpx = (double) v->width * v->height / 1e6;
  gb_params p;
  gb_research r;
  gb_report rep;
  gb_params_init (&p);
  gb_research_init (&r);
  p.research = &r;
  p.algorithm = a;
  p.sigma_x = p.sigma_y = sigma;
#ifdef HAVE_CUDA
  /* Two variants: the FIR's tap modes, or the recursive filters' exact
   * blocks against their one-line-per-thread kernels. */
  const int taps_vary = gb_algorithm_get (a)->uses & GB_USES_TAPS;
  const int blocks_vary = blocked_on_gpu (a);
  if (gpu)
    for (int var = 0; var < (taps_vary || blocks_vary ? 2 : 1); var++)
      {
        char method[64];
        double kms = -1, full;
        r.taps = taps_vary ? (gb_taps_mode) var : GB_TAPS_TABLE;
        r.blocks_per_stripe = blocks_vary && var ? 1 : 0;
        p.backend = GB_BACKEND_CUDA;
        gb_cuda_bench_kernels (&p, v->width, v->height, v->channels,
                               a == GB_ALGO_FIR ? 20 : 7, &kms);
        full = time_blur (&p, src, dst, 5, &rep);
        snprintf (method, sizeof method, "%s%s", gb_algorithm_name (a),
                  taps_vary ? (var ? " (incremental taps)" : " (table taps)")
                  : blocks_vary ? (var ? " (one line per thread)"
                                       : " (blocks)")
                  : "");
        row (label, sigma, method, "cuda", kms, copy_ms, mpx, full);
      }
  r.blocks_per_stripe = 0;
#else
  (void) gpu;
  (void) copy_ms;
#endif
  if (!no_cpu)
    {
      r.taps = GB_TAPS_TABLE;
      p.backend = GB_BACKEND_CPU;
      double full = time_blur (&p, src, dst, cpu_reps, &rep);
      row (label, sigma, gb_algorithm_name (a), "cpu", -1, copy_ms, mpx, full);
    }
}

/* Whether the main table times the algorithm: every one but auto (which
 * becomes one of the others) and the edge-aware ones (their own table). */
static int
in_main_table (gb_algorithm a)
{
  const gb_algorithm_info *info = gb_algorithm_get (a);
  return a != GB_ALGO_AUTO && !(info->uses & GB_USES_RANGE_SIGMA);
}

/* Recursive kernel time against sigma, and the two-way filter against
 * one line per thread on the paper's 512x512 grey image. */
static void
recursive_extras (int gpu)
{
  if (!gpu)
    return;
#ifdef HAVE_CUDA
  printf ("\n| image | sigma | method | kernel ms |\n|---|---|---|---|\n");
  static const struct { int w, h, c; } shapes[] = {
    { 3840, 2160, 4 }, { 512, 512, 1 }, { 512, 512, 4 } };
  for (int s = 0; s < 3; s++)
    for (int a = 0; a < GB_ALGO_COUNT; a++)
      for (int lines = 0; lines < (blocked_on_gpu (a) ? 2 : 1); lines++)
        for (int k = 0; k < 2 && gb_algorithm_get (a)->fir_below > 0; k++)
          {
            gb_params p;
            gb_research r;
            double ms = -1;
            gb_params_init (&p);
            gb_research_init (&r);
            p.research = &r;
            p.algorithm = (gb_algorithm) a;
            p.sigma_x = p.sigma_y = k ? 500.0 : 5.0;
            p.backend = GB_BACKEND_CUDA;
            r.blocks_per_stripe = lines;
            gb_cuda_bench_kernels (&p, shapes[s].w, shapes[s].h, shapes[s].c,
                                   9, &ms);
            printf ("| %dx%dx%d | %g | %s%s | %.3f |\n", shapes[s].w,
                    shapes[s].h, shapes[s].c, p.sigma_x,
                    gb_algorithm_name (p.algorithm),
                    !blocked_on_gpu (p.algorithm) ? ""
                    : lines ? " (one line per thread)" : " (blocks)", ms);
          }
  /* Edge-aware: the paper's case, 2048x2048 RGBA, 2 iterations. */
  printf ("\n| image | sigma | range σ | method | blocks per line "
          "| kernel ms |\n|---|---|---|---|---|---|\n");
  /* Algorithm C (kappa) and Algorithm A (exact blocks; 1: line by line)
   * with automatic (0) and fixed block counts. */
  static const int bps_c[] = { 0, 4, 8, 16, 32 }, bps_a[] = { 0, 1, 16, 32, 64 };
  for (int a = 0; a < GB_ALGO_COUNT; a++)
    for (int b = 0; b < 5 && (gb_algorithm_get (a)->uses
                              & GB_USES_RANGE_SIGMA); b++)
      for (int k = 0; k < 2; k++)
      {
        const int warmup = gb_algorithm_get (a)->uses & GB_USES_KAPPA;
        gb_params p;
        gb_research r;
        double ms = -1;
        gb_params_init (&p);
        gb_research_init (&r);
        p.research = &r;
        p.algorithm = (gb_algorithm) a;
        r.blocks_per_stripe = warmup ? bps_c[b] : bps_a[b];
        p.sigma_x = p.sigma_y = k ? 200.0 : 50.0;
        p.range_sigma = k ? 150.0 : 50.0;
        p.backend = GB_BACKEND_CUDA;
        gb_cuda_bench_kernels (&p, 2048, 2048, 4, 7, &ms);
        char per_line[16];
        snprintf (per_line, sizeof per_line, "%d", r.blocks_per_stripe);
        printf ("| 2048x2048x4 | %g | %g | %s | %s | %.3f |\n", p.sigma_x,
                p.range_sigma, gb_algorithm_name (p.algorithm),
                r.blocks_per_stripe ? per_line
                : warmup ? "auto" : "auto (exact)", ms);
      }
#endif
}

/* Auto's crossover: the FIR against Deriche as sigma grows, whole calls
 * on the CPU (1920x1080) and kernel time on the GPU (3840x2160), with
 * the first sigma at which the FIR is the slower one beside the constant
 * auto uses (GB_AUTO_FIR_MAX_SIGMA_*). */
static void
crossover_table (int gpu, int no_cpu, uint64_t *seed)
{
  static const double cpu_sigmas[] = { 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 8 };
  static const double gpu_sigmas[] = { 5, 10, 12.5, 15, 17.5, 20, 25, 50, 100,
                                       200 };
  printf ("\n| backend | image | sigma | fir ms | deriche ms |\n"
          "|---|---|---|---|---|\n");
  for (int cuda = 0; cuda < 2; cuda++)
    {
      if ((cuda && !gpu) || (!cuda && no_cpu))
        continue;
      const int w = cuda ? 3840 : 1920, h = cuda ? 2160 : 1080;
      const double *sig = cuda ? gpu_sigmas : cpu_sigmas;
      const size_t ns = cuda ? sizeof gpu_sigmas / sizeof *gpu_sigmas
                             : sizeof cpu_sigmas / sizeof *cpu_sigmas;
      tu_image src, dst;
      double first_slower = -1;
      if (!tu_alloc (&src, w, h, 4, 0) || !tu_alloc (&dst, w, h, 4, 0))
        return;
      tu_fill_random (&src, seed);
      for (size_t k = 0; k < ns; k++)
        {
          double ms[2] = { -1, -1 };
          for (int d = 0; d < 2; d++)
            {
              gb_params p;
              gb_report rep;
              gb_params_init (&p);
              p.algorithm = d ? GB_ALGO_DERICHE : GB_ALGO_FIR;
              p.sigma_x = p.sigma_y = sig[k];
              p.backend = cuda ? GB_BACKEND_CUDA : GB_BACKEND_CPU;
#ifdef HAVE_CUDA
              if (cuda)
                gb_cuda_bench_kernels (&p, w, h, 4, 9, &ms[d]);
              else
#endif
                ms[d] = time_blur (&p, &src, &dst, 5, &rep);
            }
          if (first_slower < 0 && ms[0] > ms[1])
            first_slower = sig[k];
          printf ("| %s | %dx%d | %g | %.3f | %.3f |\n", cuda ? "cuda" : "cpu",
                  w, h, sig[k], ms[0], ms[1]);
        }
      printf ("| %s | crossover | FIR slower from sigma %g | auto's FIR "
              "limit %g | |\n", cuda ? "cuda" : "cpu", first_slower,
              cuda ? GB_AUTO_FIR_MAX_SIGMA_CUDA : GB_AUTO_FIR_MAX_SIGMA_CPU);
      tu_free (&src);
      tu_free (&dst);
    }
}

int
main (int argc, char **argv)
{
  int quick = 0, no_cpu = 0;
  for (int i = 1; i < argc; i++)
    {
      if (!strcmp (argv[i], "--quick"))
        quick = 1;
      else if (!strcmp (argv[i], "--no-cpu"))
        no_cpu = 1;
      else
        {
          printf ("usage: %s [--quick] [--no-cpu]\n"
                  "  --quick   1920x1080 only\n"
                  "  --no-cpu  leave out the CPU backend\n", argv[0]);
          return strcmp (argv[i], "--help") ? 2 : 0;
        }
    }
  static const struct { int w, h; } sizes[] = {
    { 1920, 1080 }, { 3840, 2160 }, { 6000, 4000 } };
  static const double sigmas[] = { 2.0, 10.0, 50.0 };
  char dev[256];
  int gpu = gb_cuda_info (dev, sizeof dev);
  uint64_t seed = 12345;

  printf ("# gimp-cudablur benchmark\n\nGPU: %s. CPU: %d threads. "
          "RGBA float32; median times in ms. \"kernel\" is GPU kernel time "
          "(CUDA events) with the image already on the device; \"with "
          "transfers\" is a whole gb_blur call from host memory to host "
          "memory. \"x copy\" divides by the device-to-device copy of the "
          "same image measured in this run.\n\n",
          dev, gb_cpu_threads ());
  printf ("| image | sigma | method | backend | kernel ms | x copy | Mpx/s "
          "| with transfers ms |\n|---|---|---|---|---|---|---|---|\n");

  for (size_t s = 0; s < (quick ? 1 : 3); s++)
    {
      int w = sizes[s].w, h = sizes[s].h;
      char label[32];
      double copy_ms = -1.0;
#ifdef HAVE_CUDA
      const double mpx = (double) w * h / 1e6;
#endif
      snprintf (label, sizeof label, "%dx%d", w, h);
      tu_image src, dst;
      if (!tu_alloc (&src, w, h, 4, 0) || !tu_alloc (&dst, w, h, 4, 0))
        return 1;
      tu_fill_random (&src, &seed);
#ifdef HAVE_CUDA
      if (gpu)
        {
          gb_cuda_bench_copy ((size_t) w * h * 16, 20, &copy_ms);
          row (label, 0, "device-to-device copy", "cuda", copy_ms, copy_ms,
               mpx, -1);
        }
#endif
      for (size_t k = 0; k < 3; k++)
        {
          for (int a = 0; a < GB_ALGO_COUNT; a++)
            if (in_main_table ((gb_algorithm) a))
              run_algorithm ((gb_algorithm) a, label, sigmas[k], &src, &dst,
                             gpu, copy_ms, no_cpu, s == 0 ? 3 : 1);
#ifdef HAVE_NPP
          if (gpu)
            row (label, sigmas[k], "NPP FilterGaussAdvancedBorder", "cuda",
                 time_npp (w, h, sigmas[k], 10), copy_ms, mpx, -1);
#endif
        }
      tu_free (&src);
      tu_free (&dst);
    }
  crossover_table (gpu, no_cpu, &seed);
  recursive_extras (gpu);
  gb_shutdown ();
  return 0;
}
