/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the engine tests and the benchmark: images, random
 * data, poisoning, an independent double-precision reference and checks. */
#ifndef GB_TESTUTIL_H
#define GB_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "gblur.h"
#include "research.h"

/* A test image owning its pixels, with optional row padding. */
typedef struct
{
  gb_image view;
  float *mem;
} tu_image;

int tu_alloc (tu_image *img, int w, int h, int c, int pad);
void tu_free (tu_image *img);

/* Fills every float of the allocation (padding included) with NaN. */
void tu_poison (tu_image *img);
/* Uniform random data in [0, 1] from a xorshift generator. */
void tu_fill_random (tu_image *img, uint64_t *seed);
void tu_fill_constant (tu_image *img, float v);

/* Loads a binary PPM (P6) or PGM (P5) from tests/data into [0, 1] floats,
 * then reshapes it to c channels (grey is replicated, alpha is a ramp).
 * Returns 0 on failure. */
int tu_load_pnm (tu_image *img, const char *name, int c, int pad);

/* Counts non-finite values inside the image area (unwritten pixels). */
long tu_count_nonfinite (const tu_image *img);
/* Counts padding floats that are no longer NaN (written outside). */
long tu_count_padding_written (const tu_image *img);

/* Independent reference: a naive 2-D convolution in double precision with
 * the normalised Gaussian truncated at ceil(3 sigma) and replicated borders,
 * evaluated at pixel (x, y), channel ch. */
typedef struct
{
  double *gx, *gy;
  int rx, ry;
} tu_kernel;

int tu_kernel_make (tu_kernel *k, double sx, double sy);
void tu_kernel_free (tu_kernel *k);
double tu_reference_at (const tu_kernel *k, const tu_image *src,
                        int x, int y, int ch);

/* Max abs error of out against the reference over all pixels (small
 * images) or over `samples` random pixels plus every corner and edge
 * midpoint.  Returns a negative value on allocation failure. */
double tu_max_error_vs_reference (const tu_image *src, const tu_image *out,
                                  double sx, double sy, long samples,
                                  uint64_t *seed);

/* Relative L2 and max abs difference of two images. */
void tu_compare (const tu_image *a, const tu_image *b, double *rel_l2,
                 double *max_abs);

/* Seconds on the monotonic clock, for the benchmarks. */
double tu_now (void);

/* qsort's comparison of doubles, ascending (medians of timings). */
int tu_cmp_double (const void *a, const void *b);

/* Seed from GB_TEST_SEED or the clock, printed so a failure can be rerun. */
uint64_t tu_seed (const char *test_name);

/* Whether the registry says the algorithm uses the parameter (GB_USES_*),
 * and whether it is a recursive filter (one with a FIR fallback below
 * some sigma): the tests pick algorithms by what they are, not by
 * number. */
int tu_uses (int algorithm, unsigned uses);
int tu_recursive (int algorithm);

/* Default parameters with the algorithm and sigmas set, on the CPU. */
void tu_params_cpu (gb_params *p, int algorithm, double sigma_x,
                    double sigma_y);

/* Exit status for "skipped" under automake. */
#define TU_SKIP 77

/* Counting checks: print a line for each failure. */
extern int tu_failures;
extern int tu_checks;
#define TU_CHECK(cond, ...)                                              \
  do {                                                                   \
    tu_checks++;                                                         \
    if (!(cond)) {                                                       \
      tu_failures++;                                                     \
      fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__);              \
      fprintf (stderr, __VA_ARGS__);                                     \
      fputc ('\n', stderr);                                              \
    }                                                                    \
  } while (0)

/* Prints the summary and returns the exit status. */
int tu_finish (const char *test_name);

#endif
