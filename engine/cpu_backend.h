/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CPU backend, internal to the engine. */
#ifndef GB_CPU_BACKEND_H
#define GB_CPU_BACKEND_H

#include "gblur.h"
#include "pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The recursive filters' line loops are compiled twice, for AVX2 and for
 * any x86-64, and picked when the program loads: 4 doubles per vector
 * instead of 2, about twice as fast.  The FIR's loops measured slower that
 * way and are not cloned.  AVX2 alone (no FMA) rounds exactly as SSE2
 * does, so results do not depend on the machine. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) \
    && defined(__linux__)
#define GB_CPU_CLONES __attribute__ ((target_clones ("avx2", "default")))
#else
#define GB_CPU_CLONES
#endif

/* params->algorithm is already resolved (never AUTO) and inputs valid. */
gb_status gb_cpu_run (const gb_params *params, const gb_image *src,
                      const gb_image *dst, const gb_progress_span *progress,
                      gb_report *report);

gb_status gb_cpu_fir (const gb_params *params, const gb_image *src,
                      const gb_image *dst, const gb_progress_span *progress);

/* Young-van Vliet, two-way and Deriche (engine/cpu_recursive.c). */
gb_status gb_cpu_recursive (const gb_params *params, const gb_image *src,
                            const gb_image *dst,
                            const gb_progress_span *progress);

/* Edge-aware Algorithms A and C (engine/cpu_edge.c). */
gb_status gb_cpu_edge (const gb_params *params, const gb_image *src,
                       const gb_image *dst, const gb_progress_span *progress);

/* One pass of the edge-aware filter over img in place: its rows
 * (vertical 0) or columns at iteration `iteration` of params->iterations,
 * dt the spacings along the pass (img's size, w*h floats: dtx or dty of
 * gb_edge_spacings).  gb_cpu_edge runs these; so do the engine's bands
 * (bands.c), a band or strip at a time.  An axis of sigma 0 does
 * nothing. */
gb_status gb_cpu_edge_pass (const gb_params *params, int iteration,
                            int vertical, const gb_image *img,
                            const float *dt, const gb_progress_span *progress);

/* The domain transform's spacings dtx (between x-1 and x) and dty
 * (between y-1 and y), w*h each, from perceptual colour on a 0-255
 * scale (encoded from linear unless the data is perceptual already);
 * ratio2 = gb_edge_ratio2 (sigma_s, sigma_r). */
gb_status gb_edge_spacings (const gb_image *src, double ratio2_x,
                            double ratio2_y, int perceptual, float *dtx,
                            float *dty);

/* Copies the pixels of src into dst (same size and channels). */
void gb_image_copy (const gb_image *src, const gb_image *dst);

#ifdef __cplusplus
}
#endif

#endif
