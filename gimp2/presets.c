/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The dialog's presets (presets.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "presets.h"
#include "values-format.h"

static gchar *
presets_file (void)
{
  return g_build_filename (gimp_directory (), "cudablur-presets", NULL);
}

/* The file as it is (empty when it does not exist yet). */
static GKeyFile *
read_all (void)
{
  GKeyFile *k = g_key_file_new ();
  gchar *file = presets_file ();
  g_key_file_load_from_file (k, file, G_KEY_FILE_KEEP_COMMENTS, NULL);
  g_free (file);
  return k;
}

static gboolean
write_all (GKeyFile *k, GError **error)
{
  gchar *file = presets_file ();
  gboolean ok = g_key_file_save_to_file (k, file, error);
  g_free (file);
  return ok;
}

static gint
by_name (gconstpointer a, gconstpointer b)
{
  return g_utf8_collate (*(const gchar *const *) a, *(const gchar *const *) b);
}

gchar **
cudablur_presets_list (void)
{
  GKeyFile *k = read_all ();
  gsize n = 0;
  gchar **names = g_key_file_get_groups (k, &n);
  g_key_file_free (k);
  qsort (names, n, sizeof *names, by_name);
  return names;
}

gboolean
cudablur_preset_load (const gchar *name, gb_params *vals)
{
  GKeyFile *k = read_all ();
  gboolean ok = cudablur_vals_from_keys (k, name, vals);
  g_key_file_free (k);
  return ok;
}

gboolean
cudablur_preset_save (const gchar *name, const gb_params *vals,
                      GError **error)
{
  GKeyFile *k = read_all ();
  g_key_file_remove_group (k, name, NULL);
  cudablur_vals_to_keys (vals, k, name);
  gboolean ok = write_all (k, error);
  g_key_file_free (k);
  return ok;
}

gboolean
cudablur_preset_delete (const gchar *name, GError **error)
{
  GKeyFile *k = read_all ();
  gboolean ok = !g_key_file_remove_group (k, name, NULL)
                || write_all (k, error);
  g_key_file_free (k);
  return ok;
}
