/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The procedure's values: defaults, conversion to engine parameters, and
 * the last values, kept for this session (gimp_set_data, what
 * RUN-WITH-LAST-VALS and Filters > Repeat read) and across sessions (a
 * persistent global parasite that GIMP saves in its profile's
 * parasiterc). */
#include "config.h"

#include <string.h>

#include "values.h"

/* The parasite: a key file, so that values added later read as their
 * defaults from an older profile, and one stored by a newer version with
 * keys this one does not know still gives what it does know. */
#define LAST_VALUES_PARASITE "plug-in-cudablur-last-values"
#define GROUP "last-values"

/* Values stored in this session: any script can store bytes under our
 * name, so only exactly our size and version, with values that pass the
 * checks, are taken. */
static gboolean
load_session (CudablurVals *vals)
{
  CudablurVals stored;
  if (gimp_get_data_size (PLUG_IN_PROC) != (gint) sizeof stored)
    return FALSE;
  memset (&stored, 0, sizeof stored);
  if (!gimp_get_data (PLUG_IN_PROC, &stored)
      || stored.version != CUDABLUR_VALS_VERSION)
    return FALSE;
  gchar *message = NULL;
  gboolean ok = cudablur_vals_check (&stored, &message);
  g_free (message);
  if (ok)
    *vals = stored;
  return ok;
}

static void
read_double (GKeyFile *k, const gchar *group, const gchar *key, gdouble *v)
{
  GError *e = NULL;
  gdouble d = g_key_file_get_double (k, group, key, &e);
  if (!e)
    *v = d;
  g_clear_error (&e);
}

static void
read_int (GKeyFile *k, const gchar *group, const gchar *key, gint32 *v)
{
  GError *e = NULL;
  gint i = g_key_file_get_integer (k, group, key, &e);
  if (!e)
    *v = i;
  g_clear_error (&e);
}

gboolean
cudablur_vals_from_keys (GKeyFile *k, const gchar *group, CudablurVals *vals)
{
  CudablurVals v;
  cudablur_vals_defaults (&v);
  if (!g_key_file_has_group (k, group))
    return FALSE;
  read_int (k, group, "algorithm", &v.algorithm);
  read_double (k, group, "std-dev-x", &v.std_dev_x);
  read_double (k, group, "std-dev-y", &v.std_dev_y);
  read_double (k, group, "range-sigma", &v.range_sigma);
  read_int (k, group, "iterations", &v.iterations);
  read_double (k, group, "kappa", &v.kappa);
  read_int (k, group, "device", &v.device);
  read_int (k, group, "edge-mode", &v.border);
  read_int (k, group, "blur-space", &v.space);
  gchar *message = NULL;
  gboolean ok = cudablur_vals_check (&v, &message);
  g_free (message);
  if (ok)
    *vals = v;
  return ok;
}

void
cudablur_vals_to_keys (const CudablurVals *v, GKeyFile *k, const gchar *group)
{
  g_key_file_set_integer (k, group, "version", CUDABLUR_VALS_VERSION);
  g_key_file_set_integer (k, group, "algorithm", v->algorithm);
  g_key_file_set_double (k, group, "std-dev-x", v->std_dev_x);
  g_key_file_set_double (k, group, "std-dev-y", v->std_dev_y);
  g_key_file_set_double (k, group, "range-sigma", v->range_sigma);
  g_key_file_set_integer (k, group, "iterations", v->iterations);
  g_key_file_set_double (k, group, "kappa", v->kappa);
  g_key_file_set_integer (k, group, "device", v->device);
  g_key_file_set_integer (k, group, "edge-mode", v->border);
  g_key_file_set_integer (k, group, "blur-space", v->space);
}

/* Values of an earlier session: what the parasite holds over the
 * defaults, if the result passes the checks. */
static gboolean
load_profile (CudablurVals *vals)
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
cudablur_vals_load (CudablurVals *vals)
{
  cudablur_vals_defaults (vals);
  if (!load_session (vals))
    load_profile (vals);
}

static void
save_profile (const CudablurVals *v)
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
cudablur_vals_save (const CudablurVals *vals)
{
  CudablurVals out;
  /* Field by field into zeroed memory: no byte stored is uninitialised. */
  memset (&out, 0, sizeof out);
  out.std_dev_x = vals->std_dev_x;
  out.std_dev_y = vals->std_dev_y;
  out.range_sigma = vals->range_sigma;
  out.kappa = vals->kappa;
  out.algorithm = vals->algorithm;
  out.iterations = vals->iterations;
  out.device = vals->device;
  out.border = vals->border;
  out.space = vals->space;
  out.version = CUDABLUR_VALS_VERSION;
  gimp_set_data (PLUG_IN_PROC, &out, sizeof out);
  save_profile (&out);
}
