/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The operation's texts in the user's language (gegl/catalogue.c). */
#ifndef CUDABLUR_GEGL_CATALOGUE_H
#define CUDABLUR_GEGL_CATALOGUE_H

#include <glib.h>

/* Binds the project's text domain to the catalogues installed beside the
 * module, when they are there: the operation's class then translates its
 * texts with dgettext (glib/gi18n-lib.h's _()), never textdomain(), the
 * host program's own. */
void cudablur_bind_catalogue (void);

/* The folder it binds, or NULL where there is none (g_free it). */
gchar *cudablur_catalogue_dir (void);

#endif
