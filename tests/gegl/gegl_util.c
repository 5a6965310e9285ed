/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers for the programs that run the operation in real GEGL
 * (gegl_util.h). */
#define _DEFAULT_SOURCE   /* symlink */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "gegl_util.h"

/* The build's module as the user's own copy (XDG_DATA_HOME/gegl-0.4/
 * plug-ins), which wins over one installed for the system: so the tests
 * run the build's operation wherever a package is installed.  Returns the
 * folder to remove after. */
gchar *
tu_gegl_module_as_users (void)
{
  gchar *home = g_dir_make_tmp ("cudablur-test-op-XXXXXX", NULL);
  if (!home)
    return NULL;
  gchar *dir = g_build_filename (home, "gegl-0.4", "plug-ins", NULL);
  gchar *link = g_build_filename (dir, "cudablur.so", NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0
      || symlink (GEGL_MODULE_DIR "/cudablur.so", link) != 0)
    fprintf (stderr, "cannot link the module into %s\n", dir);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_free (link);
  g_free (dir);
  return home;
}

void
tu_gegl_remove_users (gchar *home)
{
  if (!home)
    return;
  gchar *dir = g_build_filename (home, "gegl-0.4", "plug-ins", NULL);
  gchar *link = g_build_filename (dir, "cudablur.so", NULL);
  gchar *parent = g_path_get_dirname (dir);
  g_unlink (link);
  g_rmdir (dir);
  g_rmdir (parent);
  g_rmdir (home);
  g_free (parent);
  g_free (link);
  g_free (dir);
  g_free (home);
}
