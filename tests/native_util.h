/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test plumbing for gb_blur_native: an in-memory caller that checks the
 * callback contract, random native pixels, format names. */
#ifndef GB_NATIVE_UTIL_H
#define GB_NATIVE_UTIL_H

#include <stdint.h>

#include "gblur.h"

/* The caller's side of one gb_blur_native run. */
typedef struct
{
  const unsigned char *area;    /* native pixels read from */
  unsigned char *out;           /* where the writes deliver */
  size_t row, orow;             /* bytes per area and output row */
  int height, out_height;
  int next_read, next_write;    /* rows expected next */
  int order_errors;             /* reads overlapping or going back, writes
                                   not in order */
  int restarts;                 /* reads or writes starting over at row 0
                                   (the CPU after a failed GPU run) */
  int reads, writes;
  gb_status fail_read, fail_write;  /* returned by callback number fail_at */
  int fail_at;
} tu_sink;

/* A caller for an area of w x h pixels with an output rectangle of
 * ow x oh at (ox, oy), reading from area and writing to out. */
void tu_sink_init (tu_sink *s, gb_native_io *io, const gb_pixel_format *f,
                   const unsigned char *area, int w, int h, int ox, int oy,
                   int ow, int oh, unsigned char *out);

/* Random samples in [0, 1] (integers: any code). */
void tu_fill_native (const gb_pixel_format *f, unsigned char *p,
                     size_t n_samples, uint64_t *seed);

/* "u8 sRGB 3ch" (a static buffer). */
const char *tu_format_name (const gb_pixel_format *f);

/* Largest difference between two native images in quantisation steps of
 * the format (a relative 1e-5 for floats, 2^-10 relative for halves), and
 * the share of samples that differ at all. */
double tu_native_diff (const gb_pixel_format *f, const unsigned char *a,
                       const unsigned char *b, size_t n_samples,
                       double *share_differing);

#endif
