/* SPDX-License-Identifier: GPL-3.0-or-later */
/* GIMP 2.10's stored values (gimp2/values-format.c), without GIMP:
 *   - the bytes are those of the struct 1.99.0 stored with gimp_set_data
 *     (frozen below), field for field, and read back; while the table
 *     has other rows, bytes of that struct are refused rather than
 *     misread;
 *   - bytes of another size or version, or with a refused value, are not
 *     taken;
 *   - a key-file group as 1.99.0 wrote it (its parasite, its presets)
 *     loads; missing or unreadable keys read as defaults; refused values
 *     are not taken; every row round-trips. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "params.h"
#include "values-format.h"
#include "testutil.h"

/* CudablurVals of 1.99.0. */
typedef struct
{
  gdouble std_dev_x, std_dev_y, range_sigma, kappa;
  gint32 algorithm, iterations, device, border, space, version, reserved;
} legacy_vals;

/* Whether the table's rows are still 1.99.0's, in its order. */
static gboolean
table_is_legacy (void)
{
  static const char *const names[] = { "algorithm", "std-dev-x", "std-dev-y",
    "range-sigma", "iterations", "kappa", "device", "edge-mode",
    "blur-space" };
  if (cb_params_count () != (gint) G_N_ELEMENTS (names))
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (cb_param_nth ((gint) i)->name, names[i]))
      return FALSE;
  return TRUE;
}

static gb_params
distinct_values (void)
{
  gb_params v;
  gb_params_init (&v);
  v.algorithm = GB_ALGO_EDGE_PARTITIONED;
  v.sigma_x = 7.25;
  v.sigma_y = 3.5;
  v.range_sigma = 42.5;
  v.iterations = 3;
  v.kappa = 1.75;
  v.backend = GB_BACKEND_CPU;
  v.border = GB_BORDER_WHITE;
  v.perceptual = 1;
  return v;
}

static gboolean
same_values (const gb_params *a, const gb_params *b)
{
  for (gint i = 0; i < cb_params_count (); i++)
    if (cb_param_get (cb_param_nth (i), a) != cb_param_get (cb_param_nth (i), b))
      return FALSE;
  return TRUE;
}

static void
check_bytes (void)
{
  const gb_params v = distinct_values ();
  /* Field by field into zeroed memory, as 1.99.0 saved it: its padding
   * too is zero. */
  legacy_vals old;
  memset (&old, 0, sizeof old);
  old.std_dev_x = 7.25;
  old.std_dev_y = 3.5;
  old.range_sigma = 42.5;
  old.kappa = 1.75;
  old.algorithm = GB_ALGO_EDGE_PARTITIONED;
  old.iterations = 3;
  old.device = GB_BACKEND_CPU;
  old.border = GB_BORDER_WHITE;
  old.space = 1;
  old.version = 3;
  old.reserved = 0;
  const gsize size = cudablur_vals_bytes_size ();
  guint8 *bytes = g_malloc (size + 8);
  gb_params back;
  gb_params_init (&back);
  if (table_is_legacy ())
    {
      TU_CHECK (size == sizeof old, "%zu bytes, 1.99.0 stored %zu", size,
                sizeof old);
      cudablur_vals_to_bytes (&v, bytes);
      TU_CHECK (size == sizeof old && !memcmp (bytes, &old, sizeof old),
                "the bytes differ from 1.99.0's struct");
      TU_CHECK (cudablur_vals_from_bytes ((const guint8 *) &old, sizeof old,
                                          &back)
                && same_values (&back, &v),
                "1.99.0's bytes do not read back as its values");
      printf ("bytes: %zu, as 1.99.0 stored them\n", size);
    }
  else
    {
      /* A table with other rows stores other bytes: 1.99.0's must be
       * refused (by their size, or by what lands where the version is
       * now), not misread.  Where they would be taken, bump
       * CUDABLUR_VALS_VERSION. */
      TU_CHECK (!cudablur_vals_from_bytes ((const guint8 *) &old,
                                           sizeof old, &back),
                "1.99.0's bytes taken by a changed table: bump "
                "CUDABLUR_VALS_VERSION");
      printf ("bytes: %zu (1.99.0 stored %zu, refused)\n", size,
              sizeof old);
    }
  /* Round trip, and what is refused. */
  memset (bytes, 0xa5, size + 8);
  cudablur_vals_to_bytes (&v, bytes);
  TU_CHECK (bytes[size] == 0xa5, "written past the size");
  gb_params_init (&back);
  TU_CHECK (cudablur_vals_from_bytes (bytes, size, &back)
            && same_values (&back, &v), "round trip");
  gb_params before = back;
  TU_CHECK (!cudablur_vals_from_bytes (bytes, size - 8, &back)
            && !cudablur_vals_from_bytes (bytes, size + 8, &back)
            && !cudablur_vals_from_bytes (NULL, size, &back),
            "bytes of another size taken");
  /* The version: the int after the rows' values. */
  gsize version_at = 0;
  for (gint i = 0; i < cb_params_count (); i++)
    version_at += cb_param_nth (i)->type == CB_PARAM_DOUBLE ? 8 : 4;
  gint32 version;
  memcpy (&version, bytes + version_at, 4);
  TU_CHECK (version == CUDABLUR_VALS_VERSION, "version %d at byte %zu",
            version, version_at);
  version++;
  memcpy (bytes + version_at, &version, 4);
  TU_CHECK (!cudablur_vals_from_bytes (bytes, size, &back),
            "another version taken");
  /* A refused value: every row in turn set out of its range. */
  for (gint i = 0; i < cb_params_count (); i++)
    {
      const cb_param *p = cb_param_nth (i);
      gb_params bad = v;
      if (p->type == CB_PARAM_DOUBLE)
        cb_param_set_double (p, &bad, p->max * 2 + 1);
      else
        cb_param_set_int (p, &bad, (gint) p->max + 1);
      cudablur_vals_to_bytes (&bad, bytes);
      TU_CHECK (!cudablur_vals_from_bytes (bytes, size, &back),
                "%s out of range taken", p->name);
    }
  TU_CHECK (same_values (&back, &before), "a refusal changed the values");
  g_free (bytes);
}

static void
check_keys (void)
{
  /* As 1.99.0 wrote the parasite and the presets file. */
  static const char old[] =
    "[last-values]\nversion=3\nalgorithm=6\nstd-dev-x=7.25\n"
    "std-dev-y=3.5\nrange-sigma=42.5\niterations=3\nkappa=1.75\n"
    "device=2\nedge-mode=3\nblur-space=1\n";
  const gb_params v = distinct_values ();
  GKeyFile *k = g_key_file_new ();
  gb_params got;
  gb_params_init (&got);
  TU_CHECK (g_key_file_load_from_data (k, old, sizeof old - 1,
                                       G_KEY_FILE_NONE, NULL)
            && cudablur_vals_from_keys (k, "last-values", &got)
            && same_values (&got, &v), "1.99.0's key file");
  TU_CHECK (!cudablur_vals_from_keys (k, "no-such-group", &got),
            "a missing group read");
  /* Written and read back, every row. */
  GKeyFile *w = g_key_file_new ();
  cudablur_vals_to_keys (&v, w, "Mine");
  for (gint i = 0; i < cb_params_count (); i++)
    TU_CHECK (g_key_file_has_key (w, "Mine", cb_param_nth (i)->name, NULL),
              "no key %s", cb_param_nth (i)->name);
  gb_params_init (&got);
  TU_CHECK (cudablur_vals_from_keys (w, "Mine", &got)
            && same_values (&got, &v), "key-file round trip");
  /* Missing and unreadable keys: defaults. */
  g_key_file_remove_key (w, "Mine", "kappa", NULL);
  g_key_file_set_value (w, "Mine", "std-dev-y", "lots");
  gb_params want = v, d;
  gb_params_init (&d);
  want.kappa = d.kappa;
  want.sigma_y = d.sigma_y;
  TU_CHECK (cudablur_vals_from_keys (w, "Mine", &got)
            && same_values (&got, &want), "missing keys are not defaults");
  /* Refused values are not taken. */
  g_key_file_set_integer (w, "Mine", "iterations", 99);
  gb_params kept = got;
  TU_CHECK (!cudablur_vals_from_keys (w, "Mine", &got)
            && same_values (&got, &kept), "iterations 99 taken");
  g_key_file_free (w);
  g_key_file_free (k);
}

int
main (void)
{
  g_setenv ("LANGUAGE", "C", TRUE);
  check_bytes ();
  check_keys ();
  return tu_finish ("test_values_format");
}
