/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The algorithm registry's engine-internal part: each algorithm's CPU
 * entry (the rest of its row is public, gb_algorithm_info, or asked by
 * both backends: gb_algorithm_banded in backend.h). */
#ifndef GB_ALGORITHMS_H
#define GB_ALGORITHMS_H

#include "gblur.h"
#include "pool.h"

/* A CPU filter: both axes of a resolved algorithm, src to dst (dst may be
 * src), inputs valid. */
typedef gb_status (*gb_cpu_filter) (const gb_params *params,
                                    const gb_image *src, const gb_image *dst,
                                    const gb_progress_span *progress);

/* The CPU entry of an algorithm (NULL for auto, which is resolved first,
 * and for numbers that are no algorithm). */
gb_cpu_filter gb_algorithm_cpu (gb_algorithm algorithm);

#endif
