/* SPDX-License-Identifier: GPL-3.0-or-later */
/* device-used, the operation's account of where its last preview was
 * blurred (gegl/last-run.c), in English:
 *   - the texts for the engine's reports: the GPU by name, the CPU as
 *     chosen, and the CPU with its reason, where Automatic and CUDA differ
 *     (a missing GPU is expected under Automatic, a let-down under CUDA);
 *   - what reaches a GEGL node's "notify" (where GIMP's filter tool
 *     listens): one announcement per new text, from the main loop, none
 *     for a repeated text; the largest run since the parameters changed
 *     wins over a smaller one (GIMP's other, smaller views), and a
 *     parameter change starts over; a text GIMP writes back is kept;
 *   - the real operation, loaded by GEGL from the build tree, announces
 *     its device after a blur and not again for the same blur.
 * GEGL_MODULE_DIR (set by the build) holds the module. */
#define _DEFAULT_SOURCE   /* symlink */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gegl.h>
#include <gegl-plugin.h>
#include <glib/gstdio.h>

#include "last-run.h"
#include "gegl_util.h"
#include "params.h"
#include "testutil.h"

/* ------------------------------------------------ a stand-in operation */

/* An operation with device-used alone, to drive the record directly. */
typedef struct
{
  GeglOperationFilter parent_instance;
} StandIn;
typedef struct
{
  GeglOperationFilterClass parent_class;
} StandInClass;

static GType stand_in_get_type (void);
G_DEFINE_TYPE (StandIn, stand_in, GEGL_TYPE_OPERATION_FILTER)

static void
stand_in_set (GObject *object, guint id, const GValue *value,
              GParamSpec *pspec)
{
  (void) id;
  (void) pspec;
  cudablur_last_run_set (object, value);
}

static void
stand_in_get (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  (void) id;
  (void) pspec;
  cudablur_last_run_get (object, value);
}

static gboolean
stand_in_process (GeglOperation *op, GeglBuffer *in, GeglBuffer *out,
                  const GeglRectangle *roi, gint level)
{
  (void) op;
  (void) in;
  (void) out;
  (void) roi;
  (void) level;
  return TRUE;
}

static void
stand_in_class_init (StandInClass *klass)
{
  G_OBJECT_CLASS (klass)->set_property = stand_in_set;
  G_OBJECT_CLASS (klass)->get_property = stand_in_get;
  GEGL_OPERATION_FILTER_CLASS (klass)->process = stand_in_process;
  g_object_class_install_property (G_OBJECT_CLASS (klass), 1,
                                   cudablur_last_run_spec ());
  gegl_operation_class_set_key (GEGL_OPERATION_CLASS (klass), "name",
                                "cudablur-test:last-run");
}

static void
stand_in_init (StandIn *self)
{
  cudablur_last_run_attach (G_OBJECT (self));
}

/* ------------------------------------------------------------- texts */

static gb_report
report (gb_backend used, gb_status gpu)
{
  gb_report r = { 0 };
  r.backend_used = used;
  r.gpu_status = gpu;
  return r;
}

static void
expect_text (const gb_params *p, gb_status st, const gb_report *r,
             const gchar *want, const gchar *what)
{
  gchar *text = cudablur_last_run_describe (p, st, r);
  TU_CHECK (!strcmp (text, want), "%s: \"%s\", wanted \"%s\"", what, text,
            want);
  g_free (text);
}

static void
check_texts (void)
{
  gb_params p;
  gb_params_init (&p);
  gb_report r = report (GB_BACKEND_CPU, GB_OK);
  p.backend = GB_BACKEND_CPU;
  expect_text (&p, GB_OK, &r, "CPU, as chosen", "device cpu");

  r = report (GB_BACKEND_CPU, GB_ERR_CUDA_NO_DEVICE);
  p.backend = GB_BACKEND_AUTO;
  expect_text (&p, GB_OK, &r, "CPU: no usable CUDA device", "auto, no GPU");
  p.backend = GB_BACKEND_CUDA;
  expect_text (&p, GB_OK, &r, "CPU instead of the GPU: no usable CUDA device",
               "cuda, no GPU");
  gchar *a = cudablur_last_run_describe (&p, GB_OK, &r);
  p.backend = GB_BACKEND_AUTO;
  gchar *b = cudablur_last_run_describe (&p, GB_OK, &r);
  TU_CHECK (strcmp (a, b), "Automatic and CUDA read alike without a GPU");
  g_free (a);
  g_free (b);

  r = report (GB_BACKEND_CPU, GB_ERR_CUDA_NOT_BUILT);
  p.backend = GB_BACKEND_CUDA;
  expect_text (&p, GB_OK, &r, "CPU instead of the GPU: built without CUDA",
               "cuda, no CUDA build");
  r = report (GB_BACKEND_CPU, GB_ERR_CUDA_LAUNCH);
  expect_text (&p, GB_OK, &r,
               "CPU instead of the GPU: the GPU failed (a CUDA kernel failed)",
               "cuda, a kernel failed");
  r = report (GB_BACKEND_CPU, GB_ERR_CUDA_DISABLED);
  p.backend = GB_BACKEND_AUTO;
  expect_text (&p, GB_OK, &r, "CPU: GPU disabled after repeated failures",
               "auto, GPU disabled");
  /* The operation left the GPU out while CUDA was starting. */
  r = report (GB_BACKEND_CPU, CUDABLUR_GPU_STARTING);
  expect_text (&p, GB_OK, &r, "CPU: the GPU was still starting",
               "auto, CUDA starting");
  p.backend = GB_BACKEND_CUDA;
  expect_text (&p, GB_OK, &r,
               "CPU instead of the GPU: the GPU was still starting",
               "cuda, CUDA starting");
  p.backend = GB_BACKEND_AUTO;
  /* The whole area fitted the host but not the GPU (gegl/bounded.c). */
  r = report (GB_BACKEND_CPU, CUDABLUR_GPU_SHORT);
  expect_text (&p, GB_OK, &r,
               "CPU: the image needs more memory than the GPU has free",
               "auto, the GPU short of memory");
  r = report (GB_BACKEND_CPU, GB_OK);
  gchar *small = g_strdup_printf ("CPU: images under %d x %d pixels are "
                                  "faster there", GB_GPU_MIN_SIDE,
                                  GB_GPU_MIN_SIDE);
  expect_text (&p, GB_OK, &r, small, "auto, a small image");
  g_free (small);
  expect_text (&p, GB_ERR_NO_MEMORY, &r, "Not blurred: out of memory",
               "a failure");

  /* The GPU by the name CUDA gives it. */
  char name[200] = "";
  gb_cuda_info (name, sizeof name);
  gchar *gpu = g_strdup_printf ("GPU (%s)", name);
  r = report (GB_BACKEND_CUDA, GB_OK);
  expect_text (&p, GB_OK, &r, gpu, "the GPU");
  g_free (gpu);
}

/* ----------------------------------------------------- announcements */

static gint notified;
static gchar *last_seen;

static void
on_notify (GObject *node, GParamSpec *pspec, gpointer user)
{
  (void) user;
  notified++;
  g_free (last_seen);
  last_seen = NULL;
  gegl_node_get (GEGL_NODE (node), pspec->name, &last_seen, NULL);
}

static void
run_main_loop (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* One engine call noted on the stand-in's operation. */
static void
note (GeglNode *node, gb_backend asked, gb_report r, gdouble pixels)
{
  gb_params p;
  gb_params_init (&p);
  p.backend = asked;
  cudablur_last_run_note (gegl_node_get_gegl_operation (node), &p, GB_OK, &r,
                          pixels);
}

static void
check_announcements (void)
{
  GeglNode *graph = gegl_node_new ();
  GeglNode *node = gegl_node_new_child (graph, "operation",
                                        "cudablur-test:last-run", NULL);
  g_signal_connect (node, "notify::" CUDABLUR_LAST_RUN_PROPERTY,
                    G_CALLBACK (on_notify), NULL);
  const gb_report none = report (GB_BACKEND_CPU, GB_ERR_CUDA_NO_DEVICE);
  const gb_report small = report (GB_BACKEND_CPU, GB_OK);

  note (node, GB_BACKEND_AUTO, none, 1e6);
  TU_CHECK (notified == 0, "announced before the main loop ran");
  run_main_loop ();
  TU_CHECK (notified == 1 && last_seen
            && !strcmp (last_seen, "CPU: no usable CUDA device"),
            "first run: %d announcements, \"%s\"", notified,
            last_seen ? last_seen : "");

  note (node, GB_BACKEND_AUTO, none, 1e6);
  run_main_loop ();
  TU_CHECK (notified == 1, "the same text announced again");

  /* A smaller view that ran elsewhere is not the preview. */
  note (node, GB_BACKEND_AUTO, small, 1e4);
  run_main_loop ();
  TU_CHECK (notified == 1, "a smaller run replaced the preview's text");

  /* Two texts before the main loop runs: one announcement, the newer. */
  note (node, GB_BACKEND_CUDA, none, 2e6);
  note (node, GB_BACKEND_CPU, none, 2e6);
  run_main_loop ();
  TU_CHECK (notified == 2 && !strcmp (last_seen, "CPU, as chosen"),
            "two texts in a row: %d announcements, \"%s\"", notified,
            last_seen);

  /* A parameter change: the next run is the preview, however small. */
  cudablur_last_run_restart (G_OBJECT (gegl_node_get_gegl_operation (node)));
  note (node, GB_BACKEND_AUTO, small, 1e4);
  run_main_loop ();
  gchar *small_text = g_strdup_printf ("CPU: images under %d x %d pixels "
                                       "are faster there", GB_GPU_MIN_SIDE,
                                       GB_GPU_MIN_SIDE);
  TU_CHECK (notified == 3 && !strcmp (last_seen, small_text),
            "after a change: %d announcements, \"%s\"", notified, last_seen);
  g_free (small_text);

  /* What GIMP writes back (settings loaded) reads back, and a run with
   * that text announces nothing. */
  gegl_node_set (node, CUDABLUR_LAST_RUN_PROPERTY, "CPU, as chosen", NULL);
  run_main_loop ();
  const gint before = notified;
  gchar *text = NULL;
  gegl_node_get (node, CUDABLUR_LAST_RUN_PROPERTY, &text, NULL);
  TU_CHECK (text && !strcmp (text, "CPU, as chosen"), "written \"%s\"",
            text);
  g_free (text);
  notified = before;
  note (node, GB_BACKEND_CPU, none, 1e7);
  run_main_loop ();
  TU_CHECK (notified == before, "a run with the written text announced it");

  /* An announcement pending when the operation goes is dropped. */
  note (node, GB_BACKEND_CUDA, none, 1e8);
  g_object_unref (graph);
  run_main_loop ();
  g_free (last_seen);
  last_seen = NULL;
}

/* ------------------------------------------------- the real operation */

static void
check_operation (void)
{
  gu_graph g;
  gu_graph_new (&g, 96, 64, "device", GB_BACKEND_CUDA, "std-dev-x", 3.0,
                NULL);
  notified = 0;
  g_signal_connect (g.blur, "notify::" CUDABLUR_LAST_RUN_PROPERTY,
                    G_CALLBACK (on_notify), NULL);
  gegl_node_process (g.sink);
  run_main_loop ();
  /* What the engine says of a CUDA run of this size here. */
  gb_params p;
  gb_params_init (&p);
  p.backend = GB_BACKEND_CUDA;
  char name[200] = "";
  const int gpu = gb_cuda_info (name, sizeof name);
  gchar *want = gpu ? g_strdup_printf ("GPU (%s)", name) : NULL;
  const gchar *cpu = "CPU instead of the GPU: ";
  TU_CHECK (notified == 1 && last_seen
            && (gpu ? !strcmp (last_seen, want)
                    : g_str_has_prefix (last_seen, cpu)),
            "the operation: %d announcements, \"%s\"", notified,
            last_seen ? last_seen : "");
  g_free (want);
  /* The same blur again (GIMP redraws when its settings change): nothing
   * more is announced. */
  g_clear_object (&g.out);
  gegl_node_process (g.sink);
  run_main_loop ();
  TU_CHECK (notified == 1, "the same blur announced %d times", notified);
  printf ("the operation, device cuda: \"%s\"\n", last_seen ? last_seen : "");
  gu_graph_free (&g);
  g_free (last_seen);
  last_seen = NULL;
}

int
main (int argc, char **argv)
{
  /* English, and the build's module alone. */
  g_setenv ("LC_ALL", "C", TRUE);
  g_setenv ("LANGUAGE", "C", TRUE);
  setlocale (LC_ALL, "");
  /* The build's module as the user's copy, which wins over any other. */
  gchar *home = g_dir_make_tmp ("cudablur-test-last-run-XXXXXX", NULL);
  gchar *dir = g_build_filename (home, "gegl-0.4", "plug-ins", NULL);
  gchar *so = g_build_filename (dir, "cudablur.so", NULL);
  g_mkdir_with_parents (dir, 0700);
  TU_CHECK (symlink (GEGL_MODULE_DIR "/cudablur.so", so) == 0,
            "cannot link the module into %s", dir);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  gegl_init (&argc, &argv);
  g_type_class_unref (g_type_class_ref (stand_in_get_type ()));
  check_texts ();
  check_announcements ();
  if (gegl_has_operation (CUDABLUR_OP_NAME))
    check_operation ();
  else
    TU_CHECK (FALSE, "%s not found in %s", CUDABLUR_OP_NAME, GEGL_MODULE_DIR);
  gegl_exit ();
  g_unlink (so);
  g_rmdir (dir);
  gchar *gegl_dir = g_path_get_dirname (dir);
  g_rmdir (gegl_dir);
  g_rmdir (home);
  g_free (gegl_dir);
  g_free (so);
  g_free (dir);
  g_free (home);
  return tu_finish ("test_last_run");
}
