/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Pixels between GEGL buffers and the engine (gegl/pixels.c). */
#ifndef CUDABLUR_GEGL_PIXELS_H
#define CUDABLUR_GEGL_PIXELS_H

#include <gegl.h>
#include <gegl-plugin.h>

#include "gblur.h"

/* Blurs `out` (coordinates of mipmap level `level`) with the values in
 * params from the input's pixels there and the reach around them (no
 * reach with `whole`: `out` is the whole image), within `image` (the
 * input's extent at the level); a `finite` image's edges get the edge
 * mode's border.  io_format is the buffers' format, engine_format how the
 * engine sees it.  One gb_blur_native call, whose status it returns;
 * adds the pixels it read to *pixels and gives the engine's report of it
 * in *report (where it ran, why not on the GPU).
 * A whole image's progress goes to the operation's node when on the
 * main thread. */
gb_status cudablur_blur_rect (GeglOperation *operation, GeglBuffer *input,
                              GeglBuffer *output, const gb_params *params,
                              const gb_pixel_format *engine_format,
                              const Babl *io_format, gint level,
                              const GeglRectangle *out,
                              const GeglRectangle *image, gboolean finite,
                              gboolean whole, gdouble *pixels,
                              gb_report *report);

/* The input as it is over `out` (level coordinates). */
void cudablur_pass_through (GeglBuffer *input, GeglBuffer *output,
                            const Babl *format, gint level,
                            const GeglRectangle *out);

#endif
