/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The plug-in's dialog as the run modes need it: declared here, in the
 * layer that calls it, and implemented in ui/ (which includes plugin/
 * headers; nothing in plugin/ includes ui/). */
#ifndef CUDABLUR_DIALOG_H
#define CUDABLUR_DIALOG_H

#include "values.h"

/* Runs the dialog on vals; TRUE when the user pressed OK (vals then hold
 * the chosen values), FALSE on Cancel or close. */
gboolean cudablur_dialog (gint32 drawable_id, CudablurVals *vals);

/* Whether a display can be opened for the dialog (not under gimp -i or a
 * script without one, where GTK would end the process). */
gboolean cudablur_display_available (void);

#endif
