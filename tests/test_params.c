/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parameter table (common/params.c) on its own:
 *   - every row is complete: texts, a mnemonic, ranges that hold its
 *     default, choices numbered from 0 with distinct nicks, the full
 *     procedure's own rows last;
 *   - each row reads and writes its own gb_params field and no other
 *     (against the fields named here, not through the table);
 *   - cb_params_check accepts exactly what the engine's gb_validate
 *     accepts, on random values around every limit, and refuses with the
 *     messages scripts and tests have always seen;
 *   - the texts quote the engine's limits. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "params.h"
#include "testutil.h"

static void
check_rows (void)
{
  const gint n = cb_params_count ();
  gboolean full_seen = FALSE;
  TU_CHECK (n > 0, "no rows");
  for (gint i = 0; i < n; i++)
    {
      const cb_param *p = cb_param_nth (i);
      TU_CHECK (p->name && p->label && p->mnemonic && p->tooltip && p->help,
                "row %d lacks a text", i);
      TU_CHECK (cb_param_find (p->name) == p, "%s: not found by name",
                p->name);
      for (gint j = 0; j < i; j++)
        TU_CHECK (strcmp (cb_param_nth (j)->name, p->name) != 0,
                  "%s twice", p->name);
      const gchar *u = strchr (p->mnemonic, '_');
      TU_CHECK (u && !strchr (u + 1, '_')
                && g_str_has_suffix (p->mnemonic, ":"),
                "%s: mnemonic \"%s\" needs one '_' and a ':'", p->name,
                p->mnemonic);
      /* The short procedure's rows first: arguments are positional. */
      TU_CHECK (!full_seen || p->full_only, "%s: after a full_only row",
                p->name);
      full_seen |= p->full_only;
      const gdouble d = cb_param_default (p);
      TU_CHECK (d >= cb_param_least (p) && d <= p->max,
                "%s: default %g outside %g..%g", p->name, d, p->min, p->max);
      if (p->type == CB_PARAM_ENUM)
        {
          TU_CHECK (p->n_choices >= 2, "%s: %d choices", p->name,
                    p->n_choices);
          for (gint k = 0; k < p->n_choices; k++)
            {
              const cb_choice *c = cb_param_choice (p, k);
              TU_CHECK (c && c->value == k && c->nick && c->label,
                        "%s: choice %d", p->name, k);
              for (gint j = 0; c && j < k; j++)
                TU_CHECK (strcmp (cb_param_choice (p, j)->nick, c->nick),
                          "%s: nick %s twice", p->name, c->nick);
            }
          TU_CHECK (p->min == 0 && p->max == p->n_choices - 1,
                    "%s: range %g..%g for %d choices", p->name, p->min,
                    p->max, p->n_choices);
          TU_CHECK (!cb_param_choice (p, p->n_choices)
                    && !cb_param_choice (p, -1), "%s: a choice too many",
                    p->name);
        }
      else
        TU_CHECK (p->ui_min >= p->min && p->ui_max > p->ui_min
                  && p->ui_max <= p->max && p->entry_max >= p->ui_max
                  && p->entry_max <= p->max && p->ui_gamma > 0,
                  "%s: slider %g..%g (entry %g) outside %g..%g", p->name,
                  p->ui_min, p->ui_max, p->entry_max, p->min, p->max);
    }
  const cb_param *a = cb_param_find ("algorithm");
  TU_CHECK (a && cb_param_is_algorithm (a) && a->n_choices == GB_ALGO_COUNT,
            "the algorithm row");
  for (gint k = 0; a && k < GB_ALGO_COUNT; k++)
    TU_CHECK (!strcmp (cb_param_choice (a, k)->nick,
                       gb_algorithm_get ((gb_algorithm) k)->name),
              "algorithm %d's nick", k);
  TU_CHECK (cb_params_count_for (TRUE) == n
            && cb_params_count_for (FALSE) < n, "short and full procedures");
}

/* Each row moves its own field, found here by the field's name. */
static void
check_fields (void)
{
  static const struct { const char *name; size_t offset; } fields[] = {
    { "algorithm", offsetof (gb_params, algorithm) },
    { "std-dev-x", offsetof (gb_params, sigma_x) },
    { "std-dev-y", offsetof (gb_params, sigma_y) },
    { "range-sigma", offsetof (gb_params, range_sigma) },
    { "iterations", offsetof (gb_params, iterations) },
    { "kappa", offsetof (gb_params, kappa) },
    { "device", offsetof (gb_params, backend) },
    { "edge-mode", offsetof (gb_params, border) },
    { "blur-space", offsetof (gb_params, perceptual) },
  };
  TU_CHECK ((gint) G_N_ELEMENTS (fields) == cb_params_count (),
            "%d rows, %d fields known here: a new row needs its line here",
            cb_params_count (), (int) G_N_ELEMENTS (fields));
  for (gsize f = 0; f < G_N_ELEMENTS (fields); f++)
    {
      const cb_param *p = cb_param_find (fields[f].name);
      TU_CHECK (p != NULL, "no row %s", fields[f].name);
      if (!p)
        continue;
      gb_params before, after;
      memset (&before, 0x5a, sizeof before);
      after = before;
      if (p->type == CB_PARAM_DOUBLE)
        cb_param_set_double (p, &after, 123.25);
      else
        cb_param_set_int (p, &after, 3);
      const guchar *b = (const guchar *) &before, *x = (const guchar *) &after;
      const size_t width = p->type == CB_PARAM_DOUBLE ? sizeof (double)
                                                      : sizeof (int);
      size_t changed_outside = 0;
      for (size_t k = 0; k < sizeof before; k++)
        if (b[k] != x[k]
            && (k < fields[f].offset || k >= fields[f].offset + width))
          changed_outside++;
      TU_CHECK (changed_outside == 0, "%s wrote %zu bytes outside its field",
                fields[f].name, changed_outside);
      TU_CHECK (cb_param_get (p, &after) == (p->type == CB_PARAM_DOUBLE
                                             ? 123.25 : 3.0),
                "%s reads back %g", fields[f].name, cb_param_get (p, &after));
    }
}

/* A value near one of the row's limits, or an odd one. */
static double
probe (const cb_param *p, GRand *rng)
{
  const double near[] = { p->min, p->max, cb_param_default (p) };
  const double base = near[g_rand_int (rng) % 3];
  switch (g_rand_int (rng) % 8)
    {
    case 0: return base - 1;
    case 1: return base + 1;
    case 2: return nextafter (base, -INFINITY);
    case 3: return nextafter (base, INFINITY);
    case 4: return NAN;
    case 5: return -INFINITY;
    default: return base;
    }
}

static void
check_against_engine (void)
{
  float px[4 * 4 * 3];
  gb_image img = { px, 4, 4, 3, 12 };
  GRand *rng = g_rand_new_with_seed ((guint32) tu_seed ("test_params"));
  long agree = 0;
  for (int t = 0; t < 20000; t++)
    {
      gb_params v;
      gb_params_init (&v);
      for (gint i = 0; i < cb_params_count (); i++)
        {
          const cb_param *p = cb_param_nth (i);
          if (g_rand_int (rng) % 3)
            continue;
          const double x = probe (p, rng);
          if (p->type == CB_PARAM_DOUBLE)
            cb_param_set_double (p, &v, x);
          else if (isfinite (x))
            cb_param_set_int (p, &v, (gint) x);
        }
      gchar *message = NULL;
      const gboolean ours = cb_params_check (&v, &message);
      const gb_status engine = gb_validate (&v, &img, &img);
      /* The engine takes any perceptual as true; the procedures, 0 or 1. */
      const gboolean engine_ok = engine == GB_OK
                                 && (v.perceptual == 0 || v.perceptual == 1);
      TU_CHECK (ours == engine_ok,
                "table %s (%s), engine %s: algorithm %d sigma %g x %g range "
                "%g iterations %d kappa %g device %d edge %d space %d",
                ours ? "accepts" : "refuses", message ? message : "",
                gb_status_message (engine), v.algorithm, v.sigma_x,
                v.sigma_y, v.range_sigma, v.iterations, v.kappa, v.backend,
                v.border, v.perceptual);
      agree += ours == engine_ok;
      g_free (message);
      if (tu_failures)
        break;
    }
  g_rand_free (rng);
  printf ("cb_params_check and gb_validate agree on %ld random calls\n",
          agree);
}

/* The calling errors scripts, tests and README quote. */
static void
check_messages (void)
{
  static const struct { const char *name; double value; int algorithm;
                        const char *message; } cases[] = {
    { "algorithm", 7, 0, "algorithm: 7 is not one of 0 (auto), 1 (fir), "
      "2 (yvrg), 3 (yvrg-two-way), 4 (deriche), 5 (edge-aware) or "
      "6 (edge-aware-partitioned)" },
    { "std-dev-x", -3, 0, "std-dev-x: -3 is not from 0 to 1500" },
    { "std-dev-y", 1501, 0, "std-dev-y: 1501 is not from 0 to 1500" },
    { "range-sigma", 0, GB_ALGO_EDGE_EXACT,
      "range-sigma: 0 is not greater than 0 and at most 1e+09" },
    { "iterations", 11, GB_ALGO_EDGE_EXACT,
      "iterations: 11 is not from 1 to 10" },
    { "kappa", 10.5, GB_ALGO_EDGE_PARTITIONED,
      "kappa: 10.5 is not from 0 to 10" },
    { "device", 3, 0, "device: 3 is not one of 0 (auto), 1 (cuda) or 2 (cpu)" },
    { "edge-mode", -1, 0, "edge-mode: -1 is not one of 0 (clamp), 1 (none), "
      "2 (black) or 3 (white)" },
    { "blur-space", 2, 0, "blur-space: 2 is not 0 (linear) or 1 (perceptual)" },
  };
  for (gsize k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      const cb_param *p = cb_param_find (cases[k].name);
      gb_params v;
      gb_params_init (&v);
      v.algorithm = cases[k].algorithm;
      if (p->type == CB_PARAM_DOUBLE)
        cb_param_set_double (p, &v, cases[k].value);
      else
        cb_param_set_int (p, &v, (gint) cases[k].value);
      gchar *message = NULL;
      TU_CHECK (!cb_params_check (&v, &message) && message
                && !strcmp (message, cases[k].message),
                "%s %g: \"%s\", wanted \"%s\"", cases[k].name, cases[k].value,
                message ? message : "(accepted)", cases[k].message);
      g_free (message);
    }
  /* A row the algorithm does not use is not checked. */
  gb_params v;
  gb_params_init (&v);
  v.algorithm = GB_ALGO_FIR;
  v.range_sigma = -1;
  v.iterations = 0;
  v.kappa = NAN;
  gchar *message = NULL;
  TU_CHECK (cb_params_check (&v, &message), "unused rows checked: %s",
            message);
  g_free (message);
}

static void
check_texts (void)
{
  for (gint i = 0; i < cb_params_count (); i++)
    {
      const cb_param *p = cb_param_nth (i);
      gchar *help = cb_param_help (p), *tip = cb_param_tooltip (p, FALSE);
      TU_CHECK (!strchr (help, '%') && !strchr (tip, '%'),
                "%s: a format left in \"%s\" / \"%s\"", p->name, help, tip);
      if (p->type == CB_PARAM_ENUM)
        for (gint k = 0; k < p->n_choices; k++)
          {
            gchar *item = g_strdup_printf ("%d %s", k, p->choices[k].nick);
            TU_CHECK (strstr (help, item) != NULL, "%s: help lacks \"%s\"",
                      p->name, item);
            g_free (item);
          }
      else
        {
          gchar *max = g_strdup_printf ("%g", p->max);
          TU_CHECK (strstr (help, max) != NULL, "%s: help lacks %s: %s",
                    p->name, max, help);
          g_free (max);
        }
      printf ("%-12s %s\n", p->name, help);
      g_free (help);
      g_free (tip);
    }
  gchar *tip = cb_param_tooltip (cb_param_find ("device"), FALSE);
  gchar *side = g_strdup_printf ("%d x %d", GB_GPU_MIN_SIDE, GB_GPU_MIN_SIDE);
  TU_CHECK (strstr (tip, side) != NULL, "device tooltip: %s", tip);
  g_free (side);
  g_free (tip);
  /* "a, b and c": the full procedure's own rows, and no other. */
  gchar *more = cb_params_full_only_names ();
  gchar **names = g_regex_split_simple ("(?:, | and )", more, 0, 0);
  gint n = 0;
  for (gint i = 0; i < cb_params_count (); i++)
    if (cb_param_nth (i)->full_only)
      {
        TU_CHECK (names[n] && !strcmp (names[n], cb_param_nth (i)->name),
                  "full only: \"%s\" lacks %s", more,
                  cb_param_nth (i)->name);
        n += names[n] != NULL;
      }
  TU_CHECK (n > 0 && !names[n], "full only: \"%s\"", more);
  g_strfreev (names);
  g_free (more);
}

int
main (void)
{
  g_setenv ("LANGUAGE", "C", TRUE);
  check_rows ();
  check_fields ();
  check_messages ();
  check_against_engine ();
  check_texts ();
  return tu_finish ("test_params");
}
