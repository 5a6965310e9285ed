/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which blocks of the operation's output GEGL's cache holds
 * (gegl/blocks.c). */
#ifndef CUDABLUR_GEGL_BLOCKS_H
#define CUDABLUR_GEGL_BLOCKS_H

#include <gegl.h>
#include <gegl-plugin.h>

/* Whether block (bx, by) of side `side` (full-resolution pixels) at
 * `level` is computed in `output`: GEGL asks for every block a request
 * touches, all of them again when one is new, and those already in its
 * cache need not be computed twice.  Only the node's own cache is
 * remembered, until GEGL invalidates any part of it (the node's
 * "invalidated" signal: a property or the input changed). */
gboolean cudablur_block_done (GeglOperation *operation, GeglBuffer *output,
                              gint side, gint level, gint bx, gint by);

/* Remembers that the block is now computed in `output`. */
void cudablur_block_computed (GeglOperation *operation, GeglBuffer *output,
                              gint side, gint level, gint bx, gint by);

#endif
