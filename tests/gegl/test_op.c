/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudablur:gaussian-blur in real GEGL, loaded from the build tree's module
 * (gegl/cudablur.so), on a real photograph (coffee) loaded by GEGL's own
 * PPM loader:
 *   - every algorithm, several input formats, edge modes and the
 *     perceptual blur space: the operation's output equals the engine's
 *     native blur of the same pixels with the same values (what the GIMP
 *     2.10 plug-in computes), and the FIR is within 60 dB of an
 *     independent double-precision convolution;
 *   - a region of the output equals that region of the whole, on a finite
 *     input and on an infinite one (where the operation computes regions
 *     with their halo);
 *   - a mipmap level (scale 0.5) equals the engine's blur of the level's
 *     pixels at half the standard deviations;
 *   - four GEGL worker threads give the same output as one;
 *   - extreme accepted values give finite output, and every pixel of a
 *     NaN-poisoned destination is written;
 *   - loading the module a second time registers nothing and breaks
 *     nothing;
 *   - the operation comes from the build's module, put where the user's
 *     own copy goes, even where a copy is installed for the system.
 * GEGL_MODULE_DIR (set by the build) holds the module. */
#define _DEFAULT_SOURCE   /* realpath, symlink */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <gegl.h>
#include <gegl-paramspecs.h>

#include "format.h"
#include "gblur.h"
#include "native_util.h"
#include "op.h"
#include "testutil.h"
#include "exact_gauss.h"
#include "gegl_util.h"

#define OP CUDABLUR_OP_NAME

static GeglBuffer *photo;   /* coffee, R'G'B' u8 */
static GeglBuffer *photo_float;   /* the same in linear RGBA float */

/* The blur of `input` (converted to `format` first) through the
 * operation, read back over `roi` at `scale` in `format`. */
static gboolean tiled_input;   /* the input repeated over the plane */

static guchar *
op_render (GeglBuffer *input, const Babl *format, const GeglRectangle *roi,
           gdouble scale, const gchar *first_property, ...)
{
  GeglNode *graph = gegl_node_new ();
  GeglNode *src = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                       "buffer", input, NULL);
  if (tiled_input)
    {
      GeglNode *tile = gegl_node_new_child (graph, "operation", "gegl:tile",
                                            NULL);
      gegl_node_link (src, tile);
      src = tile;
    }
  GeglNode *blur = gegl_node_new_child (graph, "operation", OP, NULL);
  va_list args;
  va_start (args, first_property);
  gegl_node_set_valist (blur, first_property, args);
  va_end (args);
  gegl_node_link (src, blur);
  const gsize bpp = babl_format_get_bytes_per_pixel (format);
  const gsize n = bpp * roi->width * roi->height;
  guchar *out = g_malloc (n);
  /* Poison: NaN for floats, a pattern for integers. */
  if (babl_format_get_type (format, 0) == babl_type ("float"))
    for (gsize i = 0; i < n / 4; i++)
      ((gfloat *) out)[i] = NAN;
  else
    memset (out, 0xA5, n);
  gegl_node_blit (blur, scale, roi, format, out, GEGL_AUTO_ROWSTRIDE,
                  GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  return out;
}

/* The engine's native blur of `area` pixels (w x h, in the format
 * `pf`) over the whole area: the GIMP 2.10 plug-in's path. */
static guchar *
engine_render (const guchar *area, int w, int h, const gb_pixel_format *pf,
               const gb_params *p)
{
  guchar *out = g_malloc (gb_pixel_format_bytes (pf) * w * h);
  tu_sink sink;
  gb_native_io nio;
  tu_sink_init (&sink, &nio, pf, area, w, h, 0, 0, w, h, out);
  const gb_status st = gb_blur_native (p, &nio, NULL, NULL, NULL);
  TU_CHECK (st == GB_OK, "engine reference: %s", gb_status_message (st));
  return out;
}

/* Largest difference in the format's own steps (floats: absolute). */
static double
max_diff (const gb_pixel_format *f, const guchar *a, const guchar *b,
          gsize n_samples, long *nonfinite)
{
  double worst = 0;
  *nonfinite = 0;
  for (gsize i = 0; i < n_samples; i++)
    {
      double x, y;
      switch (f->type)
        {
        case GB_SAMPLE_U8: x = a[i]; y = b[i]; break;
        case GB_SAMPLE_U16: x = ((const guint16 *) a)[i];
          y = ((const guint16 *) b)[i]; break;
        case GB_SAMPLE_HALF: x = ((const guint16 *) a)[i];
          y = ((const guint16 *) b)[i]; break;   /* bit patterns */
        default: x = ((const float *) a)[i]; y = ((const float *) b)[i];
          if (!isfinite (x))
            (*nonfinite)++;
        }
      if (fabs (x - y) > worst || (isnan (x) != isnan (y)))
        worst = isnan (x) != isnan (y) ? INFINITY : fabs (x - y);
    }
  return worst;
}

static void
params_for (gb_params *p, int algorithm, double sx, double sy)
{
  gb_params_init (p);
  p->algorithm = algorithm;
  p->sigma_x = sx;
  p->sigma_y = sy;
  p->backend = GB_BACKEND_CPU;
}

/* The operation against the engine on the whole photograph converted to
 * `format`; edge mode and blur space as given. */
static void
check_whole (const char *format_name, int algorithm, double sx, double sy,
             int edge_mode, int blur_space, double tolerance)
{
  const Babl *format = babl_format (format_name);
  GeglBuffer *input = gegl_buffer_new (gegl_buffer_get_extent (photo), format);
  gegl_buffer_copy (photo, NULL, GEGL_ABYSS_NONE, input, NULL);
  const GeglRectangle *e = gegl_buffer_get_extent (input);
  /* The pixels as the GIMP 2.10 plug-in would hand them to the engine. */
  const Babl *io;
  gb_pixel_format pf;
  cudablur_io_format_for (format, blur_space == 1,
                          edge_mode == GB_BORDER_NONE, &pf, &io);
  const gsize bpp = babl_format_get_bytes_per_pixel (io);
  guchar *area = g_malloc (bpp * e->width * e->height);
  gegl_buffer_get (input, e, 1.0, io, area, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  gb_params p;
  params_for (&p, algorithm, sx, sy);
  p.border = edge_mode;
  p.perceptual = blur_space == 1;
  guchar *want = engine_render (area, e->width, e->height, &pf, &p);
  guchar *got = op_render (input, io, e, 1.0, "algorithm", algorithm,
                           "std-dev-x", sx, "std-dev-y", sy, "device",
                           GB_BACKEND_CPU, "edge-mode", edge_mode,
                           "blur-space", blur_space, NULL);
  long nonfinite;
  const double d = max_diff (&pf, got, want,
                             (gsize) e->width * e->height * pf.channels,
                             &nonfinite);
  TU_CHECK (d <= tolerance && nonfinite == 0,
            "%s, %s, sigma %g x %g, edge %d, space %d: largest difference %g "
            "(at most %g), %ld non-finite", format_name,
            gb_algorithm_get (algorithm)->name, sx, sy, edge_mode, blur_space,
            d, tolerance, nonfinite);
  printf ("whole %-16s %-22s sigma %5.1f x %5.1f edge %d space %d: "
          "largest difference %g\n", format_name,
          gb_algorithm_get (algorithm)->name, sx, sy, edge_mode, blur_space,
          d);
  g_free (area);
  g_free (want);
  g_free (got);
  g_object_unref (input);
}

/* The FIR through the operation against a double-precision convolution
 * (replicated borders) of the linear float photograph. */
static void
check_against_exact (void)
{
  const Babl *f = babl_format ("RGBA float");
  const GeglRectangle *e = gegl_buffer_get_extent (photo);
  tu_image img;
  tu_alloc (&img, e->width, e->height, 4, 0);
  gegl_buffer_get (photo, e, 1.0, babl_format ("RaGaBaA float"), img.view.data,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  double *ref = g_new (double, (gsize) e->width * e->height * 4);
  TU_CHECK (tu_exact_gaussian (&img, 4.0, 4.0, ref), "no memory");
  float *got = (float *) op_render (photo_float,
                                    babl_format ("RaGaBaA float"), e,
                                    1.0, "algorithm", GB_ALGO_FIR,
                                    "std-dev-x", 4.0, "std-dev-y", 4.0,
                                    "device", GB_BACKEND_CPU, NULL);
  memcpy (img.view.data, got, sizeof (float) * e->width * e->height * 4);
  const double db = tu_psnr_vs (&img, ref);
  TU_CHECK (db >= 60.0, "FIR sigma 4 against the exact Gaussian: %.1f dB", db);
  printf ("FIR sigma 4 against a double-precision convolution: %.1f dB\n", db);
  (void) f;
  g_free (got);
  g_free (ref);
  tu_free (&img);
}

/* A region of the output against the same region of a larger render. */
static void
check_region (GeglBuffer *input, const char *what, int algorithm,
              double sigma, const GeglRectangle *big, const GeglRectangle *part,
              double tolerance)
{
  const Babl *f = babl_format ("RGBA float");
  float *whole = (float *) op_render (input, f, big, 1.0, "algorithm",
                                      algorithm, "std-dev-x", sigma,
                                      "std-dev-y", sigma, "device",
                                      GB_BACKEND_CPU, NULL);
  float *region = (float *) op_render (input, f, part, 1.0, "algorithm",
                                       algorithm, "std-dev-x", sigma,
                                       "std-dev-y", sigma, "device",
                                       GB_BACKEND_CPU, NULL);
  double worst = 0;
  long nonfinite = 0;
  for (int y = 0; y < part->height; y++)
    for (int x = 0; x < part->width * 4; x++)
      {
        const float a = region[(y * part->width) * 4 + x];
        const float b = whole[((y + part->y - big->y) * big->width
                               + part->x - big->x) * 4 + x];
        if (!isfinite (a))
          nonfinite++;
        worst = fmax (worst, fabs (a - b));
      }
  TU_CHECK (worst <= tolerance && nonfinite == 0,
            "%s, %s sigma %g: region %dx%d at %d,%d differs from the whole by "
            "%g (at most %g), %ld non-finite", what,
            gb_algorithm_get (algorithm)->name, sigma, part->width,
            part->height, part->x, part->y, worst, tolerance, nonfinite);
  printf ("region %s, %s sigma %g: largest difference %g\n", what,
          gb_algorithm_get (algorithm)->name, sigma, worst);
  g_free (whole);
  g_free (region);
}

/* Scale 0.5 (mipmap level 1) against the engine on the level's pixels at
 * half the standard deviations. */
static void
check_level (int algorithm, double sigma)
{
  const Babl *f = babl_format ("RaGaBaA float");
  const GeglRectangle *e = gegl_buffer_get_extent (photo);
  GeglRectangle half = { 0, 0, e->width / 2, e->height / 2 };
  tu_image in, want;
  tu_alloc (&in, half.width, half.height, 4, 0);
  tu_alloc (&want, half.width, half.height, 4, 0);
  gegl_buffer_get (photo_float, &half, 0.5, f, in.view.data,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_CLAMP);
  gb_params p;
  params_for (&p, algorithm, sigma / 2, sigma / 2);
  gb_blur (&p, &in.view, &want.view, NULL, NULL, NULL);
  float *got = (float *) op_render (photo_float, f, &half, 0.5, "algorithm",
                                    algorithm, "std-dev-x", sigma,
                                    "std-dev-y", sigma, "device",
                                    GB_BACKEND_CPU, NULL);
  double worst = 0;
  for (long i = 0; i < (long) half.width * half.height * 4; i++)
    worst = fmax (worst, isfinite (got[i]) ? fabs (got[i] - want.view.data[i])
                                           : INFINITY);
  TU_CHECK (worst <= 1e-6, "level 1, %s sigma %g: largest difference %g from "
            "the engine at sigma %g", gb_algorithm_get (algorithm)->name,
            sigma, worst, sigma / 2);
  printf ("level 1 (scale 0.5), %s sigma %g: largest difference %g\n",
          gb_algorithm_get (algorithm)->name, sigma, worst);
  g_free (got);
  tu_free (&in);
  tu_free (&want);
}

static void
check_extremes (void)
{
  const Babl *f = babl_format ("RaGaBaA float");
  const GeglRectangle *e = gegl_buffer_get_extent (photo);
  static const struct { int algorithm; double sigma, range; int iterations;
                        double kappa; } c[] = {
    { GB_ALGO_DERICHE, GB_SIGMA_MAX, 50, 2, 2 },
    { GB_ALGO_YVV, GB_SIGMA_MAX, 50, 2, 2 },
    { GB_ALGO_EDGE_EXACT, 300, 1e-300, GB_ITERATIONS_MAX, 2 },
    { GB_ALGO_EDGE_PARTITIONED, 50, GB_RANGE_SIGMA_MAX, 1, 0 },
    { GB_ALGO_EDGE_PARTITIONED, 50, 20, 3, GB_KAPPA_MAX },
    { GB_ALGO_FIR, 0.1, 50, 2, 2 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (c); i++)
    {
      float *got = (float *) op_render (photo, f, e, 1.0, "algorithm",
                                        c[i].algorithm, "std-dev-x", c[i].sigma,
                                        "std-dev-y", c[i].sigma, "range-sigma",
                                        c[i].range, "iterations",
                                        c[i].iterations, "kappa", c[i].kappa,
                                        "device", GB_BACKEND_CPU, NULL);
      long bad = 0;
      for (long k = 0; k < (long) e->width * e->height * 4; k++)
        if (!isfinite (got[k]) || got[k] < -0.01f || got[k] > 1.01f)
          bad++;
      TU_CHECK (bad == 0, "%s sigma %g range %g iterations %d kappa %g: %ld "
                "components non-finite or outside [0, 1]",
                gb_algorithm_get (c[i].algorithm)->name, c[i].sigma,
                c[i].range, c[i].iterations, c[i].kappa, bad);
      g_free (got);
    }
}

static void
check_properties (void)
{
  GeglNode *n = gegl_node_new ();
  GeglNode *op = gegl_node_new_child (n, "operation", OP, NULL);
  GeglOperation *o = NULL;
  g_object_get (op, "gegl-operation", &o, NULL);
  TU_CHECK (o != NULL, "no operation %s", OP);
  if (o)
    {
      GObjectClass *k = G_OBJECT_GET_CLASS (o);
      GParamSpec *alg = g_object_class_find_property (k, "algorithm");
      GParamSpec *range = g_object_class_find_property (k, "range-sigma");
      GParamSpec *sx = g_object_class_find_property (k, "std-dev-x");
      TU_CHECK (alg && GEGL_IS_PARAM_SPEC_ENUM (alg), "no algorithm enum");
      if (alg && GEGL_IS_PARAM_SPEC_ENUM (alg))
        {
          GEnumClass *ec = G_PARAM_SPEC_ENUM (alg)->enum_class;
          TU_CHECK ((int) ec->n_values == GB_ALGO_COUNT,
                    "%u algorithms, the registry has %d", ec->n_values,
                    GB_ALGO_COUNT);
          for (int i = 0; i < GB_ALGO_COUNT && i < (int) ec->n_values; i++)
            TU_CHECK (!strcmp (ec->values[i].value_nick,
                               gb_algorithm_get (i)->name),
                      "algorithm %d is %s", i, ec->values[i].value_nick);
        }
      const gchar *sensitive = range
        ? gegl_param_spec_get_property_key (range, "sensitive") : NULL;
      TU_CHECK (sensitive && !strcmp (sensitive, "algorithm {edge-aware, "
                                      "edge-aware-partitioned}"),
                "range-sigma sensitive: %s",
                sensitive ? sensitive : "(none)");
      TU_CHECK (sx && G_PARAM_SPEC_DOUBLE (sx)->maximum == GB_SIGMA_MAX,
                "std-dev-x maximum");
      g_object_unref (o);
    }
  g_object_unref (n);
}

/* The operation is registered by the build's module. */
static void
check_module_file (void)
{
  const gchar *file = gegl_operation_get_key (OP, "cudablur:module-file");
  char *used = file ? realpath (file, NULL) : NULL;
  char *built = realpath (GEGL_MODULE_DIR "/cudablur.so", NULL);
  TU_CHECK (used && built && !strcmp (used, built),
            "the operation comes from %s, not the build's %s",
            file ? file : "(no key)", GEGL_MODULE_DIR "/cudablur.so");
  free (used);
  free (built);
}

int
main (int argc, char **argv)
{
  gchar *users = gu_module_as_users ();
  /* The whole image in one call, as the engine computes it, whatever the
   * machine's speed (tests/gegl/test_guest checks the blocks). */
  g_setenv ("CUDABLUR_CALL_SECONDS", "1000", TRUE);
  gegl_init (&argc, &argv);
  g_object_set (gegl_config (), "mipmap-rendering", TRUE, "threads", 1, NULL);
  if (!gegl_has_operation (OP))
    {
      fprintf (stderr, "FAIL: %s not found in %s\n", OP, GEGL_MODULE_DIR);
      gu_module_remove (users);
      return 1;
    }
  check_module_file ();
  photo = gu_photo (TEST_DATA_DIR "/coffee.ppm");
  if (!photo || gegl_buffer_get_extent (photo)->width < 100)
    {
      fprintf (stderr, "FAIL: coffee.ppm did not load through GEGL\n");
      return 1;
    }
  photo_float = gegl_buffer_new (gegl_buffer_get_extent (photo),
                                 babl_format ("RGBA float"));
  gegl_buffer_copy (photo, NULL, GEGL_ABYSS_NONE, photo_float, NULL);

  check_properties ();
  for (int a = 0; a < GB_ALGO_COUNT; a++)
    check_whole ("R'G'B' u8", a, 6.0, 6.0, GB_BORDER_CLAMP, 0, 0);
  check_whole ("RGBA float", GB_ALGO_DERICHE, 12.0, 3.0, GB_BORDER_CLAMP, 0, 0);
  check_whole ("Y u16", GB_ALGO_FIR, 2.5, 2.5, GB_BORDER_CLAMP, 0, 0);
  check_whole ("Y'A u8", GB_ALGO_YVV, 9.0, 9.0, GB_BORDER_CLAMP, 0, 0);
  check_whole ("R'G'B'A half", GB_ALGO_EDGE_EXACT, 20.0, 20.0,
               GB_BORDER_CLAMP, 0, 0);
  for (int b = GB_BORDER_NONE; b < GB_BORDER_COUNT; b++)
    check_whole ("R'G'B'A u8", GB_ALGO_DERICHE, 8.0, 8.0, b, 0, 0);
  check_whole ("R'G'B' u8", GB_ALGO_FIR, 8.0, 8.0, GB_BORDER_NONE, 0, 0);
  check_whole ("R'G'B' u8", GB_ALGO_FIR, 5.0, 5.0, GB_BORDER_CLAMP, 1, 0);
  check_against_exact ();

  const GeglRectangle *e = gegl_buffer_get_extent (photo);
  GeglRectangle part = { 170, 90, 133, 77 };
  for (int a = GB_ALGO_FIR; a < GB_ALGO_COUNT; a++)
    check_region (photo, "finite input", a, 7.0, e, &part, 0);
  /* An infinite input (the photograph repeated over the plane): the
   * operation computes the regions asked for, with their halos. */
  tiled_input = TRUE;
  GeglRectangle wide = { -250, -150, 1100, 700 };
  GeglRectangle piece = { 10, 20, 250, 160 };
  check_region (photo_float, "infinite input", GB_ALGO_FIR, 5.0, &wide,
                &piece, 0);
  /* The recursive filters reach further than any halo: it leaves out
   * less than float precision of their weight. */
  check_region (photo_float, "infinite input", GB_ALGO_DERICHE, 5.0, &wide,
                &piece, 1e-6);
  check_region (photo_float, "infinite input", GB_ALGO_EDGE_EXACT, 5.0, &wide,
                &piece, 1e-6);
  tiled_input = FALSE;

  check_level (GB_ALGO_FIR, 8.0);
  check_level (GB_ALGO_DERICHE, 20.0);
  check_extremes ();

  g_object_set (gegl_config (), "threads", 4, NULL);
  check_whole ("R'G'B' u8", GB_ALGO_DERICHE, 10.0, 10.0, GB_BORDER_CLAMP, 0, 0);
  check_region (photo, "four threads", GB_ALGO_FIR, 7.0, e, &part, 0);

  /* A second copy of the module: nothing registered twice, still works. */
  gegl_load_module_directory (GEGL_MODULE_DIR);
  check_whole ("R'G'B' u8", GB_ALGO_FIR, 3.0, 3.0, GB_BORDER_CLAMP, 0, 0);

  g_object_unref (photo);
  g_object_unref (photo_float);
  gegl_exit ();
  gu_module_remove (users);
  return tu_finish ("test_op");
}
