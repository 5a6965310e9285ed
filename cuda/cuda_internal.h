/* Internals shared by the CUDA host layer and the kernel launchers. */
#ifndef GB_CUDA_INTERNAL_H
#define GB_CUDA_INTERNAL_H

#include <cuda_runtime.h>

#include "gb_cuda.h"

/* A failed CUDA call mapped to an engine status; what names the step. */
gb_status gb_cuda_fail (cudaError_t err, gb_status kind, const char *what);

/* Checks a CUDA call; on failure returns its engine status from the
 * enclosing function (which must return gb_status). */
#define GB_CUDA_TRY(call, kind)                                        \
  do {                                                                 \
    cudaError_t e_ = (call);                                           \
    if (e_ != cudaSuccess)                                             \
      return gb_cuda_fail (e_, (kind), #call);                         \
  } while (0)

/* Algorithms that need the whole image on the device at once, and the
 * edge-aware ones among them. */
inline int
gb_edge_algorithm (gb_algorithm a)
{
  return a == GB_ALGO_EDGE_EXACT || a == GB_ALGO_EDGE_PARTITIONED;
}

inline int
gb_whole_image_algorithm (gb_algorithm a)
{
  return a == GB_ALGO_YVRG || a == GB_ALGO_YVRG_TWO_WAY
         || a == GB_ALGO_DERICHE || gb_edge_algorithm (a);
}

/* Multiprocessors of the device in use (after a successful probe). */
int gb_cuda_sm_count (void);

/* Checks the last launch (and, with GB_CUDA_FAULT=launch, fails it). */
gb_status gb_cuda_check_launch (const char *kernel);

/* FIR on device buffers (contiguous rows of w * c floats).  The
 * horizontal pass writes tmp, the vertical pass reads tmp and writes dst
 * (dst may be src).  rows_from/rows_to limit the horizontal pass to a band
 * so that it can start while later rows are still uploading. */
typedef struct
{
  int radius_x, radius_y;
  float *d_taps_x, *d_taps_y;   /* 2r+1 taps each, centre in the middle */
  float norm_x, norm_y;         /* 1 / sum of unnormalised taps */
  float inv2s2_x, inv2s2_y;     /* 1 / (2 sigma^2) */
  int incremental;
} gb_fir_plan;

gb_status gb_fir_plan_make (gb_fir_plan *plan, const gb_params *params);
void gb_fir_plan_free (gb_fir_plan *plan);

gb_status gb_fir_h (const gb_fir_plan *plan, const float *d_src, float *d_dst,
                    int w, int h, int c, int row0, int row1, cudaStream_t s);
/* Both passes in one kernel for small radii: reads src rows anywhere,
 * writes dst rows [row0, row1).  Only when gb_fir_fusable. */
#define GB_FUSED_RMAX 8
int gb_fir_fusable (const gb_fir_plan *plan);
gb_status gb_fir_fused (const gb_fir_plan *plan, const float *d_src,
                        float *d_dst, int w, int h, int c, int row0, int row1,
                        cudaStream_t s);
/* Young-van Vliet, two-way or Deriche on device buffers: the image in a
 * (contiguous rows), b and c of the same size as scratch; *result is the
 * buffer (a or b) that holds the blurred image.  Synchronises stream s. */
gb_status gb_recursive_run (const gb_params *params, float *a, float *b,
                            float *c, int w, int h, int channels,
                            cudaStream_t s, float **result);

/* The same in two steps, for timing kernels alone: the plan holds the
 * coefficients (host only); launching does not synchronise. */
struct gb_rec_plan;
gb_status gb_rec_plan_make (const gb_params *params, gb_rec_plan **plan);
gb_status gb_rec_plan_launch (const gb_rec_plan *plan, float *a, float *b,
                              float *c, int w, int h, int channels,
                              cudaStream_t s, float **result);
void gb_rec_plan_free (gb_rec_plan *plan);

/* out (h x w) = in (w x h) transposed, pixels of `channels` floats. */
gb_status gb_transpose (const float *in, float *out, int w, int h,
                        int channels, cudaStream_t s);

/* Edge-aware Algorithms A and C on device buffers a (the image), b and c
 * (scratch of the same size); *result is a or b.  Synchronises s. */
gb_status gb_edge_run (const gb_params *params, float *a, float *b, float *c,
                       int w, int h, int channels, int sm_count,
                       cudaStream_t s, float **result);

/* Algorithm C's blocks per line on the GPU: blocks_per_stripe, or about
 * 1024 threads per multiprocessor, blocks no shorter than 64 pixels. */
int gb_edge_gpu_blocks (const gb_params *params, int lines, int L,
                        int sm_count);

gb_status gb_fir_v (const gb_fir_plan *plan, const float *d_src, float *d_dst,
                    int w, int h, int c, int row0, int row1, cudaStream_t s);


#endif
