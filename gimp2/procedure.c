/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The PDB procedures: their arguments and help, built once from the
 * parameter table, the algorithm registry and the engine's limits, and
 * their installation as permanent procedures (query) or as the resident
 * process's temporary ones.  The menu entry has a procedure of its own
 * that is never temporary (gimp2/resident.c says why). */
#include "config.h"

#include <string.h>

#include "procedure.h"
#include "intl.h"

/* Run-mode, image and drawable, then one per row of the table. */
static const GimpParamDef leading_args[CUDABLUR_FIRST_ROW_ARG] = {
  { GIMP_PDB_INT32, "run-mode",
    "The run mode { RUN-INTERACTIVE (0), RUN-NONINTERACTIVE (1), "
    "RUN-WITH-LAST-VALS (2) }" },
  { GIMP_PDB_IMAGE, "image", "Input image" },
  { GIMP_PDB_DRAWABLE, "drawable", "Input drawable (RGB or grey layer, "
    "layer mask or channel)" },
};

static const GimpParamDef return_vals[CUDABLUR_N_RETURN_VALS] = {
  { GIMP_PDB_INT32, "device-used", "Where the blur ran: 1 cuda, 2 cpu" },
};

static GimpParamDef *args;
static gchar *help, *help_full;

const GimpParamDef *
cudablur_args (void)
{
  if (args)
    return args;
  const gint n = cb_params_count ();
  args = g_new (GimpParamDef, CUDABLUR_FIRST_ROW_ARG + n);
  memcpy (args, leading_args, sizeof leading_args);
  for (gint i = 0; i < n; i++)
    {
      const cb_param *p = cb_param_nth (i);
      args[CUDABLUR_FIRST_ROW_ARG + i] = (GimpParamDef) {
        p->type == CB_PARAM_DOUBLE ? GIMP_PDB_FLOAT : GIMP_PDB_INT32,
        (gchar *) p->name, cb_param_help (p) };
    }
  return args;
}

gint
cudablur_n_args (const gchar *name)
{
  const gboolean full = !strcmp (name, PLUG_IN_PROC_FULL)
                        || !strcmp (name, PLUG_IN_PROC_MENU);
  if (!full && strcmp (name, PLUG_IN_PROC))
    return 0;
  return CUDABLUR_FIRST_ROW_ARG + cb_params_count_for (full);
}

/* The procedures' help, quoting the registry and the engine's limits,
 * built once. */
static void
init (void)
{
  if (help)
    return;
  static const gchar common[] =
    "Blurs the drawable (within the selection) with a Gaussian of the "
    "horizontal and vertical standard deviations given, with premultiplied "
    "alpha, on an NVIDIA GPU through CUDA when one is usable and on all "
    "CPU cores otherwise; a GPU failure re-runs the blur on the CPU. The "
    "algorithm 'auto' picks the separable FIR filter for small standard "
    "deviations (up to %g on the CPU, %g on the GPU) and Deriche's "
    "recursive filter above. The edge-aware algorithms blur along the "
    "image's domain transform, so that edges with colour differences well "
    "above the edge contrast given stay sharp. Returns the device that ran "
    "the blur. Script calls are served by a resident process that GIMP "
    "starts with the session (extension-cudablur); without it each call "
    "runs in a process of its own.";
  gchar *more = cb_params_full_only_names ();
  gchar *text = g_strdup_printf (common, GB_AUTO_FIR_MAX_SIGMA_CPU,
                                 GB_AUTO_FIR_MAX_SIGMA_CUDA);
  help = g_strdup_printf ("%s It blurs in linear light and replicates the "
                          "edge pixels; " PLUG_IN_PROC_FULL " takes the "
                          "same arguments and more: %s.", text, more);
  help_full = g_strdup_printf ("%s As " PLUG_IN_PROC " with more "
                               "arguments: %s.", text, more);
  g_free (text);
  g_free (more);
}

static const gchar blurb[] =
  N_("Gaussian blur on the GPU with CUDA, or on the CPU");

void
cudablur_procedure_install (GimpRunProc temporary)
{
  static const gchar *const procs[] = { PLUG_IN_PROC, PLUG_IN_PROC_FULL };
  init ();
  for (gsize i = 0; i < G_N_ELEMENTS (procs); i++)
    {
      const gchar *text = i ? help_full : help;
      const gint n_args = cudablur_n_args (procs[i]);
      if (temporary)
        gimp_install_temp_proc (procs[i], blurb, text,
                                "gimp-cudablur authors",
                                "gimp-cudablur authors", "2026", NULL,
                                "RGB*, GRAY*", GIMP_TEMPORARY, n_args,
                                CUDABLUR_N_RETURN_VALS, cudablur_args (),
                                return_vals, temporary);
      else
        gimp_install_procedure (procs[i], blurb, text,
                                "gimp-cudablur authors",
                                "gimp-cudablur authors", "2026", NULL,
                                "RGB*, GRAY*", GIMP_PLUGIN, n_args,
                                CUDABLUR_N_RETURN_VALS, cudablur_args (),
                                return_vals);
    }
  if (temporary)
    return;
  gchar *menu_help = g_strconcat (
    "Filters > Blur > CUDA Gaussian Blur: the dialog, Filters > Repeat and "
    "Re-show. Scripts call " PLUG_IN_PROC " or " PLUG_IN_PROC_FULL
    ", whose arguments this procedure takes too. ", help_full, NULL);
  gimp_install_procedure (PLUG_IN_PROC_MENU, blurb, menu_help,
                          "gimp-cudablur authors", "gimp-cudablur authors",
                          "2026", N_("CUDA _Gaussian Blur..."),
                          "RGB*, GRAY*", GIMP_PLUGIN,
                          cudablur_n_args (PLUG_IN_PROC_MENU),
                          CUDABLUR_N_RETURN_VALS, cudablur_args (),
                          return_vals);
  g_free (menu_help);
}
