/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The last values, kept for this session (gimp_set_data, what
 * RUN-WITH-LAST-VALS and Filters > Repeat read) and across sessions (a
 * persistent global parasite that GIMP saves in its profile's
 * parasiterc), in the formats of values-format.c. */
#include "config.h"

#include "values.h"
#include "values-format.h"

/* The parasite: a key file, so that values added later read as their
 * defaults from an older profile, and one stored by a newer version with
 * keys this one does not know still gives what it does know. */
#define LAST_VALUES_PARASITE "plug-in-cudablur-last-values"
#define GROUP "last-values"

/* Values stored in this session: any script can store bytes under our
 * name, so only exactly our size and version, with values that pass the
 * checks, are taken. */
static gboolean
load_session (gb_params *vals)
{
  const gsize size = cudablur_vals_bytes_size ();
  if (gimp_get_data_size (PLUG_IN_PROC) != (gint) size)
    return FALSE;
  guint8 *stored = g_malloc0 (size);
  const gboolean ok = gimp_get_data (PLUG_IN_PROC, stored)
                      && cudablur_vals_from_bytes (stored, size, vals);
  g_free (stored);
  return ok;
}

/* Values of an earlier session: what the parasite holds over the
 * defaults, if the result passes the checks. */
static gboolean
load_profile (gb_params *vals)
{
  GimpParasite *parasite = gimp_get_parasite (LAST_VALUES_PARASITE);
  if (!parasite)
    return FALSE;
  GKeyFile *k = g_key_file_new ();
  gboolean ok = g_key_file_load_from_data (
    k, gimp_parasite_data (parasite), gimp_parasite_data_size (parasite),
    G_KEY_FILE_NONE, NULL)
    && cudablur_vals_from_keys (k, GROUP, vals);
  g_key_file_free (k);
  gimp_parasite_free (parasite);
  return ok;
}

void
cudablur_vals_load (gb_params *vals)
{
  gb_params_init (vals);
  if (!load_session (vals))
    load_profile (vals);
}

static void
save_profile (const gb_params *v)
{
  GKeyFile *k = g_key_file_new ();
  cudablur_vals_to_keys (v, k, GROUP);
  gsize size = 0;
  gchar *text = g_key_file_to_data (k, &size, NULL);
  g_key_file_free (k);
  if (!text)
    return;
  GimpParasite *parasite = gimp_parasite_new (LAST_VALUES_PARASITE,
                                              GIMP_PARASITE_PERSISTENT,
                                              (guint32) size, text);
  g_free (text);
  if (parasite)
    {
      /* A failure costs only the next session's starting values. */
      if (!gimp_attach_parasite (parasite))
        g_printerr ("cudablur: could not keep the last values for the next "
                    "session\n");
      gimp_parasite_free (parasite);
    }
}

void
cudablur_vals_save (const gb_params *vals)
{
  const gsize size = cudablur_vals_bytes_size ();
  guint8 *bytes = g_malloc (size);   /* every byte written */
  cudablur_vals_to_bytes (vals, bytes);
  gimp_set_data (PLUG_IN_PROC, bytes, size);
  g_free (bytes);
  save_profile (vals);
}
