/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudablur:gaussian-blur as a guest in GIMP's process, in real GEGL, on a
 * real photograph (coffee):
 *   - computed as asked and in blocks (CUDABLUR_PLAN, a small call
 *     budget, CUDABLUR_CALL_SECONDS), a region of the output equals the
 *     engine's blur of the whole image
 *     within float rounding, for every algorithm (the two that depend on
 *     where lines are split as the exact filters they approximate), in
 *     the middle and at the edges, for every edge mode: the reach leaves
 *     out less than float precision of the weight, and the border is
 *     where the image ends;
 *   - a view at full resolution and one at a mipmap level compute the
 *     blocks they touch and no more, each within its budget, and requests
 *     as asked compute each chunk with its reach (the process() log,
 *     CUDABLUR_OP_LOG);
 *   - a blur that cannot be done (GB_HOST_FAULT=alloc) leaves the image
 *     as it was, logs one message in GEGL's domain (which GIMP shows) and
 *     counts the failure where plug-in-cudablur reads it. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gegl.h>

#include "format.h"
#include "gblur.h"
#include "gegl_util.h"
#include "native_util.h"
#include "op.h"
#include "region.h"
#include "report.h"
#include "testutil.h"

#define OP CUDABLUR_OP_NAME

static GeglBuffer *photo;   /* coffee, R'G'B' u8 */
static GeglBuffer *large;   /* coffee at 1.5 times its size, RGB float */

/* The photograph scaled to w x h in `format`. */
static GeglBuffer *
scaled_photo (gint w, gint h, const Babl *format)
{
  GeglBuffer *out = gegl_buffer_new (GEGL_RECTANGLE (0, 0, w, h), format);
  GeglNode *g = gegl_node_new ();
  GeglNode *src = gegl_node_new_child (g, "operation", "gegl:buffer-source",
                                       "buffer", photo, NULL);
  GeglNode *scale = gegl_node_new_child (g, "operation", "gegl:scale-size",
                                         "x", (gdouble) w, "y", (gdouble) h,
                                         NULL);
  GeglNode *sink = gegl_node_new_child (g, "operation", "gegl:write-buffer",
                                        "buffer", out, NULL);
  gegl_node_link_many (src, scale, sink, NULL);
  gegl_node_process (sink);
  g_object_unref (g);
  return out;
}

/* The operation's output over roi at scale, read as `format` (poisoned
 * first). */
static guchar *
render (GeglBuffer *input, const Babl *format, const GeglRectangle *roi,
        gdouble scale, gint algorithm, gdouble sigma, gint edge_mode)
{
  GeglNode *g = gegl_node_new ();
  GeglNode *src = gegl_node_new_child (g, "operation", "gegl:buffer-source",
                                       "buffer", input, NULL);
  GeglNode *blur = gegl_node_new_child (g, "operation", OP, "algorithm",
                                        algorithm, "std-dev-x", sigma,
                                        "std-dev-y", sigma, "device",
                                        GB_BACKEND_CPU, "edge-mode", edge_mode,
                                        NULL);
  gegl_node_link (src, blur);
  const gsize n = babl_format_get_bytes_per_pixel (format)
                  * (gsize) roi->width * roi->height;
  guchar *out = g_malloc (n);
  for (gsize i = 0; i < n / 4; i++)
    ((gfloat *) out)[i] = NAN;
  gegl_node_blit (blur, scale, roi, format, out, GEGL_AUTO_ROWSTRIDE,
                  GEGL_BLIT_DEFAULT);
  g_object_unref (g);
  return out;
}

/* The engine's blur of the whole input (as the operation reads it, in
 * `format`, a float format the engine takes as it is). */
static gfloat *
engine_whole (GeglBuffer *input, const Babl *format, gint algorithm,
              gdouble sigma, gint edge_mode)
{
  const GeglRectangle *e = gegl_buffer_get_extent (input);
  const Babl *io;
  gb_pixel_format pf;
  cudablur_io_format_for (format, 0, 0, &pf, &io);
  TU_CHECK (io == format, "%s is not read as it is",
            babl_get_name (format));
  const gsize n = (gsize) e->width * e->height * pf.channels;
  gfloat *in = g_new (gfloat, n), *out = g_new (gfloat, n);
  gegl_buffer_get (input, e, 1.0, format, in, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  gb_params p;
  gb_params_init (&p);
  p.algorithm = algorithm;
  p.sigma_x = p.sigma_y = sigma;
  p.backend = GB_BACKEND_CPU;
  p.border = edge_mode;
  tu_sink sink;
  gb_native_io nio;
  tu_sink_init (&sink, &nio, &pf, (guchar *) in, e->width, e->height, 0, 0,
                e->width, e->height, (guchar *) out);
  const gb_status st = gb_blur_native (&p, &nio, NULL, NULL, NULL);
  TU_CHECK (st == GB_OK, "engine: %s", gb_status_message (st));
  g_free (in);
  return out;
}

/* What a region computed in blocks is compared with: the algorithm the
 * operation runs for it there. */
static gint
region_algorithm (gint algorithm)
{
  return algorithm == GB_ALGO_YVV_TWO_WAY ? GB_ALGO_YVV
         : algorithm == GB_ALGO_EDGE_PARTITIONED ? GB_ALGO_EDGE_EXACT
                                                 : algorithm;
}

/* Regions of the output, computed in blocks, against the engine's blur
 * of the whole image. */
static void
check_regions (gint algorithm, gdouble sigma, gint edge_mode)
{
  GeglBuffer *input = large;
  const GeglRectangle *e = gegl_buffer_get_extent (input);
  /* The pixels as the operation reads them (with alpha for the edge mode
   * "none"). */
  const Babl *f;
  gb_pixel_format pf;
  cudablur_io_format_for (babl_format ("RGB float"), 0,
                          edge_mode == GB_BORDER_NONE, &pf, &f);
  const gint c = babl_format_get_n_components (f);
  /* A small image is computed whole, a larger one in regions. */
  gb_params p;
  gb_params_init (&p);
  p.algorithm = algorithm;
  p.sigma_x = p.sigma_y = sigma;
  const gboolean blocks = cudablur_block_side (&p, c, e) != CUDABLUR_WHOLE;
  gfloat *want = engine_whole (input, f, blocks ? region_algorithm (algorithm)
                                                : algorithm, sigma,
                               edge_mode);
  const GeglRectangle parts[] = {
    { 401, 243, 97, 61 },                        /* the middle */
    { 0, 0, 80, 50 },                            /* a corner */
    { e->width - 70, 300, 70, 90 },              /* the right edge */
    { 500, e->height - 1, 120, 1 },              /* the last row */
  };
  /* Each region as GIMP's requests get it and in blocks. */
  static const char *const plans[] = { NULL, "requests", "blocks" };
  for (gsize k = 0; k < G_N_ELEMENTS (plans); k++)
    {
      if (!blocks && plans[k])
        continue;
      if (plans[k])
        g_setenv ("CUDABLUR_PLAN", plans[k], TRUE);
      for (gsize i = 0; i < G_N_ELEMENTS (parts); i++)
        {
          const GeglRectangle *r = &parts[i];
          gfloat *got = (gfloat *) render (input, f, r, 1.0, algorithm, sigma,
                                           edge_mode);
          gdouble worst = 0.0;
          for (gint y = 0; y < r->height; y++)
            for (gint k2 = 0; k2 < r->width * c; k2++)
              {
                const gfloat a = got[(gsize) y * r->width * c + k2];
                const gfloat b = want[((gsize) (r->y + y) * e->width + r->x)
                                      * c + k2];
                worst = MAX (worst, isfinite (a) ? fabs (a - b) : INFINITY);
              }
          const char *how = plans[k] ? plans[k] : blocks ? "default" : "whole";
          TU_CHECK (worst <= 1e-6, "%s sigma %g, edge mode %d, %s: region "
                    "%dx%d at %d,%d differs from the engine's whole image by "
                    "%g", gb_algorithm_get (algorithm)->name, sigma,
                    edge_mode, how, r->width, r->height, r->x, r->y, worst);
          printf ("%-8s %-22s sigma %4.1f edge %d: region %3dx%-3d at "
                  "%4d,%3d: largest difference from the whole %g\n", how,
                  gb_algorithm_get (algorithm)->name, sigma, edge_mode,
                  r->width, r->height, r->x, r->y, worst);
          g_free (got);
        }
      g_unsetenv ("CUDABLUR_PLAN");
    }
  g_free (want);
}

/* ---- the log ------------------------------------------------------------ */

static const gchar *log_path;
static goffset log_read;

typedef struct
{
  gint calls;
  gdouble pixels, largest;   /* computed, with the reach */
  GeglRectangle covered;     /* the union of the rectangles asked for */
} log_summary;

/* The process() calls logged since the last summary. */
static log_summary
summarise_log (void)
{
  log_summary s = { 0, 0, 0, { 0, 0, 0, 0 } };
  FILE *f = fopen (log_path, "r");
  if (!f)
    return s;
  fseek (f, (long) log_read, SEEK_SET);
  char line[512];
  while (fgets (line, sizeof line, f))
    {
      int level, x, y, w, h;
      double pixels;
      if (sscanf (line, "process t=%*f dt=%*f thread=%*d level=%d x=%d y=%d "
                  "w=%d h=%d mode=%*s side=%*d reach=%*d blocks=%*d "
                  "cached=%*d pixels=%lf",
                  &level, &x, &y, &w, &h, &pixels) != 6)
        continue;
      GeglRectangle r = { x, y, w, h };
      gegl_rectangle_bounding_box (&s.covered, &s.covered, &r);
      s.calls++;
      s.pixels += pixels;
      s.largest = MAX (s.largest, (gdouble) pixels);
    }
  log_read = ftell (f);
  fclose (f);
  return s;
}

/* The blit of `view` (at scale) in chunks of GIMP's shape: squares of
 * 256 pixels on a grid from the origin. */
static void
blit_chunks (GeglNode *node, gdouble scale, const GeglRectangle *view)
{
  guchar *pixels = g_malloc ((gsize) 256 * 256 * 4);
  for (gint y = view->y; y < view->y + view->height; y += 256)
    for (gint x = view->x; x < view->x + view->width; x += 256)
      {
        GeglRectangle chunk = { x, y, MIN (256, view->x + view->width - x),
                                MIN (256, view->y + view->height - y) };
        gegl_node_blit (node, scale, &chunk, babl_format ("R'G'B'A u8"),
                        pixels, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
      }
  g_free (pixels);
}

/* A view of a large layer at full resolution and at a fit zoom, in
 * GIMP's chunks: the operation computes the blocks the view touches,
 * each once, one block a call; a request across blocks computed before
 * and a new one computes the new one only. */
static void
check_views (void)
{
  GeglRectangle big = { 0, 0, 3000, 2000 };
  GeglBuffer *layer = scaled_photo (3000, 2000, babl_format ("R'G'B' u8"));
  g_setenv ("CUDABLUR_CALL_SECONDS", "0.01", TRUE);
  g_setenv ("CUDABLUR_PLAN", "blocks", TRUE);
  gb_params p;
  gb_params_init (&p);
  p.algorithm = GB_ALGO_DERICHE;
  p.sigma_x = p.sigma_y = 10.0;
  const gint side = cudablur_block_side (&p, 3, &big);
  struct { gdouble scale; GeglRectangle view; } views[] = {
    { 1.0, { 768, 768, 768, 512 } },    /* 100 %: part of the layer */
    { 0.25, { 0, 0, 750, 500 } },       /* fit: the whole layer */
  };
  for (gsize v = 0; v < G_N_ELEMENTS (views); v++)
    {
      GeglNode *g = gegl_node_new ();
      GeglNode *src = gegl_node_new_child (g, "operation",
                                           "gegl:buffer-source", "buffer",
                                           layer, NULL);
      GeglNode *blur = gegl_node_new_child (g, "operation", OP, "algorithm",
                                            GB_ALGO_DERICHE, "std-dev-x", 10.0,
                                            "std-dev-y", 10.0, "device",
                                            GB_BACKEND_CPU, NULL);
      gegl_node_link (src, blur);
      const GeglRectangle *view = &views[v].view;
      summarise_log ();
      blit_chunks (blur, views[v].scale, view);
      const log_summary s = summarise_log ();
      /* The blocks the view touches, each with its reach, at the level. */
      const gint level = v ? 2 : 0;
      gb_params at = p;
      at.sigma_x = at.sigma_y = 10.0 / (1 << level);
      const gint reach = cudablur_reach (&at, 0, GB_BACKEND_CPU);
      const GeglRectangle full = { (gint) (view->x / views[v].scale),
                                   (gint) (view->y / views[v].scale),
                                   (gint) (view->width / views[v].scale),
                                   (gint) (view->height / views[v].scale) };
      const gint n_blocks = ((full.x + full.width - 1) / side - full.x / side
                             + 1)
                            * ((full.y + full.height - 1) / side
                               - full.y / side + 1);
      /* At full resolution a block with its reach; at a mipmap level the
       * new blocks of a chunk together (a chunk of 256 pixels grown to the
       * blocks' grid), with the reach. */
      const gint unit = level ? 256 + (side >> level) : side;
      const gdouble block = (gdouble) (unit + 2 * reach) * (unit + 2 * reach);
      const gdouble image = (gdouble) (big.width >> level)
                            * (big.height >> level);
      printf ("view of %dx%d at scale %g: blocks of %d with a reach of %d; "
              "%d calls computed %.0f pixels (%.2f of the image at that "
              "level; %d blocks touched), the largest call %.0f (a block: "
              "%.0f)\n", view->width, view->height, views[v].scale,
              side >> level, reach, s.calls, s.pixels, s.pixels / image,
              n_blocks, s.largest, block);
      TU_CHECK (side > 0 && s.calls >= 1 && s.calls <= n_blocks,
                "the view was computed in %d call(s), blocks of %d", s.calls,
                side);
      TU_CHECK (s.largest <= block, "one call computed %.0f pixels, more "
                "than a block with its reach (%.0f)", s.largest, block);
      TU_CHECK (level || s.pixels <= n_blocks * block, "the view computed "
                "%.0f pixels, more than the %d blocks it touches", s.pixels,
                n_blocks);
      TU_CHECK (!level || s.pixels <= 2.0 * image, "the view at level %d "
                "computed %.0f pixels, %.2f of the image there", level,
                s.pixels, s.pixels / image);
      /* Less than the image where the blocks it touches are (blocks grow
       * with the cores the cost model counts). */
      TU_CHECK (v || (gdouble) n_blocks * side * side > 0.5 * image
                || s.pixels < 0.6 * image, "a view at 100 %% computed "
                "%.0f pixels, %.2f of the image", s.pixels, s.pixels / image);
      if (v == 0)
        {
          /* One request across the blocks computed and the next ones to
           * the right: only those are computed. */
          GeglRectangle wider = { view->x, view->y, view->width + side,
                                  view->height };
          guchar *pixels = g_malloc ((gsize) wider.width * wider.height * 4);
          gegl_node_blit (blur, 1.0, &wider, babl_format ("R'G'B'A u8"),
                          pixels, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
          g_free (pixels);
          const log_summary w = summarise_log ();
          printf ("a request across them and beyond: %d call, %.0f pixels "
                  "computed\n", w.calls, w.pixels);
          TU_CHECK (w.calls == 1 && w.pixels > 0
                    && w.pixels <= ((full.y + full.height - 1) / side
                                    - full.y / side + 1) * block,
                    "a request across computed blocks computed %.0f pixels "
                    "in %d calls: more than the new blocks", w.pixels,
                    w.calls);
        }
      g_object_unref (g);
    }
  /* GIMP's requests as asked: each call its chunk with the reach. */
  g_setenv ("CUDABLUR_PLAN", "requests", TRUE);
  GeglNode *g = gegl_node_new ();
  GeglNode *src = gegl_node_new_child (g, "operation", "gegl:buffer-source",
                                       "buffer", layer, NULL);
  GeglNode *blur = gegl_node_new_child (g, "operation", OP, "algorithm",
                                        GB_ALGO_DERICHE, "std-dev-x", 10.0,
                                        "std-dev-y", 10.0, "device",
                                        GB_BACKEND_CPU, NULL);
  gegl_node_link (src, blur);
  const GeglRectangle view = { 768, 768, 768, 512 };
  summarise_log ();
  blit_chunks (blur, 1.0, &view);
  const log_summary s = summarise_log ();
  const gint reach = cudablur_reach (&p, 0, GB_BACKEND_CPU);
  const gdouble chunk = (256.0 + 2 * reach) * (256.0 + 2 * reach);
  printf ("requests: %d calls for %d chunks computed %.0f pixels, the largest "
          "call %.0f (a chunk with its reach: %.0f)\n", s.calls, 6, s.pixels,
          s.largest, chunk);
  TU_CHECK (s.calls == 6 && s.largest <= chunk && s.pixels <= 6 * chunk,
            "requests as asked: %d calls, %.0f pixels, the largest %.0f",
            s.calls, s.pixels, s.largest);
  g_object_unref (g);
  g_unsetenv ("CUDABLUR_PLAN");
  g_unsetenv ("CUDABLUR_CALL_SECONDS");
  g_object_unref (layer);
}

/* ---- failures ----------------------------------------------------------- */

static gint messages;
static gchar *last_message;

static void
on_gegl_message (const gchar *domain, GLogLevelFlags level,
                 const gchar *message, gpointer user)
{
  (void) domain;
  (void) level;
  (void) user;
  messages++;
  g_free (last_message);
  last_message = g_strdup (message);
}

static void
check_failure (void)
{
  const Babl *f = babl_format ("RGB float");
  GeglBuffer *input = gegl_buffer_new (gegl_buffer_get_extent (photo), f);
  gegl_buffer_copy (photo, NULL, GEGL_ABYSS_NONE, input, NULL);
  const GeglRectangle *e = gegl_buffer_get_extent (input);
  const gsize n = (gsize) e->width * e->height * 3;
  gfloat *original = g_new (gfloat, n);
  gegl_buffer_get (input, e, 1.0, f, original, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  const guint handler = g_log_set_handler ("GEGL", G_LOG_LEVEL_MESSAGE,
                                           on_gegl_message, NULL);
  const long pid = (long) getpid ();
  const guint failed_before = cudablur_failures_read (pid, NULL);
  g_setenv ("GB_HOST_FAULT", "alloc", TRUE);
  /* In blocks, so that one render fails several times. */
  g_setenv ("CUDABLUR_CALL_SECONDS", "0.0001", TRUE);
  g_setenv ("CUDABLUR_PLAN", "blocks", TRUE);
  messages = 0;
  gfloat *got = (gfloat *) render (input, f, e, 1.0, GB_ALGO_DERICHE, 6.0,
                                   GB_BORDER_CLAMP);
  gb_status last = GB_OK;
  const guint failed = cudablur_failures_read (pid, &last) - failed_before;
  gdouble worst = 0.0;
  for (gsize i = 0; i < n; i++)
    worst = MAX (worst, isfinite (got[i]) ? fabs (got[i] - original[i])
                                          : INFINITY);
  TU_CHECK (worst == 0.0, "a failed blur changed the image by %g", worst);
  TU_CHECK (failed >= 1 && last == GB_ERR_NO_MEMORY,
            "the failure was not counted (%u, last status %d)", failed,
            (int) last);
  TU_CHECK (messages == 1 && last_message
            && strstr (last_message, gb_status_message (GB_ERR_NO_MEMORY)),
            "%d messages in GEGL's domain, the last: %s", messages,
            last_message ? last_message : "(none)");
  printf ("failure: image unchanged, %u failures counted, %d message: %s\n",
          failed, messages, last_message ? last_message : "(none)");
  g_free (got);
  /* Memory again: the same values blur. */
  g_unsetenv ("GB_HOST_FAULT");
  got = (gfloat *) render (input, f, e, 1.0, GB_ALGO_DERICHE, 6.0,
                           GB_BORDER_CLAMP);
  worst = 0.0;
  for (gsize i = 0; i < n; i++)
    worst = MAX (worst, fabs (got[i] - original[i]));
  TU_CHECK (worst > 0.05 && cudablur_failures_read (pid, NULL)
                            == failed_before + failed,
            "without the fault the image did not blur (%g) or failed", worst);
  g_unsetenv ("CUDABLUR_CALL_SECONDS");
  g_unsetenv ("CUDABLUR_PLAN");
  g_log_remove_handler ("GEGL", handler);
  g_free (got);
  g_free (original);
  g_object_unref (input);
}

int
main (int argc, char **argv)
{
  gchar *users = gu_module_as_users ();
  gchar *log_file = g_build_filename (g_get_tmp_dir (), "cudablur-test-guest-"
                                      "XXXXXX", NULL);
  const int fd = g_mkstemp (log_file);
  if (fd >= 0)
    close (fd);
  log_path = log_file;
  g_setenv ("CUDABLUR_OP_LOG", log_path, TRUE);
  gegl_init (&argc, &argv);
  g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);
  if (!gegl_has_operation (OP))
    {
      fprintf (stderr, "FAIL: %s not found in %s\n", OP, GEGL_MODULE_DIR);
      gu_module_remove (users);
      return 1;
    }
  photo = gu_photo (TEST_DATA_DIR "/coffee.ppm");
  if (!photo)
    {
      fprintf (stderr, "FAIL: coffee.ppm did not load through GEGL\n");
      return 1;
    }

  /* Blocks of 256 pixels or more with their reach (a small image or a
   * large reach: the whole image). */
  large = scaled_photo (900, 600, babl_format ("RGB float"));
  g_setenv ("CUDABLUR_CALL_SECONDS", "0.0001", TRUE);
  const gdouble sigmas[] = { 2.0, 12.0 };
  for (gint a = 0; a < GB_ALGO_COUNT; a++)
    for (gsize s = 0; s < G_N_ELEMENTS (sigmas); s++)
      check_regions (a, sigmas[s], GB_BORDER_CLAMP);
  /* A reach beyond the image's half: the whole image at once. */
  check_regions (GB_ALGO_DERICHE, 60.0, GB_BORDER_CLAMP);
  for (gint b = GB_BORDER_NONE; b < GB_BORDER_COUNT; b++)
    check_regions (GB_ALGO_DERICHE, 8.0, b);
  /* The edge-aware filters see the frame as a pixel of the image. */
  check_regions (GB_ALGO_EDGE_EXACT, 8.0, GB_BORDER_WHITE);
  g_unsetenv ("CUDABLUR_CALL_SECONDS");
  check_views ();
  check_failure ();

  g_object_unref (large);
  g_object_unref (photo);
  gegl_exit ();
  gu_module_remove (users);
  g_unlink (log_path);
  g_free (log_file);
  return tu_finish ("test_guest");
}
