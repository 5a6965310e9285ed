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

extern "C" gb_status
gb_cuda_bench_kernels (const gb_params *params, int w, int h, int c, int reps,
                       double *ms_median)
{
  gb_fir_plan plan;
  float *a = nullptr, *b = nullptr;
  double *t = (double *) calloc (reps, sizeof *t);
  cudaEvent_t e0 = nullptr, e1 = nullptr;
  gb_status st = GB_OK;
  size_t bytes = (size_t) w * h * c * sizeof (float);
  if (!t)
    return GB_ERR_NO_MEMORY;
  const int rec = gb_whole_image_algorithm (params->algorithm);
  const int edge = gb_edge_algorithm (params->algorithm);
  float *c3 = nullptr;
  gb_rec_plan *rplan = nullptr;
  plan = gb_fir_plan {};
  if ((st = gb_cuda_probe (nullptr, 0)) != GB_OK
      || (!rec && (st = gb_fir_plan_make (&plan, params)) != GB_OK)
      || (rec && !edge && (st = gb_rec_plan_make (params, &rplan)) != GB_OK))
    {
      free (t);
      return st;
    }
  if (rec && cudaMalloc ((void **) &c3, bytes) != cudaSuccess)
    st = GB_ERR_CUDA_NO_MEMORY;
  if (cudaMalloc ((void **) &a, bytes) != cudaSuccess
      || cudaMalloc ((void **) &b, bytes) != cudaSuccess
      || cudaMemset (a, 0x3c, bytes) != cudaSuccess
      || cudaEventCreate (&e0) != cudaSuccess
      || cudaEventCreate (&e1) != cudaSuccess)
    st = GB_ERR_CUDA_NO_MEMORY;
  for (int r = -1; r < reps && st == GB_OK; r++)   /* r = -1: warm-up */
    {
      cudaEventRecord (e0, 0);
      if (edge)
        {
          float *res;
          st = gb_edge_run (params, a, b, c3, w, h, c, gb_cuda_sm_count (), 0, &res);
        }
      else if (rec)
        {
          float *res;
          st = gb_rec_plan_launch (rplan, a, b, c3, w, h, c, 0, &res);
        }
      else if (gb_fir_fusable (&plan))
        st = gb_fir_fused (&plan, a, b, w, h, c, 0, h, 0);
      else
        {
          if (params->sigma_x > 0)
            st = gb_fir_h (&plan, a, b, w, h, c, 0, h, 0);
          if (st == GB_OK && params->sigma_y > 0)
            st = gb_fir_v (&plan, b, a, w, h, c, 0, h, 0);
        }
      cudaEventRecord (e1, 0);
      float ms = 0.f;
      if (st == GB_OK && (cudaEventSynchronize (e1) != cudaSuccess
                          || cudaEventElapsedTime (&ms, e0, e1) != cudaSuccess))
        st = GB_ERR_CUDA_LAUNCH;
      if (r >= 0)
        t[r] = ms;
    }
  if (st == GB_OK)
    *ms_median = median (t, reps);
  cudaEventDestroy (e0);
  cudaEventDestroy (e1);
  cudaFree (a);
  cudaFree (b);
  cudaFree (c3);
  gb_rec_plan_free (rplan);
  gb_fir_plan_free (&plan);
  free (t);
  return st;
}

extern "C" gb_status
gb_cuda_bench_copy (size_t bytes, int reps, double *ms_median)
{
  float *a = nullptr, *b = nullptr;
  double *t = (double *) calloc (reps, sizeof *t);
  cudaEvent_t e0 = nullptr, e1 = nullptr;
  gb_status st = GB_OK;
  if (!t)
    return GB_ERR_NO_MEMORY;
  if (cudaMalloc ((void **) &a, bytes) != cudaSuccess
      || cudaMalloc ((void **) &b, bytes) != cudaSuccess
      || cudaEventCreate (&e0) != cudaSuccess
      || cudaEventCreate (&e1) != cudaSuccess)
    st = GB_ERR_CUDA_NO_MEMORY;
  for (int r = -1; r < reps && st == GB_OK; r++)
    {
      float ms = 0.f;
      cudaEventRecord (e0, 0);
      cudaMemcpyAsync (b, a, bytes, cudaMemcpyDeviceToDevice, 0);
      cudaEventRecord (e1, 0);
      if (cudaEventSynchronize (e1) != cudaSuccess
          || cudaEventElapsedTime (&ms, e0, e1) != cudaSuccess)
        st = GB_ERR_CUDA_COPY;
      if (r >= 0)
        t[r] = ms;
    }
  if (st == GB_OK)
    *ms_median = median (t, reps);
  cudaEventDestroy (e0);
  cudaEventDestroy (e1);
  cudaFree (a);
  cudaFree (b);
  free (t);
  return st;
}
