/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A blur of an image already on the device, whatever the algorithm: the
 * one dispatch that the float and native pipelines and the benchmark
 * hooks share. */
#include "cuda_internal.h"

namespace {

gb_status
fir (const gb_params *p, float *a, float *b, int w, int h, int ch,
     cudaStream_t s, float **result)
{
  gb_cuda_fir_plan plan;
  gb_status st = gb_cuda_fir_plan_make (&plan, p);
  if (st != GB_OK)
    return st;
  float *cur = a;
  if (gb_cuda_fir_fusable (&plan, ch))
    {
      st = gb_cuda_fir_fused (&plan, a, b, w, h, ch, 0, h, s);
      cur = b;
    }
  else
    {
      if (p->sigma_x > 0.0)
        {
          st = gb_cuda_fir_h (&plan, a, b, w, h, ch, 0, h, s);
          cur = b;
        }
      if (st == GB_OK && p->sigma_y > 0.0)
        {
          float *out = cur == a ? b : a;
          st = gb_cuda_fir_v (&plan, cur, out, w, h, ch, 0, h, s);
          cur = out;
        }
    }
  /* cudaFree waits for the kernels that read the taps. */
  gb_cuda_fir_plan_free (&plan);
  *result = cur;
  return st;
}

gb_status
one_algorithm (const gb_params *p, float *a, float *b, float *c, int w,
               int h, int ch, cudaStream_t s, float **result)
{
  *result = a;
  if (!(p->sigma_x > 0.0) && !(p->sigma_y > 0.0))
    return GB_OK;
  if (p->algorithm == GB_ALGO_FIR)
    return fir (p, a, b, w, h, ch, s, result);
  if (gb_cuda_edge_aware (p->algorithm))
    return gb_cuda_edge_run (p, a, b, c, w, h, ch, gb_cuda_sm_count (), s, result);
  if (gb_cuda_whole_image (p->algorithm))
    return gb_cuda_recursive_run (p, a, b, c, w, h, ch, s, result);
  return GB_ERR_ALGORITHM;
}

} // namespace

gb_status
gb_cuda_blur_device (const gb_params *p, gb_algorithm ax, gb_algorithm ay,
                     float *a, float *b, float *c, int w, int h, int ch,
                     cudaStream_t s, float **result)
{
  gb_params q = *p;
  if (ax == ay || !(p->sigma_x > 0.0) || !(p->sigma_y > 0.0))
    {
      q.algorithm = p->sigma_x > 0.0 ? ax : ay;
      return one_algorithm (&q, a, b, c, w, h, ch, s, result);
    }
  /* Rows with one algorithm, then columns with the other. */
  float *mid = a;
  q.algorithm = ax;
  q.sigma_y = 0.0;
  gb_status st = one_algorithm (&q, a, b, c, w, h, ch, s, &mid);
  if (st != GB_OK)
    return st;
  q = *p;
  q.algorithm = ay;
  q.sigma_x = 0.0;
  return one_algorithm (&q, mid, mid == a ? b : a, c, w, h, ch, s, result);
}
