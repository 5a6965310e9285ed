/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudablur:gaussian-blur speaks the user's language in real GEGL, as
 * GIMP 3 shows it: the module is installed as a user installs it (the
 * user's GEGL module folder with cudablur.so and its catalogue beside it
 * in cudablur/locale), GEGL loads it in a process whose locale is LANG, and
 * every text GIMP's filter tool shows must be the catalogue's
 * translation: the title, the menu label, the description, each
 * property's label and tooltip (the table's rows and device-used), each
 * choice's label, and device-used's text after a blur on the CPU.
 *
 * The expectations come from the same catalogue bound under another text
 * domain in this process, so that a module that binds nothing (or the
 * wrong folder) shows English and fails; each message must be in the
 * catalogue (gettext gives the message itself back where it is not,
 * which a translation identical to the English, "CPU", is not).
 *   test_i18n            each language of po/LINGUAS, one process each
 *   test_i18n LANG       one language (de, fr, es)
 * GEGL_MODULE_DIR and PO_BUILD_DIR (set by the build) hold the module and
 * the compiled catalogues; the module is installed in a user's data folder
 * (XDG_DATA_HOME), where a user's copy wins over any other. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <gegl.h>
#include <gegl-paramspecs.h>
#include <glib/gstdio.h>
#include <libintl.h>

#include "gegl_util.h"
#include "params.h"
#include "testutil.h"

#define EXPECTED "cudablur-test-expected"

static const gchar *lang;

/* The catalogue's translation of `english` ("" and a failure where the
 * catalogue lacks it). */
static const gchar *
expected (const gchar *english)
{
  const gchar *t = dgettext (EXPECTED, english);
  TU_CHECK (t != english, "%s: the catalogue lacks \"%s\"", lang, english);
  return t;
}

static void
check_text (const gchar *what, const gchar *shown, const gchar *want)
{
  TU_CHECK (shown && !strcmp (shown, want), "%s: %s is \"%s\", not \"%s\"",
            lang, what, shown ? shown : "(none)", want);
}

/* cb_param_tooltip's text in the expected catalogue: the row's tooltip,
 * then "label: tooltip" for each choice that has one. */
static gchar *
expected_tooltip (const cb_param *p)
{
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, expected (p->tooltip), p->quote, p->quote);
  for (gint k = 0; k < p->n_choices; k++)
    {
      const cb_choice *c = cb_param_choice (p, p->choices[k].value);
      if (c->tooltip)
        {
          g_string_append_printf (s, "\n%s: ", expected (c->label));
          g_string_append_printf (s, expected (c->tooltip),
                                  GB_AUTO_FIR_MAX_SIGMA_CPU,
                                  GB_AUTO_FIR_MAX_SIGMA_CUDA);
        }
    }
  return g_string_free (s, FALSE);
}

static void
check_row (const cb_param *p, GParamSpec *ps)
{
  gchar *what = g_strdup_printf ("%s's label", p->name);
  check_text (what, g_param_spec_get_nick (ps), expected (p->label));
  g_free (what);
  gchar *tip = expected_tooltip (p);
  what = g_strdup_printf ("%s's tooltip", p->name);
  check_text (what, g_param_spec_get_blurb (ps), tip);
  g_free (what);
  g_free (tip);
  if (p->type != CB_PARAM_ENUM || !G_IS_PARAM_SPEC_ENUM (ps))
    return;
  GEnumClass *e = G_PARAM_SPEC_ENUM (ps)->enum_class;
  for (gint k = 0; k < p->n_choices; k++)
    {
      GEnumValue *v = g_enum_get_value (e, p->choices[k].value);
      what = g_strdup_printf ("%s's choice %s", p->name, p->choices[k].nick);
      check_text (what, v ? v->value_name : NULL,
                  expected (p->choices[k].label));
      g_free (what);
    }
}

/* Removes a folder this test made, with what it holds. */
static void
remove_tree (const gchar *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  if (dir)
    {
      const gchar *name;
      while ((name = g_dir_read_name (dir)))
        {
          gchar *child = g_build_filename (path, name, NULL);
          remove_tree (child);
          g_free (child);
        }
      g_dir_close (dir);
    }
  g_remove (path);
}

/* A user's data folder (XDG_DATA_HOME) whose GEGL module folder holds
 * the module and its catalogue, as make install puts them there. */
static gchar *
install_module (void)
{
  gchar *home = g_dir_make_tmp ("cudablur-test-i18n-XXXXXX", NULL);
  gchar *dir = g_build_filename (home, "gegl-0.4", "plug-ins", NULL);
  gchar *so = g_build_filename (dir, "cudablur.so", NULL);
  gchar *locale = g_build_filename (dir, "cudablur", "locale", lang,
                                    "LC_MESSAGES", NULL);
  gchar *mo = g_build_filename (locale, GETTEXT_PACKAGE ".mo", NULL);
  gchar *built_mo = g_build_filename (PO_BUILD_DIR, lang, "LC_MESSAGES",
                                      GETTEXT_PACKAGE ".mo", NULL);
  gchar *bytes = NULL;
  gsize n = 0;
  gboolean ok = g_mkdir_with_parents (dir, 0700) == 0
                && g_file_get_contents (GEGL_MODULE_DIR "/cudablur.so",
                                        &bytes, &n, NULL)
                && g_file_set_contents (so, bytes, (gssize) n, NULL);
  g_free (bytes);
  ok = ok && g_mkdir_with_parents (locale, 0700) == 0
       && g_file_get_contents (built_mo, &bytes, &n, NULL)
       && g_file_set_contents (mo, bytes, (gssize) n, NULL);
  g_free (bytes);
  TU_CHECK (ok, "could not install the module and %s in %s", built_mo, dir);
  g_free (so);
  g_free (locale);
  g_free (mo);
  g_free (built_mo);
  g_free (dir);
  return home;
}

/* The same catalogue under our own domain, for the expectations. */
static gchar *
bind_expected (void)
{
  gchar *dir = g_dir_make_tmp ("cudablur-test-expected-XXXXXX", NULL);
  gchar *locale = g_build_filename (dir, lang, "LC_MESSAGES", NULL);
  gchar *mo = g_build_filename (locale, EXPECTED ".mo", NULL);
  gchar *built_mo = g_build_filename (PO_BUILD_DIR, lang, "LC_MESSAGES",
                                      GETTEXT_PACKAGE ".mo", NULL);
  gchar *bytes = NULL;
  gsize n = 0;
  TU_CHECK (g_mkdir_with_parents (locale, 0700) == 0
            && g_file_get_contents (built_mo, &bytes, &n, NULL)
            && g_file_set_contents (mo, bytes, (gssize) n, NULL),
            "could not copy %s", built_mo);
  bindtextdomain (EXPECTED, dir);
  bind_textdomain_codeset (EXPECTED, "UTF-8");
  g_free (bytes);
  g_free (locale);
  g_free (mo);
  g_free (built_mo);
  return dir;
}

/* device-used after a blur asked of the CPU, once the main loop has run
 * (where the operation announces it). */
static void
check_device_used (void)
{
  gu_graph g;
  gu_graph_new (&g, 64, 48, "device", GB_BACKEND_CPU, NULL);
  gegl_node_process (g.sink);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  gchar *text = NULL;
  gegl_node_get (g.blur, "device-used", &text, NULL);
  check_text ("device-used after a CPU blur", text,
              expected ("CPU, as chosen"));
  g_free (text);
  gu_graph_free (&g);
}

static int
one_language (int argc, char **argv)
{
  lang = argv[1];
  const gchar *locales[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "es_ES.UTF-8" };
  const gchar *locale = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (locales); i++)
    if (!strncmp (locales[i], lang, 2))
      locale = locales[i];
  g_setenv ("LANGUAGE", lang, TRUE);
  g_setenv ("LC_ALL", locale ? locale : "", TRUE);
  if (!locale || !setlocale (LC_ALL, ""))
    {
      fprintf (stderr, "FAIL: no %s locale for %s (tools/gimp3-root.sh and "
               "tools/deps.sh make de_DE, fr_FR and es_ES.UTF-8)\n",
               locale ? locale : "known", lang);
      return 1;
    }
  gchar *expect_dir = bind_expected ();
  gchar *modules = install_module ();
  /* The user's copy, which wins over any other. */
  g_setenv ("XDG_DATA_HOME", modules, TRUE);
  gegl_init (&argc, &argv);
  if (!gegl_has_operation (CUDABLUR_OP_NAME))
    {
      fprintf (stderr, "FAIL: %s not found in %s\n", CUDABLUR_OP_NAME,
               modules);
      return 1;
    }

  check_text ("the title",
              gegl_operation_get_key (CUDABLUR_OP_NAME, "title"),
              expected ("CUDA Gaussian Blur"));
  check_text ("the menu label",
              gegl_operation_get_key (CUDABLUR_OP_NAME, "gimp:menu-label"),
              expected ("CU_DA Gaussian Blur..."));
  check_text ("the description",
              gegl_operation_get_key (CUDABLUR_OP_NAME, "description"),
              expected ("Gaussian blur on an NVIDIA GPU through CUDA, or on "
                        "all CPU cores: exact FIR and recursive (Young-van "
                        "Vliet, Deriche) Gaussians and an edge-aware blur "
                        "that keeps strong edges sharp"));
  gint rows = 0;
  for (gint i = 0; i < cb_params_count (); i++)
    {
      const cb_param *p = cb_param_nth (i);
      GParamSpec *ps = gegl_operation_find_property (CUDABLUR_OP_NAME,
                                                     p->name);
      TU_CHECK (ps != NULL, "%s: no property %s", lang, p->name);
      if (ps)
        {
          check_row (p, ps);
          rows++;
        }
    }
  GParamSpec *used = gegl_operation_find_property (CUDABLUR_OP_NAME,
                                                   "device-used");
  TU_CHECK (used != NULL, "%s: no property device-used", lang);
  if (used)
    {
      check_text ("device-used's label", g_param_spec_get_nick (used),
                  expected ("Device used"));
      check_text ("device-used's tooltip", g_param_spec_get_blurb (used),
                  expected ("Where the last preview was blurred, and why "
                            "there (the device setting, the build, the GPU, "
                            "the image's size)"));
    }
  check_device_used ();
  printf ("%s: the title \"%s\", %d rows, their choices and device-used "
          "checked\n", lang,
          gegl_operation_get_key (CUDABLUR_OP_NAME, "title"), rows);
  gegl_exit ();
  remove_tree (modules);
  remove_tree (expect_dir);
  g_free (modules);
  g_free (expect_dir);
  gchar *name = g_strdup_printf ("test_i18n %s", lang);
  const int status = tu_finish (name);
  g_free (name);
  return status;
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    return one_language (argc, argv);
  /* Each language in a process of its own: the operation's class is made
   * once a process, in that process's language. */
  gchar *linguas = NULL;
  if (!g_file_get_contents (LINGUAS_FILE, &linguas, NULL, NULL))
    {
      fprintf (stderr, "FAIL: cannot read %s\n", LINGUAS_FILE);
      return 1;
    }
  gint status = 0, n = 0;
  gchar **lines = g_strsplit (linguas, "\n", -1);
  for (gchar **l = lines; *l; l++)
    {
      gchar *code = g_strstrip (g_strdup (*l));
      if (*code && *code != '#')
        {
          gchar *child[] = { argv[0], code, NULL };
          gint wait = 0;
          GError *error = NULL;
          if (!g_spawn_sync (NULL, child, NULL, G_SPAWN_CHILD_INHERITS_STDIN,
                             NULL, NULL, NULL, NULL, &wait, &error)
              || !g_spawn_check_wait_status (wait, NULL))
            {
              fprintf (stderr, "FAIL: test_i18n %s%s%s\n", code,
                       error ? ": " : "", error ? error->message : "");
              status = 1;
            }
          g_clear_error (&error);
          n++;
        }
      g_free (code);
    }
  g_strfreev (lines);
  g_free (linguas);
  if (n < 3)
    {
      fprintf (stderr, "FAIL: %d languages in %s\n", n, LINGUAS_FILE);
      status = 1;
    }
  return status;
}
