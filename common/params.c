/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parameter table (params.h) and how a row reads and writes its
 * gb_params field.  Limits and defaults are the engine's (GB_* in
 * gblur.h, gb_params_init): the rows name them, never restate them. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "params.h"
#include "intl.h"

/* Enumerations and int fields are read and written as int. */
G_STATIC_ASSERT (sizeof (gb_algorithm) == sizeof (gint));
G_STATIC_ASSERT (sizeof (gb_backend) == sizeof (gint));
G_STATIC_ASSERT (sizeof (gb_border) == sizeof (gint));

static const cb_choice devices[] = {
  { GB_BACKEND_AUTO, "auto", N_("Automatic"),
    "the GPU when present and the image has %g x %g pixels or more", NULL },
  { GB_BACKEND_CUDA, "cuda", N_("CUDA (the GPU; the CPU if it fails)"),
    "falls back to the CPU if the GPU fails", NULL },
  { GB_BACKEND_CPU, "cpu", N_("CPU"), NULL, NULL },
};

static const cb_choice edges[] = {
  { GB_BORDER_CLAMP, "clamp", N_("Repeat the edge pixels"),
    "the edge pixels repeat", NULL },
  { GB_BORDER_NONE, "none", N_("None: transparent"),
    "transparent: the layer simply ends", NULL },
  { GB_BORDER_BLACK, "black", N_("Black"), NULL, NULL },
  { GB_BORDER_WHITE, "white", N_("White"), NULL, NULL },
};

static const cb_choice spaces[] = {
  { 0, "linear", N_("Linear light"),
    "linear light: no dark fringes between colours", NULL },
  { 1, "perceptual", N_("Perceptual"),
    "the sRGB-encoded values, as GIMP's own Gaussian Blur does on 8-bit "
    "images", NULL },
};

/* The registry's rows as choices (cb_param_is_algorithm). */
static cb_choice algorithms[GB_ALGO_COUNT];

#define FIELD(f) offsetof (gb_params, f)

static const cb_param rows[] = {
  { .name = "algorithm", .label = N_("Algorithm"),
    .mnemonic = N_("_Algorithm:"),
    .tooltip = N_("How the blur is computed:"),
    .help = "The algorithm",
    .type = CB_PARAM_ENUM, .offset = FIELD (algorithm),
    .min = 0, .max = GB_ALGO_COUNT - 1,
    .choices = algorithms, .n_choices = GB_ALGO_COUNT },
  { .name = "std-dev-x", .label = N_("Size X"),
    .mnemonic = N_("Std. dev. _X:"),
    .tooltip = N_("Horizontal standard deviation in pixels (below %g leaves "
                  "rows alone)"),
    .help = "Horizontal standard deviation in pixels (below %g leaves rows "
            "alone)",
    .quote = GB_SIGMA_IDENTITY,
    .type = CB_PARAM_DOUBLE, .offset = FIELD (sigma_x),
    .min = 0.0, .max = GB_SIGMA_MAX,
    .ui_min = 0.0, .ui_max = 500.0, .ui_gamma = 3.0,
    .entry_max = GB_SIGMA_MAX, .digits = 2, .axis = 'x' },
  { .name = "std-dev-y", .label = N_("Size Y"),
    .mnemonic = N_("Std. dev. _Y:"),
    .tooltip = N_("Vertical standard deviation in pixels (below %g leaves "
                  "columns alone)"),
    .help = "Vertical standard deviation in pixels (below %g leaves columns "
            "alone)",
    .quote = GB_SIGMA_IDENTITY,
    .type = CB_PARAM_DOUBLE, .offset = FIELD (sigma_y),
    .min = 0.0, .max = GB_SIGMA_MAX,
    .ui_min = 0.0, .ui_max = 500.0, .ui_gamma = 3.0,
    .entry_max = GB_SIGMA_MAX, .digits = 2, .axis = 'y' },
  { .name = "range-sigma", .label = N_("Edge contrast"),
    .mnemonic = N_("Edge co_ntrast:"),
    .tooltip = N_("Colour differences well above this (on a 0-255 scale) "
                  "stop the blur, so edges stay sharp."),
    .help = "Edge-aware range sigma on a 0-255 scale: colour differences "
            "much larger than it stop the blur; past a few hundred colour "
            "hardly matters",
    .type = CB_PARAM_DOUBLE, .offset = FIELD (range_sigma),
    .min = 0.0, .min_excluded = TRUE, .max = GB_RANGE_SIGMA_MAX,
    /* Past a few hundred the filter hardly sees colour any more. */
    .ui_min = 1.0, .ui_max = 255.0, .ui_gamma = 1.5, .entry_max = 1000.0,
    .digits = 1, .uses = GB_USES_RANGE_SIGMA },
  { .name = "iterations", .label = N_("Iterations"),
    .mnemonic = N_("_Iterations:"),
    .tooltip = N_("Horizontal and vertical passes of the edge-aware filter: "
                  "more passes, fewer streaks."),
    .help = "Edge-aware horizontal+vertical iterations",
    .type = CB_PARAM_INT, .offset = FIELD (iterations),
    .min = 1, .max = GB_ITERATIONS_MAX,
    .ui_min = 1, .ui_max = GB_ITERATIONS_MAX, .ui_gamma = 1.0,
    .entry_max = GB_ITERATIONS_MAX, .uses = GB_USES_ITERATIONS },
  { .name = "kappa", .label = N_("Block overlap"),
    .mnemonic = N_("Bloc_k overlap:"),
    .tooltip = N_("How far each block looks beyond its boundary, in units of "
                  "the standard deviation: more is slower and closer to the "
                  "exact result."),
    .help = "Edge-aware partitioned boundary extension in units of sigma",
    .type = CB_PARAM_DOUBLE, .offset = FIELD (kappa),
    .min = 0.0, .max = GB_KAPPA_MAX,
    .ui_min = 0.0, .ui_max = GB_KAPPA_MAX, .ui_gamma = 1.0,
    .entry_max = GB_KAPPA_MAX, .digits = 1, .uses = GB_USES_KAPPA },
  { .name = "device", .label = N_("Device"), .mnemonic = N_("_Device:"),
    .tooltip = N_("Where the blur runs: Automatic uses the GPU for images of "
                  "%g x %g pixels or more; CUDA uses the GPU, and the CPU if "
                  "the GPU fails."),
    .help = "Where the blur runs", .quote = GB_GPU_MIN_SIDE,
    .type = CB_PARAM_ENUM, .offset = FIELD (backend),
    .min = GB_BACKEND_AUTO, .max = GB_BACKEND_CPU,
    .choices = devices, .n_choices = G_N_ELEMENTS (devices) },
  { .name = "edge-mode", .label = N_("Edges"), .mnemonic = N_("_Edges:"),
    .tooltip = N_("What lies beyond the layer's edges, as GIMP's own "
                  "Gaussian Blur offers"),
    .help = "What lies beyond the drawable's edges",
    .type = CB_PARAM_ENUM, .offset = FIELD (border),
    .min = 0, .max = GB_BORDER_COUNT - 1, .full_only = TRUE,
    .choices = edges, .n_choices = G_N_ELEMENTS (edges) },
  { .name = "blur-space", .label = N_("Blur in"), .mnemonic = N_("_Blur in:"),
    .tooltip = N_("Linear light mixes colours as light does (no dark fringes "
                  "between colours); perceptual blurs the encoded values, as "
                  "GIMP's own Gaussian Blur does on 8-bit images"),
    .help = "What the blur mixes",
    .type = CB_PARAM_ENUM, .offset = FIELD (perceptual),
    .min = 0, .max = 1, .full_only = TRUE,
    .choices = spaces, .n_choices = G_N_ELEMENTS (spaces) },
};

/* The registry's rows, filled once. */
static void
fill_algorithms (void)
{
  static gsize done;
  if (!g_once_init_enter (&done))
    return;
  for (gint i = 0; i < GB_ALGO_COUNT; i++)
    {
      const gb_algorithm_info *info = gb_algorithm_get ((gb_algorithm) i);
      algorithms[i] = (cb_choice) { i, info->name, info->label,
                                    info->summary, info->tooltip };
    }
  g_once_init_leave (&done, 1);
}

gint
cb_params_count (void)
{
  return G_N_ELEMENTS (rows);
}

const cb_param *
cb_param_nth (gint i)
{
  if (i < 0 || i >= (gint) G_N_ELEMENTS (rows))
    return NULL;
  fill_algorithms ();
  return &rows[i];
}

const cb_param *
cb_param_find (const gchar *name)
{
  for (gint i = 0; i < cb_params_count (); i++)
    if (name && !strcmp (rows[i].name, name))
      return cb_param_nth (i);
  return NULL;
}

gint
cb_params_count_for (gboolean full)
{
  gint n = 0;
  for (gint i = 0; i < cb_params_count (); i++)
    n += full || !rows[i].full_only;
  return n;
}

gchar *
cb_params_full_only_names (void)
{
  GString *s = g_string_new (NULL);
  const gint from = cb_params_count_for (FALSE), to = cb_params_count ();
  for (gint i = from; i < to; i++)
    g_string_append_printf (s, "%s%s", i == from ? ""
                                       : i == to - 1 ? " and " : ", ",
                            rows[i].name);
  return g_string_free (s, FALSE);
}

gboolean
cb_param_is_algorithm (const cb_param *p)
{
  return p->offset == FIELD (algorithm);
}

gboolean
cb_param_used_by (const cb_param *p, gint algorithm)
{
  const gb_algorithm_info *info = gb_algorithm_get ((gb_algorithm) algorithm);
  return !p->uses || (info && (info->uses & p->uses));
}

const cb_choice *
cb_param_choice (const cb_param *p, gint value)
{
  fill_algorithms ();
  for (gint i = 0; i < p->n_choices; i++)
    if (p->choices[i].value == value)
      return &p->choices[i];
  return NULL;
}

gdouble
cb_param_get_double (const cb_param *p, const gb_params *v)
{
  gdouble d;
  g_return_val_if_fail (p->type == CB_PARAM_DOUBLE, 0.0);
  memcpy (&d, (const gchar *) v + p->offset, sizeof d);
  return d;
}

gint
cb_param_get_int (const cb_param *p, const gb_params *v)
{
  gint i;
  g_return_val_if_fail (p->type != CB_PARAM_DOUBLE, 0);
  memcpy (&i, (const gchar *) v + p->offset, sizeof i);
  return i;
}

gdouble
cb_param_get (const cb_param *p, const gb_params *v)
{
  return p->type == CB_PARAM_DOUBLE ? cb_param_get_double (p, v)
                                    : cb_param_get_int (p, v);
}

void
cb_param_set_double (const cb_param *p, gb_params *v, gdouble value)
{
  g_return_if_fail (p->type == CB_PARAM_DOUBLE);
  memcpy ((gchar *) v + p->offset, &value, sizeof value);
}

void
cb_param_set_int (const cb_param *p, gb_params *v, gint value)
{
  g_return_if_fail (p->type != CB_PARAM_DOUBLE);
  memcpy ((gchar *) v + p->offset, &value, sizeof value);
}

gdouble
cb_param_default (const cb_param *p)
{
  gb_params d;
  gb_params_init (&d);
  return cb_param_get (p, &d);
}

gdouble
cb_param_least (const cb_param *p)
{
  if (!p->min_excluded)
    return p->min;
  return p->min == 0.0 ? G_MINDOUBLE : nextafter (p->min, G_MAXDOUBLE);
}

gboolean
cb_param_value_ok (const cb_param *p, const gb_params *v)
{
  if (!cb_param_used_by (p, (gint) v->algorithm))
    return TRUE;
  if (p->type == CB_PARAM_ENUM)
    return cb_param_choice (p, cb_param_get_int (p, v)) != NULL;
  const gdouble x = cb_param_get (p, v);
  return isfinite (x) && (p->min_excluded ? x > p->min : x >= p->min)
         && x <= p->max;
}

/* "0 (clamp), 1 (none), 2 (black) or 3 (white)". */
static gchar *
choices_list (const cb_param *p)
{
  GString *s = g_string_new (NULL);
  for (gint i = 0; i < p->n_choices; i++)
    g_string_append_printf (s, "%s%d (%s)",
                            i == 0 ? "" : i == p->n_choices - 1 ? _(" or ")
                                                                : ", ",
                            p->choices[i].value, p->choices[i].nick);
  return g_string_free (s, FALSE);
}

static gchar *
refusal (const cb_param *p, const gb_params *v)
{
  if (p->type == CB_PARAM_ENUM)
    {
      gchar *list = choices_list (p);
      /* TRANSLATORS: an argument's name, its value and its two choices,
       * "x: 2 is not 0 (a) or 1 (b)"; or its choices, "x: 3 is not one of
       * 0 (a), 1 (b) or 2 (c)" */
      gchar *m = g_strdup_printf (p->n_choices == 2 ? _("%s: %d is not %s")
                                  : _("%s: %d is not one of %s"),
                                  p->name, cb_param_get_int (p, v), list);
      g_free (list);
      return m;
    }
  if (p->type == CB_PARAM_INT)
    return g_strdup_printf (_("%s: %d is not from %d to %d"), p->name,
                            cb_param_get_int (p, v), (gint) p->min,
                            (gint) p->max);
  if (p->min_excluded)
    return g_strdup_printf (_("%s: %g is not greater than %g and at most %g"),
                            p->name, cb_param_get_double (p, v), p->min,
                            p->max);
  return g_strdup_printf (_("%s: %g is not from %g to %g"), p->name,
                          cb_param_get_double (p, v), p->min, p->max);
}

gboolean
cb_params_check (const gb_params *v, gchar **message)
{
  for (gint i = 0; i < cb_params_count (); i++)
    {
      const cb_param *p = cb_param_nth (i);
      if (!cb_param_value_ok (p, v))
        {
          *message = refusal (p, v);
          return FALSE;
        }
    }
  return TRUE;
}

static gchar *
quoting (const gchar *text, gdouble quote)
{
  return g_strdup_printf (text, quote, quote);
}

gchar *
cb_param_help (const cb_param *p)
{
  gchar *intro = quoting (p->help, p->quote);
  GString *s = g_string_new (intro);
  g_free (intro);
  if (p->type == CB_PARAM_ENUM)
    {
      g_string_append (s, ":");
      for (gint i = 0; i < p->n_choices; i++)
        {
          const cb_choice *c = &p->choices[i];
          g_string_append_printf (s, "%s %d %s", i ? "," : "", c->value,
                                  c->nick);
          if (c->help)
            {
              gchar *help = quoting (c->help, p->quote);
              g_string_append_printf (s, " (%s)", help);
              g_free (help);
            }
        }
    }
  else if (p->type == CB_PARAM_INT)
    g_string_append_printf (s, ", %d to %d", (gint) p->min, (gint) p->max);
  else if (p->min_excluded)
    g_string_append_printf (s, ", greater than %g and at most %g", p->min,
                            p->max);
  else
    g_string_append_printf (s, ", %g to %g", p->min, p->max);
  if (p->uses)
    g_string_append (s, " (ignored by algorithms without it)");
  return g_string_free (s, FALSE);
}

gchar *
cb_choice_tooltip (const cb_choice *c, gboolean translated)
{
  if (!c->tooltip)
    return NULL;
  return g_strdup_printf (translated ? _(c->tooltip) : c->tooltip,
                          GB_AUTO_FIR_MAX_SIGMA_CPU,
                          GB_AUTO_FIR_MAX_SIGMA_CUDA);
}

gchar *
cb_param_tooltip (const cb_param *p, gboolean translated)
{
  GString *s = g_string_new (NULL);
  gchar *intro = quoting (translated ? _(p->tooltip) : p->tooltip, p->quote);
  g_string_append (s, intro);
  g_free (intro);
  for (gint i = 0; i < p->n_choices; i++)
    {
      const cb_choice *c = cb_param_choice (p, p->choices[i].value);
      gchar *tip = cb_choice_tooltip (c, translated);
      if (tip)
        g_string_append_printf (s, "\n%s: %s",
                                translated ? _(c->label) : c->label, tip);
      g_free (tip);
    }
  return g_string_free (s, FALSE);
}
