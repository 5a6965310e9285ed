/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers for the programs that run the operation in real GEGL. */
#ifndef CUDABLUR_TESTS_GEGL_UTIL_H
#define CUDABLUR_TESTS_GEGL_UTIL_H

#include <glib.h>

/* Puts the build's module (GEGL_MODULE_DIR/cudablur.so) where the user's
 * own copy goes, in a new XDG_DATA_HOME, before gegl_init: it wins over a
 * copy installed for the system, so the tests run the build's operation.
 * Returns the folder for tu_gegl_remove_users, or NULL. */
gchar *tu_gegl_module_as_users (void);
void tu_gegl_remove_users (gchar *home);

#endif
