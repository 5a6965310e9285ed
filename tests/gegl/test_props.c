/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudablur:gaussian-blur, loaded by real GEGL from the build tree,
 * exposes exactly the parameter table (common/params.c): its own
 * properties are the rows, in their order, none more; each has the row's
 * type, label and tooltip, range (GEGL's slider range and gamma too),
 * default, enumeration (values, nicks and labels of the choices, in
 * order), GIMP's "visible" key for the rows only some algorithms use and
 * the axis keys of the distances; and a value set on a node reads back
 * from it.  A row added to the table and not to the operation, or the
 * other way round, fails here.  GEGL_MODULE_DIR (set by the build) holds
 * the module. */
#define _DEFAULT_SOURCE   /* realpath */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gegl.h>
#include <gegl-paramspecs.h>
#include <glib/gstdio.h>

#include "params.h"
#include "testutil.h"

/* What the operation's GIMP filter tool reads from a row's property. */
static void
check_spec (const cb_param *p, GParamSpec *ps)
{
  gchar *tip = cb_param_tooltip (p, FALSE);
  TU_CHECK (!strcmp (g_param_spec_get_nick (ps), p->label)
            && !strcmp (g_param_spec_get_blurb (ps), tip),
            "%s: nick \"%s\", blurb \"%s\"", p->name,
            g_param_spec_get_nick (ps), g_param_spec_get_blurb (ps));
  g_free (tip);
  const gdouble def = cb_param_default (p);
  switch (p->type)
    {
    case CB_PARAM_DOUBLE:
      TU_CHECK (GEGL_IS_PARAM_SPEC_DOUBLE (ps), "%s: not a double", p->name);
      if (GEGL_IS_PARAM_SPEC_DOUBLE (ps))
        {
          GParamSpecDouble *d = G_PARAM_SPEC_DOUBLE (ps);
          GeglParamSpecDouble *g = GEGL_PARAM_SPEC_DOUBLE (ps);
          /* An excluded minimum: GEGL's ranges include their ends, so the
           * least value above it (no more than 1e-300 above). */
          const gboolean min_ok = p->min_excluded
            ? d->minimum > p->min && d->minimum <= p->min + 1e-300
            : d->minimum == p->min;
          TU_CHECK (min_ok && d->maximum == p->max
                    && d->default_value == def,
                    "%s: %g..%g default %g, the table %s%g..%g default %g",
                    p->name, d->minimum, d->maximum, d->default_value,
                    p->min_excluded ? "above " : "", p->min, p->max, def);
          TU_CHECK (g->ui_minimum == p->ui_min && g->ui_maximum == p->ui_max
                    && g->ui_gamma == p->ui_gamma,
                    "%s: slider %g..%g gamma %g, the table %g..%g gamma %g",
                    p->name, g->ui_minimum, g->ui_maximum, g->ui_gamma,
                    p->ui_min, p->ui_max, p->ui_gamma);
        }
      break;
    case CB_PARAM_INT:
      TU_CHECK (GEGL_IS_PARAM_SPEC_INT (ps), "%s: not an int", p->name);
      if (GEGL_IS_PARAM_SPEC_INT (ps))
        {
          GParamSpecInt *i = G_PARAM_SPEC_INT (ps);
          GeglParamSpecInt *g = GEGL_PARAM_SPEC_INT (ps);
          TU_CHECK (i->minimum == p->min && i->maximum == p->max
                    && i->default_value == def && g->ui_minimum == p->ui_min
                    && g->ui_maximum == p->ui_max
                    && g->ui_gamma == p->ui_gamma,
                    "%s: %d..%d default %d slider %d..%d gamma %g", p->name,
                    i->minimum, i->maximum, i->default_value, g->ui_minimum,
                    g->ui_maximum, g->ui_gamma);
        }
      break;
    case CB_PARAM_ENUM:
      TU_CHECK (GEGL_IS_PARAM_SPEC_ENUM (ps), "%s: not an enumeration",
                p->name);
      if (GEGL_IS_PARAM_SPEC_ENUM (ps))
        {
          GEnumClass *e = G_PARAM_SPEC_ENUM (ps)->enum_class;
          TU_CHECK ((gint) e->n_values == p->n_choices,
                    "%s: %u values, the table %d", p->name, e->n_values,
                    p->n_choices);
          for (gint k = 0; k < p->n_choices && k < (gint) e->n_values; k++)
            {
              const cb_choice *c = &p->choices[k];
              TU_CHECK (e->values[k].value == c->value
                        && !strcmp (e->values[k].value_nick, c->nick)
                        && !strcmp (e->values[k].value_name, c->label),
                        "%s: value %d is %d \"%s\" \"%s\", the table %d "
                        "\"%s\" \"%s\"", p->name, k, e->values[k].value,
                        e->values[k].value_nick, e->values[k].value_name,
                        c->value, c->nick, c->label);
            }
          TU_CHECK (G_PARAM_SPEC_ENUM (ps)->default_value == (gint) def,
                    "%s: default %d, the table %g", p->name,
                    G_PARAM_SPEC_ENUM (ps)->default_value, def);
        }
      break;
    }
  /* Visible for the algorithms that use it, in GEGL's syntax. */
  const gchar *visible = gegl_param_spec_get_property_key (ps, "visible");
  GString *want = g_string_new (NULL);
  if (p->uses)
    {
      g_string_append (want, "algorithm {");
      for (gint a = 0, n = 0; a < GB_ALGO_COUNT; a++)
        if (cb_param_used_by (p, a))
          g_string_append_printf (want, "%s%s", n++ ? ", " : "",
                                  gb_algorithm_get ((gb_algorithm) a)->name);
      g_string_append (want, "}");
    }
  TU_CHECK (p->uses ? visible && !strcmp (visible, want->str) : !visible,
            "%s: visible \"%s\", wanted \"%s\"", p->name,
            visible ? visible : "(none)", want->str);
  g_string_free (want, TRUE);
  const gchar *axis = gegl_param_spec_get_property_key (ps, "axis");
  const gchar *unit = gegl_param_spec_get_property_key (ps, "unit");
  TU_CHECK (p->axis ? axis && axis[0] == p->axis && !axis[1] && unit
                      && !strcmp (unit, "pixel-distance")
                    : !axis && !unit,
            "%s: axis \"%s\" unit \"%s\"", p->name, axis ? axis : "",
            unit ? unit : "");
}

/* A value other than the default, accepted by the row, set on a node
 * and read back. */
static void
check_value (GeglNode *node, const cb_param *p)
{
  const gdouble def = cb_param_default (p);
  if (p->type == CB_PARAM_DOUBLE)
    {
      const gdouble set = def == p->max ? p->max / 2 : p->max;
      gdouble got = -1;
      gegl_node_set (node, p->name, set, NULL);
      gegl_node_get (node, p->name, &got, NULL);
      TU_CHECK (got == set, "%s: set %g, read %g", p->name, set, got);
    }
  else
    {
      const gint set = (gint) def == (gint) p->max ? (gint) p->min
                                                   : (gint) p->max;
      gint got = -1;
      gegl_node_set (node, p->name, set, NULL);
      gegl_node_get (node, p->name, &got, NULL);
      TU_CHECK (got == set, "%s: set %d, read %d", p->name, set, got);
    }
}

int
main (int argc, char **argv)
{
  /* The build's module alone: no user's copy to win over it. */
  gchar *home = g_dir_make_tmp ("cudablur-test-props-XXXXXX", NULL);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_setenv ("GEGL_PATH", GEGL_MODULE_DIR, TRUE);
  gegl_init (&argc, &argv);
  if (!gegl_has_operation (CUDABLUR_OP_NAME))
    {
      fprintf (stderr, "FAIL: %s not found in %s\n", CUDABLUR_OP_NAME,
               GEGL_MODULE_DIR);
      return 1;
    }
  const gchar *file = gegl_operation_get_key (CUDABLUR_OP_NAME,
                                              "cudablur:module-file");
  char *used = file ? realpath (file, NULL) : NULL;
  char *built = realpath (GEGL_MODULE_DIR "/cudablur.so", NULL);
  TU_CHECK (used && built && !strcmp (used, built),
            "the operation comes from %s", file ? file : "(no key)");
  free (used);
  free (built);

  guint n = 0;
  GParamSpec **all = gegl_operation_list_properties (CUDABLUR_OP_NAME, &n);
  /* The operation's own, in the order GIMP's filter tool shows them. */
  GPtrArray *own = g_ptr_array_new ();
  GType op_type = g_type_from_name ("CudablurOp");
  for (guint i = 0; i < n; i++)
    if (all[i]->owner_type == op_type)
      g_ptr_array_add (own, all[i]);
  TU_CHECK ((gint) own->len == cb_params_count (),
            "%u properties, the table has %d rows", own->len,
            cb_params_count ());
  GeglNode *graph = gegl_node_new ();
  GeglNode *node = gegl_node_new_child (graph, "operation", CUDABLUR_OP_NAME,
                                        NULL);
  for (gint i = 0; i < cb_params_count () || i < (gint) own->len; i++)
    {
      const cb_param *p = cb_param_nth (i);
      GParamSpec *ps = i < (gint) own->len ? own->pdata[i] : NULL;
      TU_CHECK (p && ps && !strcmp (ps->name, p->name),
                "property %d is %s, row %d is %s", i, ps ? ps->name : "none",
                i, p ? p->name : "none");
      if (p && ps && !strcmp (ps->name, p->name))
        {
          check_spec (p, ps);
          check_value (node, p);
          printf ("%-12s %-8s \"%s\"\n", p->name,
                  g_type_name (G_PARAM_SPEC_VALUE_TYPE (ps)),
                  g_param_spec_get_nick (ps));
        }
    }
  g_object_unref (graph);
  g_ptr_array_free (own, TRUE);
  g_free (all);
  gegl_exit ();
  g_rmdir (home);
  g_free (home);
  return tu_finish ("test_props");
}
