/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Checks a blur GIMP saved, outside GIMP: a case of GIMP 3's batch tests
 * (tests/gimp3/tests.scm), or a package's main job (tools/test-deb.sh).
 * The input and the result are loaded with GEGL in their own formats.
 *   check_blur NAME IN OUT ALGORITHM SX SY RANGE ITERATIONS KAPPA EDGE
 *              SPACE SEL
 * The result must equal the engine's CPU blur of the input with those
 * values, within one step of the format (the path of the 2.10 plug-in,
 * where the conversions follow babl's), inside the selection SEL
 * ("x,y,w,h" or "-" for all) and equal the input outside it; for the
 * Gaussian filters on opaque linear-light blurs it must also be within
 * 40 dB PSNR of a double-precision convolution of the decoded input.  An
 * ALGORITHM of "unchanged" asks for the result to equal the input.
 * Prints one PASS or FAIL line; exits 1 on failure. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gegl.h>

#include "exact_gauss.h"
#include "format.h"
#include "gblur.h"
#include "native_util.h"
#include "testutil.h"

static GeglBuffer *
load (const char *path)
{
  GeglBuffer *buffer = NULL;
  GeglNode *g = gegl_node_new ();
  GeglNode *l = gegl_node_new_child (g, "operation", "gegl:load", "path",
                                     path, NULL);
  GeglNode *s = gegl_node_new_child (g, "operation", "gegl:buffer-sink",
                                     "buffer", &buffer, NULL);
  gegl_node_link (l, s);
  gegl_node_process (s);
  g_object_unref (g);
  return buffer;
}

/* Sample i of a native buffer as a number in the format's own steps. */
static double
sample (const gb_pixel_format *f, const guchar *p, gsize i)
{
  switch (f->type)
    {
    case GB_SAMPLE_U8: return p[i];
    case GB_SAMPLE_U16: return ((const guint16 *) p)[i];
    case GB_SAMPLE_FLOAT: return ((const float *) p)[i] * 65535.0;
    default: return NAN;
    }
}

static int
fail (const char *name, const char *what)
{
  printf ("FAIL: %s: %s\n", name, what);
  return 1;
}

int
main (int argc, char **argv)
{
  if (argc != 13)
    {
      fprintf (stderr, "usage: check_blur NAME IN OUT ALGORITHM SX SY RANGE "
               "ITERATIONS KAPPA EDGE SPACE SEL\n");
      return 2;
    }
  gegl_init (NULL, NULL);
  const char *name = argv[1];
  GeglBuffer *in = load (argv[2]), *out = load (argv[3]);
  if (!in || !out)
    return fail (name, "GIMP saved no readable input or result");
  const GeglRectangle *e = gegl_buffer_get_extent (in);
  if (!gegl_rectangle_equal (e, gegl_buffer_get_extent (out)))
    return fail (name, "the result's size differs from the input's");
  const gboolean unchanged = !strcmp (argv[4], "unchanged");
  const int edge = atoi (argv[10]), space = atoi (argv[11]);
  const Babl *native = gegl_buffer_get_format (in);
  const Babl *io;
  gb_pixel_format pf;
  cudablur_io_format_for (native, space == 1, edge == GB_BORDER_NONE, &pf,
                          &io);
  const gsize bpp = babl_format_get_bytes_per_pixel (io);
  const gsize n = (gsize) e->width * e->height;
  guchar *src = g_malloc (bpp * n), *got = g_malloc (bpp * n);
  gegl_buffer_get (in, e, 1.0, io, src, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  gegl_buffer_get (out, e, 1.0, io, got, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);

  guchar *want = src;
  gb_params p;
  gb_params_init (&p);
  if (!unchanged)
    {
      p.algorithm = atoi (argv[4]);
      p.sigma_x = atof (argv[5]);
      p.sigma_y = atof (argv[6]);
      p.range_sigma = atof (argv[7]);
      p.iterations = atoi (argv[8]);
      p.kappa = atof (argv[9]);
      p.border = edge;
      p.perceptual = space == 1;
      p.backend = GB_BACKEND_CPU;
      /* With a selection GIMP hands a filter only the selection's bounds
       * (its crop before the operation), whose edges the blur then
       * replicates, as for GIMP's own filters. */
      int bx = 0, by = 0, bw = e->width, bh = e->height;
      if (strcmp (argv[12], "-"))
        sscanf (argv[12], "%d,%d,%d,%d", &bx, &by, &bw, &bh);
      guchar *box = g_malloc (bpp * bw * bh);
      guchar *area = g_malloc (bpp * bw * bh);
      for (int y = 0; y < bh; y++)
        memcpy (area + y * bpp * bw,
                src + ((by + y) * (gsize) e->width + bx) * bpp, bpp * bw);
      tu_sink sink;
      gb_native_io nio;
      tu_sink_init (&sink, &nio, &pf, area, bw, bh, 0, 0, bw, bh, box);
      gb_status st = gb_blur_native (&p, &nio, NULL, NULL, NULL);
      if (st != GB_OK)
        return fail (name, gb_status_message (st));
      want = g_memdup2 (src, bpp * n);
      for (int y = 0; y < bh; y++)
        memcpy (want + ((by + y) * (gsize) e->width + bx) * bpp,
                box + y * bpp * bw, bpp * bw);
      g_free (area);
      g_free (box);
    }
  int sx = 0, sy = 0, sw = e->width, sh = e->height;
  if (strcmp (argv[12], "-"))
    sscanf (argv[12], "%d,%d,%d,%d", &sx, &sy, &sw, &sh);
  /* One step of the format (floats: compared in 1/65535 units, where a
   * step of babl's and the engine's conversions is far below 1). */
  const double tolerance = unchanged ? 0.0 : pf.type == GB_SAMPLE_FLOAT ? 2.0 : 1.0;
  /* A fully transparent pixel has no colour to compare (GIMP's exports
   * store it as they like). */
  const gboolean alpha = pf.channels == 2 || pf.channels == 4;
  double worst = 0, worst_outside = 0;
  int worst_x = -1, worst_y = -1;
  for (int y = 0; y < e->height; y++)
    for (int x = 0; x < e->width; x++)
      {
        const gboolean inside = x >= sx && x < sx + sw && y >= sy
                                && y < sy + sh;
        const gsize px = ((gsize) y * e->width + x) * pf.channels;
        const int colours = alpha && sample (&pf, want, px + pf.channels - 1)
                                     == 0 ? 0 : pf.channels - alpha;
        for (int c = 0; c < pf.channels; c++)
          {
            if (c < pf.channels - alpha && c >= colours)
              continue;
            const double g = sample (&pf, got, px + c);
            const double d = isfinite (g)
              ? fabs (g - sample (&pf, inside ? want : src, px + c))
              : INFINITY;
            if (inside && d > worst)
              {
                worst = d;
                worst_x = x;
                worst_y = y;
              }
            else if (!inside)
              worst_outside = fmax (worst_outside, d);
          }
      }
  char what[300];
  if (worst > tolerance || worst_outside > 0)
    {
      snprintf (what, sizeof what, "%s %s: largest difference %g steps from "
                "the expected (at most %g) at %d,%d, %g outside the "
                "selection", babl_get_name (io),
                unchanged ? "unchanged" : "blur", worst, tolerance, worst_x,
                worst_y, worst_outside);
      return fail (name, what);
    }
  /* The independent reference: a double-precision convolution. */
  double db = INFINITY;
  const gboolean gaussian = !unchanged && edge == GB_BORDER_CLAMP
    && space == 0 && !babl_format_has_alpha (native)
    && !strcmp (argv[12], "-")
    && (p.algorithm == GB_ALGO_FIR || p.algorithm == GB_ALGO_YVV
        || p.algorithm == GB_ALGO_DERICHE);
  if (gaussian)
    {
      tu_image lin, res;
      tu_alloc (&lin, e->width, e->height, 3, 0);
      tu_alloc (&res, e->width, e->height, 3, 0);
      gegl_buffer_get (in, e, 1.0, babl_format ("RGB float"), lin.view.data,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      gegl_buffer_get (out, e, 1.0, babl_format ("RGB float"), res.view.data,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      double *ref = g_new (double, n * 3);
      if (!tu_exact_gaussian (&lin, p.sigma_x, p.sigma_y, ref))
        return fail (name, "no memory for the reference");
      db = tu_psnr_vs (&res, ref);
      g_free (ref);
      tu_free (&lin);
      tu_free (&res);
      if (db < 40.0)
        {
          snprintf (what, sizeof what, "%.1f dB from a double-precision "
                    "convolution (at least 40)", db);
          return fail (name, what);
        }
    }
  printf ("PASS: %s: %s, largest difference %g steps%s", name,
          babl_get_name (io), worst, strcmp (argv[12], "-")
          ? ", unchanged outside the selection" : "");
  if (gaussian)
    printf (", %.1f dB from a double-precision convolution", db);
  printf ("\n");
  g_object_unref (in);
  g_object_unref (out);
  gegl_exit ();
  return 0;
}
