/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The preview against the final result (preview-fidelity.c). */
#ifndef CUDABLUR_PREVIEW_FIDELITY_H
#define CUDABLUR_PREVIEW_FIDELITY_H

#include <libgimp/gimp.h>

#include "gblur.h"

/* Checks every preview dumped in dir (CUDABLUR_PREVIEW_DUMP) against the
 * final result on a duplicate of image: a PASS or FAIL line per preview
 * in $CUDABLUR_TEST_LOG (label names the case), at least min_db PSNR to
 * pass.  Returns the number that failed; *checked how many were found. */
gint preview_fidelity (gint32 image, const gchar *dir, gdouble min_db,
                       const gchar *label, gint *checked);

#endif
