/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How fast a σ change shows on GIMP 3's canvas at a fit zoom: the render
 * GIMP's display asks of a filter's graph, reproduced with GEGL alone.
 *
 *   tests/gegl/bench_preview [PHOTO [WIDTHxHEIGHT [SCALE]]]
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

#include <gegl.h>

#include "gblur.h"
#include "op.h"
#include "testutil.h"

#define ROUNDS 7

/* The photograph scaled to w x h, as an 8-bit RGB layer's buffer. */
static GeglBuffer *
layer_from (const char *photo, int w, int h)
{
  GeglBuffer *layer = gegl_buffer_new (GEGL_RECTANGLE (0, 0, w, h),
                                       babl_format ("R'G'B' u8"));
  GeglNode *g = gegl_node_new ();
  GeglNode *load = gegl_node_new_child (g, "operation", "gegl:load", "path",
                                        photo, NULL);
  GeglNode *scale = gegl_node_new_child (g, "operation", "gegl:scale-size",
                                         "x", (double) w, "y", (double) h,
                                         NULL);
  GeglNode *sink = gegl_node_new_child (g, "operation", "gegl:write-buffer",
                                        "buffer", layer, NULL);
  gegl_node_link_many (load, scale, sink, NULL);
  gegl_node_process (sink);
  g_object_unref (g);
  return layer;
}

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

int
main (int argc, char **argv)
{
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
  GeglBuffer *layer = layer_from (photo, w, h);
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
  return 0;
}
