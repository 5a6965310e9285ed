/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The edge-aware filter's kernels by what they do, driven by
 * gb_cuda_edge_run (edge.cu): the spacings (edge_spacings.cu); one pass
 * over the columns in one kernel, Algorithm C or the exact blocks' final
 * where edge_exact.cu's own final does not fit (edge_cols.cu); the exact
 * blocks' partials, carries and final (edge_exact.cu).  A pass reads its
 * lines as columns: in and out are [L][lines][C], dt [L][lines]; sigma
 * and hold make the filter's constants.  channels: 1 to 4. */
#ifndef GB_CUDA_EDGE_PARTS_H
#define GB_CUDA_EDGE_PARTS_H

#include "cuda_internal.h"

/* The spacings dt_y (w x h) and dt_xT (h x w) of img, and where imgT is
 * not null the image transposed into it. */
gb_status gb_cuda_edge_spacings (int channels, const float *img, int w, int h,
                                 float rx2, float ry2, int perceptual,
                                 float *dty, float *dtxT, float *imgT,
                                 cudaStream_t s);

/* One pass in one kernel: final 0, Algorithm C with a warm-up of
 * `warmup' (Algorithm A with one block a line); final 1, the exact
 * blocks' final from their states st, writing out as in is laid out. */
gb_status gb_cuda_edge_cols (int channels, bool final, const float *in,
                             float *out, const float *dt, const float *st,
                             int lines, int L, int blocks, float warmup,
                             double sigma, int hold, cudaStream_t s);

/* One pass in exact blocks (st: room for their states); tout: out
 * transposed, only where gb_cuda_edge_pair_fits (..., true). */
gb_status gb_cuda_edge_exact (int channels, const float *in, float *out,
                              const float *dt, float *st, int lines, int L,
                              int blocks, float warmup, double sigma,
                              int hold, bool tout, cudaStream_t s);

/* Whether the exact blocks' final takes edge_exact.cu's own kernel (tout:
 * writing its output transposed). */
bool gb_cuda_edge_pair_fits (int channels, int L, int blocks, bool tout);

#endif
