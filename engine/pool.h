/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A parallel-for over work items on all cores, with progress and cancel
 * reported from the calling thread only. */
#ifndef GB_POOL_H
#define GB_POOL_H

#include "gblur.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Progress of one stage mapped into [base, base + span] of the whole. */
typedef struct
{
  gb_progress_fn fn;
  void *user;
  double base;
  double span;
} gb_progress_span;

/* A gb_progress_fn whose user is a gb_progress_span: reports fraction of
 * the stage as base + span * fraction to the span's own fn and user. */
int gb_progress_span_report (double fraction, void *span);

/* Runs item(ctx, i, scratch) for i in [0, n_items).  Each worker gets its
 * own zeroed scratch of scratch_bytes (may be 0).  Returns GB_OK,
 * GB_ERR_CANCELLED, GB_ERR_NO_MEMORY or GB_ERR_THREAD. */
typedef void (*gb_item_fn) (void *ctx, long item, void *scratch);

gb_status gb_parallel_for (long n_items, gb_item_fn item, void *ctx,
                           size_t scratch_bytes, int threads,
                           const gb_progress_span *progress);

/* Threads to use for a request (0 = one per online core). */
int gb_threads_for (int requested);

#ifdef __cplusplus
}
#endif

#endif
