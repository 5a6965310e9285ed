/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The dialog's controls from the parameter table (controls.h). */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "controls.h"
#include "intl.h"

/* What a signal handler needs: the controls and the row. */
typedef struct
{
  CudablurControls *c;
  gint row;
} row_ref;

struct _CudablurControls
{
  gb_params *vals;
  void (*changed) (gpointer user);
  gpointer user;
  gint n;
  row_ref *refs;
  GtkWidget **combos;    /* by row: an enumeration's combo, or NULL */
  GtkObject **scales;    /* by row: a number's adjustment, or NULL */
  GtkWidget *chain;      /* links the two axes, or NULL */
  gint x_row, y_row;     /* the axes' rows, or -1 */
  gint x_at, y_at;       /* and where they are in the GtkTable */
  gboolean updating;     /* set while the widgets show vals */
};

static gboolean
is_device (const cb_param *p)
{
  return p->offset == offsetof (gb_params, backend);
}

gint
cudablur_controls_rows (void)
{
  return cb_params_count ();
}

/* The row's tooltip, and which algorithms use it when not all do. */
static gchar *
tooltip (const cb_param *p)
{
  gchar *tip = cb_param_tooltip (p, TRUE);
  if (!p->uses)
    return tip;
  GString *users = g_string_new (NULL);
  for (gint a = 0; a < GB_ALGO_COUNT; a++)
    if (cb_param_used_by (p, a))
      g_string_append_printf (users, "%s%s", users->len ? "; " : "",
                              _(gb_algorithm_get ((gb_algorithm) a)->label));
  /* TRANSLATORS: the labels of the algorithms that use a parameter */
  gchar *used = g_strdup_printf (_("Used by: %s"), users->str);
  gchar *all = g_strconcat (tip, "\n", used, NULL);
  g_string_free (users, TRUE);
  g_free (used);
  g_free (tip);
  return all;
}

/* The label stays as it is: GIMP's themes draw an insensitive label
 * brighter, as if it were emphasised. */
static void
set_scale_sensitive (GtkObject *adj, gboolean sensitive)
{
  gtk_widget_set_sensitive (GIMP_SCALE_ENTRY_SCALE (adj), sensitive);
  gtk_widget_set_sensitive (GIMP_SCALE_ENTRY_SPINBUTTON (adj), sensitive);
}

/* Greys out what the algorithm does not use, and gives the algorithm's
 * combo the tooltip of the chosen one. */
static void
show_applicable (CudablurControls *c)
{
  const gint algorithm = c->vals->algorithm;
  for (gint i = 0; i < c->n; i++)
    {
      const cb_param *p = cb_param_nth (i);
      const gboolean used = cb_param_used_by (p, algorithm);
      if (c->scales[i])
        set_scale_sensitive (c->scales[i], used);
      else if (c->combos[i] && p->uses)
        gtk_widget_set_sensitive (c->combos[i], used);
      if (cb_param_is_algorithm (p))
        {
          const cb_choice *choice = cb_param_choice (p, algorithm);
          gchar *tip = choice ? cb_choice_tooltip (choice, TRUE) : NULL;
          gimp_help_set_help_data (c->combos[i], tip ? tip : "", NULL);
          g_free (tip);
        }
    }
}

static void
user_changed (CudablurControls *c)
{
  show_applicable (c);
  c->changed (c->user);
}

static void
combo_changed (GtkWidget *combo, row_ref *r)
{
  gint value;
  if (r->c->updating
      || !gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (combo), &value))
    return;
  cb_param_set_int (cb_param_nth (r->row), r->c->vals, value);
  user_changed (r->c);
}

static void
set_from_adjustment (CudablurControls *c, gint row, GtkAdjustment *adj)
{
  const cb_param *p = cb_param_nth (row);
  const gdouble value = gtk_adjustment_get_value (adj);
  if (p->type == CB_PARAM_DOUBLE)
    cb_param_set_double (p, c->vals, value);
  else
    cb_param_set_int (p, c->vals, (gint) (value + 0.5));
}

/* With the chain closed, the two standard deviations move together. */
static void
scale_changed (GtkAdjustment *adj, row_ref *r)
{
  CudablurControls *c = r->c;
  if (c->updating)
    return;
  set_from_adjustment (c, r->row, adj);
  if (c->chain && (r->row == c->x_row || r->row == c->y_row)
      && gimp_chain_button_get_active (GIMP_CHAIN_BUTTON (c->chain)))
    {
      const gint other = r->row == c->x_row ? c->y_row : c->x_row;
      GtkAdjustment *o = GTK_ADJUSTMENT (c->scales[other]);
      c->updating = TRUE;
      gtk_adjustment_set_value (o, gtk_adjustment_get_value (adj));
      c->updating = FALSE;
      set_from_adjustment (c, other, o);
    }
  user_changed (c);
}

/* Typed letters would otherwise be read as 0 when the field is left. */
static GtkObject *
numeric (GtkObject *adj)
{
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (GIMP_SCALE_ENTRY_SPINBUTTON (adj)),
                               TRUE);
  return adj;
}

/* A number: a distance along an axis on a logarithmic slider over every
 * value accepted, so that small ones get fine control (as GIMP's own
 * Gaussian blur does with its gamma); others over the row's slider range,
 * the entry taking up to entry_max.  Spin buttons wide enough for
 * "1500.00". */
static GtkObject *
number_scale (GtkTable *table, gint row, const cb_param *p)
{
  gchar *tip = tooltip (p);
  GtkObject *adj;
  if (p->axis)
    {
      adj = gimp_scale_entry_new (table, 0, row, _(p->mnemonic), 200, 8,
                                  cb_param_default (p), p->min, p->max, 0.1,
                                  1.0, p->digits, TRUE, 0.0, 0.0, tip, NULL);
      gimp_scale_entry_set_logarithmic (adj, TRUE);
    }
  else
    adj = gimp_scale_entry_new (table, 0, row, _(p->mnemonic), 200, 8,
                                cb_param_default (p), p->ui_min, p->ui_max,
                                1.0, 10.0, p->digits, FALSE, p->ui_min,
                                p->entry_max, tip, NULL);
  g_free (tip);
  return numeric (adj);
}

/* Each entry of the open list gets its choice's tooltip: the labels say
 * what each is for, the tooltips how it works.  GTK 2 gives a combo box's
 * entries no tooltips of their own; in its menu form (GIMP's) the popup
 * is a menu whose items are the entries, in order. */
static void
item_tips (GtkComboBox *combo, GParamSpec *pspec, const cb_param *p)
{
  (void) pspec;
  AtkObject *popup = gtk_combo_box_get_popup_accessible (combo);
  GtkWidget *menu = GTK_IS_ACCESSIBLE (popup)
    ? gtk_accessible_get_widget (GTK_ACCESSIBLE (popup)) : NULL;
  if (!GTK_IS_MENU (menu))
    return;
  GList *items = gtk_container_get_children (GTK_CONTAINER (menu));
  gint i = 0;
  for (GList *l = items; l && i < p->n_choices; l = l->next, i++)
    {
      gchar *tip = cb_choice_tooltip (&p->choices[i], TRUE);
      gtk_widget_set_tooltip_text (l->data, tip);
      g_free (tip);
    }
  g_list_free (items);
}

/* An enumeration: its choices' labels; their tooltips, where they have
 * them, on the open list's entries. */
static GtkWidget *
choice_combo (const cb_param *p)
{
  GtkListStore *store = gimp_int_store_new ();
  gboolean tips = FALSE;
  for (gint i = 0; i < p->n_choices; i++)
    {
      const cb_choice *choice = cb_param_choice (p, p->choices[i].value);
      GtkTreeIter iter;
      gtk_list_store_append (store, &iter);
      gtk_list_store_set (store, &iter, GIMP_INT_STORE_VALUE, choice->value,
                          GIMP_INT_STORE_LABEL, _(choice->label), -1);
      tips |= choice->tooltip != NULL;
    }
  GtkWidget *combo = gimp_int_combo_box_new_array (0, NULL);
  gtk_combo_box_set_model (GTK_COMBO_BOX (combo), GTK_TREE_MODEL (store));
  g_object_unref (store);
  if (tips)
    g_signal_connect (combo, "notify::popup-shown", G_CALLBACK (item_tips),
                      (gpointer) p);
  else
    {
      gchar *tip = tooltip (p);
      gimp_help_set_help_data (combo, tip, NULL);
      g_free (tip);
    }
  return combo;
}

static gboolean
device_sensitive (gint value, gpointer data)
{
  return value != GB_BACKEND_CUDA || GPOINTER_TO_INT (data);
}

/* The device: CUDA named by its GPU, or greyed out where it cannot run;
 * the CPU with its threads. */
static GtkWidget *
device_combo (const cb_param *p, gboolean *cuda_ok)
{
  gchar name[256], *cuda, *cpu;
  gboolean ok = gb_cuda_info (name, sizeof name);
  *cuda_ok = ok;
  cuda = ok ? g_strdup_printf (_("CUDA: %s"), name)
            : g_strdup (_("CUDA (not available)"));
  cpu = g_strdup_printf (_("CPU (%d threads)"), gb_cpu_threads ());
  GtkWidget *combo = gimp_int_combo_box_new (
    _(cb_param_choice (p, GB_BACKEND_AUTO)->label), GB_BACKEND_AUTO,
    cuda, GB_BACKEND_CUDA, cpu, GB_BACKEND_CPU, NULL);
  gimp_int_combo_box_set_sensitivity (GIMP_INT_COMBO_BOX (combo),
                                      device_sensitive, GINT_TO_POINTER (ok),
                                      NULL);
  gchar *tip = ok ? g_strdup_printf (_("Automatic uses %s for images of %d x "
                                       "%d pixels or more, and falls back to "
                                       "the CPU if it fails."), name,
                                     GB_GPU_MIN_SIDE, GB_GPU_MIN_SIDE)
                  : g_strdup_printf (_("CUDA cannot be used: %s"), name);
  gimp_help_set_help_data (combo, tip, NULL);
  g_free (tip);
  g_free (cuda);
  g_free (cpu);
  return combo;
}

static void
add_row (CudablurControls *c, GtkTable *table, gint at, gint i)
{
  const cb_param *p = cb_param_nth (i);
  if (p->type == CB_PARAM_ENUM)
    {
      gboolean cuda_ok = TRUE;
      c->combos[i] = is_device (p) ? device_combo (p, &cuda_ok)
                                   : choice_combo (p);
      /* A stored "cuda" where there is none shows what will run:
       * Automatic. */
      if (!cuda_ok && c->vals->backend == GB_BACKEND_CUDA)
        c->vals->backend = GB_BACKEND_AUTO;
      gimp_table_attach_aligned (table, 0, at, _(p->mnemonic), 0.0, 0.5,
                                 c->combos[i], 2, FALSE);
      g_signal_connect (c->combos[i], "changed", G_CALLBACK (combo_changed),
                        &c->refs[i]);
    }
  else
    {
      c->scales[i] = number_scale (table, at, p);
      g_signal_connect (c->scales[i], "value-changed",
                        G_CALLBACK (scale_changed), &c->refs[i]);
    }
  if (p->axis == 'x')
    {
      c->x_row = i;
      c->x_at = at;
    }
  else if (p->axis == 'y')
    {
      c->y_row = i;
      c->y_at = at;
    }
}

CudablurControls *
cudablur_controls_new (GtkTable *table, gint first_row, gb_params *vals,
                       void (*changed) (gpointer user), gpointer user)
{
  CudablurControls *c = g_new0 (CudablurControls, 1);
  c->vals = vals;
  c->changed = changed;
  c->user = user;
  c->n = cb_params_count ();
  c->refs = g_new0 (row_ref, c->n);
  c->combos = g_new0 (GtkWidget *, c->n);
  c->scales = g_new0 (GtkObject *, c->n);
  c->x_row = c->y_row = -1;
  if (!gb_algorithm_get (vals->algorithm))
    vals->algorithm = GB_ALGO_AUTO;
  /* In the table's order, the device last: where the blur runs comes
   * after what it computes. */
  gint at = first_row, device = -1;
  for (gint i = 0; i < c->n; i++)
    {
      c->refs[i] = (row_ref) { c, i };
      if (is_device (cb_param_nth (i)))
        device = i;
      else
        add_row (c, table, at++, i);
    }
  if (device >= 0)
    add_row (c, table, at, device);
  if (c->x_row >= 0 && c->y_at == c->x_at + 1)
    {
      c->chain = gimp_chain_button_new (GIMP_CHAIN_RIGHT);
      gimp_help_set_help_data (c->chain,
                               _("Keep both standard deviations equal"),
                               NULL);
      gtk_table_attach (table, c->chain, 3, 4, c->x_at, c->y_at + 1,
                        GTK_SHRINK, GTK_FILL, 0, 0);
    }
  cudablur_controls_show (c);
  return c;
}

void
cudablur_controls_show (CudablurControls *c)
{
  c->updating = TRUE;
  for (gint i = 0; i < c->n; i++)
    {
      const cb_param *p = cb_param_nth (i);
      if (c->combos[i])
        gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (c->combos[i]),
                                       cb_param_get_int (p, c->vals));
      else
        gtk_adjustment_set_value (GTK_ADJUSTMENT (c->scales[i]),
                                  cb_param_get (p, c->vals));
    }
  if (c->chain)
    gimp_chain_button_set_active (
      GIMP_CHAIN_BUTTON (c->chain),
      cb_param_get (cb_param_nth (c->x_row), c->vals)
      == cb_param_get (cb_param_nth (c->y_row), c->vals));
  c->updating = FALSE;
  show_applicable (c);
}

GtkWidget *
cudablur_controls_first (CudablurControls *c)
{
  return c->x_row >= 0 ? GIMP_SCALE_ENTRY_SPINBUTTON (c->scales[c->x_row])
                       : NULL;
}

void
cudablur_controls_free (CudablurControls *c)
{
  if (!c)
    return;
  g_free (c->refs);
  g_free (c->combos);
  g_free (c->scales);
  g_free (c);
}
