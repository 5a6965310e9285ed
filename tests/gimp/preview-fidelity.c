/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The preview against the final result (cudablur-test.c's
 * plug-in-cudablur-test-preview-fidelity): each preview the dialog dumped
 * (CUDABLUR_PREVIEW_DUMP: preview-NNN.pam and .txt) is compared with the
 * final result of the same values on a duplicate of the image, read at
 * the preview's scale over the preview's rectangle (GEGL's scaled read,
 * as the preview reads its source).  Appends one PASS or FAIL line per
 * preview, with its PSNR, to $CUDABLUR_TEST_LOG, and moves the dumps it
 * checked to DIR/checked/. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <libgimp/gimp.h>

#include "preview-fidelity.h"

typedef struct
{
  gdouble scale;
  gint x, y, width, height;
  gchar *values;        /* "algorithm ... blur-space N": the final call's
                           key */
  gint algorithm, iterations, device, border, space;
  gdouble sx, sy, range, kappa;
} dump_info;

static gboolean
parse_info (const gchar *text, dump_info *d)
{
  gchar scale[64], sx[64], sy[64], range[64], kappa[64];
  if (sscanf (text, "scale %63s x %d y %d width %d height %d algorithm %d "
              "std-dev-x %63s std-dev-y %63s range-sigma %63s iterations %d "
              "kappa %63s device %d edge-mode %d blur-space %d", scale, &d->x,
              &d->y, &d->width, &d->height, &d->algorithm, sx, sy, range,
              &d->iterations, kappa, &d->device, &d->border, &d->space) != 14)
    return FALSE;
  d->scale = g_ascii_strtod (scale, NULL);
  d->sx = g_ascii_strtod (sx, NULL);
  d->sy = g_ascii_strtod (sy, NULL);
  d->range = g_ascii_strtod (range, NULL);
  d->kappa = g_ascii_strtod (kappa, NULL);
  d->values = g_strdup (strstr (text, "algorithm"));
  g_strchomp (d->values);
  return d->width > 0 && d->height > 0 && d->scale > 0.0;
}

/* A PAM as the preview wrote it: 8-bit RGB or RGB_ALPHA. */
static guchar *
read_pam (const gchar *file, gint *w, gint *h, gint *depth)
{
  gchar *data = NULL;
  gsize size = 0;
  if (!g_file_get_contents (file, &data, &size, NULL))
    return NULL;
  const gchar *end = g_strstr_len (data, MIN (size, 200), "ENDHDR\n");
  if (!end || sscanf (data, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH %d", w, h,
                      depth) != 3
      || *w < 1 || *h < 1 || (*depth != 3 && *depth != 4))
    {
      g_free (data);
      return NULL;
    }
  const gsize header = (gsize) (end - data) + 7;
  const gsize bytes = (gsize) *w * *h * *depth;
  if (size - header != bytes)
    {
      g_free (data);
      return NULL;
    }
  guchar *pixels = g_memdup2 (data + header, bytes);
  g_free (data);
  return pixels;
}

/* The final result of these values: a duplicate of the image blurred by
 * plug-in-cudablur, as a script would call it. */
static gint32
final_result (gint32 image, const dump_info *d, gchar **why)
{
  gint32 dup = gimp_image_duplicate (image);
  if (dup == -1)
    {
      *why = g_strdup ("could not duplicate the image");
      return -1;
    }
  gint n = 0;
  GimpParam *r = gimp_run_procedure (
    "plug-in-cudablur-full", &n, GIMP_PDB_INT32, GIMP_RUN_NONINTERACTIVE,
    GIMP_PDB_IMAGE, dup, GIMP_PDB_DRAWABLE,
    gimp_image_get_active_drawable (dup), GIMP_PDB_INT32, d->algorithm,
    GIMP_PDB_FLOAT, d->sx, GIMP_PDB_FLOAT, d->sy, GIMP_PDB_FLOAT, d->range,
    GIMP_PDB_INT32, d->iterations, GIMP_PDB_FLOAT, d->kappa, GIMP_PDB_INT32,
    d->device, GIMP_PDB_INT32, d->border, GIMP_PDB_INT32, d->space,
    GIMP_PDB_END);
  gboolean ok = r && n > 0 && r[0].data.d_status == GIMP_PDB_SUCCESS;
  gimp_destroy_params (r, n);
  if (!ok)
    {
      *why = g_strdup ("plug-in-cudablur failed on the duplicate");
      gimp_image_delete (dup);
      return -1;
    }
  return dup;
}

static gdouble
psnr (const guchar *a, const guchar *b, gsize n)
{
  gdouble sse = 0.0;
  for (gsize i = 0; i < n; i++)
    sse += ((gdouble) a[i] - b[i]) * ((gdouble) a[i] - b[i]);
  return sse == 0.0 ? INFINITY : 10.0 * log10 (255.0 * 255.0 * n / sse);
}

static void
log_line (const gchar *line)
{
  const gchar *log = g_getenv ("CUDABLUR_TEST_LOG");
  FILE *f = log ? fopen (log, "a") : NULL;
  if (f)
    {
      fprintf (f, "%s\n", line);
      fclose (f);
    }
}

/* One preview: its PSNR against the final result, or -1 with *why. */
static gdouble
check_one (GHashTable *finals, gint32 image, const gchar *base,
           dump_info *d, gchar **why)
{
  gchar *txt = g_strconcat (base, ".txt", NULL);
  gchar *pam = g_strconcat (base, ".pam", NULL);
  gchar *text = NULL;
  guchar *shown = NULL, *truth = NULL;
  gint w = 0, h = 0, depth = 0;
  gdouble db = -1.0;
  if (!g_file_get_contents (txt, &text, NULL, NULL) || !parse_info (text, d))
    *why = g_strdup_printf ("cannot read %s", txt);
  else if (!(shown = read_pam (pam, &w, &h, &depth)) || w != d->width
           || h != d->height)
    *why = g_strdup_printf ("cannot read %s", pam);
  else
    {
      gpointer found = g_hash_table_lookup (finals, d->values);
      gint32 dup = found ? GPOINTER_TO_INT (found) : final_result (image, d, why);
      if (dup != -1)
        {
          g_hash_table_insert (finals, g_strdup (d->values),
                               GINT_TO_POINTER (dup));
          GeglBuffer *buf = gimp_drawable_get_buffer (
            gimp_image_get_active_drawable (dup));
          truth = g_malloc ((gsize) w * h * depth);
          GeglRectangle r = { d->x, d->y, w, h };
          gegl_buffer_get (buf, &r, d->scale,
                           babl_format (depth == 4 ? "R'G'B'A u8"
                                                   : "R'G'B' u8"),
                           truth, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_CLAMP);
          g_object_unref (buf);
          db = psnr (shown, truth, (gsize) w * h * depth);
        }
    }
  g_free (truth);
  g_free (shown);
  g_free (text);
  g_free (txt);
  g_free (pam);
  return db;
}

static void
move_checked (const gchar *dir, const gchar *name)
{
  gchar *done = g_build_filename (dir, "checked", NULL);
  g_mkdir_with_parents (done, 0755);
  for (gint k = 0; k < 2; k++)
    {
      gchar *file = g_strconcat (name, k ? ".pam" : ".txt", NULL);
      gchar *from = g_build_filename (dir, file, NULL);
      gchar *to = g_build_filename (done, file, NULL);
      g_rename (from, to);
      g_free (file);
      g_free (from);
      g_free (to);
    }
  g_free (done);
}

/* g_ptr_array_sort passes pointers to the elements. */
static gint
by_name (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar *const *) a, *(const gchar *const *) b);
}

gint
preview_fidelity (gint32 image, const gchar *dir, gdouble min_db,
                  const gchar *label, gint *checked)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const gchar *entry;
  while (d && (entry = g_dir_read_name (d)))
    if (g_str_has_prefix (entry, "preview-") && g_str_has_suffix (entry, ".txt"))
      g_ptr_array_add (names, g_strndup (entry, strlen (entry) - 4));
  if (d)
    g_dir_close (d);
  g_ptr_array_sort (names, by_name);

  GHashTable *finals = g_hash_table_new_full (g_str_hash, g_str_equal,
                                              g_free, NULL);
  gint failed = 0;
  *checked = 0;
  for (guint i = 0; i < names->len; i++)
    {
      const gchar *name = g_ptr_array_index (names, i);
      gchar *base = g_build_filename (dir, name, NULL);
      dump_info info = { 0 };
      gchar *why = NULL;
      const gdouble db = check_one (finals, image, base, &info, &why);
      const gb_algorithm_info *a = gb_algorithm_get (info.algorithm);
      gchar *line = db < 0.0
        ? g_strdup_printf ("FAIL: preview fidelity %s %s -- %s", label, name,
                           why)
        : g_strdup_printf ("%s: preview fidelity %s %s -- %s, edge-mode %d, "
                           "blur-space %d, scale %.3f, %dx%d: %.1f dB (at "
                           "least %.0f)", db >= min_db ? "PASS" : "FAIL",
                           label, name, a ? a->name : "?", info.border,
                           info.space, info.scale, info.width, info.height,
                           db, min_db);
      log_line (line);
      failed += db < min_db;
      ++*checked;
      move_checked (dir, name);
      g_free (line);
      g_free (why);
      g_free (info.values);
      g_free (base);
    }
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, finals);
  while (g_hash_table_iter_next (&it, &key, &value))
    gimp_image_delete (GPOINTER_TO_INT (value));
  g_hash_table_destroy (finals);
  g_ptr_array_free (names, TRUE);
  return failed;
}
