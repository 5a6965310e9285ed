/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pixel format a front end moves between GEGL and the engine
 * (gegl-io/format.c): babl only, shared by the GIMP 2.10 plug-in and the
 * GEGL operation. */
#ifndef CUDABLUR_GEGL_IO_FORMAT_H
#define CUDABLUR_GEGL_IO_FORMAT_H

#include <babl/babl.h>

#include "gblur.h"

/* For a buffer of format `native`: the babl format to read and write it
 * in (*io) and how the engine sees those pixels (*engine).  The native
 * format itself where the engine converts it (sRGB or linear, grey or
 * RGB, 8/16/32-bit integer, half or float), so the conversion runs where
 * the blur runs; anything else (another colour space, 64-bit floats) as
 * float in its own space, babl converting.  `perceptual` blurs the
 * sRGB-encoded values as they are; `add_alpha` gives a format without
 * alpha one (the edge mode "none": the layer ends at its edge).  Returns
 * whether the native format is used as it is. */
int cudablur_io_format_for (const Babl *native, int perceptual, int add_alpha,
                            gb_pixel_format *engine, const Babl **io);

#endif
