/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark hooks for tests/bench.c: kernel-only times of one blur of an
 * image already on the device, and of a device-to-device copy, by CUDA
 * events.  Not used by the plug-in. */
#include <stdlib.h>

#include "cuda_internal.h"

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, int n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Median time in ms of `reps` runs of work (after one warm-up), by CUDA
 * events on the default stream. */
template <class Work>
static gb_status
time_with_events (int reps, gb_status fail, double *ms_median, Work work)
{
  double *t = (double *) calloc (reps, sizeof *t);
  cudaEvent_t e0 = nullptr, e1 = nullptr;
  gb_status st = GB_OK;
  if (!t)
    return GB_ERR_NO_MEMORY;
  if (cudaEventCreate (&e0) != cudaSuccess
      || cudaEventCreate (&e1) != cudaSuccess)
    st = fail;
  for (int r = -1; r < reps && st == GB_OK; r++)
    {
      float ms = 0.f;
      cudaEventRecord (e0, 0);
      st = work ();
      cudaEventRecord (e1, 0);
      if (st == GB_OK && (cudaEventSynchronize (e1) != cudaSuccess
                          || cudaEventElapsedTime (&ms, e0, e1) != cudaSuccess))
        st = fail;
      if (r >= 0)
        t[r] = ms;
    }
  if (st == GB_OK)
    *ms_median = median (t, reps);
  cudaEventDestroy (e0);
  cudaEventDestroy (e1);
  free (t);
  return st;
}

extern "C" gb_status
gb_cuda_bench_kernels (const gb_params *params, int w, int h, int c, int reps,
                       double *ms_median)
{
  gb_cuda_fir_plan plan = {};
  gb_cuda_rec_plan *rplan = nullptr;
  float *a = nullptr, *b = nullptr, *c3 = nullptr;
  const size_t bytes = (size_t) w * h * c * sizeof (float);
  const int whole = gb_cuda_whole_image (params->algorithm);
  const int edge = gb_cuda_edge_aware (params->algorithm);
  gb_status st = gb_cuda_probe (nullptr, 0);
  if (st == GB_OK && !whole)
    st = gb_cuda_fir_plan_make (&plan, params);
  if (st == GB_OK && whole && !edge)
    st = gb_cuda_rec_plan_make (params, &rplan);
  if (st == GB_OK
      && (cudaMalloc ((void **) &a, bytes) != cudaSuccess
          || cudaMalloc ((void **) &b, bytes) != cudaSuccess
          || (whole && cudaMalloc ((void **) &c3, bytes) != cudaSuccess)
          || cudaMemset (a, 0x3c, bytes) != cudaSuccess))
    st = GB_ERR_CUDA_NO_MEMORY;
  if (st == GB_OK)
    st = time_with_events (reps, GB_ERR_CUDA_LAUNCH, ms_median, [&] () {
      float *res;
      if (edge)
        return gb_cuda_edge_run (params, a, b, c3, w, h, c, gb_cuda_sm_count (), 0,
                            &res);
      if (whole)
        return gb_cuda_rec_plan_launch (rplan, a, b, c3, w, h, c, 0, &res);
      if (gb_cuda_fir_fusable (&plan, c))
        return gb_cuda_fir_fused (&plan, a, b, w, h, c, 0, h, 0);
      gb_status r = GB_OK;
      if (params->sigma_x > 0)
        r = gb_cuda_fir_h (&plan, a, b, w, h, c, 0, h, 0);
      if (r == GB_OK && params->sigma_y > 0)
        r = gb_cuda_fir_v (&plan, b, a, w, h, c, 0, h, 0);
      return r;
    });
  cudaFree (a);
  cudaFree (b);
  cudaFree (c3);
  gb_cuda_rec_plan_free (rplan);
  gb_cuda_fir_plan_free (&plan);
  return st;
}

extern "C" gb_status
gb_cuda_bench_copy (size_t bytes, int reps, double *ms_median)
{
  float *a = nullptr, *b = nullptr;
  gb_status st = GB_OK;
  if (cudaMalloc ((void **) &a, bytes) != cudaSuccess
      || cudaMalloc ((void **) &b, bytes) != cudaSuccess)
    st = GB_ERR_CUDA_NO_MEMORY;
  if (st == GB_OK)
    st = time_with_events (reps, GB_ERR_CUDA_COPY, ms_median, [&] () {
      return cudaMemcpyAsync (b, a, bytes, cudaMemcpyDeviceToDevice, 0)
             == cudaSuccess ? GB_OK : GB_ERR_CUDA_COPY;
    });
  cudaFree (a);
  cudaFree (b);
  return st;
}
