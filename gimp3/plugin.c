/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plug-in-cudablur and plug-in-cudablur-full for GIMP 3: the procedures
 * scripts call, with the arguments, order and checks of GIMP 2.10's (after
 * GIMP 3's run-mode, image and drawables).  The blur itself runs in GIMP's
 * own process, through the GEGL operation cudablur:gaussian-blur merged
 * into each drawable (gimp_drawable_merge_filter), all of them in one undo
 * step; this process only checks and forwards.  The arguments are the
 * parameter table's rows (common/params.c), passed on to the operation's
 * properties of the same names.  GIMP keeps the last values
 * (GimpProcedureConfig).
 *
 * device-used says where the operation runs the blur as the engine
 * decides it: the CUDA build, an NVIDIA driver with a GPU, the device
 * argument and the image size.  The operation itself falls back to the
 * CPU if the GPU fails; this process cannot see that. */
#include "config.h"

#include <string.h>

#include <libgimp/gimp.h>

#include "gblur.h"
#include "intl.h"
#include "params.h"

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
device_for (const gb_params *v, GimpDrawable *drawable)
{
  if (!g_file_test ("/proc/driver/nvidia/gpus", G_FILE_TEST_IS_DIR))
    return GB_BACKEND_CPU;
  return gb_backend_for (v, gimp_drawable_get_width (drawable),
                         gimp_drawable_get_height (drawable));
}

/* The checked values as the operation's properties.  A row the
 * algorithm does not use was not checked and may lie outside the
 * property's range: it gets its default, which changes nothing.  Above
 * an excluded minimum the property starts at the least normal double,
 * which denormals become. */
static void
set_properties (GObject *config, const gb_params *v)
{
  for (gint i = 0; i < cb_params_count (); i++)
    {
      const cb_param *p = cb_param_nth (i);
      gb_params one = *v;
      if (!cb_param_used_by (p, v->algorithm))
        gb_params_init (&one);
      if (p->type == CB_PARAM_DOUBLE)
        g_object_set (config, p->name,
                      MAX (cb_param_get_double (p, &one),
                           cb_param_least (p)), NULL);
      else if (p->type == CB_PARAM_INT)
        g_object_set (config, p->name, cb_param_get_int (p, &one), NULL);
      else   /* GIMP shows an operation's enumerations as choices */
        g_object_set (config, p->name,
                      cb_param_choice (p, cb_param_get_int (p, &one))->nick,
                      NULL);
    }
}

static gboolean
blur_drawable (GimpDrawable *drawable, const gb_params *v)
{
  GimpDrawableFilter *filter =
    gimp_drawable_filter_new (drawable, OPERATION, _("CUDA Gaussian Blur"));
  if (!filter)
    return FALSE;
  set_properties (G_OBJECT (gimp_drawable_filter_get_config (filter)), v);
  gimp_drawable_filter_update (filter);
  gimp_drawable_merge_filter (drawable, filter);
  return TRUE;
}

/* The arguments the procedure has; the others keep their defaults. */
static void
read_arguments (GimpProcedureConfig *config, gboolean full, gb_params *v)
{
  gb_params_init (v);
  for (gint i = 0; i < cb_params_count_for (full); i++)
    {
      const cb_param *p = cb_param_nth (i);
      if (p->type == CB_PARAM_DOUBLE)
        {
          gdouble d;
          g_object_get (config, p->name, &d, NULL);
          cb_param_set_double (p, v, d);
        }
      else
        {
          gint n;
          g_object_get (config, p->name, &n, NULL);
          cb_param_set_int (p, v, n);
        }
    }
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
  gb_params v;
  read_arguments (config, full, &v);
  gchar *message = NULL;
  if (!cb_params_check (&v, &message))
    return failure (procedure, GIMP_PDB_CALLING_ERROR, message);
  if (!drawables || !drawables[0])
    return failure (procedure, GIMP_PDB_CALLING_ERROR,
                    g_strdup (_("drawables: no drawable given")));
  for (gint i = 0; drawables[i]; i++)
    if ((message = drawable_problem (drawables[i])))
      return failure (procedure, GIMP_PDB_CALLING_ERROR, message);

  gint device_used = GB_BACKEND_CPU;
  if (gb_effective_sigma (v.sigma_x) > 0.0
      || gb_effective_sigma (v.sigma_y) > 0.0)
    {
      gimp_image_undo_group_start (image);
      for (gint i = 0; drawables[i] && !message; i++)
        {
          if (!blur_drawable (drawables[i], &v))
            message = g_strdup_printf (_("The GEGL operation %s is not "
                                         "installed: the GEGL module "
                                         "cudablur.so belongs in a GEGL "
                                         "module folder such as "
                                         "~/.local/share/gegl-0.4/plug-ins"),
                                       OPERATION);
          else
            device_used = device_for (&v, drawables[i]);
        }
      gimp_image_undo_group_end (image);
      if (message)
        return failure (procedure, GIMP_PDB_EXECUTION_ERROR, message);
    }
  GimpValueArray *ret =
    gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS, NULL);
  g_value_set_int (gimp_value_array_index (ret, 1), device_used);
  return ret;
}

/* The table's rows as arguments, as wide as GIMP 2.10's: the values are
 * checked in run, with the messages of 2.10, and parameters an algorithm
 * does not use are not checked at all. */
static void
add_arguments (GimpProcedure *procedure, gboolean full)
{
  for (gint i = 0; i < cb_params_count_for (full); i++)
    {
      const cb_param *p = cb_param_nth (i);
      gchar *help = cb_param_help (p);
      if (p->type == CB_PARAM_DOUBLE)
        gimp_procedure_add_double_argument (procedure, p->name, p->label,
                                            help, -G_MAXDOUBLE, G_MAXDOUBLE,
                                            cb_param_default (p),
                                            G_PARAM_READWRITE);
      else
        gimp_procedure_add_int_argument (procedure, p->name, p->label, help,
                                         G_MININT, G_MAXINT,
                                         (gint) cb_param_default (p),
                                         G_PARAM_READWRITE);
      g_free (help);
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
  gchar *more = cb_params_full_only_names ();
  gchar *help = g_strdup_printf (
      full ? "Blurs each drawable (within the selection) with the GEGL "
             "operation %s, in GIMP's own process, as one undo step. As "
             PLUG_IN_PROC " with more arguments: %s."
           : "Blurs each drawable (within the selection) with the GEGL "
             "operation %s, in GIMP's own process, as one undo step, in "
             "linear light with the edge pixels repeated; "
             PLUG_IN_PROC_FULL " takes more arguments: %s. The menu entry "
             "Filters > Blur > CUDA Gaussian Blur is the operation itself, "
             "in GIMP's filter tool.", OPERATION, more);
  gimp_procedure_set_documentation (
      procedure, "Gaussian blur on the GPU with CUDA, or on the CPU", help,
      name);
  g_free (help);
  g_free (more);
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
