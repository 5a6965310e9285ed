/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers for the programs that run the operation in real GEGL
 * (gegl_util.h). */
#define _DEFAULT_SOURCE   /* symlink */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "gegl_util.h"
#include "op.h"

gchar *
gu_module_as_users (void)
{
  gchar *home = g_dir_make_tmp ("cudablur-gegl-XXXXXX", NULL);
  if (!home)
    return NULL;
  gchar *dir = g_build_filename (home, "gegl-0.4", "plug-ins", NULL);
  gchar *link = g_build_filename (dir, "cudablur.so", NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0
      || symlink (GEGL_MODULE_DIR "/cudablur.so", link) != 0)
    fprintf (stderr, "cannot link the module into %s\n", dir);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_free (link);
  g_free (dir);
  return home;
}

void
gu_module_remove (gchar *home)
{
  if (!home)
    return;
  gchar *dir = g_build_filename (home, "gegl-0.4", "plug-ins", NULL);
  gchar *link = g_build_filename (dir, "cudablur.so", NULL);
  gchar *parent = g_path_get_dirname (dir);
  g_unlink (link);
  g_rmdir (dir);
  g_rmdir (parent);
  g_rmdir (home);
  g_free (parent);
  g_free (link);
  g_free (dir);
  g_free (home);
}

gboolean
gu_init (int *argc, char ***argv, const char *program, const char *more, ...)
{
  gegl_init (argc, argv);
  gboolean ok = TRUE;
  if (!gegl_has_operation (CUDABLUR_OP_NAME))
    {
      fprintf (stderr, "%s: %s not found in %s\n", program, CUDABLUR_OP_NAME,
               GEGL_MODULE_DIR);
      ok = FALSE;
    }
  va_list ap;
  va_start (ap, more);
  for (const char *op = more; op; op = va_arg (ap, const char *))
    if (!gegl_has_operation (op))
      {
        fprintf (stderr, "%s: GEGL has no %s\n", program, op);
        ok = FALSE;
      }
  va_end (ap);
  return ok;
}

GeglBuffer *
gu_photo (const char *path)
{
  GeglBuffer *photo = NULL;
  GeglNode *g = gegl_node_new ();
  GeglNode *load = gegl_node_new_child (g, "operation", "gegl:ppm-load",
                                        "path", path, NULL);
  GeglNode *sink = gegl_node_new_child (g, "operation", "gegl:buffer-sink",
                                        "buffer", &photo, NULL);
  gegl_node_link (load, sink);
  gegl_node_process (sink);
  g_object_unref (g);
  if (photo && gegl_buffer_get_extent (photo)->width < 2)
    g_clear_object (&photo);
  return photo;
}

/* gegl:scale-size takes sizes up to 10000 pixels. */
#define SCALED_MAX_W 6000
#define SCALED_MAX_H 4000

static GeglBuffer *
scaled (const char *photo, int w, int h, const Babl *format)
{
  GeglBuffer *layer = gegl_buffer_new (GEGL_RECTANGLE (0, 0, w, h), format);
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

void
gu_graph_new (gu_graph *g, int w, int h, const gchar *first_property, ...)
{
  g->in = gegl_buffer_new (GEGL_RECTANGLE (0, 0, w, h),
                           babl_format ("RGBA float"));
  gfloat pixel[4] = { 0.2f, 0.5f, 0.8f, 1.0f };
  gegl_buffer_set_color_from_pixel (g->in, NULL, pixel,
                                    babl_format ("RGBA float"));
  g->out = NULL;
  g->graph = gegl_node_new ();
  GeglNode *src = gegl_node_new_child (g->graph, "operation",
                                       "gegl:buffer-source", "buffer", g->in,
                                       NULL);
  g->blur = gegl_node_new_child (g->graph, "operation", CUDABLUR_OP_NAME,
                                 NULL);
  va_list args;
  va_start (args, first_property);
  gegl_node_set_valist (g->blur, first_property, args);
  va_end (args);
  g->sink = gegl_node_new_child (g->graph, "operation", "gegl:buffer-sink",
                                 "buffer", &g->out, NULL);
  gegl_node_link_many (src, g->blur, g->sink, NULL);
}

void
gu_graph_free (gu_graph *g)
{
  g_clear_object (&g->out);
  g_clear_object (&g->graph);
  g_clear_object (&g->in);
}

GeglBuffer *
gu_layer (const char *photo, int w, int h, const Babl *format)
{
  if (w <= SCALED_MAX_W && h <= SCALED_MAX_H)
    return scaled (photo, w, h, format);
  const int bw = MIN (w, SCALED_MAX_W), bh = MIN (h, SCALED_MAX_H);
  GeglBuffer *base = scaled (photo, bw, bh, format);
  GeglBuffer *layer = gegl_buffer_new (GEGL_RECTANGLE (0, 0, w, h), format);
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

static double
status_mb (const char *key)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  double kb = -1;
  const size_t n = strlen (key);
  while (f && fgets (line, sizeof line, f))
    if (!strncmp (line, key, n) && line[n] == ':')
      kb = atof (line + n + 1);
  if (f)
    fclose (f);
  return kb / 1024.0;
}

double
gu_rss_mb (void)
{
  return status_mb ("VmRSS");
}

double
gu_peak_mb (void)
{
  return status_mb ("VmHWM");
}

gboolean
gu_peak_reset (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");
  if (!f)
    return FALSE;
  const gboolean wrote = fputs ("5", f) >= 0;
  return fclose (f) == 0 && wrote;
}
