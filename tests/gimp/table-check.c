/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A test-only GIMP 2.10 plug-in: plug-in-cudablur-table-check (run-mode,
 * report file) asks real GIMP what plug-in-cudablur, -full and -menu
 * take, and checks it against the parameter table (common/params.c):
 *   - after run-mode, image and drawable, one argument per row the
 *     procedure takes, in the table's order, of the row's PDB type
 *     (FLOAT or INT32), name and help (its range or its choices, "0
 *     clamp", named);
 *   - each row's range is the one enforced: on a small layer, each end of
 *     it (tests/table-probes.c) is accepted, and the value just beyond it
 *     refused with a calling error naming the argument, in both
 *     procedures that take the row (the call reaches the resident process
 *     where it runs, else a process of its own);
 *   - a fresh profile's last values are the table's defaults: the
 *     drawable blurred with RUN-WITH-LAST-VALS equals the one blurred
 *     with the defaults passed.
 * Writes "PASS: ..." or "FAIL: ..." lines and a summary line to the
 * report file. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <libgimp/gimp.h>

#include "params.h"
#include "table-probes.h"

#define PROC "plug-in-cudablur-table-check"
#define LEADING_ARGS 3   /* run-mode, image, drawable */

static void query (void);
static void run (const gchar *name, gint nparams, const GimpParam *param,
                 gint *nreturn_vals, GimpParam **return_vals);

const GimpPlugInInfo PLUG_IN_INFO = { NULL, NULL, query, run };

MAIN ()

static void
query (void)
{
  static const GimpParamDef args[] = {
    { GIMP_PDB_INT32, "run-mode", "The run mode" },
    { GIMP_PDB_STRING, "report", "The file to write the results to" },
  };
  gimp_install_procedure (PROC, "test helper", "test helper",
                          "gimp-cudablur", "gimp-cudablur", "2026", NULL, "",
                          GIMP_PLUGIN, G_N_ELEMENTS (args), 0, args, NULL);
}

static FILE *report;
static gint passed, failed;

static void G_GNUC_PRINTF (2, 3)
result (gboolean ok, const gchar *format, ...)
{
  va_list ap;
  va_start (ap, format);
  gchar *text = g_strdup_vprintf (format, ap);
  va_end (ap);
  fprintf (report, "%s: %s\n", ok ? "PASS" : "FAIL", text);
  g_free (text);
  if (ok)
    passed++;
  else
    failed++;
}

/* The procedure's arguments against the table's rows. */
static void
check_signature (const gchar *proc, gboolean full)
{
  gchar *blurb, *help, *author, *copyright, *date;
  GimpPDBProcType type;
  gint n_args = 0, n_values = 0;
  GimpParamDef *args = NULL, *values = NULL;
  if (!gimp_procedural_db_proc_info (proc, &blurb, &help, &author,
                                     &copyright, &date, &type, &n_args,
                                     &n_values, &args, &values))
    {
      result (FALSE, "%s: not in the PDB", proc);
      return;
    }
  const gint rows = cb_params_count_for (full);
  result (n_args == LEADING_ARGS + rows, "%s: %d arguments, the table "
          "gives %d after the drawable", proc, n_args, rows);
  for (gint i = 0; i < rows || LEADING_ARGS + i < n_args; i++)
    {
      const cb_param *p = i < rows ? cb_param_nth (i) : NULL;
      const GimpParamDef *a = LEADING_ARGS + i < n_args
                              ? &args[LEADING_ARGS + i] : NULL;
      if (!p || !a)
        {
          result (FALSE, "%s: argument %d is %s, row %d is %s", proc,
                  LEADING_ARGS + i, a ? a->name : "missing", i,
                  p ? p->name : "missing");
          continue;
        }
      const GimpPDBArgType want = p->type == CB_PARAM_DOUBLE ? GIMP_PDB_FLOAT
                                                             : GIMP_PDB_INT32;
      gchar *text = cb_param_help (p);
      result (!strcmp (a->name, p->name) && a->type == want
              && a->description && !strcmp (a->description, text),
              "%s: argument %d is %s (type %d), the table's %s (type %d)%s",
              proc, LEADING_ARGS + i, a->name, a->type, p->name, want,
              a->description && !strcmp (a->description, text)
              ? "" : ", help differs");
      g_free (text);
    }
  g_free (blurb);
  g_free (help);
  g_free (author);
  g_free (copyright);
  g_free (date);
  gimp_destroy_paramdefs (args, n_args);
  gimp_destroy_paramdefs (values, n_values);
}

/* Calls the procedure non-interactively with v's rows as arguments;
 * returns the status and the message of a failure (g_free it). */
static GimpPDBStatusType
call (const gchar *proc, gboolean full, gint32 image, gint32 drawable,
      GimpRunMode mode, const gb_params *v, gchar **message)
{
  const gint n = LEADING_ARGS + cb_params_count_for (full);
  GimpParam *p = g_new0 (GimpParam, n);
  p[0].type = GIMP_PDB_INT32;
  p[0].data.d_int32 = mode;
  p[1].type = GIMP_PDB_IMAGE;
  p[1].data.d_image = image;
  p[2].type = GIMP_PDB_DRAWABLE;
  p[2].data.d_drawable = drawable;
  for (gint i = 0; LEADING_ARGS + i < n; i++)
    {
      const cb_param *row = cb_param_nth (i);
      GimpParam *a = &p[LEADING_ARGS + i];
      if (row->type == CB_PARAM_DOUBLE)
        {
          a->type = GIMP_PDB_FLOAT;
          a->data.d_float = cb_param_get_double (row, v);
        }
      else
        {
          a->type = GIMP_PDB_INT32;
          a->data.d_int32 = cb_param_get_int (row, v);
        }
    }
  gint n_ret = 0;
  GimpParam *ret = gimp_run_procedure2 (proc, &n_ret, n, p);
  g_free (p);
  GimpPDBStatusType status = ret && n_ret > 0 ? ret[0].data.d_status
                                              : GIMP_PDB_EXECUTION_ERROR;
  *message = ret && n_ret > 1 && ret[1].type == GIMP_PDB_STRING
             ? g_strdup (ret[1].data.d_string) : NULL;
  if (ret)
    gimp_destroy_params (ret, n_ret);
  return status;
}

static void
check_ranges (const gchar *proc, gboolean full, gint32 image, gint32 layer)
{
  for (gint i = 0; i < cb_params_count_for (full); i++)
    {
      const cb_param *p = cb_param_nth (i);
      tp_probe probes[TP_PROBES_MAX];
      const gint n = tp_probes (p, probes);
      for (gint k = 0; k < n; k++)
        {
          gchar *message = NULL;
          const GimpPDBStatusType st =
            call (proc, full, image, layer, GIMP_RUN_NONINTERACTIVE,
                  &probes[k].values, &message);
          if (probes[k].accepted)
            result (st == GIMP_PDB_SUCCESS, "%s %s %.17g: accepted (%s)",
                    proc, p->name, probes[k].value,
                    message ? message : "no message");
          else
            result (st == GIMP_PDB_CALLING_ERROR && tp_names (p, message),
                    "%s %s %.17g: refused: %s", proc, p->name,
                    probes[k].value, message ? message : "(no message)");
          g_free (message);
        }
    }
}

/* The layer's pixels as 8-bit R'G'B'. */
static guchar *
pixels (gint32 layer, gint *n)
{
  GeglBuffer *b = gimp_drawable_get_buffer (layer);
  const GeglRectangle *e = gegl_buffer_get_extent (b);
  *n = 3 * e->width * e->height;
  guchar *px = g_malloc (*n);
  gegl_buffer_get (b, e, 1.0, babl_format ("R'G'B' u8"), px,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  g_object_unref (b);
  return px;
}

static gint32
noise_layer (gint32 image)
{
  gint32 layer = gimp_layer_new (image, "noise", 64, 64, GIMP_RGB_IMAGE,
                                 100, GIMP_LAYER_MODE_NORMAL);
  gimp_image_insert_layer (image, layer, 0, 0);
  GeglBuffer *b = gimp_drawable_get_buffer (layer);
  guchar px[64 * 64 * 3];
  for (gsize i = 0; i < sizeof px; i++)
    px[i] = (guchar) ((i * 2654435761u) >> 24);
  gegl_buffer_set (b, GEGL_RECTANGLE (0, 0, 64, 64), 0,
                   babl_format ("R'G'B' u8"), px, GEGL_AUTO_ROWSTRIDE);
  g_object_unref (b);
  return layer;
}

/* A fresh profile's last values against the defaults passed. */
static void
check_defaults (gint32 image)
{
  gb_params d;
  gb_params_init (&d);
  gint32 a = noise_layer (image), b = noise_layer (image);
  gchar *m1 = NULL, *m2 = NULL;
  const GimpPDBStatusType s1 = call (PLUG_IN_PROC_FULL, TRUE, image, a,
                                     GIMP_RUN_WITH_LAST_VALS, &d, &m1);
  const GimpPDBStatusType s2 = call (PLUG_IN_PROC_FULL, TRUE, image, b,
                                     GIMP_RUN_NONINTERACTIVE, &d, &m2);
  gint n = 0, n2 = 0;
  guchar *pa = pixels (a, &n), *pb = pixels (b, &n2);
  gint differ = 0;
  for (gint i = 0; i < n && i < n2; i++)
    differ += pa[i] != pb[i];
  result (s1 == GIMP_PDB_SUCCESS && s2 == GIMP_PDB_SUCCESS && n == n2
          && differ == 0, "a fresh profile's last values are the table's "
          "defaults: %d of %d bytes differ", differ, n);
  g_free (pa);
  g_free (pb);
  g_free (m1);
  g_free (m2);
}

static void
run (const gchar *name, gint nparams, const GimpParam *param,
     gint *nreturn_vals, GimpParam **return_vals)
{
  static GimpParam values[1];
  *nreturn_vals = 1;
  *return_vals = values;
  values[0].type = GIMP_PDB_STATUS;
  values[0].data.d_status = GIMP_PDB_CALLING_ERROR;
  if (strcmp (name, PROC) || nparams != 2
      || !(report = fopen (param[1].data.d_string, "w")))
    return;
  gegl_init (NULL, NULL);
  gint32 image = gimp_image_new (64, 64, GIMP_RGB);
  /* First, while the last values are still the defaults. */
  check_defaults (image);
  gint32 layer = noise_layer (image);
  check_signature (PLUG_IN_PROC, FALSE);
  check_signature (PLUG_IN_PROC_FULL, TRUE);
  check_signature ("plug-in-cudablur-menu", TRUE);
  check_ranges (PLUG_IN_PROC, FALSE, image, layer);
  check_ranges (PLUG_IN_PROC_FULL, TRUE, image, layer);
  gimp_image_delete (image);
  fprintf (report, "table-check: %d passed, %d failed\n", passed, failed);
  fclose (report);
  values[0].data.d_status = GIMP_PDB_SUCCESS;
}
