/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plug-in-cudablur and plug-in-cudablur-full for GIMP 3: the procedures
 * scripts call, with the arguments, order and checks of GIMP 2.10's (after
 * GIMP 3's run-mode, image and drawables).  The blur itself runs in GIMP's
 * own process, through the GEGL operation cudablur:gaussian-blur merged
 * into each drawable (gimp_drawable_merge_filter), all of them in one undo
 * step; this process only checks and forwards.  GIMP keeps the last values
 * (GimpProcedureConfig).
 *
 * device-used says where the operation runs the blur as the engine
 * decides it: the CUDA build, an NVIDIA driver with a GPU, the device
 * argument and the image size.  The operation itself falls back to the
 * CPU if the GPU fails; this process cannot see that.
 *
 * A blur the operation cannot do (no memory) leaves the drawable as it
 * was, and GIMP's merge has no way to fail for it: the operation counts
 * its failures where this process, GIMP's child, reads them
 * (gegl/report.c), before and after each merge, and the call fails with
 * the reason. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include <libgimp/gimp.h>

#include "gblur.h"
#include "op.h"
#include "report.h"
#include "../plugin/values.h"
#include "../plugin/plugin-intl.h"

#define OPERATION CUDABLUR_OP_NAME

typedef struct
{
  GimpPlugIn parent_instance;
} CudablurGimp3;

typedef struct
{
  GimpPlugInClass parent_class;
} CudablurGimp3Class;

static GType cudablur_gimp3_get_type (void);
G_DEFINE_TYPE (CudablurGimp3, cudablur_gimp3, GIMP_TYPE_PLUG_IN)

GIMP_MAIN (cudablur_gimp3_get_type ())

/* The nicks of the operation's enumerations, by the numbers scripts
 * pass. */
static const gchar *const device_nicks[] = { "auto", "cuda", "cpu" };
static const gchar *const edge_nicks[] = { "clamp", "none", "black", "white" };
static const gchar *const space_nicks[] = { "linear", "perceptual" };

static GList *
query_procedures (GimpPlugIn *plug_in)
{
  (void) plug_in;
  return g_list_append (g_list_append (NULL, g_strdup (PLUG_IN_PROC)),
                        g_strdup (PLUG_IN_PROC_FULL));
}

static GimpValueArray *
failure (GimpProcedure *procedure, GimpPDBStatusType status, gchar *message)
{
  GError *error = g_error_new_literal (GIMP_PLUG_IN_ERROR, 0, message);
  g_free (message);
  return gimp_procedure_new_return_values (procedure, status, error);
}

/* The checks GIMP's own filters make, with their wording, before any
 * pixel is touched. */
static gchar *
drawable_problem (GimpDrawable *drawable)
{
  const gchar *name = gimp_item_get_name (GIMP_ITEM (drawable));
  if (gimp_item_is_group (GIMP_ITEM (drawable)))
    return g_strdup_printf (_("drawable: item '%s' (%d) cannot be used "
                              "because it is a group item"), name,
                            gimp_item_get_id (GIMP_ITEM (drawable)));
  if (gimp_item_get_lock_content (GIMP_ITEM (drawable)))
    return g_strdup_printf (_("drawable: item '%s' (%d) cannot be modified "
                              "because its contents are locked"), name,
                            gimp_item_get_id (GIMP_ITEM (drawable)));
  if (gimp_drawable_is_indexed (drawable))
    return g_strdup (_("drawable: indexed images cannot be blurred; convert "
                       "the image to RGB or Grayscale first (Image > Mode)"));
  return NULL;
}

/* Where the operation will run the blur (see the top of this file). */
static gint
device_for (const CudablurVals *v, GimpDrawable *drawable)
{
  gb_params p;
  cudablur_vals_to_params (v, &p);
  if (!g_file_test ("/proc/driver/nvidia/gpus", G_FILE_TEST_IS_DIR))
    return GB_BACKEND_CPU;
  return gb_backend_for (&p, gimp_drawable_get_width (drawable),
                         gimp_drawable_get_height (drawable));
}

/* Merges the operation into the drawable; NULL, or why it failed. */
static gchar *
blur_drawable (GimpDrawable *drawable, const CudablurVals *v)
{
  GimpDrawableFilter *filter =
    gimp_drawable_filter_new (drawable, OPERATION, _("CUDA Gaussian Blur"));
  if (!filter)
    return g_strdup_printf (_("The GEGL operation %s is not installed: the "
                              "GEGL module cudablur.so belongs in a GEGL "
                              "module folder such as "
                              "~/.local/share/gegl-0.4/plug-ins"), OPERATION);
  GimpDrawableFilterConfig *config = gimp_drawable_filter_get_config (filter);
  g_object_set (config,
                "algorithm", gb_algorithm_get (v->algorithm)->name,
                "std-dev-x", v->std_dev_x, "std-dev-y", v->std_dev_y,
                "range-sigma", v->range_sigma > 0.0 ? v->range_sigma : 1.0,
                "iterations", CLAMP (v->iterations, 1, GB_ITERATIONS_MAX),
                "kappa", CLAMP (v->kappa, 0.0, GB_KAPPA_MAX),
                "device", device_nicks[v->device],
                "edge-mode", edge_nicks[v->border],
                "blur-space", space_nicks[v->space], NULL);
  gimp_drawable_filter_update (filter);
  const long gimp_pid = (long) getppid ();
  const guint failed_before = cudablur_failures_read (gimp_pid, NULL);
  gimp_drawable_merge_filter (drawable, filter);
  gb_status why = GB_OK;
  if (cudablur_failures_read (gimp_pid, &why) == failed_before)
    return NULL;
  return g_strdup_printf (_("The blur of '%s' could not be done: %s. The "
                            "drawable is left as it was."),
                          gimp_item_get_name (GIMP_ITEM (drawable)),
                          _(gb_status_message (why)));
}

static GimpValueArray *
run (GimpProcedure *procedure, GimpRunMode run_mode, GimpImage *image,
     GimpDrawable **drawables, GimpProcedureConfig *config, gpointer data)
{
  (void) run_mode;
  (void) data;
  INIT_I18N ();
  const gboolean full = !strcmp (gimp_procedure_get_name (procedure),
                                 PLUG_IN_PROC_FULL);
  CudablurVals v;
  cudablur_vals_defaults (&v);
  g_object_get (config, "algorithm", &v.algorithm, "std-dev-x", &v.std_dev_x,
                "std-dev-y", &v.std_dev_y, "range-sigma", &v.range_sigma,
                "iterations", &v.iterations, "kappa", &v.kappa,
                "device", &v.device, NULL);
  if (full)
    g_object_get (config, "edge-mode", &v.border, "blur-space", &v.space,
                  NULL);
  gchar *message = NULL;
  if (!cudablur_vals_check (&v, &message))
    return failure (procedure, GIMP_PDB_CALLING_ERROR, message);
  if (!drawables || !drawables[0])
    return failure (procedure, GIMP_PDB_CALLING_ERROR,
                    g_strdup (_("drawables: no drawable given")));
  for (gint i = 0; drawables[i]; i++)
    if ((message = drawable_problem (drawables[i])))
      return failure (procedure, GIMP_PDB_CALLING_ERROR, message);

  gint device_used = GB_BACKEND_CPU;
  if (gb_effective_sigma (v.std_dev_x) > 0.0
      || gb_effective_sigma (v.std_dev_y) > 0.0)
    {
      gimp_image_undo_group_start (image);
      for (gint i = 0; drawables[i] && !message; i++)
        if (!(message = blur_drawable (drawables[i], &v)))
          device_used = device_for (&v, drawables[i]);
      gimp_image_undo_group_end (image);
      if (message)
        return failure (procedure, GIMP_PDB_EXECUTION_ERROR, message);
    }
  GimpValueArray *ret =
    gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS, NULL);
  g_value_set_int (gimp_value_array_index (ret, 1), device_used);
  return ret;
}

static void
add_arguments (GimpProcedure *procedure, gboolean full)
{
  CudablurVals d;
  cudablur_vals_defaults (&d);
  GString *algorithms = g_string_new (NULL);
  for (gint i = 0; i < GB_ALGO_COUNT; i++)
    {
      const gb_algorithm_info *info = gb_algorithm_get ((gb_algorithm) i);
      g_string_append_printf (algorithms, "%s%d %s (%s)", i ? ", " : "", i,
                              info->name, info->summary);
    }
  /* Ranges as wide as GIMP 2.10's arguments: the values are checked in
   * run, with the messages of 2.10, and parameters an algorithm does not
   * use are not checked at all. */
  gimp_procedure_add_int_argument (procedure, "algorithm", "Algorithm",
                                   algorithms->str, G_MININT, G_MAXINT,
                                   d.algorithm, G_PARAM_READWRITE);
  g_string_free (algorithms, TRUE);
  gimp_procedure_add_double_argument (procedure, "std-dev-x", "Std. dev. X",
                                      "Horizontal standard deviation in "
                                      "pixels, 0 to 1500", -G_MAXDOUBLE,
                                      G_MAXDOUBLE, d.std_dev_x,
                                      G_PARAM_READWRITE);
  gimp_procedure_add_double_argument (procedure, "std-dev-y", "Std. dev. Y",
                                      "Vertical standard deviation in "
                                      "pixels, 0 to 1500", -G_MAXDOUBLE,
                                      G_MAXDOUBLE, d.std_dev_y,
                                      G_PARAM_READWRITE);
  gimp_procedure_add_double_argument (procedure, "range-sigma", "Range sigma",
                                      "Edge-aware range sigma on a 0-255 "
                                      "scale, greater than 0 (ignored by "
                                      "algorithms without it)", -G_MAXDOUBLE,
                                      G_MAXDOUBLE, d.range_sigma,
                                      G_PARAM_READWRITE);
  gimp_procedure_add_int_argument (procedure, "iterations", "Iterations",
                                   "Edge-aware horizontal+vertical "
                                   "iterations, 1 to 10 (ignored by "
                                   "algorithms without them)", G_MININT,
                                   G_MAXINT, d.iterations, G_PARAM_READWRITE);
  gimp_procedure_add_double_argument (procedure, "kappa", "Kappa",
                                      "Edge-aware partitioned boundary "
                                      "extension in units of sigma, 0 to 10 "
                                      "(ignored by algorithms without it)",
                                      -G_MAXDOUBLE, G_MAXDOUBLE, d.kappa,
                                      G_PARAM_READWRITE);
  gimp_procedure_add_int_argument (procedure, "device", "Device",
                                   "0 auto (the GPU when present and the "
                                   "image has 512 x 512 pixels or more), 1 "
                                   "cuda (the CPU if the GPU fails), 2 cpu",
                                   G_MININT, G_MAXINT, d.device,
                                   G_PARAM_READWRITE);
  if (full)
    {
      gimp_procedure_add_int_argument (procedure, "edge-mode", "Edge mode",
                                       "What lies beyond the drawable's "
                                       "edges: 0 clamp, 1 none, 2 black, "
                                       "3 white", G_MININT, G_MAXINT,
                                       d.border, G_PARAM_READWRITE);
      gimp_procedure_add_int_argument (procedure, "blur-space", "Blur space",
                                       "0 linear light, 1 perceptual",
                                       G_MININT, G_MAXINT, d.space,
                                       G_PARAM_READWRITE);
    }
  gimp_procedure_add_int_return_value (procedure, "device-used",
                                       "Device used",
                                       "Where the blur runs: 1 cuda, 2 cpu",
                                       GB_BACKEND_CUDA, GB_BACKEND_CPU,
                                       GB_BACKEND_CPU, G_PARAM_READWRITE);
}

static GimpProcedure *
create_procedure (GimpPlugIn *plug_in, const gchar *name)
{
  const gboolean full = !strcmp (name, PLUG_IN_PROC_FULL);
  if (!full && strcmp (name, PLUG_IN_PROC))
    return NULL;
  GimpProcedure *procedure = gimp_image_procedure_new (
      plug_in, name, GIMP_PDB_PROC_TYPE_PLUGIN, run, NULL, NULL);
  gimp_procedure_set_image_types (procedure, "RGB*, GRAY*");
  gimp_procedure_set_sensitivity_mask (procedure,
                                       GIMP_PROCEDURE_SENSITIVE_DRAWABLE
                                       | GIMP_PROCEDURE_SENSITIVE_DRAWABLES);
  gimp_procedure_set_documentation (
      procedure, "Gaussian blur on the GPU with CUDA, or on the CPU",
      full ? "Blurs each drawable (within the selection) with the GEGL "
             "operation cudablur:gaussian-blur, in GIMP's own process, as "
             "one undo step. As plug-in-cudablur with two more arguments: "
             "edge-mode and blur-space."
           : "Blurs each drawable (within the selection) with the GEGL "
             "operation cudablur:gaussian-blur, in GIMP's own process, as "
             "one undo step, in linear light with the edge pixels "
             "repeated; plug-in-cudablur-full takes two more arguments. "
             "The menu entry Filters > Blur > CUDA Gaussian Blur is the "
             "operation itself, in GIMP's filter tool.",
      name);
  gimp_procedure_set_attribution (procedure, "gimp-cudablur authors",
                                  "gimp-cudablur authors", "2026");
  add_arguments (procedure, full);
  return procedure;
}

/* Our catalogues, beside the executable where they were installed. */
static gboolean
set_i18n (GimpPlugIn *plug_in, const gchar *name, gchar **domain,
          gchar **catalog_dir)
{
  (void) plug_in;
  (void) name;
  const gchar *dir = cudablur_locale_dir ();
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    return FALSE;
  *domain = g_strdup (GETTEXT_PACKAGE);
  *catalog_dir = g_strdup (dir);
  return TRUE;
}

static void
cudablur_gimp3_class_init (CudablurGimp3Class *klass)
{
  GimpPlugInClass *plug_in_class = GIMP_PLUG_IN_CLASS (klass);
  plug_in_class->query_procedures = query_procedures;
  plug_in_class->create_procedure = create_procedure;
  plug_in_class->set_i18n = set_i18n;
}

static void
cudablur_gimp3_init (CudablurGimp3 *self)
{
  (void) self;
}
