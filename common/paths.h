/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where a plug-in's catalogues and help pages are: beside the running
 * executable when they are there (an installed plug-in folder, or one
 * copied by hand into any GIMP plug-in folder), else where configure put
 * them.  CUDABLUR_LOCALEDIR overrides the catalogues (the tests run the
 * build tree's). */
#ifndef CUDABLUR_PATHS_H
#define CUDABLUR_PATHS_H

#include <glib.h>

const gchar *cudablur_locale_dir (void);
const gchar *cudablur_help_dir (void);

#endif
