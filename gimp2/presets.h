/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Named settings the user saves and recalls in the dialog, kept in the
 * GIMP profile (a key file, cudablur-presets, one group per name, the
 * keys of the last values). */
#ifndef CUDABLUR_PRESETS_H
#define CUDABLUR_PRESETS_H

#include "values.h"

/* The names, sorted (g_strfreev them). */
gchar **cudablur_presets_list (void);

/* The preset's values: FALSE when there is none of that name or its
 * values do not pass the checks. */
gboolean cudablur_preset_load (const gchar *name, gb_params *vals);

/* Saves (replacing one of the same name) or deletes; FALSE with *error
 * set (g_error_free it) when the file cannot be written. */
gboolean cudablur_preset_save (const gchar *name, const gb_params *vals,
                               GError **error);
gboolean cudablur_preset_delete (const gchar *name, GError **error);

#endif
