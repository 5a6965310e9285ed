/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The dialog: a GimpDialog with the preview (preview.c), presets, the
 * algorithm, the standard deviations linked by a chain button, the
 * edge-aware parameters (greyed out where they do not apply, so that no
 * control moves), the edge mode, the blur space and the device.  No
 * algorithm code here: the preview blurs through the engine like the
 * final render.
 *
 * CUDABLUR_DIALOG_DUMP=FILE writes the dialog's mnemonics (keyval and
 * label, one per line) once it is shown, for the test that checks they
 * are unique in every language. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>
#include <gdk/gdkkeysyms.h>

#include "dialog.h"
#include "paths.h"
#include "intl.h"
#include "../presets.h"
#include "preview.h"

/* Range sigmas the dialog offers: past a few hundred (on the 0-255 scale)
 * the filter hardly sees colour any more; scripts may go to
 * GB_RANGE_SIGMA_MAX. */
#define DIALOG_RANGE_SIGMA_MAX 1000.0

typedef struct
{
  CudablurVals *vals;
  CudablurPreview *preview;
  GtkWidget *dialog;
  GtkWidget *algorithm;
  GtkWidget *device;
  GtkWidget *border, *space;
  GtkWidget *presets, *delete_preset;
  GtkObject *sx, *sy, *range, *iterations, *kappa;
  GtkWidget *chain;
  gboolean updating;   /* set while widgets are written from vals */
  gboolean applying_preset;   /* set while a chosen preset is written */
} Dialog;

/* When each algorithm is best, from the registry (auto's tooltip quotes
 * the crossover sigmas). */
static gchar *
algorithm_tip (gint a)
{
  const gb_algorithm_info *info = gb_algorithm_get ((gb_algorithm) a);
  return info ? g_strdup_printf (_(info->tooltip), GB_AUTO_FIR_MAX_SIGMA_CPU,
                                 GB_AUTO_FIR_MAX_SIGMA_CUDA)
              : g_strdup ("");
}

/* The label stays as it is: GIMP's themes draw an insensitive label
 * brighter, as if it were emphasised. */
static void
set_scale_sensitive (GtkObject *adj, gboolean sensitive)
{
  gtk_widget_set_sensitive (GIMP_SCALE_ENTRY_SCALE (adj), sensitive);
  gtk_widget_set_sensitive (GIMP_SCALE_ENTRY_SPINBUTTON (adj), sensitive);
}

/* The preset box shows a name only while the values are that preset's:
 * after any other change it goes back to its placeholder, so that
 * choosing the preset again applies it again. */
static void
forget_preset (Dialog *d)
{
  if (!d->presets
      || gtk_combo_box_get_active (GTK_COMBO_BOX (d->presets)) <= 0)
    return;
  const gboolean was = d->updating;
  d->updating = TRUE;
  gtk_combo_box_set_active (GTK_COMBO_BOX (d->presets), 0);
  gtk_widget_set_sensitive (d->delete_preset, FALSE);
  d->updating = was;
}

static void
show_applicable (Dialog *d)
{
  const gb_algorithm_info *info = gb_algorithm_get (d->vals->algorithm);
  const unsigned uses = info ? info->uses : 0;
  set_scale_sensitive (d->range, uses & GB_USES_RANGE_SIGMA);
  set_scale_sensitive (d->iterations, uses & GB_USES_ITERATIONS);
  set_scale_sensitive (d->kappa, uses & GB_USES_KAPPA);
  gchar *tip = algorithm_tip (d->vals->algorithm);
  gimp_help_set_help_data (d->algorithm, tip, NULL);
  g_free (tip);
}

static void
values_changed (Dialog *d)
{
  if (d->updating)
    return;
  show_applicable (d);
  if (!d->applying_preset)
    forget_preset (d);
  if (d->preview)
    cudablur_preview_invalidate (d->preview);
}

static void
algorithm_changed (GtkWidget *combo, Dialog *d)
{
  gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (combo),
                                 &d->vals->algorithm);
  values_changed (d);
}

static void
device_changed (GtkWidget *combo, Dialog *d)
{
  gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (combo), &d->vals->device);
  values_changed (d);
}

static void
border_changed (GtkWidget *combo, Dialog *d)
{
  gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (combo), &d->vals->border);
  values_changed (d);
}

static void
space_changed (GtkWidget *combo, Dialog *d)
{
  gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (combo), &d->vals->space);
  values_changed (d);
}

static void
adj_changed (GtkAdjustment *adj, gdouble *target)
{
  *target = gtk_adjustment_get_value (adj);
}

static void
int_adj_changed (GtkAdjustment *adj, gint32 *target)
{
  *target = (gint32) (gtk_adjustment_get_value (adj) + 0.5);
}

/* With the chain closed, the two standard deviations move together. */
static void
sigma_changed (GtkAdjustment *adj, Dialog *d)
{
  if (!d->updating
      && gimp_chain_button_get_active (GIMP_CHAIN_BUTTON (d->chain)))
    {
      GtkAdjustment *other = GTK_ADJUSTMENT (adj == GTK_ADJUSTMENT (d->sx)
                                             ? d->sy : d->sx);
      d->updating = TRUE;
      gtk_adjustment_set_value (other, gtk_adjustment_get_value (adj));
      d->updating = FALSE;
      d->vals->std_dev_x = d->vals->std_dev_y = gtk_adjustment_get_value (adj);
    }
  values_changed (d);
}

static void
write_widgets (Dialog *d)
{
  d->updating = TRUE;
  gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (d->algorithm),
                                 d->vals->algorithm);
  gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (d->device),
                                 d->vals->device);
  gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (d->border),
                                 d->vals->border);
  gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (d->space),
                                 d->vals->space);
  gtk_adjustment_set_value (GTK_ADJUSTMENT (d->sx), d->vals->std_dev_x);
  gtk_adjustment_set_value (GTK_ADJUSTMENT (d->sy), d->vals->std_dev_y);
  gtk_adjustment_set_value (GTK_ADJUSTMENT (d->range), d->vals->range_sigma);
  gtk_adjustment_set_value (GTK_ADJUSTMENT (d->iterations),
                            d->vals->iterations);
  gtk_adjustment_set_value (GTK_ADJUSTMENT (d->kappa), d->vals->kappa);
  gimp_chain_button_set_active (GIMP_CHAIN_BUTTON (d->chain),
                                d->vals->std_dev_x == d->vals->std_dev_y);
  d->updating = FALSE;
  values_changed (d);
}

static gboolean
device_sensitive (gint value, gpointer data)
{
  return value != GB_BACKEND_CUDA || GPOINTER_TO_INT (data);
}

static GtkWidget *
device_combo (gboolean *cuda_ok)
{
  gchar name[256], *cuda, *cpu;
  gboolean ok = gb_cuda_info (name, sizeof name);
  *cuda_ok = ok;
  cuda = ok ? g_strdup_printf (_("CUDA: %s"), name)
            : g_strdup (_("CUDA (not available)"));
  cpu = g_strdup_printf (_("CPU (%d threads)"), gb_cpu_threads ());
  GtkWidget *combo = gimp_int_combo_box_new (_("Automatic"), GB_BACKEND_AUTO,
                                             cuda, GB_BACKEND_CUDA,
                                             cpu, GB_BACKEND_CPU, NULL);
  gimp_int_combo_box_set_sensitivity (GIMP_INT_COMBO_BOX (combo),
                                      device_sensitive, GINT_TO_POINTER (ok),
                                      NULL);
  gchar *tip = ok ? g_strdup_printf (_("Automatic uses %s for images of "
                                       "512 x 512 pixels or more, and falls "
                                       "back to the CPU if it fails."), name)
                  : g_strdup_printf (_("CUDA cannot be used: %s"), name);
  gimp_help_set_help_data (combo, tip, NULL);
  g_free (tip);
  g_free (cuda);
  g_free (cpu);
  return combo;
}

/* Typed letters would otherwise be read as 0 when the field is left. */
static GtkObject *
numeric (GtkObject *adj)
{
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (GIMP_SCALE_ENTRY_SPINBUTTON (adj)),
                               TRUE);
  return adj;
}

static GtkObject *
scale (GtkTable *table, gint row, const gchar *label, gdouble value,
       gdouble lower, gdouble upper, gdouble max, guint digits,
       const gchar *tip)
{
  /* Spin buttons wide enough for "1500.00". */
  return numeric (gimp_scale_entry_new (table, 0, row, label, 200, 8, value,
                                        lower, upper, 1.0, 10.0, digits,
                                        FALSE, lower, max, tip, NULL));
}

/* A standard deviation: the slider spans every sigma the engine takes, on
 * a logarithmic scale so that small ones get fine control (as GIMP's own
 * Gaussian blur does with its gamma). */
static GtkObject *
sigma_scale (GtkTable *table, gint row, const gchar *label, gdouble value,
             const gchar *tip)
{
  GtkObject *adj = gimp_scale_entry_new (table, 0, row, label, 200, 8, value,
                                         0.0, GB_SIGMA_MAX, 0.1, 1.0, 2,
                                         TRUE, 0.0, 0.0, tip, NULL);
  gimp_scale_entry_set_logarithmic (adj, TRUE);
  return numeric (adj);
}

/* Each entry of the open list gets its algorithm's tooltip: the labels
 * say what each is for, the tooltips how it works.  GTK 2 gives a combo
 * box's entries no tooltips of their own; in its menu form (GIMP's) the
 * popup is a menu whose items are the entries, in order. */
static void
algorithm_item_tips (GtkComboBox *combo, GParamSpec *pspec, gpointer data)
{
  (void) pspec;
  (void) data;
  AtkObject *popup = gtk_combo_box_get_popup_accessible (combo);
  GtkWidget *menu = GTK_IS_ACCESSIBLE (popup)
    ? gtk_accessible_get_widget (GTK_ACCESSIBLE (popup)) : NULL;
  if (!GTK_IS_MENU (menu))
    return;
  GList *items = gtk_container_get_children (GTK_CONTAINER (menu));
  gint i = 0;
  for (GList *l = items; l; l = l->next, i++)
    {
      gchar *tip = algorithm_tip (i);
      gtk_widget_set_tooltip_text (l->data, tip);
      g_free (tip);
    }
  g_list_free (items);
}

static GtkWidget *
algorithm_combo (void)
{
  GtkListStore *algorithms = gimp_int_store_new ();
  for (gint i = 0; i < GB_ALGO_COUNT; i++)
    {
      GtkTreeIter iter;
      gtk_list_store_append (algorithms, &iter);
      gtk_list_store_set (algorithms, &iter, GIMP_INT_STORE_VALUE, i,
                          GIMP_INT_STORE_LABEL,
                          _(gb_algorithm_get ((gb_algorithm) i)->label), -1);
    }
  GtkWidget *combo = gimp_int_combo_box_new_array (0, NULL);
  gtk_combo_box_set_model (GTK_COMBO_BOX (combo), GTK_TREE_MODEL (algorithms));
  g_object_unref (algorithms);
  g_signal_connect (combo, "notify::popup-shown",
                    G_CALLBACK (algorithm_item_tips), NULL);
  return combo;
}

/* CUDABLUR_DIALOG_DUMP: every mnemonic label, "keyval<TAB>label". */
static void
collect_mnemonics (GtkWidget *w, gpointer data)
{
  if (GTK_IS_LABEL (w))
    {
      guint key = gtk_label_get_mnemonic_keyval (GTK_LABEL (w));
      if (key != GDK_VoidSymbol)
        fprintf (data, "%u\t%s\n", gdk_keyval_to_lower (key),
                 gtk_label_get_label (GTK_LABEL (w)));
    }
  if (GTK_IS_CONTAINER (w))
    gtk_container_forall (GTK_CONTAINER (w), collect_mnemonics, data);
}

static void
dump_mnemonics (GtkWidget *dialog)
{
  const gchar *file = g_getenv ("CUDABLUR_DIALOG_DUMP");
  FILE *f = file && *file ? fopen (file, "w") : NULL;
  if (!f)
    return;
  collect_mnemonics (dialog, f);
  fclose (f);
}

/* ---- presets ---------------------------------------------------------- */

/* The combo's entries: a placeholder, then the saved names; the active
 * one is `select` when given. */
static void
fill_presets (Dialog *d, const gchar *select)
{
  GtkComboBox *combo = GTK_COMBO_BOX (d->presets);
  GtkListStore *store = GTK_LIST_STORE (gtk_combo_box_get_model (combo));
  d->updating = TRUE;
  gtk_list_store_clear (store);
  gtk_combo_box_append_text (combo, _("(choose a preset)"));
  gchar **names = cudablur_presets_list ();
  gint active = 0;
  for (gint i = 0; names && names[i]; i++)
    {
      gtk_combo_box_append_text (combo, names[i]);
      if (select && !strcmp (select, names[i]))
        active = i + 1;
    }
  gtk_combo_box_set_active (combo, active);
  gtk_widget_set_sensitive (d->presets, names && names[0]);
  gtk_widget_set_sensitive (d->delete_preset, active > 0);
  g_strfreev (names);
  d->updating = FALSE;
}

static void
preset_chosen (GtkComboBox *combo, Dialog *d)
{
  if (d->updating)
    return;
  gchar *name = gtk_combo_box_get_active_text (combo);
  const gboolean real = gtk_combo_box_get_active (combo) > 0;
  gtk_widget_set_sensitive (d->delete_preset, real);
  if (real && name && cudablur_preset_load (name, d->vals))
    {
      d->applying_preset = TRUE;
      write_widgets (d);
      d->applying_preset = FALSE;
    }
  g_free (name);
}

static void
show_error (Dialog *d, const gchar *what, GError *error)
{
  GtkWidget *m = gtk_message_dialog_new (GTK_WINDOW (d->dialog),
                                         GTK_DIALOG_MODAL,
                                         GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                         "%s: %s", what,
                                         error ? error->message : "");
  gtk_dialog_run (GTK_DIALOG (m));
  gtk_widget_destroy (m);
}

static void
preset_named (GtkWidget *query, const gchar *name, gpointer data)
{
  Dialog *d = data;
  GError *error = NULL;
  (void) query;
  gchar *clean = g_strstrip (g_strdup (name));
  if (*clean && !cudablur_preset_save (clean, d->vals, &error))
    show_error (d, _("The preset could not be saved"), error);
  else if (*clean)
    fill_presets (d, clean);
  g_clear_error (&error);
  g_free (clean);
}

static void
save_preset (Dialog *d)
{
  gchar *current = gtk_combo_box_get_active (GTK_COMBO_BOX (d->presets)) > 0
    ? gtk_combo_box_get_active_text (GTK_COMBO_BOX (d->presets)) : NULL;
  GtkWidget *q = gimp_query_string_box (_("Save Preset"), d->dialog, NULL,
                                        NULL, _("Name of the preset:"),
                                        current ? current : "", NULL, NULL,
                                        preset_named, d);
  g_free (current);
  gtk_widget_show (q);
}

static void
delete_preset (Dialog *d)
{
  GError *error = NULL;
  gchar *name = gtk_combo_box_get_active_text (GTK_COMBO_BOX (d->presets));
  if (name && gtk_combo_box_get_active (GTK_COMBO_BOX (d->presets)) > 0
      && !cudablur_preset_delete (name, &error))
    show_error (d, _("The preset could not be deleted"), error);
  fill_presets (d, NULL);
  g_clear_error (&error);
  g_free (name);
}

static GtkWidget *
icon_button (const gchar *icon, const gchar *tip, GCallback cb, Dialog *d)
{
  GtkWidget *b = gtk_button_new ();
  gtk_container_add (GTK_CONTAINER (b),
                     gtk_image_new_from_icon_name (icon, GTK_ICON_SIZE_MENU));
  gimp_help_set_help_data (b, tip, NULL);
  g_signal_connect_swapped (b, "clicked", cb, d);
  return b;
}

static GtkWidget *
presets_row (Dialog *d)
{
  GtkWidget *box = gtk_hbox_new (FALSE, 4);
  d->presets = gtk_combo_box_new_text ();
  gimp_help_set_help_data (d->presets, _("Settings saved under a name"),
                           NULL);
  gtk_box_pack_start (GTK_BOX (box), d->presets, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (box),
                      icon_button (GIMP_ICON_DOCUMENT_SAVE,
                                   _("Save these settings under a name"),
                                   G_CALLBACK (save_preset), d),
                      FALSE, FALSE, 0);
  d->delete_preset = icon_button (GIMP_ICON_EDIT_DELETE,
                                  _("Delete the chosen preset"),
                                  G_CALLBACK (delete_preset), d);
  gtk_box_pack_start (GTK_BOX (box), d->delete_preset, FALSE, FALSE, 0);
  fill_presets (d, NULL);
  g_signal_connect (d->presets, "changed", G_CALLBACK (preset_chosen), d);
  return box;
}

/* Help goes through GIMP's help system, which opens our help domain's
 * page with the web browser GIO knows for HTML.  Where there is none,
 * GIMP would only report a calling error of plug-in-web-browser: say
 * where the page is instead. */
static void
help_func (const gchar *help_id, gpointer help_data)
{
  GAppInfo *browser = g_app_info_get_default_for_type ("text/html", FALSE);
  if (browser)
    {
      g_object_unref (browser);
      gimp_standard_help_func (help_id, help_data);
      return;
    }
  gchar *page = g_build_filename (cudablur_help_dir (), "en", "index.html",
                                  NULL);
  GtkWidget *m = gtk_message_dialog_new (NULL, GTK_DIALOG_MODAL,
                                         GTK_MESSAGE_INFO, GTK_BUTTONS_CLOSE,
                                         _("No web browser is set up to show "
                                           "the help page."));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (m),
                                            _("Open %s in a browser, or read "
                                              "the tooltips: each control "
                                              "has one."), page);
  gtk_window_set_title (GTK_WINDOW (m), _("CUDA Gaussian Blur"));
  gtk_dialog_run (GTK_DIALOG (m));
  gtk_widget_destroy (m);
  g_free (page);
}

gboolean
cudablur_dialog (gint32 drawable_id, CudablurVals *vals)
{
  Dialog d = { .vals = vals };
  CudablurVals defaults;

  gimp_ui_init (PLUG_IN_BINARY, TRUE);
  GtkWidget *dialog = gimp_dialog_new (_("CUDA Gaussian Blur"), PLUG_IN_ROLE,
                                       NULL, 0, help_func, PLUG_IN_HELP,
                                       GIMP_STOCK_RESET, 1,
                                       GTK_STOCK_CANCEL, GTK_RESPONSE_CANCEL,
                                       GTK_STOCK_OK, GTK_RESPONSE_OK, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_OK);
  gtk_dialog_set_alternative_button_order (GTK_DIALOG (dialog), 1,
                                            GTK_RESPONSE_OK,
                                            GTK_RESPONSE_CANCEL, -1);
  gimp_window_set_transient (GTK_WINDOW (dialog));
  d.dialog = dialog;
  GtkAccelGroup *accel = gtk_accel_group_new ();
  gtk_window_add_accel_group (GTK_WINDOW (dialog), accel);
  g_object_unref (accel);

  GtkWidget *vbox = gtk_vbox_new (FALSE, 12);
  gtk_container_set_border_width (GTK_CONTAINER (vbox), 12);
  gtk_box_pack_start (GTK_BOX (gtk_dialog_get_content_area (GTK_DIALOG (dialog))),
                      vbox, TRUE, TRUE, 0);

  /* The preview takes what room the dialog is given. */
  d.preview = cudablur_preview_new (drawable_id, vals, accel);
  if (d.preview)
    gtk_box_pack_start (GTK_BOX (vbox), cudablur_preview_widget (d.preview),
                        TRUE, TRUE, 0);

  GtkWidget *table = gtk_table_new (10, 4, FALSE);
  gtk_table_set_col_spacings (GTK_TABLE (table), 6);
  gtk_table_set_row_spacings (GTK_TABLE (table), 4);
  gtk_box_pack_start (GTK_BOX (vbox), table, FALSE, FALSE, 0);

  gimp_table_attach_aligned (GTK_TABLE (table), 0, 0, _("_Presets:"), 0.0,
                             0.5, presets_row (&d), 2, FALSE);
  if (!gb_algorithm_get ((gb_algorithm) vals->algorithm))
    vals->algorithm = GB_ALGO_AUTO;
  d.algorithm = algorithm_combo ();
  gimp_table_attach_aligned (GTK_TABLE (table), 0, 1, _("_Algorithm:"), 0.0,
                             0.5, d.algorithm, 2, FALSE);

  d.sx = sigma_scale (GTK_TABLE (table), 2, _("Std. dev. _X:"),
                      vals->std_dev_x,
                      _("Horizontal standard deviation in pixels"));
  d.sy = sigma_scale (GTK_TABLE (table), 3, _("Std. dev. _Y:"),
                      vals->std_dev_y,
                      _("Vertical standard deviation in pixels"));
  d.chain = gimp_chain_button_new (GIMP_CHAIN_RIGHT);
  gimp_help_set_help_data (d.chain, _("Keep both standard deviations equal"),
                           NULL);
  gtk_table_attach (GTK_TABLE (table), d.chain, 3, 4, 2, 4, GTK_SHRINK,
                    GTK_FILL, 0, 0);
  d.range = scale (GTK_TABLE (table), 4, _("Edge co_ntrast:"),
                   vals->range_sigma, 1.0, 255.0, DIALOG_RANGE_SIGMA_MAX, 1,
                   _("The range sigma: colour differences well above this "
                     "(0-255 scale) stop the blur, so edges stay sharp. "
                     "Edge-aware algorithms only."));
  d.iterations = scale (GTK_TABLE (table), 5, _("_Iterations:"),
                        vals->iterations, 1.0, GB_ITERATIONS_MAX,
                        GB_ITERATIONS_MAX, 0,
                        _("Horizontal and vertical passes of the edge-aware "
                          "filter: more passes, fewer streaks. Edge-aware "
                          "algorithms only."));
  d.kappa = scale (GTK_TABLE (table), 6, _("Bloc_k overlap:"), vals->kappa,
                   0.0, GB_KAPPA_MAX, GB_KAPPA_MAX, 1,
                   _("Kappa: how far each block looks beyond its boundary, "
                     "in units of sigma; more is slower and closer to the "
                     "exact result. Partitioned edge-aware only."));
  gboolean cuda_ok;
  d.device = device_combo (&cuda_ok);
  /* A stored "cuda" where there is none shows what will run: Automatic. */
  if (vals->device == GB_BACKEND_CUDA && !cuda_ok)
    vals->device = GB_BACKEND_AUTO;
  d.border = gimp_int_combo_box_new (_("Repeat the edge pixels"),
                                     GB_BORDER_CLAMP,
                                     _("None: transparent"), GB_BORDER_NONE,
                                     _("Black"), GB_BORDER_BLACK,
                                     _("White"), GB_BORDER_WHITE, NULL);
  gimp_help_set_help_data (d.border, _("What lies beyond the layer's edges, "
                                       "as GIMP's own Gaussian Blur offers"),
                           NULL);
  gimp_table_attach_aligned (GTK_TABLE (table), 0, 7, _("_Edges:"), 0.0, 0.5,
                             d.border, 2, FALSE);
  d.space = gimp_int_combo_box_new (_("Linear light"), 0,
                                    _("Perceptual"), 1, NULL);
  gimp_help_set_help_data (d.space, _("Linear light mixes colours as light "
                                      "does (no dark fringes between "
                                      "colours); perceptual blurs the "
                                      "encoded values, as GIMP's own "
                                      "Gaussian Blur does on 8-bit images"),
                           NULL);
  gimp_table_attach_aligned (GTK_TABLE (table), 0, 8, _("_Blur in:"), 0.0,
                             0.5, d.space, 2, FALSE);
  gimp_table_attach_aligned (GTK_TABLE (table), 0, 9, _("_Device:"), 0.0, 0.5,
                             d.device, 2, FALSE);

  write_widgets (&d);
  g_signal_connect (d.algorithm, "changed", G_CALLBACK (algorithm_changed), &d);
  g_signal_connect (d.device, "changed", G_CALLBACK (device_changed), &d);
  g_signal_connect (d.border, "changed", G_CALLBACK (border_changed), &d);
  g_signal_connect (d.space, "changed", G_CALLBACK (space_changed), &d);
  g_signal_connect (d.sx, "value-changed", G_CALLBACK (adj_changed),
                    &vals->std_dev_x);
  g_signal_connect (d.sy, "value-changed", G_CALLBACK (adj_changed),
                    &vals->std_dev_y);
  g_signal_connect (d.sx, "value-changed", G_CALLBACK (sigma_changed), &d);
  g_signal_connect (d.sy, "value-changed", G_CALLBACK (sigma_changed), &d);
  g_signal_connect (d.range, "value-changed", G_CALLBACK (adj_changed),
                    &vals->range_sigma);
  g_signal_connect (d.iterations, "value-changed", G_CALLBACK (int_adj_changed),
                    &vals->iterations);
  g_signal_connect (d.kappa, "value-changed", G_CALLBACK (adj_changed),
                    &vals->kappa);
  g_signal_connect_swapped (d.range, "value-changed",
                            G_CALLBACK (values_changed), &d);
  g_signal_connect_swapped (d.iterations, "value-changed",
                            G_CALLBACK (values_changed), &d);
  g_signal_connect_swapped (d.kappa, "value-changed",
                            G_CALLBACK (values_changed), &d);

  gtk_widget_show_all (dialog);
  show_applicable (&d);
  gtk_widget_grab_focus (GIMP_SCALE_ENTRY_SPINBUTTON (d.sx));
  dump_mnemonics (dialog);

  gint response;
  while ((response = gimp_dialog_run (GIMP_DIALOG (dialog))) == 1)
    {
      cudablur_vals_defaults (&defaults);
      *vals = defaults;
      write_widgets (&d);   /* and the preset box back to its placeholder */
    }
  /* The preview's worker stops (a running blur is cancelled) before the
   * caller renders. */
  gtk_widget_destroy (dialog);
  return response == GTK_RESPONSE_OK;
}

gboolean
cudablur_display_available (void)
{
  /* GDK alone: GTK's own start-up (themes) is left to gimp_ui_init. */
  return gdk_init_check (NULL, NULL);
}
