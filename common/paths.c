/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The front ends' data folders, found beside the executable (paths.h). */
#include "config.h"

#include "paths.h"

/* DIR/name when that folder exists beside the executable, else fallback. */
static gchar *
beside_executable (const gchar *name, const gchar *fallback)
{
  /* The executable's real path: GIMP may have run a link to it. */
  gchar *exe = g_file_read_link ("/proc/self/exe", NULL);
  if (!exe)
    return g_strdup (fallback);
  gchar *dir = g_path_get_dirname (exe);
  gchar *path = g_build_filename (dir, name, NULL);
  g_free (exe);
  g_free (dir);
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return path;
  g_free (path);
  return g_strdup (fallback);
}

const gchar *
cudablur_locale_dir (void)
{
  static gchar *dir;
  const gchar *env = g_getenv ("CUDABLUR_LOCALEDIR");
  if (env && *env)
    return env;
  if (!dir)
    dir = beside_executable ("locale", LOCALEDIR);
  return dir;
}

const gchar *
cudablur_help_dir (void)
{
  static gchar *dir;
  if (!dir)
    dir = beside_executable ("help", HELPDIR);
  return dir;
}
