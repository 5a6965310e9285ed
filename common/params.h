/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parameter table: one row per parameter a user or a script sets,
 * in the order of the procedures' arguments (after run-mode, image and
 * drawables).  Every front end loops over it: the GEGL operation's
 * properties, GIMP 3's and GIMP 2.10's procedure arguments and their
 * checks, GIMP 2.10's saved values, resident forwarding and dialog.  The
 * algorithm registry (engine/algorithms.c) is the table of algorithms;
 * this is the table of what a call sets.  Values live in gb_params: a row
 * knows its field.
 *
 * Adding a parameter: its field, limits and default in the engine
 * (gblur.h, params.c), a row here (common/params.c), and HACKING.md's
 * list of what else a new parameter asks for. */
#ifndef CUDABLUR_PARAMS_H
#define CUDABLUR_PARAMS_H

#include <glib.h>

#include "gblur.h"

/* The procedures scripts call, in GIMP 2.10 and GIMP 3 alike: the short
 * one takes the rows that are not full_only, the full one every row. */
#define PLUG_IN_PROC      "plug-in-cudablur"
#define PLUG_IN_PROC_FULL "plug-in-cudablur-full"
/* The GEGL operation whose properties are the rows. */
#define CUDABLUR_OP_NAME  "cudablur:gaussian-blur"

typedef enum
{
  CB_PARAM_DOUBLE,   /* a gdouble field; PDB FLOAT */
  CB_PARAM_INT,      /* an int field; PDB INT32 */
  CB_PARAM_ENUM      /* an int-sized field holding one of the choices'
                        values; PDB INT32, GEGL enumeration */
} cb_param_type;

/* One value of an enumerated parameter. */
typedef struct
{
  gint value;             /* the number scripts pass */
  const gchar *nick;      /* "clamp": the GEGL enumeration's nick and the
                             name in help and messages */
  const gchar *label;     /* marked for translation: menus */
  const gchar *help;      /* untranslated, for the PDB help, or NULL */
  const gchar *tooltip;   /* marked for translation, or NULL; may quote
                             GB_AUTO_FIR_MAX_SIGMA_CPU and _CUDA as two %g */
} cb_choice;

typedef struct
{
  const gchar *name;      /* "std-dev-x": PDB argument, GEGL property,
                             key of saved values and presets */
  const gchar *label;     /* marked: the GEGL property's nick, the label
                             in GIMP 3's filter tool */
  const gchar *mnemonic;  /* marked: the label with a mnemonic and a
                             colon, for dialogs that have mnemonics */
  const gchar *tooltip;   /* marked: the GEGL property's blurb, dialogs'
                             tooltips; may quote `quote` as two %g */
  const gchar *help;      /* untranslated: the PDB argument's help, its
                             range or choices added (cb_param_help); may
                             quote `quote` as two %g */
  gdouble quote;          /* the number the texts quote, or 0 */
  cb_param_type type;
  gsize offset;           /* of the gb_params field */
  /* What the procedures accept, checked by cb_params_check. */
  gdouble min, max;
  gboolean min_excluded;  /* min itself is refused */
  /* Sliders: their range, GEGL's gamma for it, the most a dialog's entry
   * takes (past it the parameter hardly changes anything more), and the
   * decimals it shows. */
  gdouble ui_min, ui_max, ui_gamma, entry_max;
  gint digits;
  gchar axis;             /* 'x' or 'y': a distance along that axis, in
                             pixels (dialogs link the two); else 0 */
  unsigned uses;          /* GB_USES_*: used only by the algorithms whose
                             registry row has one of these (others ignore
                             it and it is not checked); 0: by every one */
  gboolean full_only;     /* only PLUG_IN_PROC_FULL takes it */
  const cb_choice *choices;   /* CB_PARAM_ENUM, by value from 0 */
  gint n_choices;
} cb_param;

/* The rows, in argument order. */
gint cb_params_count (void);
const cb_param *cb_param_nth (gint i);
const cb_param *cb_param_find (const gchar *name);
/* The arguments after the drawables: the short procedure's or all. */
gint cb_params_count_for (gboolean full);
/* The names of what only the full procedure takes, "a, b and c", for
 * help texts (g_free it). */
gchar *cb_params_full_only_names (void);

/* The row whose field is gb_params.algorithm: its choices are the
 * registry's rows (names as nicks, labels, summaries as help, tooltips),
 * and it says which rows the others use. */
gboolean cb_param_is_algorithm (const cb_param *p);
/* Whether the row matters to this algorithm (a valid one). */
gboolean cb_param_used_by (const cb_param *p, gint algorithm);

/* The choice of that value, or NULL. */
const cb_choice *cb_param_choice (const cb_param *p, gint value);

/* The row's field.  Doubles for CB_PARAM_DOUBLE rows, ints for the
 * others; cb_param_get gives any row as a double (an int exactly). */
gdouble cb_param_get_double (const cb_param *p, const gb_params *v);
gint cb_param_get_int (const cb_param *p, const gb_params *v);
gdouble cb_param_get (const cb_param *p, const gb_params *v);
void cb_param_set_double (const cb_param *p, gb_params *v, gdouble value);
void cb_param_set_int (const cb_param *p, gb_params *v, gint value);

/* The default (gb_params_init's), as cb_param_get gives it. */
gdouble cb_param_default (const cb_param *p);

/* The least value a range that includes its ends can give (GEGL's):
 * min, or above an excluded one the least normal double above it. */
gdouble cb_param_least (const cb_param *p);

/* Whether v holds an accepted value for the row (any value of a row the
 * algorithm does not use is). */
gboolean cb_param_value_ok (const cb_param *p, const gb_params *v);

/* Checks every row of v, in order; FALSE with a translated message
 * naming the first refused argument ("std-dev-x: -3 is not from 0 to
 * 1500"; g_free it).  Rows the algorithm does not use are not checked. */
gboolean cb_params_check (const gb_params *v, gchar **message);

/* Texts, g_free them.  The PDB help of the argument: its help and its
 * range or its choices ("0 clamp (the edge pixels repeat), 1 none, ..."),
 * untranslated as PDB help is.  The tooltip, its `quote` filled in
 * (translated or as written); an enumeration whose choices have tooltips
 * lists them, one "label: tooltip" a line.  A choice's tooltip, its
 * numbers filled in. */
gchar *cb_param_help (const cb_param *p);
gchar *cb_param_tooltip (const cb_param *p, gboolean translated);
gchar *cb_choice_tooltip (const cb_choice *c, gboolean translated);

#endif
