/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the operation keeps once its graph is gone, with GEGL alone: the
 * graph GIMP builds for a filter (the layer's buffer, the filter, an
 * output buffer) is processed, then the graph and the output are freed,
 * as a closed filter tool, a merge or a removed non-destructive filter
 * frees them.  Resident memory must come back to within 32 MB of what it
 * was before (and must have risen meanwhile, or the check proves
 * nothing), for the whole-image path, the path in bands (a small memory
 * budget, CUDABLUR_MEMORY_SIZE) and with a second instance still alive.
 *
 *   tests/gegl/test_memory [WIDTHxHEIGHT [DEVICE]]
 *
 * The layer is a photograph (coffee) scaled to 3000x2000 by default,
 * R'G'B' u8 as GIMP holds an 8-bit RGB layer.  DEVICE is the operation's
 * device: 2, the CPU, by default; 1, the GPU (skipped without one), where
 * the device's free memory must also come back to what it was with the
 * CUDA context alone (started by a small blur first), within 2 MB, after
 * having dropped by at least half the work image meanwhile. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gegl.h>

#include "gblur.h"
#include "op.h"
#include "gegl_util.h"
#include "testutil.h"

/* MB the process may keep once a graph is gone, and of the GPU's. */
#define KEPT_MAX_MB 32.0
#define GPU_KEPT_MAX_MB 2.0

static gboolean on_gpu;   /* the device is the GPU: its memory checked */
static gboolean resident_rises;   /* even so, resident memory rises most */

/* The GPU's free memory, MB (the device's, whatever holds it). */
static double
gpu_free_mb (void)
{
  return on_gpu ? gb_gpu_memory_available () / 1048576.0 : 0.0;
}

/* The graph a filter lives in while it is shown or merged. */
typedef struct
{
  GeglNode *graph, *sink;
  GeglBuffer *output;
} filter_graph;

static void
graph_new (filter_graph *fg, GeglBuffer *layer, int device, int algorithm,
           double sigma)
{
  fg->graph = gegl_node_new ();
  fg->output = gegl_buffer_new (gegl_buffer_get_extent (layer),
                                gegl_buffer_get_format (layer));
  GeglNode *src = gegl_node_new_child (fg->graph, "operation",
                                       "gegl:buffer-source", "buffer", layer,
                                       NULL);
  GeglNode *blur = gegl_node_new_child (fg->graph, "operation",
                                        CUDABLUR_OP_NAME, "device", device,
                                        "algorithm", algorithm, "std-dev-x",
                                        sigma, "std-dev-y", sigma,
                                        "iterations", 1, NULL);
  fg->sink = gegl_node_new_child (fg->graph, "operation", "gegl:write-buffer",
                                  "buffer", fg->output, NULL);
  gegl_node_link_many (src, blur, fg->sink, NULL);
}

/* Processes the graph and checks that it blurred (the output differs
 * from the layer); returns how far (MB) resident memory rose above
 * `before` meanwhile, and how far the GPU's free memory fell below
 * `gpu_before` (the buffers stay while the graph lives). */
static double
graph_process (const char *what, filter_graph *fg, GeglBuffer *layer,
               double before, double gpu_before, double *gpu_fell)
{
  const gboolean have_peak = gu_peak_reset ();
  gegl_node_process (fg->sink);
  const double peak = have_peak ? gu_peak_mb () : gu_rss_mb ();
  if (gpu_fell)
    *gpu_fell = gpu_before - gpu_free_mb ();
  /* A blurred photograph differs from it in many places (a photograph
   * scaled up is smooth, so not everywhere). */
  const GeglRectangle *e = gegl_buffer_get_extent (layer);
  const GeglRectangle row = { 0, e->height / 2, e->width, 1 };
  guchar *a = g_malloc (3 * (gsize) e->width);
  guchar *b = g_malloc (3 * (gsize) e->width);
  gegl_buffer_get (layer, &row, 1.0, NULL, a, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  gegl_buffer_get (fg->output, &row, 1.0, NULL, b, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  long same = 0;
  for (int i = 0; i < 3 * e->width; i++)
    same += a[i] == b[i];
  TU_CHECK (same < 3 * e->width * 9 / 10, "%s: the output row is the "
            "input row in %ld of %d samples: not blurred", what, same,
            3 * e->width);
  g_free (a);
  g_free (b);
  return peak - before;
}

static void
graph_free (filter_graph *fg)
{
  g_object_unref (fg->graph);
  g_object_unref (fg->output);
}

/* One graph made, processed and freed; `rise_min` MB is how far memory
 * (the GPU's, where it runs) must have risen meanwhile for the check to
 * mean something. */
static void
one_graph_after (const char *what, GeglBuffer *layer, int device,
                 int algorithm, double sigma, double rise_min,
                 double wait_seconds)
{
  const double before = gu_rss_mb (), gpu_before = gpu_free_mb ();
  const double t0 = tu_now ();
  filter_graph fg;
  graph_new (&fg, layer, device, algorithm, sigma);
  double gpu_rose = 0;
  const double rose = graph_process (what, &fg, layer, before, gpu_before,
                                     &gpu_rose);
  graph_free (&fg);
  g_usleep ((gulong) (wait_seconds * G_USEC_PER_SEC));
  const double kept = gu_rss_mb () - before;
  const double gpu_kept = gpu_before - gpu_free_mb ();
  printf ("%-44s rose %7.1f MB, kept %6.1f MB", what, rose, kept);
  if (on_gpu)
    printf ("; GPU: rose %7.1f MB, kept %5.1f MB", gpu_rose, gpu_kept);
  printf (" (%.1f s)\n", tu_now () - t0);
  const gboolean gpu = on_gpu && !resident_rises;
  const double risen = gpu ? gpu_rose : rose;
  TU_CHECK (risen >= rise_min, "%s: %s memory rose by %.1f MB only (at "
            "least %.0f expected): the check would prove nothing", what,
            gpu ? "GPU" : "resident", risen, rise_min);
  TU_CHECK (kept <= KEPT_MAX_MB, "%s: %.1f MB kept after the graph was "
            "freed (at most %.0f)", what, kept, KEPT_MAX_MB);
  TU_CHECK (gpu_kept <= GPU_KEPT_MAX_MB, "%s: %.1f MB of the GPU's kept "
            "after the graph was freed (at most %.0f)", what, gpu_kept,
            GPU_KEPT_MAX_MB);
}

/* The give-back soon (CUDABLUR_GIVE_BACK_SECONDS=0.1), measured once it
 * is done.  Not at once: the operation is finalized before GEGL frees the
 * graph's buffers, whose tiles would stay in glibc's arenas (one a GEGL
 * thread: 65 MB kept with 16 threads) until the next give-back. */
static void
one_graph (const char *what, GeglBuffer *layer, int device, int algorithm,
           double sigma, double rise_min)
{
  one_graph_after (what, layer, device, algorithm, sigma, rise_min, 0.4);
}

int
main (int argc, char **argv)
{
  int w = 3000, h = 2000, device = GB_BACKEND_CPU;
  if ((argc > 1 && sscanf (argv[1], "%dx%d", &w, &h) != 2)
      || (argc > 2 && sscanf (argv[2], "%d", &device) != 1))
    {
      fprintf (stderr, "usage: test_memory [WIDTHxHEIGHT [DEVICE]]\n");
      return 2;
    }
  g_unsetenv ("CUDABLUR_MEMORY_SIZE");
  g_setenv ("CUDABLUR_GIVE_BACK_SECONDS", "0.1", TRUE);
  /* The whole image in one call, the plan that takes the most memory at
   * once (GIMP's canvas on the CPU asks in pieces: gegl/op.c). */
  g_setenv ("CUDABLUR_PLAN", "whole", TRUE);
  /* CUDA loads an algorithm's kernels at their first use and keeps them
   * with the context (host memory too): loaded at the start, they are the
   * context's, measured before the graphs. */
  if (device != GB_BACKEND_CPU)
    g_setenv ("CUDA_MODULE_LOADING", "EAGER", TRUE);
  gchar *home = gu_module_as_users ();
  if (!gu_init (&argc, &argv, "test_memory", "gegl:load", "gegl:scale-size",
                NULL))
    {
      gu_module_remove (home);
      return 1;
    }
  const Babl *rgb8 = babl_format ("R'G'B' u8");
  if (device != GB_BACKEND_CPU)
    {
      char name[200];
      if (!gb_cuda_info (name, sizeof name))
        {
          printf ("test_memory: skipped, no GPU (%s)\n", name);
          gegl_exit ();
          gu_module_remove (home);
          return TU_SKIP;
        }
      on_gpu = TRUE;
      /* The CUDA context alone: started by a small blur whose graph is
       * gone. */
      GeglBuffer *tiny = gu_layer (TEST_DATA_DIR "/coffee.ppm", 600, 400,
                                   rgb8);
      filter_graph fg;
      graph_new (&fg, tiny, device, GB_ALGO_AUTO, 5.0);
      graph_process ("the CUDA context", &fg, tiny, gu_rss_mb (),
                     gpu_free_mb (), NULL);
      graph_free (&fg);
      g_object_unref (tiny);
      printf ("with the CUDA context alone: resident %.1f MB, GPU free "
              "%.1f MB\n", gu_rss_mb (), gpu_free_mb ());
    }
  GeglBuffer *layer = gu_layer (TEST_DATA_DIR "/coffee.ppm", w, h, rgb8);
  /* The work image alone (RGB float) is 12 bytes a pixel. */
  const double work_mb = 12.0 * w * h / (1 << 20);
  printf ("%dx%d R'G'B' u8 layer, device %d; resident %.1f MB\n", w, h,
          device, gu_rss_mb ());

  one_graph ("whole image, auto sigma 5", layer, device, GB_ALGO_AUTO, 5.0,
             0.5 * work_mb);
  one_graph ("whole image, Deriche sigma 30", layer, device,
             GB_ALGO_DERICHE, 30.0, 0.5 * work_mb);
  /* As GIMP has it: given back a while after the graph goes (a script's
   * merges, one after another, keep what the last one took). */
  g_setenv ("CUDABLUR_GIVE_BACK_SECONDS", "0.5", TRUE);
  one_graph_after ("whole image, auto sigma 5, 2 s after", layer, device,
                   GB_ALGO_AUTO, 5.0, 0.5 * work_mb, 2.0);
  g_setenv ("CUDABLUR_GIVE_BACK_SECONDS", "0.1", TRUE);
  /* The edge-aware filter's spacings besides (slow on the CPU: a layer a
   * quarter the size). */
  GeglBuffer *quarter = gu_layer (TEST_DATA_DIR "/coffee.ppm", w / 2, h / 2,
                                  rgb8);
  one_graph ("whole image, edge-aware partitioned sigma 8", quarter, device,
             GB_ALGO_EDGE_PARTITIONED, 8.0, 0.5 * work_mb / 4);
  g_object_unref (quarter);

  /* In bands through an intermediate buffer: a budget of 8 MB (the
   * intermediate, in GEGL's tiles, is what rises, as far as GEGL's tile
   * cache goes: GEGL swaps beyond). */
  guint64 cache = 0;
  g_object_get (gegl_config (), "tile-cache-size", &cache, NULL);
  g_setenv ("CUDABLUR_MEMORY_SIZE", "8", TRUE);
  resident_rises = TRUE;
  one_graph ("bands (8 MB budget), Deriche sigma 30", layer, device,
             GB_ALGO_DERICHE, 30.0,
             0.5 * MIN (work_mb, cache / 1048576.0));
  resident_rises = FALSE;
  g_unsetenv ("CUDABLUR_MEMORY_SIZE");

  /* A second instance (a non-destructive filter on another layer) alive
   * while one is shown and closed: what the closed one took comes back
   * all the same. */
  GeglBuffer *small = gu_layer (TEST_DATA_DIR "/coffee.ppm", w / 4, h / 4,
                                rgb8);
  filter_graph kept_alive;
  graph_new (&kept_alive, small, device, GB_ALGO_AUTO, 10.0);
  graph_process ("the live instance", &kept_alive, small, gu_rss_mb (),
                 gpu_free_mb (), NULL);
  one_graph ("beside a live instance, auto sigma 20", layer, device,
             GB_ALGO_AUTO, 20.0, 0.5 * work_mb);
  graph_free (&kept_alive);
  g_object_unref (small);

  g_object_unref (layer);
  gegl_exit ();
  gu_module_remove (home);
  return tu_finish ("test_memory");
}
