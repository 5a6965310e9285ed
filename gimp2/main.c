/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plug-in-cudablur: registration in the PDB, run modes, argument and
 * drawable checks, last values.
 *
 * One binary serves two roles (gimp2/resident.c): the permanent
 * procedures, a new process per call, and a resident extension that GIMP
 * starts once per session and that answers script calls through
 * temporary procedures of the scripts' names, without paying process,
 * GEGL and CUDA start-up again.  The menu entry's procedure has a name of
 * its own. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/dialog.h"
#include "procedure.h"
#include "render.h"
#include "intl.h"
#include "resident.h"
#include "timing.h"

static void query (void);
static void run (const gchar *name, gint nparams, const GimpParam *param,
                 gint *nreturn_vals, GimpParam **return_vals);

const GimpPlugInInfo PLUG_IN_INFO = { NULL, NULL, query, run };

MAIN ()

static void
query (void)
{
  gimp_plugin_domain_register (GETTEXT_PACKAGE, cudablur_locale_dir ());
  /* The Help button's page: help/en/gimp-help.xml maps PLUG_IN_HELP to it. */
  gchar *help_uri = g_filename_to_uri (cudablur_help_dir (), NULL, NULL);
  if (help_uri)
    gimp_plugin_help_register (PLUG_IN_HELP_DOMAIN, help_uri);
  g_free (help_uri);
  cudablur_procedure_install (NULL);
  gimp_plugin_menu_register (PLUG_IN_PROC_MENU, "<Image>/Filters/Blur");
  cudablur_resident_register ();
}

/* The status and, on failure, the message GIMP shows as the procedure's
 * error (kept until the next call). */
static void
set_return (GimpParam *values, gint *nvals, GimpPDBStatusType status,
            gchar *message)
{
  static gchar *kept_message;
  values[0].type = GIMP_PDB_STATUS;
  values[0].data.d_status = status;
  *nvals = 1;
  g_free (kept_message);
  kept_message = message;
  if (status != GIMP_PDB_SUCCESS && message)
    {
      values[1].type = GIMP_PDB_STRING;
      values[1].data.d_string = message;
      *nvals = 2;
    }
}

static gboolean
in_tree (const gint32 *items, gint n, gint32 target)
{
  gboolean found = FALSE;
  for (gint i = 0; i < n && !found; i++)
    {
      if (items[i] == target)
        found = TRUE;
      else if (gimp_item_is_group (items[i]))
        {
          gint m = 0;
          gint32 *children = gimp_item_get_children (items[i], &m);
          found = in_tree (children, m, target);
          g_free (children);
        }
    }
  return found;
}

/* Whether the drawable is part of the image (libgimp 2.10 has no call for
 * it: a layer made for an image but never added still names the image). */
static gboolean
attached (gint32 image_id, gint32 drawable_id)
{
  gint n = 0;
  gint32 *items;
  gboolean found;
  if (drawable_id == gimp_image_get_selection (image_id))
    return TRUE;
  if (gimp_item_is_layer_mask (drawable_id))
    return attached (image_id, gimp_layer_from_mask (drawable_id));
  if (gimp_item_is_channel (drawable_id))
    items = gimp_image_get_channels (image_id, &n);
  else
    items = gimp_image_get_layers (image_id, &n);
  found = in_tree (items, n, drawable_id);
  g_free (items);
  return found;
}

/* The checks GIMP's own filters make (app/pdb/gimppdb-utils.c), with
 * their wording, before any pixel is touched. */
static gboolean
drawable_usable (gint32 image_id, gint32 drawable_id, gchar **message)
{
  if (!gimp_item_is_valid (drawable_id) || !gimp_item_is_drawable (drawable_id))
    {
      *message = g_strdup (_("drawable: not a valid drawable"));
      return FALSE;
    }
  gchar *name = gimp_item_get_name (drawable_id);
  gint32 owner = gimp_item_get_image (drawable_id);
  if (owner < 0 || !gimp_image_is_valid (owner) || !attached (owner, drawable_id))
    *message = g_strdup_printf (_("drawable: item '%s' (%d) cannot be used "
                                  "because it has not been added to an "
                                  "image"), name ? name : "?", drawable_id);
  else if (owner != image_id)
    *message = g_strdup (_("drawable: does not belong to the image"));
  else if (gimp_item_is_group (drawable_id))
    *message = g_strdup_printf (_("drawable: item '%s' (%d) cannot be used "
                                  "because it is a group item"),
                                name ? name : "?", drawable_id);
  else if (gimp_item_get_lock_content (drawable_id))
    *message = g_strdup_printf (_("drawable: item '%s' (%d) cannot be "
                                  "modified because its contents are "
                                  "locked"), name ? name : "?", drawable_id);
  else if (gimp_drawable_is_indexed (drawable_id))
    *message = g_strdup (_("drawable: indexed images cannot be blurred; "
                           "convert the image to RGB or Grayscale first "
                           "(Image > Mode)"));
  g_free (name);
  return *message == NULL;
}

/* The resident names its undo steps after the executable: a call from
 * the menu's procedure wraps its forwarded work in an undo group, which
 * GIMP names after the menu entry in the user's language.  Returns
 * whether the group is open. */
static gboolean
menu_undo_group_start (const gchar *name, gint32 image_id)
{
  return !strcmp (name, PLUG_IN_PROC_MENU)
         && gimp_image_is_valid (image_id)
         && gimp_image_undo_group_start (image_id);
}

static void
menu_undo_group_end (gboolean open, gint32 image_id)
{
  if (open && !gimp_image_undo_group_end (image_id))
    g_warning ("CUDA Gaussian Blur: the undo group did not close");
}

/* The values of a non-interactive call, checked: each row from its
 * argument; rows the procedure does not take (the short one) keep their
 * defaults, what it has always done. */
static GimpPDBStatusType
values_from_args (gint n_args, gint nparams, const GimpParam *param,
                  gb_params *vals, gchar **message)
{
  if (nparams != n_args)
    {
      *message = g_strdup_printf (_("expected %d arguments, got %d"),
                                  n_args, nparams);
      return GIMP_PDB_CALLING_ERROR;
    }
  gb_params_init (vals);
  for (gint i = 0; CUDABLUR_FIRST_ROW_ARG + i < nparams; i++)
    {
      const cb_param *p = cb_param_nth (i);
      const GimpParam *arg = &param[CUDABLUR_FIRST_ROW_ARG + i];
      if (p->type == CB_PARAM_DOUBLE)
        cb_param_set_double (p, vals, arg->data.d_float);
      else
        cb_param_set_int (p, vals, arg->data.d_int32);
    }
  return cb_params_check (vals, message) ? GIMP_PDB_SUCCESS
                                         : GIMP_PDB_CALLING_ERROR;
}

void
cudablur_run (const gchar *name, gint nparams, const GimpParam *param,
              gint *nreturn_vals, GimpParam **return_vals,
              gboolean resident)
{
  static GimpParam values[2];
  gb_params vals;
  CudablurTiming timing;
  gchar *message = NULL;
  GimpPDBStatusType status = GIMP_PDB_SUCCESS;
  gint32 device_used = GB_BACKEND_CPU;
  const gint64 t_entry = g_get_monotonic_time ();

  *return_vals = values;
  set_return (values, nreturn_vals, GIMP_PDB_SUCCESS, NULL);
  const gint n_args = cudablur_n_args (name);
  if (n_args == 0 || nparams < 3)
    {
      set_return (values, nreturn_vals, GIMP_PDB_CALLING_ERROR,
                  g_strdup (_("run-mode, image and drawable are required")));
      return;
    }
  GimpRunMode run_mode = param[0].data.d_int32;
  gint32 image_id = param[1].data.d_image;
  gint32 drawable_id = param[2].data.d_drawable;

  /* The resident process has no dialogs: the permanent procedure, next in
   * GIMP's list under this name, opens it in a process of its own. */
  if (resident && run_mode == GIMP_RUN_INTERACTIVE)
    {
      set_return (values, nreturn_vals, GIMP_PDB_PASS_THROUGH, NULL);
      return;
    }
  /* Script calls and Filters > Repeat go to the resident process when it
   * runs: it has GEGL and CUDA started already. */
  if (!resident && run_mode != GIMP_RUN_INTERACTIVE)
    {
      const gboolean grouped = menu_undo_group_start (name, image_id);
      const gboolean forwarded = cudablur_forward (name, nparams, param,
                                                   &status, &device_used,
                                                   &message);
      menu_undo_group_end (grouped, image_id);
      if (forwarded)
        goto done;
    }

  cudablur_vals_load (&vals);
  switch (run_mode)
    {
    case GIMP_RUN_NONINTERACTIVE:
      status = values_from_args (n_args, nparams, param, &vals, &message);
      break;
    case GIMP_RUN_INTERACTIVE:
      if (!drawable_usable (image_id, drawable_id, &message))
        status = GIMP_PDB_CALLING_ERROR;   /* refused before any dialog */
      else if (!cudablur_display_available ())
        {
          /* gimp -i, or a script without a display: the last values, as
           * RUN-WITH-LAST-VALS would, rather than a crash in gtk_init. */
          g_message (_("CUDA Gaussian Blur: no display for the dialog; "
                       "blurring with the last values"));
        }
      else
        {
          gegl_init (NULL, NULL);
          if (!cudablur_dialog (drawable_id, &vals))
            status = GIMP_PDB_CANCEL;
          else
            {
              const gboolean grouped = menu_undo_group_start (name, image_id);
              const gboolean forwarded = cudablur_forward_values (
                  image_id, drawable_id, &vals, &status, &device_used,
                  &message);
              menu_undo_group_end (grouped, image_id);
              if (forwarded)
                {
                  if (status == GIMP_PDB_SUCCESS)
                    gimp_displays_flush ();
                  goto done;
                }
            }
        }
      break;
    case GIMP_RUN_WITH_LAST_VALS:
      break;
    default:
      message = g_strdup_printf (_("run-mode: %d is not a valid run mode"),
                                 run_mode);
      status = GIMP_PDB_CALLING_ERROR;
    }

  if (status == GIMP_PDB_SUCCESS
      && !drawable_usable (image_id, drawable_id, &message))
    status = GIMP_PDB_CALLING_ERROR;

  if (status == GIMP_PDB_SUCCESS)
    {
      cudablur_timing_start ();
      const gint64 t_gegl = g_get_monotonic_time ();
      gegl_init (NULL, NULL);
      const gdouble gegl_seconds = (g_get_monotonic_time () - t_gegl) / 1e6;
      status = cudablur_render_drawable (drawable_id, &vals, TRUE, &timing,
                                         &device_used, &message);
      if (status == GIMP_PDB_SUCCESS)
        {
          cudablur_vals_save (&vals);
          if (run_mode != GIMP_RUN_NONINTERACTIVE)
            gimp_displays_flush ();
        }
      cudablur_timing_print (&timing, resident, gegl_seconds,
                             (g_get_monotonic_time () - t_entry) / 1e6);
    }

done:
  set_return (values, nreturn_vals, status, message);
  if (status == GIMP_PDB_SUCCESS)
    {
      values[1].type = GIMP_PDB_INT32;
      values[1].data.d_int32 = device_used;
      *nreturn_vals = 2;
    }
}

static void
exit_now (void)
{
  fflush (NULL);
  _exit (EXIT_SUCCESS);
}

static void
run (const gchar *name, gint nparams, const GimpParam *param,
     gint *nreturn_vals, GimpParam **return_vals)
{
  INIT_I18N ();
  if (!strcmp (name, CUDABLUR_RESIDENT_PROC))
    {
      static GimpParam values[1];
      *return_vals = values;
      *nreturn_vals = 1;
      values[0].type = GIMP_PDB_STATUS;
      values[0].data.d_status = GIMP_PDB_SUCCESS;
      cudablur_resident_main ();   /* returns only when disabled */
      return;
    }
  cudablur_run (name, nparams, param, nreturn_vals, return_vals, FALSE);
  /* GIMP waits for a plug-in process to exit once it has said it quits,
   * and the CUDA runtime's own teardown at exit takes about 0.1 s (the
   * context, its buffers, pinned memory): skip it, the driver releases it
   * all with the process.  atexit handlers run last-registered first, so
   * this one runs before the runtime's. */
  if (gb_gpu_context_alive ())
    atexit (exit_now);
}
