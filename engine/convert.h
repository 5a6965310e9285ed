/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Conversions between native formats and the work format, internal to
 * the engine and the CUDA backend. */
#ifndef GB_CONVERT_H
#define GB_CONVERT_H

#include "gblur.h"
#include "convert_pixel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The lookup tables in host memory, built on first use. */
const gb_convert_luts *gb_convert_luts_host (void);

/* Sizes of the tables, for copying them to a device. */
#define GB_LUT_U8_FLOATS 256
#define GB_LUT_U16_FLOATS 65536

#ifdef __cplusplus
}
#endif

#endif
