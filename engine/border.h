/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Borders other than the replicated edge (gb_params.border): the image is
 * framed by one pixel of the border colour and blurred with replicated
 * borders, which repeat the frame's colour forever; the frame is cropped
 * away.  Every algorithm on both backends gets the constant extension this
 * way without a line of its own: the linear filters exactly, the
 * edge-aware ones as a one-pixel frame that belongs to the image.  The
 * float entry copies the image into a framed buffer; the native one adds
 * the frame as its rows pass through, at no cost. */
#ifndef GB_BORDER_H
#define GB_BORDER_H

#include "gblur.h"

/* The border's colour for an image of `channels` channels, premultiplied
 * (alpha last with 2 or 4 channels); 0 for GB_BORDER_CLAMP. */
int gb_border_colour (gb_border border, int channels, float colour[4]);

/* The unframed engine: gb_blur after validation, replicated borders. */
typedef gb_status (*gb_blur_fn) (const gb_params *params, const gb_image *src,
                                 const gb_image *dst, gb_progress_fn progress,
                                 void *user, gb_report *report);

/* gb_blur with a border colour: src framed into a buffer of its own,
 * blurred there by blur, the inside copied to dst (which may be src). */
gb_status gb_blur_framed (const gb_params *params, const gb_image *src,
                          const gb_image *dst, gb_progress_fn progress,
                          void *user, gb_report *report, gb_blur_fn blur);

/* Native io seen through a frame: an area one pixel larger on every
 * side, whose outer pixels are the border colour in the native format,
 * and the output rectangle moved by one pixel; the rows pass through to
 * the inner callbacks. */
typedef struct
{
  const gb_native_io *inner;
  size_t bpp;
  _Alignas (4) unsigned char pixel[16];   /* the border colour, encoded */
} gb_framed_io;

void gb_frame_io (const gb_native_io *inner, gb_border border,
                  gb_framed_io *f, gb_native_io *framed);

#endif
