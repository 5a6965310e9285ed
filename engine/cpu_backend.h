/* The CPU backend, internal to the engine. */
#ifndef GB_CPU_BACKEND_H
#define GB_CPU_BACKEND_H

#include "gblur.h"
#include "cpu_pool.h"

#ifdef __cplusplus
extern "C" {
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

/* Normalised float taps t[0..radius] for sigma in the requested mode;
 * returns NULL on allocation failure.  *radius receives the radius. */
float *gb_fir_taps_float (double sigma, gb_taps_mode mode, int *radius);

/* Copies the pixels of src into dst (same size and channels). */
void gb_image_copy (const gb_image *src, const gb_image *dst);

#ifdef __cplusplus
}
#endif

#endif
