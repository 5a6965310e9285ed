/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Peak memory beside time, with GEGL alone: the graph GIMP builds for a
 * merge (the layer's buffer, the filter, an output buffer) processed once
 * for cudablur:gaussian-blur on the default device and on the CPU, and
 * for GEGL's own gegl:gaussian-blur, at each size.
 *
 *   tests/gegl/bench_memory [WxH ...]      (default 6000x4000 20000x15000
 *                                           40000x30000)
 *
 * Each measurement runs in a process of its own, so that its peak
 * resident memory (VmHWM) is its own: the layer, an R'G'B' u8 buffer
 * filled with a photograph (coffee, scaled to at most 6000x4000 and
 * repeated), is made first, then the filter runs.  Prints the seconds of
 * the run, the peak above the resident memory with the layer made, and
 * the whole peak, in a Markdown table; where there is a GPU, also how far
 * the device's free memory fell below what it was before the run (sampled
 * every 5 ms).  GEGL's tile cache holds the layer
 * and the output: GEGL_CACHE_SIZE (megabytes) bounds it as GIMP's
 * preference does, and GEGL swaps beyond.  BENCH_SIGMA sets the standard
 * deviation (default 10); BENCH_PEERS=0 leaves GEGL's blur out where it
 * takes too long (minutes at 40000x30000 on a few cores). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gegl.h>

#include "gblur.h"
#include "gegl_util.h"
#include "op.h"
#include "testutil.h"

/* The layer: the photograph scaled to at most 6000x4000, repeated over
 * w x h (scaling it to 1.2 gigapixels would take longer than the blur). */
static GeglBuffer *
layer_new (int w, int h)
{
  const Babl *rgb8 = babl_format ("R'G'B' u8");
  const int bw = w < 6000 ? w : 6000, bh = h < 4000 ? h : 4000;
  GeglBuffer *base = gu_layer (TEST_DATA_DIR "/coffee.ppm", bw, bh, rgb8);
  GeglBuffer *layer = gegl_buffer_new (GEGL_RECTANGLE (0, 0, w, h), rgb8);
  for (int y = 0; y < h; y += bh)
    for (int x = 0; x < w; x += bw)
      {
        const GeglRectangle to = { x, y, MIN (bw, w - x), MIN (bh, h - y) };
        const GeglRectangle from = { 0, 0, to.width, to.height };
        gegl_buffer_copy (base, &from, GEGL_ABYSS_NONE, layer, &to);
      }
  g_object_unref (base);
  return layer;
}

/* The device's free memory, sampled until told to stop: its least. */
typedef struct
{
  volatile gint stop;
  size_t least;
} gpu_sampler;

static gpointer
sample_gpu (gpointer data)
{
  gpu_sampler *s = data;
  while (!g_atomic_int_get (&s->stop))
    {
      const size_t free_bytes = gb_gpu_memory_available ();
      if (free_bytes && free_bytes < s->least)
        s->least = free_bytes;
      g_usleep (5000);
    }
  return NULL;
}

/* One measurement, in this process: prints "result seconds peak-above
 * peak gpu-peak" (MB); GLib prints debug messages on stdout too. */
static int
measure (int w, int h, const char *operation, int device, double sigma)
{
  GeglBuffer *layer = layer_new (w, h);
  GeglBuffer *out = gegl_buffer_new (gegl_buffer_get_extent (layer),
                                     gegl_buffer_get_format (layer));
  GeglNode *g = gegl_node_new ();
  GeglNode *src = gegl_node_new_child (g, "operation", "gegl:buffer-source",
                                       "buffer", layer, NULL);
  GeglNode *blur = gegl_node_new_child (g, "operation", operation,
                                        "std-dev-x", sigma, "std-dev-y",
                                        sigma, NULL);
  if (device >= 0)
    gegl_node_set (blur, "device", device, NULL);
  GeglNode *sink = gegl_node_new_child (g, "operation", "gegl:write-buffer",
                                        "buffer", out, NULL);
  gegl_node_link_many (src, blur, sink, NULL);
  char name[200];
  const size_t gpu_before = gb_cuda_info (name, sizeof name)
                            ? gb_gpu_memory_available () : 0;
  gpu_sampler sampler = { 0, gpu_before };
  GThread *thread = gpu_before ? g_thread_new ("gpu", sample_gpu, &sampler)
                               : NULL;
  const double before = gu_rss_mb ();
  gu_peak_reset ();
  const double t0 = tu_now ();
  gegl_node_process (sink);
  const double seconds = tu_now () - t0;
  const double peak = gu_peak_mb ();
  if (thread)
    {
      g_atomic_int_set (&sampler.stop, 1);
      g_thread_join (thread);
    }
  printf ("result %.2f %.0f %.0f %.0f\n", seconds, peak - before, peak,
          (gpu_before - sampler.least) / 1048576.0);
  g_object_unref (g);
  g_object_unref (out);
  g_object_unref (layer);
  return 0;
}

/* Runs one measurement in a child process; its line, or NULL. */
static gchar *
child (const char *self, int w, int h, const char *operation, int device,
       double sigma)
{
  gchar size[64], dev[16], sig[32];
  g_snprintf (size, sizeof size, "%dx%d", w, h);
  g_snprintf (dev, sizeof dev, "%d", device);
  g_ascii_dtostr (sig, sizeof sig, sigma);
  gchar *argv[] = { (gchar *) self, (gchar *) "--one", size,
                    (gchar *) operation, dev, sig, NULL };
  gchar *out = NULL;
  gint status = 0;
  GError *error = NULL;
  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                     NULL, &status, &error)
      || !g_spawn_check_wait_status (status, NULL))
    {
      fprintf (stderr, "bench_memory: %s at %s failed%s%s\n", operation,
               size, error ? ": " : "", error ? error->message : "");
      g_clear_error (&error);
      g_free (out);
      return NULL;
    }
  return out;
}

int
main (int argc, char **argv)
{
  const char *sig = g_getenv ("BENCH_SIGMA");
  const double sigma = sig ? g_ascii_strtod (sig, NULL) : 10.0;
  if (argc == 6 && !strcmp (argv[1], "--one"))
    {
      int w, h;
      if (sscanf (argv[2], "%dx%d", &w, &h) != 2 || w < 1 || h < 1)
        return 2;
      if (!gu_init (&argc, &argv, "bench_memory", "gegl:load",
                    "gegl:scale-size", "gegl:gaussian-blur", NULL))
        return 1;
      const int st = measure (w, h, argv[3], atoi (argv[4]),
                              g_ascii_strtod (argv[5], NULL));
      gegl_exit ();
      return st;
    }
  /* The children load the build's module as the user's own copy. */
  gchar *home = gu_module_as_users ();
  const char *defaults[] = { "6000x4000", "20000x15000", "40000x30000" };
  const int n = argc > 1 ? argc - 1 : 3;
  const char *const *sizes = argc > 1 ? (const char *const *) argv + 1
                                      : defaults;
  const char *peers = g_getenv ("BENCH_PEERS");
  const gboolean with_peers = !peers || strcmp (peers, "0");
  gb_params p;
  gb_params_init (&p);
  char gpu[200];
  const int have_gpu = gb_cuda_info (gpu, sizeof gpu);
  const char *cache = g_getenv ("GEGL_CACHE_SIZE");
  const char *budget = g_getenv ("CUDABLUR_MEMORY_SIZE");
  const char *gpu_budget = g_getenv ("CUDABLUR_GPU_MEMORY_SIZE");
  printf ("R'G'B' u8 layer, sigma %g, merged into an output buffer; %d CPU "
          "threads; GPU: %s; GEGL_CACHE_SIZE %s, CUDABLUR_MEMORY_SIZE %s, "
          "CUDABLUR_GPU_MEMORY_SIZE %s\n\n", sigma, gb_cpu_threads (),
          have_gpu ? gpu : "none", cache ? cache : "unset",
          budget ? budget : "unset", gpu_budget ? gpu_budget : "unset");
  printf ("| image | filter | seconds | peak above the layer, MB | peak, "
          "MB |%s\n|---|---|---|---|---|%s\n",
          have_gpu ? " GPU peak, MB |" : "", have_gpu ? "---|" : "");
  fflush (stdout);
  for (int i = 0; i < n; i++)
    {
      int w, h;
      if (sscanf (sizes[i], "%dx%d", &w, &h) != 2 || w < 1 || h < 1)
        {
          fprintf (stderr, "bench_memory: %s is no WIDTHxHEIGHT\n",
                   sizes[i]);
          gu_module_remove (home);
          return 2;
        }
      struct { const char *label, *op; int device; } runs[] = {
        { have_gpu ? "ours, GPU" : "ours (no GPU: CPU)", CUDABLUR_OP_NAME,
          GB_BACKEND_AUTO },
        { "ours, CPU", CUDABLUR_OP_NAME, GB_BACKEND_CPU },
        { "gegl:gaussian-blur", "gegl:gaussian-blur", -1 },
      };
      for (size_t k = have_gpu ? 0 : 1; k < G_N_ELEMENTS (runs); k++)
        {
          if (runs[k].device < 0 && !with_peers)
            continue;
          gchar *line = child (argv[0], w, h, runs[k].op, runs[k].device,
                               sigma);
          /* The child's other lines (G_MESSAGES_DEBUG) go to stderr. */
          const char *result = line ? strstr (line, "result ") : NULL;
          if (line)
            fwrite (line, 1, result ? (size_t) (result - line)
                                    : strlen (line), stderr);
          double s = 0, above = 0, peak = 0, gpu_peak = 0;
          if (result && sscanf (result, "result %lf %lf %lf %lf", &s, &above,
                                &peak, &gpu_peak) == 4)
            {
              printf ("| %s | %s | %.2f | %.0f | %.0f |", sizes[i],
                      runs[k].label, s, above, peak);
              if (have_gpu)
                printf (" %.0f |", gpu_peak);
              printf ("\n");
            }
          else
            printf ("| %s | %s | failed | | |\n", sizes[i], runs[k].label);
          fflush (stdout);
          g_free (line);
        }
    }
  gu_module_remove (home);
  return 0;
}
