/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Other ways of computing the same blur, kept to reproduce the papers and
 * to compare the kernels: tests and benchmarks set them through
 * gb_params.research; every front end leaves it NULL, the defaults.  Not
 * part of the engine's API (gblur.h). */
#ifndef GB_RESEARCH_H
#define GB_RESEARCH_H

#include "gblur.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How FIR taps are produced: read from a precomputed table, or generated
 * on the fly by forward quotients (Turkowski, GPU Gems 3, ch. 40). */
typedef enum
{
  GB_TAPS_TABLE = 0,
  GB_TAPS_INCREMENTAL = 1
} gb_taps_mode;

/* How the edge-aware recursion treats the input between two samples that
 * the domain transform spreads apart (an edge). */
typedef enum
{
  GB_EDGE_HOLD = 0,     /* each sample holds for half the gap: edges keep
                           their contrast (default) */
  GB_EDGE_LINEAR = 1    /* linear interpolation, the paper's Eq. 4 as
                           printed: a wide gap becomes a ramp, and about
                           18 % of a 200-level edge leaks at sigma 50,
                           range sigma 20 */
} gb_edge_interpolation;

struct gb_research
{
  gb_taps_mode taps;       /* FIR taps: table or incremental */
  int blocks_per_stripe;   /* Algorithm C's blocks per line, 0 = chosen
                              from the device; yvv and deriche on the GPU:
                              1 = one line per thread, otherwise the exact
                              block-parallel kernels */
  gb_edge_interpolation edge_interpolation;
  int naive_borders;       /* yvv: start the anticausal pass from the last
                              causal value, as the two-way paper does (to
                              reproduce its Table 2), instead of the exact
                              replicate-border start (Triggs-Sdika). */
};

/* The algorithms whose taps mode matters (gb_algorithm_info.uses). */
#define GB_USES_TAPS 0x8u

/* The defaults: table taps, blocks from the device, held samples, exact
 * borders. */
void gb_research_init (gb_research *research);

/* params->research, or the defaults where it is NULL. */
const gb_research *gb_research_of (const gb_params *params);

#ifdef __cplusplus
}
#endif

#endif
