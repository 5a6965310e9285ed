/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The resident process that serves script calls (gimp2/resident.c). */
#ifndef CUDABLUR_RESIDENT_H
#define CUDABLUR_RESIDENT_H

#include "procedure.h"

#define CUDABLUR_RESIDENT_PROC "extension-cudablur"

/* Registers the extension, in query (). */
void cudablur_resident_register (void);

/* The extension's run: installs the temporary procedure and serves calls
 * until GIMP quits; returns at once when CUDABLUR_NO_RESIDENT is set. */
void cudablur_resident_main (void);

/* Hands a non-interactive call to the resident when it runs: TRUE with
 * its status (and device or message, g_free it), or FALSE when there is
 * no resident, or it crashed on this call, and the caller is to do the
 * work itself. */
gboolean cudablur_forward (const gchar *name, gint nparams,
                           const GimpParam *param, GimpPDBStatusType *status,
                           gint32 *device_used, gchar **message);

/* The same for the values a dialog chose. */
gboolean cudablur_forward_values (gint32 image_id, gint32 drawable_id,
                                  const gb_params *vals,
                                  GimpPDBStatusType *status,
                                  gint32 *device_used, gchar **message);

#endif
