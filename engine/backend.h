/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPU backend as the engine sees it: the interface the engine owns and
 * cuda/ implements (cuda/stub.c in a build without nvcc).  Which
 * algorithms it runs is the registry's gpu field. */
#ifndef GB_BACKEND_H
#define GB_BACKEND_H

#include <stddef.h>

#include "gblur.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether the algorithm filters bands of rows as they arrive, needing
 * only its reach of rows around each band (the FIR), rather than the
 * whole image at once (the recursive and edge-aware filters): both
 * backends size their buffers and order their I/O by it.  A registry
 * field (engine/algorithms.c). */
int gb_algorithm_banded (gb_algorithm algorithm);

/* Monotonic seconds, for the report's stage times. */
double gb_now (void);

/* Whether this build has a CUDA backend (the stub: only the simulated
 * device of fault injection); answers without touching CUDA. */
int gb_cuda_built (void);

/* GB_OK and the device name when a device can be used, else the reason. */
gb_status gb_cuda_probe (char *name, size_t size);

/* Runs a resolved blur on the GPU, rows with algorithm ax and columns
 * with ay (params->algorithm when they agree).  Never writes dst unless
 * the whole result is ready, so a failure leaves src (even when dst ==
 * src) intact for the CPU fallback.  Fills report's upload/compute/download times. */
gb_status gb_cuda_run (const gb_params *params, gb_algorithm ax,
                       gb_algorithm ay, const gb_image *src,
                       const gb_image *dst, gb_progress_fn progress,
                       void *user, gb_report *report);

/* Whether a probe costs nothing: the context exists already, or an
 * earlier probe found no device.  When it does not, a caller may start
 * CUDA on another thread while it reads the image (gb_cuda_prepare). */
int gb_cuda_probe_is_cheap (void);

/* Start-up ahead of a native run (context, device buffers for an image of
 * native_bytes and work_bytes, the pinned ring), meant to run on another
 * thread while the caller reads the image.  GB_OK and the device name, or
 * the reason in why. */
gb_status gb_cuda_prepare (size_t native_bytes, size_t work_bytes, int third_buffer,
                           char *why, size_t size);

/* Runs a native blur on the GPU (see gb_blur_native): rows with algorithm
 * ax, columns with ay, both resolved.  Returns a GB_ERR_CUDA_* status when
 * the device failed (the caller may redo it all on the CPU), or the
 * status a callback returned, or GB_ERR_CANCELLED.  Adds its stage times
 * to report. */
gb_status gb_cuda_run_native (const gb_params *params, gb_algorithm ax,
                              gb_algorithm ay, const gb_native_io *io,
                              gb_progress_fn progress, void *user,
                              gb_report *report);

/* Device memory a blur could use now: free plus what the context keeps
 * (starts the context); 0 where no device can be used. */
size_t gb_cuda_memory_available (void);

/* One pass of the edge-aware filter on the GPU over img in place (see
 * gb_cpu_edge_pass): rows (vertical 0) or columns, at iteration
 * `iteration`, its spacings computed on the device from `original` (the
 * same pixels as first read, img's size; may be img itself).  params
 * hold both axes' standard deviations (the spacings use both) and
 * whole_lines is how many lines the pass has over the whole image
 * (Algorithm C's blocks a line depend on it).  Writes img only once the
 * pass succeeded. */
gb_status gb_cuda_edge_pass (const gb_params *params, int iteration,
                             int vertical, int whole_lines,
                             const gb_image *img, const gb_image *original,
                             gb_report *report);

/* Whether a context exists. *//* Whether a context exists. */
int gb_cuda_context_alive (void);

/* Frees device buffers and pinned memory, keeps the context. */
void gb_cuda_trim (void);

/* The same where no GPU blur is running now; else nothing. */
void gb_cuda_trim_idle (void);

/* Frees the context kept between calls. */
void gb_cuda_release (void);

/* Benchmark hooks (tests/bench.c, CUDA builds only): median kernel time of
 * one FIR blur of a w x h x c image already on the device, and of a
 * device-to-device copy of `bytes`. */
gb_status gb_cuda_bench_kernels (const gb_params *params, int w, int h, int c,
                                 int reps, double *ms_median);
gb_status gb_cuda_bench_copy (size_t bytes, int reps, double *ms_median);

#ifdef __cplusplus
}
#endif

#endif
