/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fault injection for tests: GB_CUDA_FAULT=probe|alloc|launch|copy makes
 * that step of the CUDA backend fail, so each fallback path can be proved.
 * On a machine without a GPU, alloc/launch/copy faults make the backend
 * report a simulated device whose run fails with that status, so the
 * dispatcher's fallback is exercised in CI too. */
#ifndef GB_CUDA_FAULT_H
#define GB_CUDA_FAULT_H

#include <stddef.h>

#include "../engine/gblur.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether GB_CUDA_FAULT names this point ("probe", "alloc", ...). */
int gb_cuda_fault_at (const char *point);

/* The status an injected alloc/launch/copy fault stands for, or GB_OK
 * when none of them is injected. */
gb_status gb_cuda_fault_status (void);

#define GB_CUDA_FAULT_DEVICE_NAME "simulated device (GB_CUDA_FAULT)"

/* The shared memory a thread block may opt in to: the device's, or less
 * where GB_CUDA_SHM_LIMIT (bytes) says so, so that the paths taken on
 * devices with less (65536 on Turing, 101376 on consumer Ampere and
 * Ada) run and are tested on any GPU. */
size_t gb_cuda_shm_limit (size_t device_optin);

/* Whether thread-block clusters may be used: the device's answer, unless
 * GB_CUDA_NO_CLUSTERS is set (as on devices before Hopper, so that the
 * kernels without clusters run and are tested on any GPU). */
int gb_cuda_clusters_allowed (int device_has);

/* Whether kernels may be launched as programmatic dependents of the one
 * before them: the device's answer (compute capability 9.0 on), unless
 * GB_CUDA_NO_PDL is set (so that plain launches run and are tested on any
 * GPU). */
int gb_cuda_pdl_allowed (int device_has);

/* Whether GB_CUDA_PAIRS_ALWAYS is set: the recursive blocks' rows and
 * columns then run together (gb_cuda_blocks_pair_apply) on images of any
 * size, not only on those large enough to gain, so that the tests reach
 * that path with small images.  Read on every call. */
int gb_cuda_pairs_always (void);

#ifdef __cplusplus
}
#endif

#endif
