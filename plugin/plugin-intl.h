/* gettext for the plug-in and its dialog: every user-visible string goes
 * through _() (translated now) or N_() (marked, translated where used). */
#ifndef CUDABLUR_INTL_H
#define CUDABLUR_INTL_H

#include <glib/gi18n-lib.h>

/* Where the catalogues are: LOCALEDIR, or $CUDABLUR_LOCALEDIR (tests run
 * the plug-in uninstalled with the build tree's catalogues). */
#define CUDABLUR_LOCALE_DIR()                                             \
  (g_getenv ("CUDABLUR_LOCALEDIR") ? g_getenv ("CUDABLUR_LOCALEDIR")      \
                                   : LOCALEDIR)

#define INIT_I18N()                                                       \
  G_STMT_START {                                                          \
    bindtextdomain (GETTEXT_PACKAGE, CUDABLUR_LOCALE_DIR ());             \
    bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");                   \
    textdomain (GETTEXT_PACKAGE);                                         \
  } G_STMT_END

#endif
