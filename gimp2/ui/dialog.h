/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The plug-in's dialog (gimp2/ui/dialog.c), which the interactive run
 * mode (gimp2/main.c) opens.  The dialog uses the wing's values and
 * presets; nothing else in the wing uses the dialog. */
#ifndef CUDABLUR_DIALOG_H
#define CUDABLUR_DIALOG_H

#include "../values.h"

/* Runs the dialog on vals; TRUE when the user pressed OK (vals then hold
 * the chosen values), FALSE on Cancel or close. */
gboolean cudablur_dialog (gint32 drawable_id, gb_params *vals);

/* Whether a display can be opened for the dialog (not under gimp -i or a
 * script without one, where GTK would end the process). */
gboolean cudablur_display_available (void);

#endif
