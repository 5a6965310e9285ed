/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The resident process.  GIMP starts every extension without arguments
 * when a session starts, batch sessions included; ours installs temporary
 * procedures under the names plug-in-cudablur and plug-in-cudablur-full.
 * GIMP's procedure database keeps procedures of one name in a list,
 * newest first, so scripts calling them reach the resident process, which has
 * GEGL (babl) and CUDA started already: per call it saves the process
 * start, gegl_init and CUDA's context.  What the resident does not take
 * it answers with GIMP_PDB_PASS_THROUGH, and GIMP calls the next
 * procedure of the name: the permanent one, a process of its own.
 *
 * The menu entry is a third permanent procedure, plug-in-cudablur-menu,
 * that no temporary procedure shares its name with.  GIMP's filter history
 * (Filters > Recently Used, Repeat, Re-show) holds the procedures run
 * from menus, and when a temporary procedure goes away (GIMP quits, or
 * the resident exits or dies) GIMP 2.10 removes it from that history by
 * comparing names first and menu labels second; a temporary procedure has
 * no menu label, so a history entry of the same name made GIMP compare
 * with NULL and crash.  With names that differ the comparison ends at the
 * name.  The temporary procedures carry no menu label either: one would
 * give each an action of the permanent procedure's name, and removing it
 * would remove the menu's.  The menu's procedure, run from the menu or
 * Filters > Repeat, hands its work to the resident when it runs and does
 * it itself when it does not or when it crashed; the dialog runs there.
 *
 * Set CUDABLUR_NO_RESIDENT to keep every call in a process of its own. */
#include "config.h"

#include <string.h>

#include "procedure.h"
#include "intl.h"
#include "resident.h"

/* GPU buffers and pinned memory are freed after this long without a call;
 * the CUDA context stays. */
#define IDLE_TRIM_SECONDS 30

static gint64 last_call;
static gboolean holding;   /* buffers may be kept since the last call */

static gboolean
disabled (void)
{
  const gchar *v = g_getenv ("CUDABLUR_NO_RESIDENT");
  return v && *v && strcmp (v, "0") != 0;
}

void
cudablur_resident_register (void)
{
  gimp_install_procedure (CUDABLUR_RESIDENT_PROC,
                          "Serves plug-in-cudablur from one process per "
                          "GIMP session",
                          "Started by GIMP with each session; installs a "
                          "temporary plug-in-cudablur that scripts reach "
                          "without starting a process, GEGL or CUDA per "
                          "call. Not meant to be called.",
                          "gimp-cudablur authors", "gimp-cudablur authors",
                          "2026", NULL, "", GIMP_EXTENSION, 0, 0, NULL, NULL);
}

static void
resident_run (const gchar *name, gint nparams, const GimpParam *param,
              gint *nreturn_vals, GimpParam **return_vals)
{
  cudablur_run (name, nparams, param, nreturn_vals, return_vals, TRUE);
  last_call = g_get_monotonic_time ();
  holding = TRUE;
}

void
cudablur_resident_main (void)
{
  if (disabled ())
    {
      gimp_extension_ack ();
      return;
    }
  cudablur_procedure_install (resident_run);
  /* GIMP waits for the acknowledgement; GEGL starts after it, while GIMP
   * goes on starting. */
  gimp_extension_ack ();
  gegl_init (NULL, NULL);
  for (;;)
    {
      gimp_extension_process (holding ? 5000 : 0);
      if (holding && g_get_monotonic_time () - last_call
                     > (gint64) IDLE_TRIM_SECONDS * G_USEC_PER_SEC)
        {
          gb_trim ();
          holding = FALSE;
        }
    }
}

/* Whether the procedure of that name is currently the resident's
 * temporary one (and not a dead one's leftover). */
static gboolean
resident_present (const gchar *name)
{
  gchar *blurb = NULL, *help = NULL, *author = NULL, *copyright = NULL;
  gchar *date = NULL;
  GimpPDBProcType type = GIMP_PLUGIN;
  gint n_args = 0, n_values = 0;
  GimpParamDef *args = NULL, *values = NULL;
  if (disabled ()
      || !gimp_procedural_db_proc_info (name, &blurb, &help, &author,
                                        &copyright, &date, &type, &n_args,
                                        &n_values, &args, &values))
    return FALSE;
  g_free (blurb);
  g_free (help);
  g_free (author);
  g_free (copyright);
  g_free (date);
  gimp_destroy_paramdefs (args, n_args);
  gimp_destroy_paramdefs (values, n_values);
  return type == GIMP_TEMPORARY && n_args == cudablur_n_args (name);
}

gboolean
cudablur_forward (const gchar *name, gint nparams, const GimpParam *param,
                  GimpPDBStatusType *status, gint32 *device_used,
                  gchar **message)
{
  /* The menu's procedure takes plug-in-cudablur-full's arguments. */
  if (!strcmp (name, PLUG_IN_PROC_MENU))
    name = PLUG_IN_PROC_FULL;
  if (nparams != cudablur_n_args (name) || !resident_present (name))
    return FALSE;
  gint n = 0;
  GimpParam *ret = gimp_run_procedure2 (name, &n, nparams, param);
  if (!ret || n < 1)
    {
      if (ret)
        gimp_destroy_params (ret, n);
      return FALSE;
    }
  *status = ret[0].data.d_status;
  /* A crashed resident took its temporary procedure with it: this call is
   * done here instead, and later ones go to processes of their own. */
  if (*status == GIMP_PDB_EXECUTION_ERROR && !resident_present (name))
    {
      gimp_destroy_params (ret, n);
      return FALSE;
    }
  if (*status == GIMP_PDB_SUCCESS && n >= 2 && ret[1].type == GIMP_PDB_INT32)
    *device_used = ret[1].data.d_int32;
  else if (n >= 2 && ret[1].type == GIMP_PDB_STRING && ret[1].data.d_string)
    *message = g_strdup (ret[1].data.d_string);
  gimp_destroy_params (ret, n);
  return TRUE;
}

gboolean
cudablur_forward_values (gint32 image_id, gint32 drawable_id,
                         const gb_params *vals, GimpPDBStatusType *status,
                         gint32 *device_used, gchar **message)
{
  const GimpParamDef *args = cudablur_args ();
  const gint n = cudablur_n_args (PLUG_IN_PROC_FULL);
  GimpParam *p = g_new0 (GimpParam, n);
  for (gint i = 0; i < n; i++)
    p[i].type = args[i].type;
  p[0].data.d_int32 = GIMP_RUN_NONINTERACTIVE;
  p[1].data.d_image = image_id;
  p[2].data.d_drawable = drawable_id;
  for (gint i = 0; CUDABLUR_FIRST_ROW_ARG + i < n; i++)
    {
      const cb_param *row = cb_param_nth (i);
      GimpParam *arg = &p[CUDABLUR_FIRST_ROW_ARG + i];
      if (row->type == CB_PARAM_DOUBLE)
        arg->data.d_float = cb_param_get_double (row, vals);
      else
        arg->data.d_int32 = cb_param_get_int (row, vals);
    }
  const gboolean forwarded = cudablur_forward (PLUG_IN_PROC_FULL, n, p,
                                               status, device_used, message);
  g_free (p);
  return forwarded;
}
