/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gettext for the plug-in and its dialog: every user-visible string goes
 * through _() (translated now) or N_() (marked, translated where used). */
#ifndef CUDABLUR_INTL_H
#define CUDABLUR_INTL_H

#include <glib/gi18n-lib.h>

#include "paths.h"

#define INIT_I18N()                                                       \
  G_STMT_START {                                                          \
    bindtextdomain (GETTEXT_PACKAGE, cudablur_locale_dir ());             \
    bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");                   \
    textdomain (GETTEXT_PACKAGE);                                         \
  } G_STMT_END

#endif
