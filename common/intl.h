/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gettext for the front ends: every user-visible string goes through _()
 * (translated now) or N_() (marked, translated where used).  INIT_I18N
 * makes our catalogues a plug-in process's own; code that runs inside
 * another program's process (the GEGL module) must not call it. */
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
