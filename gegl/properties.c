/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The operation's properties, declared from the engine's algorithm
 * registry and limits: the algorithm enumeration is the registry's rows
 * (names as nicks, labels as names), each parameter's range is the
 * engine's, and the edge-aware parameters are visible in GIMP's filter
 * tool only for the algorithms whose registry row uses them. */
#include "config.h"

#include "op.h"

enum
{
  PROP_0,
  PROP_ALGORITHM,
  PROP_STD_DEV_X,
  PROP_STD_DEV_Y,
  PROP_RANGE_SIGMA,
  PROP_ITERATIONS,
  PROP_KAPPA,
  PROP_DEVICE,
  PROP_EDGE_MODE,
  PROP_BLUR_SPACE
};

static GType algorithm_type, device_type, edge_mode_type, blur_space_type;

void
cudablur_op_register_enums (GTypeModule *module)
{
  /* GLib keeps the tables for the life of the types. */
  GEnumValue *algorithms = g_new0 (GEnumValue, GB_ALGO_COUNT + 1);
  for (gint i = 0; i < GB_ALGO_COUNT; i++)
    {
      const gb_algorithm_info *info = gb_algorithm_get ((gb_algorithm) i);
      algorithms[i] = (GEnumValue) { i, info->label, info->name };
    }
  algorithm_type = g_type_module_register_enum (module, "CudablurAlgorithm",
                                                algorithms);
  static const GEnumValue devices[] = {
    { GB_BACKEND_AUTO, "Automatic", "auto" },
    { GB_BACKEND_CUDA, "CUDA (the GPU; the CPU if it fails)", "cuda" },
    { GB_BACKEND_CPU, "CPU", "cpu" },
    { 0, NULL, NULL } };
  device_type = g_type_module_register_enum (module, "CudablurDevice",
                                             devices);
  static const GEnumValue edges[] = {
    { GB_BORDER_CLAMP, "Repeat the edge pixels", "clamp" },
    { GB_BORDER_NONE, "None: transparent", "none" },
    { GB_BORDER_BLACK, "Black", "black" },
    { GB_BORDER_WHITE, "White", "white" },
    { 0, NULL, NULL } };
  edge_mode_type = g_type_module_register_enum (module, "CudablurEdgeMode",
                                                edges);
  static const GEnumValue spaces[] = {
    { 0, "Linear light", "linear" },
    { 1, "Perceptual", "perceptual" },
    { 0, NULL, NULL } };
  blur_space_type = g_type_module_register_enum (module, "CudablurBlurSpace",
                                                 spaces);
}

/* "algorithm {edge-aware, edge-aware-partitioned}": the algorithms whose
 * registry row uses the parameter, in GEGL's "visible" syntax. */
static gchar *
visible_for (unsigned uses)
{
  GString *s = g_string_new ("algorithm {");
  gint n = 0;
  for (gint i = 0; i < GB_ALGO_COUNT; i++)
    {
      const gb_algorithm_info *info = gb_algorithm_get ((gb_algorithm) i);
      if (info->uses & uses)
        g_string_append_printf (s, "%s%s", n++ ? ", " : "", info->name);
    }
  g_string_append (s, "}");
  return g_string_free (s, FALSE);
}

static void
install (GObjectClass *klass, guint id, GParamSpec *pspec, unsigned uses)
{
  if (uses)
    {
      gchar *visible = visible_for (uses);
      gegl_param_spec_set_property_key (pspec, "visible", visible);
      g_free (visible);
    }
  g_object_class_install_property (klass, id, pspec);
}

static GParamSpec *
sigma_spec (const gchar *name, const gchar *nick, const gchar *axis,
            const gchar *blurb, gdouble value)
{
  GParamSpec *pspec = gegl_param_spec_double (
      name, nick, blurb, 0.0, GB_SIGMA_MAX, value, 0.0, 500.0, 3.0,
      G_PARAM_READWRITE | G_PARAM_CONSTRUCT);
  gegl_param_spec_set_property_key (pspec, "unit", "pixel-distance");
  gegl_param_spec_set_property_key (pspec, "axis", axis);
  return pspec;
}

static void
set_property (GObject *object, guint id, const GValue *value,
              GParamSpec *pspec)
{
  CudablurOp *self = CUDABLUR_OP (object);
  switch (id)
    {
    case PROP_ALGORITHM: self->algorithm = g_value_get_enum (value); break;
    case PROP_STD_DEV_X: self->std_dev_x = g_value_get_double (value); break;
    case PROP_STD_DEV_Y: self->std_dev_y = g_value_get_double (value); break;
    case PROP_RANGE_SIGMA: self->range_sigma = g_value_get_double (value); break;
    case PROP_ITERATIONS: self->iterations = g_value_get_int (value); break;
    case PROP_KAPPA: self->kappa = g_value_get_double (value); break;
    case PROP_DEVICE: self->device = g_value_get_enum (value); break;
    case PROP_EDGE_MODE: self->edge_mode = g_value_get_enum (value); break;
    case PROP_BLUR_SPACE: self->blur_space = g_value_get_enum (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  CudablurOp *self = CUDABLUR_OP (object);
  switch (id)
    {
    case PROP_ALGORITHM: g_value_set_enum (value, self->algorithm); break;
    case PROP_STD_DEV_X: g_value_set_double (value, self->std_dev_x); break;
    case PROP_STD_DEV_Y: g_value_set_double (value, self->std_dev_y); break;
    case PROP_RANGE_SIGMA: g_value_set_double (value, self->range_sigma); break;
    case PROP_ITERATIONS: g_value_set_int (value, self->iterations); break;
    case PROP_KAPPA: g_value_set_double (value, self->kappa); break;
    case PROP_DEVICE: g_value_set_enum (value, self->device); break;
    case PROP_EDGE_MODE: g_value_set_enum (value, self->edge_mode); break;
    case PROP_BLUR_SPACE: g_value_set_enum (value, self->blur_space); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

void
cudablur_op_install_properties (GObjectClass *klass)
{
  gb_params d;
  gb_params_init (&d);
  klass->set_property = set_property;
  klass->get_property = get_property;
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_CONSTRUCT;

  GString *algorithms = g_string_new ("The method: ");
  for (gint i = 0; i < GB_ALGO_COUNT; i++)
    {
      const gb_algorithm_info *info = gb_algorithm_get ((gb_algorithm) i);
      g_string_append_printf (algorithms, "%s%s (%s)", i ? ", " : "",
                              info->name, info->summary);
    }
  install (klass, PROP_ALGORITHM,
           gegl_param_spec_enum ("algorithm", "Algorithm", algorithms->str,
                              algorithm_type, GB_ALGO_AUTO, rw), 0);
  g_string_free (algorithms, TRUE);

  /* GLib copies the blurbs. */
  gchar *blurb = g_strdup_printf ("Horizontal standard deviation in pixels "
                                  "(below %g leaves rows alone)",
                                  GB_SIGMA_IDENTITY);
  install (klass, PROP_STD_DEV_X,
           sigma_spec ("std-dev-x", "Size X", "x", blurb, d.sigma_x), 0);
  g_free (blurb);
  blurb = g_strdup_printf ("Vertical standard deviation in pixels (below %g "
                           "leaves columns alone)", GB_SIGMA_IDENTITY);
  install (klass, PROP_STD_DEV_Y,
           sigma_spec ("std-dev-y", "Size Y", "y", blurb, d.sigma_y), 0);
  g_free (blurb);
  install (klass, PROP_RANGE_SIGMA,
           gegl_param_spec_double ("range-sigma", "Edge contrast",
                                   "The range sigma, on a 0-255 scale: "
                                   "colour differences well above it stop "
                                   "the blur, so edges stay sharp",
                                   G_MINDOUBLE, GB_RANGE_SIGMA_MAX,
                                   d.range_sigma, 1.0, 255.0, 1.5, rw),
           GB_USES_RANGE_SIGMA);
  install (klass, PROP_ITERATIONS,
           gegl_param_spec_int ("iterations", "Iterations",
                                "Horizontal and vertical passes of the "
                                "edge-aware filter: more passes, fewer "
                                "streaks", 1, GB_ITERATIONS_MAX, d.iterations,
                                1, GB_ITERATIONS_MAX, 1.0, rw),
           GB_USES_ITERATIONS);
  install (klass, PROP_KAPPA,
           gegl_param_spec_double ("kappa", "Block overlap",
                                   "Kappa: how far each block looks beyond "
                                   "its boundary, in units of sigma; more is "
                                   "slower and closer to the exact result",
                                   0.0, GB_KAPPA_MAX, d.kappa, 0.0,
                                   GB_KAPPA_MAX, 1.0, rw),
           GB_USES_KAPPA);
  install (klass, PROP_DEVICE,
           gegl_param_spec_enum ("device", "Device",
                              "Where the blur runs: auto (the GPU for images "
                              "of 512 x 512 pixels or more), cuda (the GPU; "
                              "the CPU if it fails) or cpu",
                              device_type, GB_BACKEND_AUTO, rw), 0);
  install (klass, PROP_EDGE_MODE,
           gegl_param_spec_enum ("edge-mode", "Edges",
                              "What lies beyond the image's edges",
                              edge_mode_type, GB_BORDER_CLAMP, rw), 0);
  install (klass, PROP_BLUR_SPACE,
           gegl_param_spec_enum ("blur-space", "Blur in",
                              "Linear light mixes colours as light does (no "
                              "dark fringes between colours); perceptual "
                              "blurs the encoded values, as GIMP's own "
                              "Gaussian Blur does on 8-bit images",
                              blur_space_type, 0, rw), 0);
}

void
cudablur_op_set_defaults (CudablurOp *self)
{
  gb_params d;
  gb_params_init (&d);
  self->algorithm = GB_ALGO_AUTO;
  self->std_dev_x = d.sigma_x;
  self->std_dev_y = d.sigma_y;
  self->range_sigma = d.range_sigma;
  self->iterations = d.iterations;
  self->kappa = d.kappa;
  self->device = GB_BACKEND_AUTO;
  self->edge_mode = GB_BORDER_CLAMP;
  self->blur_space = 0;
}
