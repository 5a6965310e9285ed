/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The PDB procedures: their arguments and help, built once from the
 * algorithm registry and the engine's limits, and their installation as
 * permanent procedures (query) or as the resident process's temporary
 * ones.  The menu entry has a procedure of its own that is never
 * temporary (gimp2/resident.c says why). */
#include "config.h"

#include <string.h>

#include "procedure.h"
#include "intl.h"

GimpParamDef cudablur_args[CUDABLUR_N_ARGS_FULL] = {
  { GIMP_PDB_INT32, "run-mode",
    "The run mode { RUN-INTERACTIVE (0), RUN-NONINTERACTIVE (1), "
    "RUN-WITH-LAST-VALS (2) }" },
  { GIMP_PDB_IMAGE, "image", "Input image" },
  { GIMP_PDB_DRAWABLE, "drawable", "Input drawable (RGB or grey layer, "
    "layer mask or channel)" },
  { GIMP_PDB_INT32, "algorithm", NULL },   /* from the registry */
  { GIMP_PDB_FLOAT, "std-dev-x", NULL },
  { GIMP_PDB_FLOAT, "std-dev-y", NULL },
  { GIMP_PDB_FLOAT, "range-sigma", NULL },
  { GIMP_PDB_INT32, "iterations", NULL },
  { GIMP_PDB_FLOAT, "kappa", NULL },
  { GIMP_PDB_INT32, "device",
    "0 auto (the GPU when present and the image has 512 x 512 pixels or "
    "more), 1 cuda (falls back to the CPU if the GPU fails), 2 cpu" },
  { GIMP_PDB_INT32, "edge-mode",
    "What lies beyond the drawable's edges: 0 clamp (the edge pixels "
    "repeat), 1 none (transparent: the layer simply ends), 2 black, "
    "3 white" },
  { GIMP_PDB_INT32, "blur-space",
    "0 linear light (correct: no dark fringes between colours), "
    "1 perceptual (the sRGB-encoded values, as GIMP's own Gaussian Blur "
    "does on 8-bit images)" },
};

const GimpParamDef cudablur_return_vals[CUDABLUR_N_RETURN_VALS] = {
  { GIMP_PDB_INT32, "device-used", "Where the blur ran: 1 cuda, 2 cpu" },
};

const gchar *cudablur_help, *cudablur_help_full;

gint
cudablur_n_args (const gchar *name)
{
  return !strcmp (name, PLUG_IN_PROC) ? CUDABLUR_N_ARGS
         : !strcmp (name, PLUG_IN_PROC_FULL)
           || !strcmp (name, PLUG_IN_PROC_MENU) ? CUDABLUR_N_ARGS_FULL : 0;
}

/* Texts that quote the registry and the engine's limits, built once. */
static void
init (void)
{
  if (cudablur_help)
    return;
  GString *a = g_string_new (NULL);
  for (gint i = 0; i < GB_ALGO_COUNT; i++)
    {
      const gb_algorithm_info *info = gb_algorithm_get ((gb_algorithm) i);
      g_string_append_printf (a, "%s%d %s (%s)", i ? ", " : "", i,
                              info->name, info->summary);
    }
  cudablur_args[3].description = g_string_free (a, FALSE);
  cudablur_args[4].description = g_strdup_printf (
      "Horizontal standard deviation in pixels, 0 to %g (below %g leaves "
      "rows alone)", GB_SIGMA_MAX, GB_SIGMA_IDENTITY);
  cudablur_args[5].description = g_strdup_printf (
      "Vertical standard deviation in pixels, 0 to %g (below %g leaves "
      "columns alone)", GB_SIGMA_MAX, GB_SIGMA_IDENTITY);
  cudablur_args[6].description = g_strdup_printf (
      "Edge-aware range sigma on a 0-255 scale, greater than 0 and at most "
      "%g: colour differences much larger than it stop the blur; past a few "
      "hundred colour hardly matters (ignored by algorithms without it)",
      GB_RANGE_SIGMA_MAX);
  cudablur_args[7].description = g_strdup_printf (
      "Edge-aware horizontal+vertical iterations, 1 to %d (ignored by "
      "algorithms without them)", GB_ITERATIONS_MAX);
  cudablur_args[8].description = g_strdup_printf (
      "Edge-aware partitioned boundary extension in units of sigma, 0 to %g "
      "(ignored by algorithms without it)", GB_KAPPA_MAX);
  static const gchar common[] =
    "Blurs the drawable (within the selection) with a Gaussian of "
    "standard deviations std-dev-x and std-dev-y, with premultiplied "
    "alpha, on an NVIDIA GPU through CUDA when one is usable and on all "
    "CPU cores otherwise; a GPU failure re-runs the blur on the CPU. The "
    "algorithm 'auto' picks the separable FIR filter for small standard "
    "deviations (up to %g on the CPU, %g on the GPU) and Deriche's "
    "recursive filter above. The edge-aware algorithms blur along the "
    "image's domain transform, so that edges with colour differences well "
    "above range-sigma stay sharp. Returns the device that ran the blur. "
    "Script calls are served by a resident process that GIMP starts with "
    "the session (extension-cudablur); without it each call runs in a "
    "process of its own.";
  gchar *text = g_strdup_printf (common, GB_AUTO_FIR_MAX_SIGMA_CPU,
                                 GB_AUTO_FIR_MAX_SIGMA_CUDA);
  cudablur_help = g_strconcat (
    text, " It blurs in linear light and replicates the edge pixels; "
    PLUG_IN_PROC_FULL " takes the same arguments and two more, the edge "
    "mode and the blur space.", NULL);
  cudablur_help_full = g_strconcat (
    text, " As " PLUG_IN_PROC " with two more arguments: edge-mode, what "
    "lies beyond the drawable's edges, and blur-space, linear light or "
    "perceptual values.", NULL);
  g_free (text);
}

static const gchar blurb[] =
  N_("Gaussian blur on the GPU with CUDA, or on the CPU");

void
cudablur_procedure_install (GimpRunProc temporary)
{
  static const struct { const gchar *name; gint n_args; } procs[] = {
    { PLUG_IN_PROC, CUDABLUR_N_ARGS },
    { PLUG_IN_PROC_FULL, CUDABLUR_N_ARGS_FULL },
  };
  init ();
  for (gsize i = 0; i < G_N_ELEMENTS (procs); i++)
    {
      const gchar *help = i ? cudablur_help_full : cudablur_help;
      if (temporary)
        gimp_install_temp_proc (procs[i].name, blurb, help,
                                "gimp-cudablur authors",
                                "gimp-cudablur authors", "2026", NULL,
                                "RGB*, GRAY*", GIMP_TEMPORARY,
                                procs[i].n_args, CUDABLUR_N_RETURN_VALS,
                                cudablur_args, cudablur_return_vals,
                                temporary);
      else
        gimp_install_procedure (procs[i].name, blurb, help,
                                "gimp-cudablur authors",
                                "gimp-cudablur authors", "2026", NULL,
                                "RGB*, GRAY*", GIMP_PLUGIN, procs[i].n_args,
                                CUDABLUR_N_RETURN_VALS, cudablur_args,
                                cudablur_return_vals);
    }
  if (temporary)
    return;
  gchar *menu_help = g_strconcat (
    "Filters > Blur > CUDA Gaussian Blur: the dialog, Filters > Repeat and "
    "Re-show. Scripts call " PLUG_IN_PROC " or " PLUG_IN_PROC_FULL
    ", whose arguments this procedure takes too. ", cudablur_help_full,
    NULL);
  gimp_install_procedure (PLUG_IN_PROC_MENU, blurb, menu_help,
                          "gimp-cudablur authors", "gimp-cudablur authors",
                          "2026", N_("CUDA _Gaussian Blur..."),
                          "RGB*, GRAY*", GIMP_PLUGIN, CUDABLUR_N_ARGS_FULL,
                          CUDABLUR_N_RETURN_VALS, cudablur_args,
                          cudablur_return_vals);
  g_free (menu_help);
}
