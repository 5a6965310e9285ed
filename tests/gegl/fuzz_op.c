/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzzes cudablur:gaussian-blur in real GEGL: random property values
 * (every algorithm, device, edge mode and blur space; standard deviations
 * from 0 to the maximum, range sigmas from the smallest to the largest),
 * input formats (8/16/32-bit integer, half, float and double, grey and
 * RGB, with and without alpha, linear and perceptual), sizes (1x1 to
 * wider than a GPU's minimum), content (a photograph, noise, flat,
 * colour beyond [0, 1]), mipmap levels 0-3, call budgets and plans
 * (CUDABLUR_PLAN: the whole image, requests as asked, blocks) and views
 * (inside, across and beyond the image).  Each case renders the whole image and a view;
 * checks: no crash, no hang (a case has 60 s), every float output finite
 * and written (outputs are poisoned), and at level 0 the view equals the
 * same pixels of the whole within float rounding (1e-5, or one step of
 * an integer format).
 *
 *   tests/gegl/fuzz_op [CASES [SEED]]   (default 1000, a fixed seed)
 *
 * CUDABLUR_FUZZ_CASES and CUDABLUR_FUZZ_SEED set them too;
 * CUDABLUR_FUZZ_ONLY=N runs case N alone (as it ran in the whole run),
 * CUDABLUR_FUZZ_TIMING=1 prints each case and its time.  On a machine
 * with a GPU the device values reach it (auto for images of 512 x 512
 * or more, cuda for any).  GEGL_MODULE_DIR (set by the build) holds the
 * module. */
#define _DEFAULT_SOURCE
#include "config.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gegl.h>

#include "gblur.h"
#include "gegl_util.h"
#include "op.h"

#define OP CUDABLUR_OP_NAME

static guint64 rng;
static gboolean gpu;   /* a GPU runs blurs: no limits on sizes */

static guint32
next (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (guint32) (rng >> 11);
}

static gdouble
uniform (void)
{
  return next () / 4294967296.0;
}

static gint
below (gint n)
{
  return (gint) (next () % (guint32) n);
}

static const char *const formats[] = {
  "R'G'B' u8", "R'G'B'A u8", "Y' u8", "Y'A u8", "RGB u16", "RGBA u16",
  "Y u16", "R'G'B'A half", "RGBA half", "RGBA float", "R'G'B'A float",
  "YA float", "RaGaBaA float", "RGB u32", "R'G'B'A double", "Y float",
};

typedef struct
{
  gint algorithm, iterations, device, edge_mode, blur_space, level;
  gdouble sx, sy, range, kappa, budget;
  const char *plan;     /* CUDABLUR_PLAN, or NULL */
  const char *format;
  gint w, h, content;
  GeglRectangle view;
} fuzz_case;

static gchar current[512];

static void
on_alarm (int sig)
{
  (void) sig;
  static const char m[] = "FAIL: fuzz_op: a case ran for 60 s (hang?): ";
  if (write (2, m, sizeof m - 1) < 0 || write (2, current, strlen (current)) < 0
      || write (2, "\n", 1) < 0)
    _exit (1);
  _exit (1);
}

static gdouble
random_sigma (void)
{
  switch (below (8))
    {
    case 0: return 0.0;
    case 1: return uniform () * 0.6;          /* identity and tiny */
    case 2: return GB_SIGMA_MAX * uniform ();
    case 3: return 40.0 + 200.0 * uniform ();
    default: return 0.5 + 12.0 * uniform ();
    }
}

static void
random_case (fuzz_case *c)
{
  c->algorithm = below (GB_ALGO_COUNT);
  c->sx = random_sigma ();
  c->sy = below (3) ? c->sx : random_sigma ();
  c->range = below (6) == 0 ? (below (2) ? 1e-6 : GB_RANGE_SIGMA_MAX)
                            : 1.0 + 150.0 * uniform ();
  c->iterations = 1 + below (below (5) ? 3 : GB_ITERATIONS_MAX);
  c->kappa = GB_KAPPA_MAX * uniform ();
  c->device = below (3);
  c->edge_mode = below (GB_BORDER_COUNT);
  c->blur_space = below (2);
  c->level = below (3) ? 0 : below (4);
  /* Small budgets plan regions, the default the whole image; and each
   * plan imposed. */
  c->budget = below (2) ? 1e-5 * (1 + below (1000)) : 0.0;
  static const char *const plans[] = { NULL, NULL, "whole", "requests",
                                       "blocks" };
  c->plan = plans[below (G_N_ELEMENTS (plans))];
  c->format = formats[below (G_N_ELEMENTS (formats))];
  switch (below (10))
    {
    case 0: c->w = 1 + below (4); c->h = 1 + below (4); break;
    case 1: c->w = 520 + below (200); c->h = 512 + below (100); break;
    case 2: c->w = 1 + below (3); c->h = 50 + below (300); break;
    case 3: c->w = 50 + below (300); c->h = 1 + below (3); break;
    default: c->w = 8 + below (220); c->h = 8 + below (160);
    }
  /* A large FIR on a large image is slow, not interesting. */
  if ((gdouble) c->w * c->h * MAX (c->sx, c->sy) > 3e6)
    {
      c->sx = MIN (c->sx, 20.0);
      c->sy = MIN (c->sy, 20.0);
    }
  /* The edge-aware filters cost some 1 us a pixel and iteration on a
   * CPU: large images and many iterations only where a GPU runs them. */
  if (!gpu && (c->algorithm == GB_ALGO_EDGE_EXACT
               || c->algorithm == GB_ALGO_EDGE_PARTITIONED))
    while ((gdouble) c->w * c->h * c->iterations > 1.5e5)
      {
        if (c->iterations > 1)
          c->iterations--;
        else
          c->w = MAX (1, c->w / 2), c->h = MAX (1, c->h / 2);
      }
  c->content = below (5);
  /* A view inside, across or beyond the image. */
  c->view.x = below (c->w + 40) - 20;
  c->view.y = below (c->h + 40) - 20;
  c->view.width = 1 + below (c->w + 20);
  c->view.height = 1 + below (c->h + 20);
}

static GeglBuffer *photo;

/* The case's input in its format: a piece of the photograph, noise, a
 * flat colour, or values well beyond [0, 1] (float formats). */
static GeglBuffer *
make_input (const fuzz_case *c)
{
  const Babl *f = babl_format (c->format);
  GeglRectangle r = { 0, 0, c->w, c->h };
  GeglBuffer *in = gegl_buffer_new (&r, f);
  gfloat *rgba = g_new (gfloat, (gsize) c->w * c->h * 4);
  const GeglRectangle *pe = gegl_buffer_get_extent (photo);
  if (c->content == 0)
    {
      GeglRectangle src = { below (MAX (1, pe->width - c->w)),
                            below (MAX (1, pe->height - c->h)), c->w, c->h };
      gegl_buffer_get (photo, &src, 1.0, babl_format ("RGBA float"), rgba,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_CLAMP);
    }
  else
    {
      const gdouble flat = uniform ();
      for (gsize i = 0; i < (gsize) c->w * c->h * 4; i++)
        switch (c->content)
          {
          case 1: rgba[i] = (gfloat) uniform (); break;
          case 2: rgba[i] = (gfloat) flat; break;
          case 3:   /* colour beyond [0, 1] (alpha within) */
            rgba[i] = i % 4 == 3 ? (gfloat) uniform ()
                                 : (gfloat) (uniform () * 4.0 - 1.5);
            break;
          default: rgba[i] = (i / 4) % 7 == 0 ? 1.0f : 0.0f;
          }
    }
  gegl_buffer_set (in, &r, 0, babl_format ("RGBA float"), rgba,
                   GEGL_AUTO_ROWSTRIDE);
  g_free (rgba);
  return in;
}

/* The case's format as float: the operation's output read back without
 * a change of model or transfer curve (which, for values far beyond
 * [0, 1], would magnify differences of rounding). */
static const Babl *
readback_format (const fuzz_case *c)
{
  gchar *name = g_strdup (c->format);
  gchar *space = strrchr (name, ' ');
  *space = '\0';
  gchar *full = g_strdup_printf ("%s float", name);
  const Babl *f = babl_format (full);
  g_free (full);
  g_free (name);
  return f;
}

/* The operation over `roi` at the case's level, read back in
 * readback_format (NaN-poisoned first). */
static gfloat *
render (GeglBuffer *in, const fuzz_case *c, const GeglRectangle *roi,
        gdouble scale)
{
  GeglNode *g = gegl_node_new ();
  GeglNode *src = gegl_node_new_child (g, "operation", "gegl:buffer-source",
                                       "buffer", in, NULL);
  GeglNode *blur = gegl_node_new_child (g, "operation", OP,
                                        "algorithm", c->algorithm,
                                        "std-dev-x", c->sx,
                                        "std-dev-y", c->sy,
                                        "range-sigma", c->range,
                                        "iterations", c->iterations,
                                        "kappa", c->kappa,
                                        "device", c->device,
                                        "edge-mode", c->edge_mode,
                                        "blur-space", c->blur_space, NULL);
  gegl_node_link (src, blur);
  const Babl *f = readback_format (c);
  const gsize n = (gsize) roi->width * roi->height
                  * babl_format_get_n_components (f);
  gfloat *out = g_new (gfloat, n);
  for (gsize i = 0; i < n; i++)
    out[i] = NAN;
  gegl_node_blit (blur, scale, roi, f, out, GEGL_AUTO_ROWSTRIDE,
                  GEGL_BLIT_DEFAULT);
  g_object_unref (g);
  return out;
}

/* One step of the format's sample type, in [0, 1] units. */
static gdouble
step_of (const char *format)
{
  if (strstr (format, "u8"))
    return 1.0 / 255.0;
  if (strstr (format, "u16"))
    return 1.0 / 65535.0;
  if (strstr (format, "half"))
    return 1.0 / 1024.0;
  return 0.0;
}

static gboolean
run_case (gint index, const fuzz_case *c)
{
  g_snprintf (current, sizeof current,
              "case %d: %s %dx%d content %d, algorithm %d sigma %g x %g, "
              "range %g, iterations %d, kappa %g, device %d, edge %d, "
              "space %d, level %d, budget %g, plan %s, view %dx%d at %d,%d",
              index, c->format, c->w, c->h, c->content, c->algorithm, c->sx,
              c->sy, c->range, c->iterations, c->kappa, c->device,
              c->edge_mode, c->blur_space, c->level, c->budget,
              c->plan ? c->plan : "-", c->view.width, c->view.height,
              c->view.x, c->view.y);
  if (c->budget > 0.0)
    {
      gchar b[32];
      g_ascii_dtostr (b, sizeof b, c->budget);
      g_setenv ("CUDABLUR_CALL_SECONDS", b, TRUE);
    }
  else
    g_unsetenv ("CUDABLUR_CALL_SECONDS");
  if (c->plan)
    g_setenv ("CUDABLUR_PLAN", c->plan, TRUE);
  else
    g_unsetenv ("CUDABLUR_PLAN");
  alarm (60);
  GeglBuffer *in = make_input (c);
  const gdouble scale = 1.0 / (1 << c->level);
  const GeglRectangle whole = { 0, 0, (gint) (c->w * scale),
                                (gint) (c->h * scale) };
  gboolean ok = TRUE;
  if (whole.width < 1 || whole.height < 1)
    {
      g_object_unref (in);
      alarm (0);
      return TRUE;
    }
  GeglRectangle view = { (gint) floor (c->view.x * scale),
                         (gint) floor (c->view.y * scale),
                         MAX (1, (gint) (c->view.width * scale)),
                         MAX (1, (gint) (c->view.height * scale)) };
  gfloat *all = render (in, c, &whole, scale);
  gfloat *part = render (in, c, &view, scale);
  alarm (0);
  /* Every pixel of the image written and finite (beyond it, GEGL leaves
   * what the abyss gives: transparent, or poison where nothing wrote). */
  const gint nc = babl_format_get_n_components (readback_format (c));
  long bad = 0;
  for (gsize i = 0; i < (gsize) whole.width * whole.height * nc; i++)
    if (!isfinite (all[i]))
      bad++;
  if (bad)
    {
      fprintf (stderr, "FAIL: %s: %ld components non-finite or unwritten\n",
               current, bad);
      ok = FALSE;
    }
  const gdouble tolerance = MAX (1e-5, 1.01 * step_of (c->format));
  gdouble worst = 0.0;
  gint worst_at[3] = { 0, 0, 0 };
  if (c->level == 0)
    for (gint y = 0; y < view.height; y++)
      for (gint x = 0; x < view.width; x++)
        {
          const gint wx = view.x + x, wy = view.y + y;
          if (wx < 0 || wy < 0 || wx >= whole.width || wy >= whole.height)
            continue;
          for (gint k = 0; k < nc; k++)
            {
              const gfloat a = part[((gsize) y * view.width + x) * nc + k];
              const gfloat b = all[((gsize) wy * whole.width + wx) * nc + k];
              const gdouble d = isfinite (a) ? fabs (a - b) / MAX (1.0,
                                                                    fabs (b))
                                             : INFINITY;
              if (!(d <= worst))
                {
                  worst = d;
                  worst_at[0] = wx, worst_at[1] = wy, worst_at[2] = k;
                }
            }
        }
  if (!(worst <= tolerance))
    {
      const gint vx = worst_at[0] - view.x, vy = worst_at[1] - view.y;
      fprintf (stderr, "FAIL: %s: the view differs from the whole by %g "
               "(at most %g) at %d,%d channel %d: %g, whole %g\n", current,
               worst, tolerance, worst_at[0], worst_at[1], worst_at[2],
               part[((gsize) vy * view.width + vx) * nc + worst_at[2]],
               all[((gsize) worst_at[1] * whole.width + worst_at[0]) * nc
                   + worst_at[2]]);
      ok = FALSE;
    }
  g_free (all);
  g_free (part);
  g_object_unref (in);
  return ok;
}

int
main (int argc, char **argv)
{
  const gchar *env_cases = g_getenv ("CUDABLUR_FUZZ_CASES");
  const gchar *env_seed = g_getenv ("CUDABLUR_FUZZ_SEED");
  gint cases = argc > 1 ? atoi (argv[1]) : env_cases ? atoi (env_cases)
                                                     : 1000;
  guint64 seed = argc > 2 ? g_ascii_strtoull (argv[2], NULL, 10)
                 : env_seed ? g_ascii_strtoull (env_seed, NULL, 10)
                            : 20261127;
  gchar *users = gu_module_as_users ();
  gegl_init (&argc, &argv);
  g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);
  signal (SIGALRM, on_alarm);
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
  char device[256];
  gpu = gb_cuda_info (device, sizeof device);
  printf ("fuzz_op: %s\n", gpu ? device : "no GPU: edge-aware cases kept small");
  printf ("fuzz_op: seed %" G_GUINT64_FORMAT " (CUDABLUR_FUZZ_SEED), %d "
          "cases\n", seed, cases);
  gint failed = 0;
  const gboolean timing = g_getenv ("CUDABLUR_FUZZ_TIMING") != NULL;
  /* One case alone, to look at it. */
  const gchar *only = g_getenv ("CUDABLUR_FUZZ_ONLY");
  for (gint i = 0; i < cases; i++)
    {
      /* Each case from its own seed: one alone repeats exactly. */
      guint64 z = seed + 0x9E3779B97F4A7C15ull * (guint64) (i + 1);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      rng = (z ^ (z >> 31)) | 1;
      fuzz_case c;
      random_case (&c);
      const gint64 t0 = g_get_monotonic_time ();
      if (only && atoi (only) != i)
        continue;
      if (!run_case (i, &c))
        failed++;
      if (timing)
        printf ("%.3f s %s\n", (g_get_monotonic_time () - t0) * 1e-6, current);
    }
  printf ("fuzz_op: %d cases, %d failed\n", cases, failed);
  g_object_unref (photo);
  gegl_exit ();
  gu_module_remove (users);
  return failed ? 1 : 0;
}
