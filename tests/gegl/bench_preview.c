/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How fast a σ change shows on GIMP 3's canvas at a fit zoom: the render
 * GIMP's display asks of a filter's graph, reproduced with GEGL alone.
 *
 *   tests/gegl/bench_preview [PHOTO [WIDTHxHEIGHT [SCALE]]]
 *
 * A second table: from opening the filter to its first preview, each in
 * a process of its own (as the first use after GIMP starts, CUDA not yet
 * started): the filter node made, then the canvas rendered as GIMP 3.0
 * renders it, at full resolution in chunks of 256x256 pixels, the visible
 * part first (a 1920x1080 view at the image's centre at 100 %); the time
 * to the first chunk shown, and to the whole view.
 *
 * The photograph (default tests/data/coffee.ppm) is scaled to the size
 * (default 6000x4000) into an R'G'B' u8 buffer, as an 8-bit RGB layer is
 * held.  With mipmap rendering on (as GIMP sets it), the filter's output
 * is blitted whole at SCALE (default 0.25: a 6000x4000 image fitted to a
 * 1500x1000 view, mipmap level 2) in R'G'B'A u8, as the display renders
 * it.  Each filter is rendered once to warm up (the layer's mipmap, CUDA's
 * start-up), then after each of 7 changes of σ around 10 and 50; prints
 * the medians and the largest, in a Markdown table, for cudablur:
 * gaussian-blur on the default device and on the CPU and for
 * gegl:gaussian-blur.  The module is found where GEGL looks (GEGL_PATH,
 * ~/.local/share/gegl-0.4/plug-ins). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include <gegl.h>

#include "gblur.h"
#include "op.h"
#include "gegl_util.h"
#include "testutil.h"

#define ROUNDS 7

/* Seconds for one render of `filter` at `scale` into `view`. */
static double
render (GeglNode *filter, double scale, const GeglRectangle *view,
        guchar *view_pixels)
{
  const double t0 = tu_now ();
  gegl_node_blit (filter, scale, view, babl_format ("R'G'B'A u8"),
                  view_pixels, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  return tu_now () - t0;
}

static void
bench (GeglBuffer *layer, const char *label, const char *operation,
       int device, double sigma, double scale)
{
  GeglNode *g = gegl_node_new ();
  GeglNode *src = gegl_node_new_child (g, "operation", "gegl:buffer-source",
                                       "buffer", layer, NULL);
  GeglNode *filter = gegl_node_new_child (g, "operation", operation, NULL);
  if (device >= 0)   /* ours: a gb_backend */
    gegl_node_set (filter, "device", device, NULL);
  gegl_node_link (src, filter);
  const GeglRectangle *box = gegl_buffer_get_extent (layer);
  const GeglRectangle view = { 0, 0, (int) (box->width * scale),
                               (int) (box->height * scale) };
  guchar *view_pixels = g_malloc ((gsize) view.width * view.height * 4);
  double t[ROUNDS];
  gegl_node_set (filter, "std-dev-x", sigma, "std-dev-y", sigma, NULL);
  const double first = render (filter, scale, &view, view_pixels);
  for (int i = 0; i < ROUNDS; i++)
    {
      /* A new value, as a slider's step gives: the cache is invalidated. */
      const double s = sigma * (1.0 + 0.01 * (i + 1));
      gegl_node_set (filter, "std-dev-x", s, "std-dev-y", s, NULL);
      t[i] = render (filter, scale, &view, view_pixels);
    }
  qsort (t, ROUNDS, sizeof t[0], tu_cmp_double);
  printf ("| %s | %.0f | %dx%d | %.3f | %.3f | %.3f |\n", label, sigma,
          view.width, view.height, first, t[ROUNDS / 2], t[ROUNDS - 1]);
  fflush (stdout);
  g_free (view_pixels);
  g_object_unref (g);
}

/* In a process of its own (--first LABEL OPERATION DEVICE PHOTO WxH):
 * the filter opened and its first preview; prints "first LABEL SECONDS
 * SECONDS" (to the first chunk, to the whole view). */
static int
first_preview (char **argv, GeglBuffer *layer)
{
  const char *label = argv[2], *operation = argv[3];
  const int device = atoi (argv[4]);
  const GeglRectangle *box = gegl_buffer_get_extent (layer);
  const GeglRectangle view = { (box->width - 1920) / 2 / 256 * 256,
                               (box->height - 1080) / 2 / 256 * 256,
                               MIN (1920, box->width), MIN (1080, box->height) };
  guchar *chunk = g_malloc ((gsize) 256 * 256 * 4);
  const double t0 = tu_now ();
  GeglNode *g = gegl_node_new ();
  GeglNode *src = gegl_node_new_child (g, "operation", "gegl:buffer-source",
                                       "buffer", layer, NULL);
  GeglNode *filter = gegl_node_new_child (g, "operation", operation, NULL);
  if (device >= 0)
    gegl_node_set (filter, "device", device, NULL);
  gegl_node_set (filter, "std-dev-x", 10.0, "std-dev-y", 10.0, NULL);
  gegl_node_link (src, filter);
  double first = 0.0;
  for (int y = view.y; y < view.y + view.height; y += 256)
    for (int x = view.x; x < view.x + view.width; x += 256)
      {
        const GeglRectangle r = { x, y, MIN (256, view.x + view.width - x),
                                  MIN (256, view.y + view.height - y) };
        gegl_node_blit (filter, 1.0, &r, babl_format ("R'G'B'A u8"), chunk,
                        GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
        if (first == 0.0)
          first = tu_now () - t0;
      }
  printf ("first %s %.3f %.3f\n", label, first, tu_now () - t0);
  g_free (chunk);
  g_object_unref (g);
  return 0;
}

/* The opening-to-first-preview table: each filter in a new process. */
static void
first_previews (const char *self, const char *photo, int w, int h)
{
  static const struct { const char *label, *operation; int device; } rows[] = {
    { "ours, default device", CUDABLUR_OP_NAME, GB_BACKEND_AUTO },
    { "ours, CPU", CUDABLUR_OP_NAME, GB_BACKEND_CPU },
    { "gegl:gaussian-blur", "gegl:gaussian-blur", -1 },
  };
  printf ("\n%dx%d R'G'B' u8 layer, a 1920x1080 view at 100 %%, sigma 10, "
          "each in a new process: seconds from opening the filter to its "
          "first preview\n\n", w, h);
  printf ("| filter | first chunk shown | whole view |\n|---|---|---|\n");
  fflush (stdout);
  for (size_t i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      gchar *size = g_strdup_printf ("%dx%d", w, h);
      gchar *device = g_strdup_printf ("%d", rows[i].device);
      gchar *argv[] = { (gchar *) self, "--first", (gchar *) rows[i].label,
                        (gchar *) rows[i].operation, device, (gchar *) photo,
                        size, NULL };
      gchar *out = NULL;
      gint status = 0;
      GError *error = NULL;
      if (g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                        NULL, &status, &error) && status == 0)
        {
          const char *line = strstr (out, "first ");
          double a = 0, b = 0;
          if (line && sscanf (line + 6 + strlen (rows[i].label), "%lf %lf",
                              &a, &b) == 2)
            printf ("| %s | %.3f | %.3f |\n", rows[i].label, a, b);
          else
            printf ("| %s | (no result) | |\n", rows[i].label);
        }
      else
        printf ("| %s | (failed: %s) | |\n", rows[i].label,
                error ? error->message : "exit status");
      fflush (stdout);
      g_clear_error (&error);
      g_free (out);
      g_free (device);
      g_free (size);
    }
}

int
main (int argc, char **argv)
{
  if (argc == 7 && !strcmp (argv[1], "--first"))
    {
      int w = 6000, h = 4000;
      if (sscanf (argv[6], "%dx%d", &w, &h) != 2)
        return 2;
      gegl_init (NULL, NULL);
      g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);
      GeglBuffer *layer = gu_layer (argv[5], w, h, babl_format ("R'G'B' u8"));
      const int st = first_preview (argv, layer);
      g_object_unref (layer);
      gegl_exit ();
      return st;
    }
  const char *photo = argc > 1 ? argv[1] : TEST_DATA_DIR "/coffee.ppm";
  int w = 6000, h = 4000;
  if (argc > 2 && sscanf (argv[2], "%dx%d", &w, &h) != 2)
    {
      fprintf (stderr, "usage: bench_preview [PHOTO [WIDTHxHEIGHT [SCALE]]]\n");
      return 2;
    }
  const double scale = argc > 3 ? atof (argv[3]) : 0.25;
  gegl_init (&argc, &argv);
  g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);
  const char *needed[] = { CUDABLUR_OP_NAME, "gegl:load", "gegl:scale-size",
                           "gegl:gaussian-blur" };
  for (size_t i = 0; i < G_N_ELEMENTS (needed); i++)
    if (!gegl_has_operation (needed[i]))
      {
        fprintf (stderr, "bench_preview: %s not found where GEGL looks for "
                 "modules (GEGL_PATH?)\n", needed[i]);
        return 1;
      }
  GeglBuffer *layer = gu_layer (photo, w, h, babl_format ("R'G'B' u8"));
  gint threads = 0;
  g_object_get (gegl_config (), "threads", &threads, NULL);
  printf ("%dx%d R'G'B' u8 layer shown at scale %g, GEGL %d threads; "
          "seconds from a σ change to the view rendered\n\n",
          w, h, scale, threads);
  printf ("| filter | σ | view | first render | median | largest |\n");
  printf ("|---|---|---|---|---|---|\n");
  const double sigmas[] = { 10.0, 50.0 };
  for (int k = 0; k < 2; k++)
    {
      bench (layer, "ours, default device", CUDABLUR_OP_NAME, GB_BACKEND_AUTO,
             sigmas[k], scale);
      bench (layer, "ours, CPU", CUDABLUR_OP_NAME, GB_BACKEND_CPU,
             sigmas[k], scale);
      bench (layer, "gegl:gaussian-blur", "gegl:gaussian-blur", -1,
             sigmas[k], scale);
    }
  g_object_unref (layer);
  gegl_exit ();
  first_previews (argv[0], photo, w, h);
  return 0;
}
