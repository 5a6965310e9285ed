/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The exact Gaussian for accuracy tests and the PSNR table: a separable
 * double-precision convolution with the untruncated (6 sigma) normalised
 * kernel and replicated (or constant) borders, and PSNR on an 8-bit
 * scale. */
#ifndef GB_EXACT_GAUSS_H
#define GB_EXACT_GAUSS_H

#include "testutil.h"

/* out (doubles, w*h*c, contiguous) = exact Gaussian of img.  Returns 0 on
 * allocation failure. */
int tu_exact_gaussian (const tu_image *img, double sx, double sy, double *out);

/* The same with the image extended by a constant colour (one value per
 * channel) instead of replicated; colour NULL replicates. */
int tu_exact_gaussian_border (const tu_image *img, double sx, double sy,
                              const float *colour, double *out);

/* The same truncated at radii rx, ry (the taps renormalised), e.g. the
 * FIR's. */
int tu_gaussian_radius_border (const tu_image *img, double sx, int rx,
                               double sy, int ry, const float *colour,
                               double *out);

/* PSNR in dB between a float image and a double image scaled to 0-255. */
double tu_psnr_vs (const tu_image *img, const double *ref);

/* PSNR in dB between two float images, 0-255 scale. */
double tu_psnr (const tu_image *a, const tu_image *b);

#endif
