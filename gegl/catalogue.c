/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The module's catalogues.  GIMP 3 shows an operation's title, menu
 * label, description, property labels and tooltips and the names of its
 * choices as the operation's class holds them, without translating them
 * itself (GEGL's own operations translate theirs with GEGL's domain when
 * their class is made), so the class is made with the project's
 * catalogue: the module's copy, installed beside it as
 * MODULEDIR/cudablur/locale (GEGL's folder, the user's or a package's;
 * GEGL loads only the .so files it finds there), else where configure put
 * it.  GIMP may bind the same domain for plug-in-cudablur's catalogue
 * (the same messages); the module binds it again only where it has its
 * own, so that a module copied without its catalogue takes nothing
 * away. */
#define _GNU_SOURCE   /* dladdr */
#include "config.h"

#include <dlfcn.h>
#include <stdlib.h>

#include <glib/gi18n-lib.h>

#include "catalogue.h"

/* DIR/cudablur/locale where DIR holds `file`, if that folder exists. */
static gchar *
beside (const gchar *file)
{
  gchar *dir = g_path_get_dirname (file);
  gchar *path = g_build_filename (dir, "cudablur", "locale", NULL);
  g_free (dir);
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return path;
  g_free (path);
  return NULL;
}

gchar *
cudablur_catalogue_dir (void)
{
  Dl_info self;
  gchar *dir = NULL;
  if (dladdr ((void *) cudablur_catalogue_dir, &self) && self.dli_fname)
    {
      dir = beside (self.dli_fname);
      /* A link to the module in a GEGL folder: the catalogue is beside
       * the file it points to. */
      char *real = dir ? NULL : realpath (self.dli_fname, NULL);
      if (real)
        dir = beside (real);
      free (real);
    }
  if (!dir && g_file_test (GEGL_LOCALEDIR, G_FILE_TEST_IS_DIR))
    dir = g_strdup (GEGL_LOCALEDIR);
  return dir;
}

void
cudablur_bind_catalogue (void)
{
  gchar *dir = cudablur_catalogue_dir ();
  if (!dir)
    return;
  bindtextdomain (GETTEXT_PACKAGE, dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  g_free (dir);
}
