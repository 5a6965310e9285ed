/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudablur:gaussian-blur in bands (a memory budget too small for the
 * whole area, CUDABLUR_MEMORY_SIZE) against the same operation on the
 * whole area, in real GEGL, on a real photograph (coffee, through GEGL's
 * PPM loader): every algorithm and edge mode in layer formats GIMP uses,
 * a mipmap level, and regions of an infinite input.  Byte for byte equal
 * on the CPU, outputs poisoned with different patterns; the band path
 * must have run (the operation's debug message counts its bands) with a
 * line a band.  With GB_BANDS_GPU (test_gpu_op_bands) the same on the
 * GPU, its budget (CUDABLUR_GPU_MEMORY_SIZE) forcing the bands, within a
 * quantisation step of the GPU's whole area; exits 77 without a GPU. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gegl.h>

#include "format.h"
#include "gblur.h"
#include "gegl_util.h"
#include "native_util.h"
#include "op.h"
#include "testutil.h"

#ifdef GB_BANDS_GPU
#define NAME "test_gpu_op_bands"
#define DEVICE GB_BACKEND_CUDA
#else
#define NAME "test_op_bands"
#define DEVICE GB_BACKEND_CPU
#endif

static GeglBuffer *photo;
static int bands_seen;   /* band runs the operation reported */
static int cpu_seen;     /* whole areas it moved to the CPU */
static int device = DEVICE;

static void
on_debug (const gchar *domain, GLogLevelFlags level, const gchar *message,
          gpointer user)
{
  (void) domain; (void) level; (void) user;
  int n = 0, end = 0;
  /* The whole text matched (%n), not its number alone: "WxH: ..." would
   * be read as W bands. */
  if (sscanf (message, CUDABLUR_OP_NAME ": %d bands and strips%n", &n,
              &end) == 1 && end > 0)
    bands_seen += n;
  if (g_str_has_suffix (message, ": on the CPU"))
    cpu_seen++;
}

/* The operation's output over roi at scale, in format, poisoned with
 * `poison` before.  budget: CUDABLUR_MEMORY_SIZE (or the GPU's), NULL for
 * none. */
static guchar *
render (GeglBuffer *input, gboolean tiled, const Babl *format,
        const GeglRectangle *roi, gdouble scale, const char *budget,
        guchar poison, int algorithm, int edge_mode, double sx, double sy,
        int iterations)
{
#ifdef GB_BANDS_GPU
  const char *var = "CUDABLUR_GPU_MEMORY_SIZE";
#else
  const char *var = "CUDABLUR_MEMORY_SIZE";
#endif
  if (budget)
    g_setenv (var, budget, TRUE);
  else
    g_unsetenv (var);
  GeglNode *g = gegl_node_new ();
  GeglNode *src = gegl_node_new_child (g, "operation", "gegl:buffer-source",
                                       "buffer", input, NULL);
  if (tiled)
    {
      GeglNode *tile = gegl_node_new_child (g, "operation", "gegl:tile",
                                            NULL);
      gegl_node_link (src, tile);
      src = tile;
    }
  GeglNode *blur = gegl_node_new_child (g, "operation", CUDABLUR_OP_NAME,
                                        "device", device, "algorithm",
                                        algorithm, "edge-mode", edge_mode,
                                        "std-dev-x", sx, "std-dev-y", sy,
                                        "iterations", iterations,
                                        "range-sigma", 30.0, NULL);
  gegl_node_link (src, blur);
  const gsize n = babl_format_get_bytes_per_pixel (format)
                  * (gsize) roi->width * roi->height;
  guchar *out = g_malloc (n);
  memset (out, poison, n);
  gegl_node_blit (blur, scale, roi, format, out, GEGL_AUTO_ROWSTRIDE,
                  GEGL_BLIT_DEFAULT);
  g_object_unref (g);
  g_unsetenv (var);
  return out;
}

static void
check (const char *format_name, gboolean tiled, const GeglRectangle *roi,
       gdouble scale, int algorithm, int edge_mode, double sx, double sy,
       int iterations)
{
  const Babl *format = babl_format (format_name);
  GeglBuffer *input = gegl_buffer_new (gegl_buffer_get_extent (photo),
                                       format);
  gegl_buffer_copy (photo, NULL, GEGL_ABYSS_NONE, input, NULL);
  const Babl *io;
  gb_pixel_format pf;
  cudablur_io_format_for (format, FALSE, edge_mode == GB_BORDER_NONE, &pf,
                          &io);
  bands_seen = 0;
  guchar *want = render (input, tiled, io, roi, scale, NULL, 0xA5,
                         algorithm, edge_mode, sx, sy, iterations);
  const int whole_bands = bands_seen;
  bands_seen = 0;
#ifdef GB_BANDS_GPU
  const char *budget = "0.1";   /* 100 KB: a few lines a band */
#else
  const char *budget = "0.001";   /* a kilobyte: a line a band */
#endif
  guchar *got = render (input, tiled, io, roi, scale, budget, 0x5A,
                        algorithm, edge_mode, sx, sy, iterations);
  char what[200];
  snprintf (what, sizeof what, "%s%s, %s, edge %d, sigma %g x %g, %d "
            "iterations, %dx%d+%d+%d at scale %g", format_name,
            tiled ? " tiled" : "", gb_algorithm_get (algorithm)->name,
            edge_mode, sx, sy, iterations, roi->width, roi->height, roi->x,
            roi->y, scale);
  const gsize samples = (gsize) roi->width * roi->height * pf.channels;
  TU_CHECK (whole_bands == 0, "%s: %d bands without a budget", what,
            whole_bands);
  TU_CHECK (bands_seen >= 8, "%s: %d bands with a budget of %s MB", what,
            bands_seen, budget);
#ifdef GB_BANDS_GPU
  double share = 0;
  const double steps = tu_native_diff (&pf, got, want, samples, &share);
  TU_CHECK (steps <= 1.0, "%s: %.3g steps apart", what, steps);
  printf ("%-90s %5d bands, %.2g steps\n", what, bands_seen, steps);
#else
  const int equal = !memcmp (got, want, samples / pf.channels
                                         * gb_pixel_format_bytes (&pf));
  TU_CHECK (equal, "%s: the bands differ from the whole area", what);
  printf ("%-90s %5d bands %s\n", what, bands_seen,
          equal ? "equal" : "DIFFER");
#endif
  g_free (want);
  g_free (got);
  g_object_unref (input);
}

#ifdef GB_BANDS_GPU
/* Device Automatic where the host holds the whole area and the GPU's
 * budget does not: the CPU's whole area, not the GPU's bands (1200x800:
 * above the size the CPU takes anyway). */
static void
check_auto_short (void)
{
  const GeglRectangle roi = { 0, 0, 1200, 800 };
  const Babl *u8 = babl_format ("R'G'B' u8");
  GeglBuffer *layer = gu_layer (TEST_DATA_DIR "/coffee.ppm", roi.width,
                                roi.height, u8);
  device = GB_BACKEND_CPU;
  guchar *want = render (layer, FALSE, u8, &roi, 1.0, NULL, 0xA5,
                         GB_ALGO_DERICHE, GB_BORDER_CLAMP, 9.0, 9.0, 1);
  device = GB_BACKEND_AUTO;
  bands_seen = cpu_seen = 0;
  guchar *got = render (layer, FALSE, u8, &roi, 1.0, "0.1", 0x5A,
                        GB_ALGO_DERICHE, GB_BORDER_CLAMP, 9.0, 9.0, 1);
  const int auto_bands = bands_seen, auto_cpu = cpu_seen;
  device = GB_BACKEND_CUDA;
  bands_seen = cpu_seen = 0;
  guchar *cuda = render (layer, FALSE, u8, &roi, 1.0, "0.1", 0x3C,
                         GB_ALGO_DERICHE, GB_BORDER_CLAMP, 9.0, 9.0, 1);
  device = DEVICE;
  gb_pixel_format pf;
  const Babl *io;
  cudablur_io_format_for (u8, FALSE, FALSE, &pf, &io);
  double share = 0;
  /* Device CPU may compute GIMP's requests apart, each with the reach
   * around it: within a step of the whole area. */
  const double steps = tu_native_diff (&pf, got, want,
                                       (gsize) roi.width * roi.height * 3,
                                       &share);
  TU_CHECK (auto_cpu == 1 && auto_bands == 0 && steps <= 1.0,
            "device auto, the GPU's budget short: %d whole areas on the CPU, "
            "%d bands, %.3g steps from the CPU's", auto_cpu, auto_bands,
            steps);
  TU_CHECK (cpu_seen == 0 && bands_seen >= 8, "device CUDA, the GPU's "
            "budget short: %d bands, %d whole areas on the CPU", bands_seen,
            cpu_seen);
  printf ("GPU budget short: auto ran the whole area on the CPU (%d, %d "
          "bands, %.2g steps from device CPU), CUDA %d bands\n", auto_cpu,
          auto_bands, steps, bands_seen);
  g_free (want);
  g_free (got);
  g_free (cuda);
  g_object_unref (layer);
}
#endif

int
main (int argc, char **argv)
{
  g_unsetenv ("CUDABLUR_MEMORY_SIZE");
  g_unsetenv ("CUDABLUR_GPU_MEMORY_SIZE");
  gchar *home = gu_module_as_users ();
  if (!gu_init (&argc, &argv, NAME, "gegl:ppm-load", "gegl:tile", NULL))
    {
      gu_module_remove (home);
      return 1;
    }
#ifdef GB_BANDS_GPU
  char name[200];
  if (!gb_cuda_info (name, sizeof name))
    {
      printf ("%s: skipped, no GPU (%s)\n", NAME, name);
      gegl_exit ();
      gu_module_remove (home);
      return TU_SKIP;
    }
#endif
  g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);
  g_log_set_handler ("cudablur", G_LOG_LEVEL_DEBUG, on_debug, NULL);
  photo = gu_photo (TEST_DATA_DIR "/coffee.ppm");
  if (!photo)
    {
      fprintf (stderr, "%s: coffee.ppm did not load\n", NAME);
      return 1;
    }
  const GeglRectangle *e = gegl_buffer_get_extent (photo);
  /* The layer formats GIMP uses, in turn. */
  static const char *formats[] = { "R'G'B' u8", "R'G'B'A u8", "RGBA float",
                                   "Y' u16", "R'G'B' half" };
  int k = 0;
  for (int a = 0; a < GB_ALGO_COUNT; a++)
    for (int b = 0; b < GB_BORDER_COUNT; b++, k++)
      {
        const int edge = gb_algorithm_get (a)->uses & GB_USES_ITERATIONS;
        /* The edge-aware filters are slow on the CPU: a quarter of the
         * photograph for them (half of it at scale 0.5). */
        const double scale = edge ? 0.5 : 1.0;
        const GeglRectangle roi = { 0, 0, (int) (e->width * scale),
                                    (int) (e->height * scale) };
        check (formats[k % G_N_ELEMENTS (formats)], FALSE, &roi, scale, a,
               b, 2.0 + k % 9, 11.0 - k % 7, 1 + k % 2);
      }
#ifdef GB_BANDS_GPU
  check_auto_short ();
#endif
#ifndef GB_BANDS_GPU
  /* Regions of an infinite input, computed with their halo (on the CPU
   * whatever the device: gegl/op.c). */
  const GeglRectangle region = { 150, 70, 260, 190 };
  check ("R'G'B' u8", TRUE, &region, 1.0, GB_ALGO_DERICHE, GB_BORDER_CLAMP,
         7.0, 4.0, 1);
  check ("RGBA float", TRUE, &region, 1.0, GB_ALGO_EDGE_EXACT,
         GB_BORDER_CLAMP, 3.0, 5.0, 2);
#endif
  g_object_unref (photo);
  gegl_exit ();
  gu_module_remove (home);
  return tu_finish (NAME);
}
