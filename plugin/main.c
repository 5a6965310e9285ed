/* plug-in-cudablur: registration in the PDB, run modes and last values. */
#include "config.h"

#include <string.h>

#include "cudablur.h"
#include "plugin-intl.h"
#include "../ui/dialog.h"

static void query (void);
static void run (const gchar *name, gint nparams, const GimpParam *param,
                 gint *nreturn_vals, GimpParam **return_vals);

const GimpPlugInInfo PLUG_IN_INFO = { NULL, NULL, query, run };

MAIN ()

static void
query (void)
{
  static const GimpParamDef args[] = {
    { GIMP_PDB_INT32, "run-mode",
      "The run mode { RUN-INTERACTIVE (0), RUN-NONINTERACTIVE (1), "
      "RUN-WITH-LAST-VALS (2) }" },
    { GIMP_PDB_IMAGE, "image", "Input image" },
    { GIMP_PDB_DRAWABLE, "drawable", "Input drawable (RGB or grey layer, "
      "layer mask or channel)" },
    { GIMP_PDB_INT32, "algorithm",
      "0 auto (the fastest accurate method for the standard deviations), "
      "1 fir (separable FIR, taps to 3 sigma), 2 yvrg (Young-van Vliet "
      "recursive), 3 yvrg-two-way (two-way partitioned recursive), "
      "4 deriche (Deriche recursive), 5 edge-aware (domain transform, exact "
      "Algorithm A), 6 edge-aware partitioned (Algorithm C)" },
    { GIMP_PDB_FLOAT, "std-dev-x",
      "Horizontal standard deviation in pixels, 0 to 1500 (0 leaves rows "
      "alone)" },
    { GIMP_PDB_FLOAT, "std-dev-y",
      "Vertical standard deviation in pixels, 0 to 1500 (0 leaves columns "
      "alone)" },
    { GIMP_PDB_FLOAT, "range-sigma",
      "Edge-aware range sigma on a 0-255 scale, greater than 0 and at most "
      "1000: colour differences much larger than it stop the blur "
      "(ignored by other algorithms)" },
    { GIMP_PDB_INT32, "iterations",
      "Edge-aware horizontal+vertical iterations, 1 to 10 (ignored by other "
      "algorithms)" },
    { GIMP_PDB_FLOAT, "kappa",
      "Edge-aware partitioned boundary extension in units of sigma, 0 to 10 "
      "(ignored by other algorithms)" },
    { GIMP_PDB_INT32, "device",
      "0 auto (the GPU when present and the image is large enough), "
      "1 cuda (falls back to the CPU if the GPU fails), 2 cpu" },
  };
  static const GimpParamDef return_vals[] = {
    { GIMP_PDB_INT32, "device-used", "Where the blur ran: 1 cuda, 2 cpu" },
  };

  gimp_plugin_domain_register (GETTEXT_PACKAGE, CUDABLUR_LOCALE_DIR ());
  /* The Help button's page: help/gimp-help.xml maps PLUG_IN_HELP to it. */
  gchar *help_uri = g_filename_to_uri (HELPDIR, NULL, NULL);
  if (help_uri)
    gimp_plugin_help_register (PLUG_IN_HELP_DOMAIN, help_uri);
  g_free (help_uri);

  gimp_install_procedure (PLUG_IN_PROC,
                          N_("Gaussian blur on the GPU with CUDA, or on the "
                             "CPU"),
                          "Blurs the drawable (within the selection) with a "
                          "Gaussian of standard deviations std-dev-x and "
                          "std-dev-y, in linear light with premultiplied "
                          "alpha, on an NVIDIA GPU through CUDA when one is "
                          "usable and on all CPU cores otherwise; a GPU "
                          "failure re-runs the blur on the CPU. Borders "
                          "replicate the edge pixels. The algorithm 'auto' "
                          "picks the separable FIR filter. The edge-aware "
                          "algorithms blur along the image's domain "
                          "transform, so that edges with colour differences "
                          "well above range-sigma stay sharp. Returns the "
                          "device that ran the blur.",
                          "gimp-cudablur authors",
                          "gimp-cudablur authors",
                          "2026",
                          N_("CUDA _Gaussian Blur..."),
                          "RGB*, GRAY*",
                          GIMP_PLUGIN,
                          G_N_ELEMENTS (args), G_N_ELEMENTS (return_vals),
                          args, return_vals);
  gimp_plugin_menu_register (PLUG_IN_PROC, "<Image>/Filters/Blur");
}

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
      /* GIMP shows this string as the procedure's error message. */
      values[1].type = GIMP_PDB_STRING;
      values[1].data.d_string = message;
      *nvals = 2;
    }
}

static void
run (const gchar *name, gint nparams, const GimpParam *param,
     gint *nreturn_vals, GimpParam **return_vals)
{
  static GimpParam values[2];
  CudablurVals vals;
  gchar *message = NULL;
  GimpPDBStatusType status = GIMP_PDB_SUCCESS;
  gint32 device_used = GB_BACKEND_CPU;

  INIT_I18N ();
  gegl_init (NULL, NULL);
  *return_vals = values;
  set_return (values, nreturn_vals, GIMP_PDB_SUCCESS, NULL);

  if (strcmp (name, PLUG_IN_PROC) != 0 || nparams < 3)
    {
      set_return (values, nreturn_vals, GIMP_PDB_CALLING_ERROR,
                  g_strdup (_("run-mode, image and drawable are required")));
      return;
    }
  GimpRunMode run_mode = param[0].data.d_int32;
  gint32 image_id = param[1].data.d_image;
  gint32 drawable_id = param[2].data.d_drawable;

  cudablur_vals_load (&vals);

  switch (run_mode)
    {
    case GIMP_RUN_NONINTERACTIVE:
      if (nparams != CUDABLUR_N_ARGS)
        {
          message = g_strdup_printf (_("expected %d arguments, got %d"),
                                     CUDABLUR_N_ARGS, nparams);
          status = GIMP_PDB_CALLING_ERROR;
          break;
        }
      vals.algorithm = param[3].data.d_int32;
      vals.std_dev_x = param[4].data.d_float;
      vals.std_dev_y = param[5].data.d_float;
      vals.range_sigma = param[6].data.d_float;
      vals.iterations = param[7].data.d_int32;
      vals.kappa = param[8].data.d_float;
      vals.device = param[9].data.d_int32;
      if (!cudablur_vals_check (&vals, &message))
        status = GIMP_PDB_CALLING_ERROR;
      break;
    case GIMP_RUN_INTERACTIVE:
      if (!gimp_item_is_valid (drawable_id)
          || !gimp_item_is_drawable (drawable_id)
          || gimp_drawable_is_indexed (drawable_id))
        break;   /* refused below, before any dialog */
      if (!cudablur_dialog (drawable_id, &vals))
        status = GIMP_PDB_CANCEL;
      break;
    case GIMP_RUN_WITH_LAST_VALS:
      break;
    default:
      message = g_strdup_printf (_("run-mode: %d is not a valid run mode"),
                                 run_mode);
      status = GIMP_PDB_CALLING_ERROR;
    }

  if (status == GIMP_PDB_SUCCESS)
    {
      if (!gimp_item_is_valid (drawable_id)
          || !gimp_item_is_drawable (drawable_id))
        {
          message = g_strdup (_("drawable: not a valid drawable"));
          status = GIMP_PDB_CALLING_ERROR;
        }
      else if (gimp_item_get_image (drawable_id) != image_id)
        {
          message = g_strdup (_("drawable: does not belong to the image"));
          status = GIMP_PDB_CALLING_ERROR;
        }
      else if (gimp_drawable_is_indexed (drawable_id))
        {
          message = g_strdup (_("drawable: indexed images cannot be blurred; "
                                "convert the image to RGB or Grayscale "
                                "first (Image > Mode)"));
          status = GIMP_PDB_CALLING_ERROR;
        }
    }

  if (status == GIMP_PDB_SUCCESS
      && !gb_algorithm_available ((gb_algorithm) vals.algorithm))
    {
      message = g_strdup_printf (_("algorithm: %s is not available in this "
                                   "version"),
                                 gb_algorithm_name ((gb_algorithm)
                                                    vals.algorithm));
      status = GIMP_PDB_CALLING_ERROR;
    }

  if (status == GIMP_PDB_SUCCESS)
    {
      status = cudablur_render_drawable (drawable_id, &vals, TRUE,
                                         &device_used, &message);
      if (status == GIMP_PDB_SUCCESS)
        {
          cudablur_vals_save (&vals);
          if (run_mode != GIMP_RUN_NONINTERACTIVE)
            gimp_displays_flush ();
        }
    }
  gb_shutdown ();

  set_return (values, nreturn_vals, status, message);
  if (status == GIMP_PDB_SUCCESS)
    {
      values[1].type = GIMP_PDB_INT32;
      values[1].data.d_int32 = device_used;
      *nreturn_vals = 2;
    }
}
