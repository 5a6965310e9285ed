/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A test-only GIMP 3 plug-in: plug-in-cudablur-table-check (report file)
 * asks real GIMP 3 what plug-in-cudablur and -full take, through the
 * PDB's argument introspection, and checks it against the parameter table
 * (common/params.c):
 *   - after run-mode, image and drawables, one argument per row the
 *     procedure takes, in the table's order, with the row's name, label,
 *     help (its range or its choices, "0 clamp", named), value type
 *     (double; int for numbers and enumerations alike, as scripts pass
 *     them) and default;
 *   - each row's range is the one enforced: on a small layer, each end of
 *     it (tests/table-probes.c) is accepted, and the value just beyond it
 *     refused with a calling error naming the argument.
 * Writes "PASS: ..." or "FAIL: ..." lines and a summary line to the
 * report file. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <libgimp/gimp.h>

#include "params.h"
#include "table-probes.h"

#define PROC "plug-in-cudablur-table-check"
#define LEADING_ARGS 3   /* run-mode, image, drawables */

typedef struct
{
  GimpPlugIn parent_instance;
} TableCheck;

typedef struct
{
  GimpPlugInClass parent_class;
} TableCheckClass;

static GType table_check_get_type (void);
G_DEFINE_TYPE (TableCheck, table_check, GIMP_TYPE_PLUG_IN)

GIMP_MAIN (table_check_get_type ())

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

/* A row's argument: GIMP 2.10's types and ranges, the row's texts and
 * default. */
static gboolean
argument_is_row (GParamSpec *a, const cb_param *p, gchar **why)
{
  gchar *help = cb_param_help (p);
  const gdouble def = cb_param_default (p);
  gboolean ok = !strcmp (a->name, p->name)
                && !strcmp (g_param_spec_get_nick (a), p->label)
                && !strcmp (g_param_spec_get_blurb (a), help);
  if (p->type == CB_PARAM_DOUBLE)
    ok = ok && G_IS_PARAM_SPEC_DOUBLE (a)
         && G_PARAM_SPEC_DOUBLE (a)->default_value == def
         && G_PARAM_SPEC_DOUBLE (a)->minimum == -G_MAXDOUBLE
         && G_PARAM_SPEC_DOUBLE (a)->maximum == G_MAXDOUBLE;
  else
    ok = ok && G_IS_PARAM_SPEC_INT (a)
         && G_PARAM_SPEC_INT (a)->default_value == (gint) def
         && G_PARAM_SPEC_INT (a)->minimum == G_MININT
         && G_PARAM_SPEC_INT (a)->maximum == G_MAXINT;
  *why = g_strdup_printf ("%s \"%s\" (%s), \"%s\"", a->name,
                          g_param_spec_get_nick (a),
                          g_type_name (G_PARAM_SPEC_VALUE_TYPE (a)),
                          g_param_spec_get_blurb (a));
  g_free (help);
  return ok;
}

static void
check_signature (GimpProcedure *proc, gboolean full)
{
  const gchar *name = gimp_procedure_get_name (proc);
  gint n = 0;
  GParamSpec **args = gimp_procedure_get_arguments (proc, &n);
  const gint rows = cb_params_count_for (full);
  result (n == LEADING_ARGS + rows, "%s: %d arguments, the table gives %d "
          "after the drawables", name, n, rows);
  result (n >= LEADING_ARGS && !strcmp (args[0]->name, "run-mode")
          && !strcmp (args[1]->name, "image")
          && !strcmp (args[2]->name, "drawables"),
          "%s: run-mode, image and drawables first", name);
  for (gint i = 0; i < rows || LEADING_ARGS + i < n; i++)
    {
      const cb_param *p = i < rows ? cb_param_nth (i) : NULL;
      GParamSpec *a = LEADING_ARGS + i < n ? args[LEADING_ARGS + i] : NULL;
      if (!p || !a)
        {
          result (FALSE, "%s: argument %d is %s, row %d is %s", name,
                  LEADING_ARGS + i, a ? a->name : "missing", i,
                  p ? p->name : "missing");
          continue;
        }
      gchar *why = NULL;
      const gboolean ok = argument_is_row (a, p, &why);
      result (ok, "%s: argument %d: %s", name, LEADING_ARGS + i, why);
      g_free (why);
    }
}

/* Calls the procedure with v's rows as arguments; returns the status and
 * the message of a failure (g_free it). */
static GimpPDBStatusType
call (GimpProcedure *proc, gboolean full, GimpImage *image,
      GimpDrawable *drawable, const gb_params *v, gchar **message)
{
  GimpProcedureConfig *config = gimp_procedure_create_config (proc);
  GimpDrawable *drawables[] = { drawable, NULL };
  g_object_set (config, "run-mode", GIMP_RUN_NONINTERACTIVE, "image", image,
                "drawables", drawables, NULL);
  for (gint i = 0; i < cb_params_count_for (full); i++)
    {
      const cb_param *p = cb_param_nth (i);
      if (p->type == CB_PARAM_DOUBLE)
        g_object_set (config, p->name, cb_param_get_double (p, v), NULL);
      else
        g_object_set (config, p->name, cb_param_get_int (p, v), NULL);
    }
  GimpValueArray *ret = gimp_procedure_run_config (proc, config);
  const GimpPDBStatusType status = GIMP_VALUES_GET_ENUM (ret, 0);
  *message = status == GIMP_PDB_SUCCESS
             ? NULL : g_strdup (gimp_pdb_get_last_error (gimp_get_pdb ()));
  gimp_value_array_unref (ret);
  g_object_unref (config);
  return status;
}

static void
check_ranges (GimpProcedure *proc, gboolean full, GimpImage *image,
              GimpDrawable *drawable)
{
  const gchar *name = gimp_procedure_get_name (proc);
  for (gint i = 0; i < cb_params_count_for (full); i++)
    {
      const cb_param *p = cb_param_nth (i);
      tp_probe probes[TP_PROBES_MAX];
      const gint n = tp_probes (p, probes);
      for (gint k = 0; k < n; k++)
        {
          gchar *message = NULL;
          const GimpPDBStatusType st = call (proc, full, image, drawable,
                                             &probes[k].values, &message);
          if (probes[k].accepted)
            result (st == GIMP_PDB_SUCCESS, "%s %s %.17g: accepted (%s)",
                    name, p->name, probes[k].value,
                    message ? message : "no message");
          else
            result (st == GIMP_PDB_CALLING_ERROR && tp_names (p, message),
                    "%s %s %.17g: refused: %s", name, p->name,
                    probes[k].value, message ? message : "(no message)");
          g_free (message);
        }
    }
}

static GimpValueArray *
run (GimpProcedure *procedure, GimpProcedureConfig *config, gpointer data)
{
  (void) data;
  gchar *file = NULL;
  g_object_get (config, "report", &file, NULL);
  report = file ? fopen (file, "w") : NULL;
  g_free (file);
  if (!report)
    return gimp_procedure_new_return_values (procedure,
                                             GIMP_PDB_CALLING_ERROR, NULL);
  GimpPDB *pdb = gimp_get_pdb ();
  GimpProcedure *short_proc = gimp_pdb_lookup_procedure (pdb, PLUG_IN_PROC);
  GimpProcedure *full_proc = gimp_pdb_lookup_procedure (pdb,
                                                        PLUG_IN_PROC_FULL);
  result (short_proc && full_proc, "both procedures are in the PDB");
  if (short_proc && full_proc)
    {
      check_signature (short_proc, FALSE);
      check_signature (full_proc, TRUE);
      GimpImage *image = gimp_image_new (16, 16, GIMP_RGB);
      GimpLayer *layer = gimp_layer_new (image, "probe", 16, 16,
                                         GIMP_RGB_IMAGE, 100.0,
                                         GIMP_LAYER_MODE_NORMAL);
      gimp_image_insert_layer (image, layer, NULL, 0);
      check_ranges (short_proc, FALSE, image, GIMP_DRAWABLE (layer));
      check_ranges (full_proc, TRUE, image, GIMP_DRAWABLE (layer));
      gimp_image_delete (image);
    }
  fprintf (report, "table-check: %d passed, %d failed\n", passed, failed);
  fclose (report);
  return gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                           NULL);
}

static GList *
query_procedures (GimpPlugIn *plug_in)
{
  (void) plug_in;
  return g_list_append (NULL, g_strdup (PROC));
}

static GimpProcedure *
create_procedure (GimpPlugIn *plug_in, const gchar *name)
{
  if (strcmp (name, PROC))
    return NULL;
  GimpProcedure *procedure = gimp_procedure_new (plug_in, name,
                                                 GIMP_PDB_PROC_TYPE_PLUGIN,
                                                 run, NULL, NULL);
  gimp_procedure_set_documentation (procedure, "test helper", "test helper",
                                    name);
  gimp_procedure_set_attribution (procedure, "gimp-cudablur",
                                  "gimp-cudablur", "2026");
  gimp_procedure_add_string_argument (procedure, "report", "Report",
                                      "The file to write the results to",
                                      NULL, G_PARAM_READWRITE);
  return procedure;
}

static void
table_check_class_init (TableCheckClass *klass)
{
  GimpPlugInClass *plug_in_class = GIMP_PLUG_IN_CLASS (klass);
  plug_in_class->query_procedures = query_procedures;
  plug_in_class->create_procedure = create_procedure;
}

static void
table_check_init (TableCheck *self)
{
  (void) self;
}
