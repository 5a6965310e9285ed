/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The dialog: a GimpDialog with the preview (preview.c), presets and a
 * control per parameter (controls.c: greyed out where the algorithm does
 * not use it, so that no control moves).  No algorithm code here: the
 * preview blurs through the engine like the final render.
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
#include "controls.h"
#include "preview.h"

typedef struct
{
  gb_params *vals;
  CudablurPreview *preview;
  CudablurControls *controls;
  GtkWidget *dialog;
  GtkWidget *presets, *delete_preset;
  gboolean updating;   /* set while the preset box is written */
  gboolean applying_preset;   /* set while a chosen preset is written */
} Dialog;

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
values_changed (gpointer data)
{
  Dialog *d = data;
  if (!d->applying_preset)
    forget_preset (d);
  if (d->preview)
    cudablur_preview_invalidate (d->preview);
}

/* The controls show vals, set anew. */
static void
write_widgets (Dialog *d)
{
  cudablur_controls_show (d->controls);
  values_changed (d);
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
cudablur_dialog (gint32 drawable_id, gb_params *vals)
{
  Dialog d = { .vals = vals };

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

  /* The presets, then a row per parameter. */
  GtkWidget *table = gtk_table_new (1 + cudablur_controls_rows (), 4, FALSE);
  gtk_table_set_col_spacings (GTK_TABLE (table), 6);
  gtk_table_set_row_spacings (GTK_TABLE (table), 4);
  gtk_box_pack_start (GTK_BOX (vbox), table, FALSE, FALSE, 0);
  gimp_table_attach_aligned (GTK_TABLE (table), 0, 0, _("_Presets:"), 0.0,
                             0.5, presets_row (&d), 2, FALSE);
  d.controls = cudablur_controls_new (GTK_TABLE (table), 1, vals,
                                      values_changed, &d);

  gtk_widget_show_all (dialog);
  GtkWidget *first = cudablur_controls_first (d.controls);
  if (first)
    gtk_widget_grab_focus (first);
  dump_mnemonics (dialog);

  gint response;
  while ((response = gimp_dialog_run (GIMP_DIALOG (dialog))) == 1)
    {
      gb_params_init (vals);
      write_widgets (&d);   /* and the preset box back to its placeholder */
    }
  /* The preview's worker stops (a running blur is cancelled) before the
   * caller renders. */
  gtk_widget_destroy (dialog);
  cudablur_controls_free (d.controls);
  return response == GTK_RESPONSE_OK;
}

gboolean
cudablur_display_available (void)
{
  /* GDK alone: GTK's own start-up (themes) is left to gimp_ui_init. */
  return gdk_init_check (NULL, NULL);
}
