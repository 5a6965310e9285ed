/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The operation's properties: one per row of the parameter table
 * (common/params.c), in its order, holding the values in the operation's
 * gb_params.  Enumerated rows become GEGL enumerations (the choices'
 * nicks and labels), ranges and defaults are the table's, and a row that
 * only some algorithms use is visible in GIMP's filter tool for those
 * alone. */
#include "config.h"

#include "op.h"

/* The enumeration of each enumerated row, by row. */
static GType *enum_types;

/* "edge-mode" -> "CudablurEdgeMode". */
static gchar *
enum_type_name (const cb_param *p)
{
  GString *s = g_string_new ("Cudablur");
  gboolean upper = TRUE;
  for (const gchar *c = p->name; *c; c++)
    {
      if (*c == '-')
        upper = TRUE;
      else
        {
          g_string_append_c (s, upper ? g_ascii_toupper (*c) : *c);
          upper = FALSE;
        }
    }
  return g_string_free (s, FALSE);
}

void
cudablur_op_register_enums (GTypeModule *module)
{
  enum_types = g_new0 (GType, cb_params_count ());
  for (gint i = 0; i < cb_params_count (); i++)
    {
      const cb_param *p = cb_param_nth (i);
      if (p->type != CB_PARAM_ENUM)
        continue;
      /* GLib keeps the values for the life of the type. */
      GEnumValue *values = g_new0 (GEnumValue, p->n_choices + 1);
      for (gint k = 0; k < p->n_choices; k++)
        values[k] = (GEnumValue) { p->choices[k].value, p->choices[k].label,
                                   p->choices[k].nick };
      gchar *name = enum_type_name (p);
      enum_types[i] = g_type_module_register_enum (module, name, values);
      g_free (name);
    }
}

/* "algorithm {edge-aware, edge-aware-partitioned}": the algorithms that
 * use the row, in GEGL's "visible" syntax. */
static gchar *
visible_for (const cb_param *p)
{
  GString *s = g_string_new ("algorithm {");
  gint n = 0;
  for (gint i = 0; i < GB_ALGO_COUNT; i++)
    if (cb_param_used_by (p, i))
      g_string_append_printf (s, "%s%s", n++ ? ", " : "",
                              gb_algorithm_get ((gb_algorithm) i)->name);
  g_string_append (s, "}");
  return g_string_free (s, FALSE);
}

static GParamSpec *
spec_for (gint i, const cb_param *p)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_CONSTRUCT;
  /* The texts as written: the module binds no catalogue. */
  gchar *blurb = cb_param_tooltip (p, FALSE);
  GParamSpec *pspec = NULL;
  switch (p->type)
    {
    case CB_PARAM_DOUBLE:
      pspec = gegl_param_spec_double (p->name, p->label, blurb,
                                      cb_param_least (p), p->max,
                                      cb_param_default (p), p->ui_min,
                                      p->ui_max, p->ui_gamma, rw);
      break;
    case CB_PARAM_INT:
      pspec = gegl_param_spec_int (p->name, p->label, blurb, (gint) p->min,
                                   (gint) p->max, (gint) cb_param_default (p),
                                   (gint) p->ui_min, (gint) p->ui_max,
                                   p->ui_gamma, rw);
      break;
    case CB_PARAM_ENUM:
      pspec = gegl_param_spec_enum (p->name, p->label, blurb, enum_types[i],
                                    (gint) cb_param_default (p), rw);
      break;
    }
  g_free (blurb);   /* GLib copied it */
  if (p->axis)
    {
      const gchar axis[] = { p->axis, 0 };
      gegl_param_spec_set_property_key (pspec, "unit", "pixel-distance");
      gegl_param_spec_set_property_key (pspec, "axis", axis);
    }
  if (p->uses)
    {
      gchar *visible = visible_for (p);
      gegl_param_spec_set_property_key (pspec, "visible", visible);
      g_free (visible);
    }
  return pspec;
}

/* Property ids are row numbers from 1. */
static const cb_param *
row_of (guint id)
{
  return cb_param_nth ((gint) id - 1);
}

static void
set_property (GObject *object, guint id, const GValue *value,
              GParamSpec *pspec)
{
  gb_params *v = &CUDABLUR_OP (object)->params;
  const cb_param *p = row_of (id);
  if (!p)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
      return;
    }
  switch (p->type)
    {
    case CB_PARAM_DOUBLE:
      cb_param_set_double (p, v, g_value_get_double (value));
      break;
    case CB_PARAM_INT:
      cb_param_set_int (p, v, g_value_get_int (value));
      break;
    case CB_PARAM_ENUM:
      cb_param_set_int (p, v, g_value_get_enum (value));
      break;
    }
}

static void
get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  const gb_params *v = &CUDABLUR_OP (object)->params;
  const cb_param *p = row_of (id);
  if (!p)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
      return;
    }
  switch (p->type)
    {
    case CB_PARAM_DOUBLE:
      g_value_set_double (value, cb_param_get_double (p, v));
      break;
    case CB_PARAM_INT:
      g_value_set_int (value, cb_param_get_int (p, v));
      break;
    case CB_PARAM_ENUM:
      g_value_set_enum (value, cb_param_get_int (p, v));
      break;
    }
}

void
cudablur_op_install_properties (GObjectClass *klass)
{
  klass->set_property = set_property;
  klass->get_property = get_property;
  for (gint i = 0; i < cb_params_count (); i++)
    g_object_class_install_property (klass, (guint) i + 1,
                                     spec_for (i, cb_param_nth (i)));
}

void
cudablur_op_set_defaults (CudablurOp *self)
{
  gb_params_init (&self->params);
}
