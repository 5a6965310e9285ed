/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internals shared by the CUDA host layer and the kernel launchers. */
#ifndef GB_CUDA_INTERNAL_H
#define GB_CUDA_INTERNAL_H

#include <cuda_runtime.h>

#include "../engine/backend.h"
#include "../engine/convert_pixel.h"
#include "../engine/research.h"

/* ---- the context kept between calls (context.cu) ---------------------- */
#define GB_N_STREAMS 2
/* Pinned bands the native pipeline reads into and writes from: enough to
 * keep a copy in flight while the caller fills or drains the next one. */
#define GB_RING_SLOTS 3
#define GB_RING_SLOT_BYTES (8u << 20)

typedef struct
{
  int ready;
  int device;
  int sm_count;
  size_t shm_optin;             /* shared memory a block may opt in to */
  int clusters;                 /* thread-block clusters (Hopper on) */
  int pdl;                      /* programmatic dependent launch (Hopper on) */
  char name[200];
  cudaStream_t streams[GB_N_STREAMS];
  float *d_a, *d_b, *d_c;       /* work images and intermediates */
  size_t d_bytes;
  float *h_stage;               /* float pipeline: pinned whole image */
  size_t h_bytes;
  unsigned char *d_native;      /* native pipeline: the image as read */
  size_t d_native_bytes;
  unsigned char *h_ring;        /* GB_RING_SLOTS pinned bands */
  cudaEvent_t ring_ev[GB_RING_SLOTS];
  void *d_lut_mem;              /* the conversion tables on the device */
  gb_convert_luts d_luts;
} gb_cuda_ctx;

extern gb_cuda_ctx gb_ctx;

/* gb_ctx is used under this lock only. */
void gb_cuda_lock (void);
void gb_cuda_unlock (void);
gb_status gb_cuda_init_locked (void);
gb_status gb_cuda_ensure_float_locked (size_t bytes, int third_buffer);
gb_status gb_cuda_ensure_stage_locked (size_t bytes);
gb_status gb_cuda_ensure_native_locked (size_t bytes);
/* Frees the context after a failed run, so the next starts afresh. */
void gb_cuda_reset_locked (void);

const char *gb_cuda_last_error (void);
void gb_cuda_clear_error (void);
const char *gb_cuda_no_device_reason (cudaError_t e);
/* Whether st stands for the simulated device of fault injection, and the
 * failure that device reports (with its reason recorded). */
int gb_cuda_simulated (gb_status st);
gb_status gb_cuda_simulated_failure (void);

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

/* GB_CUDA_FAULT=copy makes the next copy fail. */
gb_status gb_cuda_copy_fault (void);

/* Algorithms that need the whole image on the device at once (all but
 * the FIR, which filters bands as they arrive), and the edge-aware ones
 * among them (those with a range sigma). */
inline int
gb_cuda_whole_image (gb_algorithm a)
{
  return !gb_algorithm_banded (a);
}

inline int
gb_cuda_edge_aware (gb_algorithm a)
{
  const gb_algorithm_info *info = gb_algorithm_get (a);
  return info && (info->uses & GB_USES_RANGE_SIGMA);
}

/* Multiprocessors of the device in use (after a successful probe). */
int gb_cuda_sm_count (void);

/* The most shared memory a thread block may opt in to on that device
 * (64 KB on Turing, 99 KB on consumer Ampere and Ada, 227 KB on Hopper). */
size_t gb_cuda_shm_optin (void);

/* Whether kernels may be launched in thread-block clusters (compute
 * capability 9.0 on). */
int gb_cuda_clusters (void);

/* Whether kernels may be launched as programmatic dependents of the
 * kernel before them in the stream (compute capability 9.0 on). */
int gb_cuda_pdl (void);

/* Checks the last launch (and, with GB_CUDA_FAULT=launch, fails it). */
gb_status gb_cuda_check_launch (const char *kernel);

/* ---- a blur of device buffers (device_blur.cu) -------------------------
 * The image in a (contiguous rows of w * channels floats), b and c of the
 * same size as scratch (c only for the whole-image algorithms); *result
 * is the buffer holding the blurred image.  Rows with algorithm ax, then
 * columns with ay (the same one unless a recursive filter's axis fell
 * below its valid sigma).  Launches on s without synchronising. */
gb_status gb_cuda_blur_device (const gb_params *params, gb_algorithm ax,
                               gb_algorithm ay, float *a, float *b, float *c,
                               int w, int h, int channels, cudaStream_t s,
                               float **result);

/* ---- format conversions (convert.cu) ---------------------------------- */
/* Native rows (w pixels each, contiguous) to work floats, and the output
 * rectangle of a work image back to contiguous native rows. */
gb_status gb_cuda_decode (const gb_pixel_format *f, const unsigned char *in,
                          float *out, int w, int h, cudaStream_t s);
gb_status gb_cuda_encode (const gb_pixel_format *f, const float *in, int w,
                          int x0, int y0, int ow, int oh, unsigned char *out,
                          cudaStream_t s);

/* ---- FIR (fir.cu) ------------------------------------------------------
 * FIR on device buffers (contiguous rows of w * c floats).  The
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
} gb_cuda_fir_plan;

gb_status gb_cuda_fir_plan_make (gb_cuda_fir_plan *plan, const gb_params *params);
void gb_cuda_fir_plan_free (gb_cuda_fir_plan *plan);

gb_status gb_cuda_fir_h (const gb_cuda_fir_plan *plan, const float *d_src, float *d_dst,
                    int w, int h, int c, int row0, int row1, cudaStream_t s);
gb_status gb_cuda_fir_v (const gb_cuda_fir_plan *plan, const float *d_src, float *d_dst,
                    int w, int h, int c, int row0, int row1, cudaStream_t s);
/* Both passes in one kernel for small radii: reads src rows anywhere,
 * writes dst rows [row0, row1).  Only when gb_cuda_fir_fusable: up to
 * radius 12 (sigma 4) one fused pass beats two for every channel count;
 * at radius 15 it was no faster for RGBA and slower for grey and RGB. */
#define GB_CUDA_FUSED_RMAX 12
int gb_cuda_fir_fusable (const gb_cuda_fir_plan *plan, int channels);
gb_status gb_cuda_fir_fused (const gb_cuda_fir_plan *plan, const float *d_src,
                        float *d_dst, int w, int h, int c, int row0, int row1,
                        cudaStream_t s);

/* ---- recursive filters (recursive.cu) ----------------------------------
 * Young-van Vliet, two-way or Deriche on device buffers: the image in a
 * (contiguous rows), b and c of the same size as scratch; *result is the
 * buffer (a or b) that holds the blurred image.  Synchronises stream s. */
gb_status gb_cuda_recursive_run (const gb_params *params, float *a, float *b,
                            float *c, int w, int h, int channels,
                            cudaStream_t s, float **result);

/* The same in two steps, for timing kernels alone: the plan holds the
 * coefficients (host only); launching does not synchronise. */
struct gb_cuda_rec_plan;
gb_status gb_cuda_rec_plan_make (const gb_params *params, gb_cuda_rec_plan **plan);
gb_status gb_cuda_rec_plan_launch (const gb_cuda_rec_plan *plan, float *a, float *b,
                              float *c, int w, int h, int channels,
                              cudaStream_t s, float **result);
void gb_cuda_rec_plan_free (gb_cuda_rec_plan *plan);

/* ---- block-parallel recursive filters (recursive_blocks.cu) ------------
 * Whether the exact block kernels take this axis (L samples a line,
 * `lines` lines): yvv to GB_YVV_BLOCK_MAX_SIGMA and deriche, unless
 * blocks_per_stripe is 1, when the lines are short enough for the fused
 * kernel or the table and block states fit `scratch` (the image's
 * size).  One axis, src -> dst (distinct); scratch holds the table and
 * the states.  Does not synchronise. */
int gb_cuda_blocks_apply (const gb_params *params, double sigma,
                          int vertical, int L, int lines);
gb_status gb_cuda_blocks_run (const gb_params *params, double sigma,
                              int vertical, const float *src, float *dst,
                              float *scratch, int w, int h, int channels,
                              cudaStream_t s);
/* Whether both axes take the block kernels together, the rows' finals
 * making the columns' partial states (one read of the image less): the
 * same algorithm on both, 3 or 4 channels, at least 2^24 floats (any
 * size where GB_CUDA_PAIRS_ALWAYS is set), lines too long for the fused
 * kernel, and room for the tile in shared memory and for both axes'
 * states in scratch.  src -> mid (rows) -> dst (columns); dst may be
 * src. */
int gb_cuda_blocks_pair_apply (const gb_params *px, double sx,
                               const gb_params *py, double sy, int w, int h,
                               int channels);
gb_status gb_cuda_blocks_pair_run (const gb_params *px, double sx,
                                   const gb_params *py, double sy,
                                   const float *src, float *mid, float *dst,
                                   float *scratch, int w, int h, int channels,
                                   cudaStream_t s);

/* out (h x w) = in (w x h) transposed, pixels of `channels` floats. */
gb_status gb_cuda_transpose (const float *in, float *out, int w, int h,
                        int channels, cudaStream_t s);

/* ---- edge-aware (edge.cu) ----------------------------------------------
 * Algorithms A and C on device buffers a (the image), b and c (scratch of
 * the same size); *result is a or b.  Synchronises s. */
gb_status gb_cuda_edge_run (const gb_params *params, float *a, float *b, float *c,
                       int w, int h, int channels, int sm_count,
                       cudaStream_t s, float **result);

/* Blocks per line of the edge-aware filters on the GPU: blocks_per_stripe,
 * or for Algorithm C about 1024 threads per multiprocessor in blocks no
 * shorter than 64 pixels, for Algorithm A's exact blocks at least 32 a
 * line, of at most 40 pixels (32 with 4 channels) and none shorter than
 * 16. */
int gb_cuda_edge_blocks (const gb_params *params, int lines, int L,
                         int channels, int sm_count);

#endif
