/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gb_blur_banded (the blur in bands within a memory budget) against
 * gb_blur_native (the whole area at once), on real photographs in native
 * formats: every algorithm, every border, one axis or both, edge-aware
 * iterations, output rectangles inside the area; budgets so small that a
 * band holds one line, and larger ones.
 *   CPU (test_bands): byte for byte equal; both outputs poisoned with
 *   different patterns and the intermediate image with NaN, so a sample
 *   left unwritten or read before it was stored shows; the intermediate
 *   is made once and touched only inside it; many bands ran; a simulated
 *   GPU failure (GB_CUDA_FAULT) redoes the bands on the CPU, equal still.
 *   GPU (test_gpu_bands, built with GB_BANDS_GPU): bands on the GPU
 *   against the whole area on the GPU, within a quantisation step, with
 *   the GPU's budget forcing the bands; exits 77 without a GPU. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "convert_pixel.h"
#include "native_util.h"

#ifdef GB_BANDS_GPU
#define BACKEND GB_BACKEND_CUDA
#define NAME "test_gpu_bands"
#else
#define BACKEND GB_BACKEND_CPU
#define NAME "test_bands"
#endif

/* The caller of gb_blur_banded, in memory. */
typedef struct
{
  const unsigned char *area;
  unsigned char *out;
  int w, h, ow, oh;
  size_t bpp;
  float *scratch;
  int sw, sh, sc, makes;
  int misuse;              /* rectangles outside what they address */
} mem_io;

static int
outside (int x, int y, int w, int h, int W, int H)
{
  return w < 1 || h < 1 || x < 0 || y < 0 || x > W - w || y > H - h;
}

static gb_status
read_area (void *user, int x, int y, int w, int h, void *dst, size_t stride)
{
  mem_io *m = user;
  if (outside (x, y, w, h, m->w, m->h))
    {
      m->misuse++;
      return GB_ERR_IO;
    }
  for (int r = 0; r < h; r++)
    memcpy ((unsigned char *) dst + (size_t) r * stride,
            m->area + ((size_t) (y + r) * m->w + x) * m->bpp,
            m->bpp * (size_t) w);
  return GB_OK;
}

static gb_status
write_out (void *user, int x, int y, int w, int h, const void *src,
           size_t stride)
{
  mem_io *m = user;
  if (outside (x, y, w, h, m->ow, m->oh))
    {
      m->misuse++;
      return GB_ERR_IO;
    }
  for (int r = 0; r < h; r++)
    memcpy (m->out + ((size_t) (y + r) * m->ow + x) * m->bpp,
            (const unsigned char *) src + (size_t) r * stride,
            m->bpp * (size_t) w);
  return GB_OK;
}

static gb_status
scratch_make (void *user, int w, int h, int c)
{
  mem_io *m = user;
  m->makes++;
  free (m->scratch);
  m->scratch = malloc (sizeof (float) * (size_t) w * h * c);
  if (!m->scratch)
    return GB_ERR_NO_MEMORY;
  for (size_t i = 0; i < (size_t) w * h * c; i++)
    m->scratch[i] = NAN;
  m->sw = w, m->sh = h, m->sc = c;
  return GB_OK;
}

static gb_status
scratch_store (void *user, int x, int y, int w, int h, const void *src,
               size_t stride)
{
  mem_io *m = user;
  if (!m->scratch || outside (x, y, w, h, m->sw, m->sh))
    {
      m->misuse++;
      return GB_ERR_IO;
    }
  for (int r = 0; r < h; r++)
    memcpy (m->scratch + ((size_t) (y + r) * m->sw + x) * m->sc,
            (const unsigned char *) src + (size_t) r * stride,
            sizeof (float) * m->sc * (size_t) w);
  return GB_OK;
}

static gb_status
scratch_load (void *user, int x, int y, int w, int h, void *dst,
              size_t stride)
{
  mem_io *m = user;
  if (!m->scratch || outside (x, y, w, h, m->sw, m->sh))
    {
      m->misuse++;
      return GB_ERR_IO;
    }
  for (int r = 0; r < h; r++)
    memcpy ((unsigned char *) dst + (size_t) r * stride,
            m->scratch + ((size_t) (y + r) * m->sw + x) * m->sc,
            sizeof (float) * m->sc * (size_t) w);
  return GB_OK;
}

/* The photograph's samples (straight alpha) in a native format. */
static unsigned char *
photo_native (const tu_image *img, const gb_pixel_format *f)
{
  const int w = img->view.width, h = img->view.height, c = f->channels;
  const size_t bpp = gb_pixel_format_bytes (f);
  unsigned char *p = malloc (bpp * (size_t) w * h);
  for (int y = 0; p && y < h; y++)
    for (int x = 0; x < w; x++)
      for (int k = 0; k < c; k++)
        {
          const double v = img->view.data[(size_t) y * img->view.stride
                                          + (size_t) x * c + k];
          const size_t i = ((size_t) y * w + x) * c + k;
          switch (f->type)
            {
            case GB_SAMPLE_U8: p[i] = (unsigned char) lrint (v * 255); break;
            case GB_SAMPLE_U16:
              ((uint16_t *) p)[i] = (uint16_t) lrint (v * 65535); break;
            case GB_SAMPLE_U32:
              ((uint32_t *) p)[i] = (uint32_t) llrint (v * 4294967295.0);
              break;
            case GB_SAMPLE_HALF:
              ((uint16_t *) p)[i] = gb_float_to_half ((float) v); break;
            default: ((float *) p)[i] = (float) v;
            }
        }
  return p;
}

typedef struct
{
  const char *photo;
  gb_pixel_format format;
} source;

static const source sources[] = {
  { "coffee.ppm", { GB_SAMPLE_U8, GB_TRC_SRGB, 3 } },
  { "astronaut.ppm", { GB_SAMPLE_U16, GB_TRC_LINEAR, 4 } },
  { "camera.pgm", { GB_SAMPLE_FLOAT, GB_TRC_SRGB, 1 } },
  { "coffee.ppm", { GB_SAMPLE_HALF, GB_TRC_LINEAR, 2 } },
  { "astronaut.ppm", { GB_SAMPLE_U8, GB_TRC_SRGB, 4 } },
};
#define N_SOURCES ((int) (sizeof sources / sizeof sources[0]))

static uint64_t
next (uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static double
uniform (uint64_t *s, double lo, double hi)
{
  return lo + (hi - lo) * (double) (next (s) >> 11) / 9007199254740992.0;
}

/* One comparison: the whole area and the bands, over the same output
 * rectangle. */
static void
compare (const source *src, const tu_image *photo, const gb_params *p,
         int ox, int oy, int ow, int oh, size_t host, size_t gpu,
         int bands_min)
{
  const gb_pixel_format *f = &src->format;
  const int w = photo->view.width, h = photo->view.height;
  const size_t bpp = gb_pixel_format_bytes (f);
  const size_t out_bytes = bpp * (size_t) ow * oh;
  unsigned char *area = photo_native (photo, f);
  unsigned char *want = malloc (out_bytes), *got = malloc (out_bytes);
  if (!area || !want || !got)
    {
      TU_CHECK (0, "no memory");
      goto out;
    }
  memset (want, 0xA5, out_bytes);
  memset (got, 0x5A, out_bytes);

  tu_sink sink;
  gb_native_io nio;
  tu_sink_init (&sink, &nio, f, area, w, h, ox, oy, ow, oh, want);
  gb_report rw, rb;
  const double t0 = tu_now ();
  gb_status st = gb_blur_native (p, &nio, NULL, NULL, &rw);
  const double t1 = tu_now ();
  TU_CHECK (st == GB_OK, "whole: %s", gb_status_message (st));

  mem_io m = { area, got, w, h, ow, oh, bpp, NULL, 0, 0, 0, 0, 0 };
  const gb_banded_io io = { *f, w, h, ox, oy, ow, oh, read_area, write_out,
                            scratch_make, scratch_store, scratch_load, &m };
  st = gb_blur_banded (p, &io, host, gpu, NULL, NULL, &rb);
  const double t2 = tu_now ();
  char what[256];
  snprintf (what, sizeof what, "%s %s, %s %s, sigma %.2f x %.2f, %d "
            "iterations, out %dx%d+%d+%d of %dx%d, budget %zu/%zu",
            src->photo, tu_format_name (f),
            gb_algorithm_name (p->algorithm), gb_backend_name (p->backend),
            p->sigma_x, p->sigma_y, p->iterations, ow, oh, ox, oy, w, h,
            host, gpu);
  TU_CHECK (st == GB_OK, "%s: bands: %s (%s)", what, gb_status_message (st),
            rb.reason);
  TU_CHECK (m.misuse == 0, "%s: %d rectangles outside", what, m.misuse);
  const int passes = (p->sigma_x >= GB_SIGMA_IDENTITY)
                     + (p->sigma_y >= GB_SIGMA_IDENTITY);
  TU_CHECK (m.makes == (passes > 1 || (passes
                                       && tu_uses (p->algorithm,
                                                   GB_USES_ITERATIONS)
                                       && p->iterations > 1)),
            "%s: intermediate made %d times", what, m.makes);
  TU_CHECK (rb.bands >= bands_min, "%s: %d bands and strips (at least %d "
            "expected)", what, rb.bands, bands_min);
  TU_CHECK (rb.backend_used == rw.backend_used,
            "%s: bands ran on %s, the whole on %s", what,
            gb_backend_name (rb.backend_used),
            gb_backend_name (rw.backend_used));
#ifdef GB_BANDS_GPU
  TU_CHECK (rb.backend_used == GB_BACKEND_CUDA, "%s: bands ran on %s (%s)",
            what, gb_backend_name (rb.backend_used), rb.reason);
  double share = 0;
  const double steps = tu_native_diff (f, got, want,
                                       (size_t) ow * oh * f->channels,
                                       &share);
  TU_CHECK (steps <= 1.0, "%s: %.3g steps apart (%.2g%% of samples)", what,
            steps, 100 * share);
  printf ("%-100s %3d bands, %.2g steps; %.3f s, %.3f s whole\n", what,
          rb.bands, steps, t2 - t1, t1 - t0);
#else
  const int equal = memcmp (got, want, out_bytes) == 0;
  TU_CHECK (equal, "%s: bands differ from the whole area", what);
  printf ("%-100s %4d bands %s; %.3f s, %.3f s whole\n", what, rb.bands,
          equal ? "equal" : "DIFFER", t2 - t1, t1 - t0);
#endif
  free (m.scratch);
out:
  free (area);
  free (want);
  free (got);
}

int
main (void)
{
  uint64_t seed = tu_seed (NAME);
#ifdef GB_BANDS_GPU
  char name[200];
  if (!gb_cuda_info (name, sizeof name))
    {
      printf ("%s: skipped, no GPU (%s)\n", NAME, name);
      return TU_SKIP;
    }
#endif
  tu_image photos[N_SOURCES];
  for (int i = 0; i < N_SOURCES; i++)
    if (!tu_load_pnm (&photos[i], sources[i].photo, sources[i].format.channels,
                      0))
      {
        fprintf (stderr, "%s: cannot load %s\n", NAME, sources[i].photo);
        return 1;
      }
  int k = 0;
  for (int a = 0; a < GB_ALGO_COUNT; a++)
    for (int b = 0; b < GB_BORDER_COUNT; b++, k++)
      {
        const int s = k % N_SOURCES;
        /* The edge-aware filters are slow on the CPU: a part of the
         * photograph for them, at most two iterations. */
        const int edge = tu_uses (a, GB_USES_ITERATIONS);
        tu_image part = photos[s];
        if (edge)
          {
            part.view.width = part.view.width < 256 ? part.view.width : 256;
            part.view.height = part.view.height < 200 ? part.view.height
                                                      : 200;
          }
        const tu_image *ph = &part;
        const int w = ph->view.width, h = ph->view.height;
        gb_params p;
        gb_params_init (&p);
        p.algorithm = a;
        p.border = b;
        p.backend = BACKEND;
        p.sigma_x = uniform (&seed, 0.3, 14.0);
        p.sigma_y = uniform (&seed, 0.3, 14.0);
        if (k % 5 == 3)   /* one axis only */
          *(k % 2 ? &p.sigma_x : &p.sigma_y) = 0.0;
        p.iterations = 1 + (int) (next (&seed) % (edge ? 2 : 3));
        p.range_sigma = uniform (&seed, 10, 80);
        p.perceptual = k % 3 == 1;
        /* The whole area out, or a rectangle inside it. */
        int ox = 0, oy = 0, ow = w, oh = h;
        if (k % 2)
          {
            ow = 1 + (int) (next (&seed) % (unsigned) w);
            oh = 1 + (int) (next (&seed) % (unsigned) h);
            ox = (int) (next (&seed) % (unsigned) (w - ow + 1));
            oy = (int) (next (&seed) % (unsigned) (h - oh + 1));
          }
#ifdef GB_BANDS_GPU
        /* The device's budget sets the bands: room for a few lines, or
         * for some dozens. */
        const size_t host = (size_t) 1 << 30;
        const size_t gpu = k % 2 ? (size_t) 100 << 10 : (size_t) 2 << 20;
        /* Two megabytes split a pass of a small sigma's short reach in
         * three at least. */
        compare (&sources[s], ph, &p, ox, oy, ow, oh, host, gpu,
                 k % 2 ? 4 : 3);
#else
        /* A byte: a line a band; or room for a few bands a pass, with
         * one thread (the filters' per-thread lines come first). */
        const size_t host = k % 2 ? 1 : (size_t) 600 << 10;
        p.threads = k % 4 == 0;
        compare (&sources[s], ph, &p, ox, oy, ow, oh, host, 0,
                 k % 2 ? (oh < ow ? oh : ow) : 3);
#endif
      }
#ifndef GB_BANDS_GPU
  /* A GPU that fails (simulated where there is none) has the bands redone
   * on the CPU: the same pixels as the whole area on the CPU. */
  setenv ("GB_CUDA_FAULT", "launch", 1);
  gb_params p;
  gb_params_init (&p);
  p.algorithm = GB_ALGO_DERICHE;
  p.sigma_x = 6.0;
  p.sigma_y = 9.0;
  p.backend = GB_BACKEND_CUDA;
  gb_params q = p;
  q.backend = GB_BACKEND_CPU;
  const tu_image *ph = &photos[0];
  const gb_pixel_format *f = &sources[0].format;
  const int w = ph->view.width, h = ph->view.height;
  const size_t n = gb_pixel_format_bytes (f) * (size_t) w * h;
  unsigned char *area = photo_native (ph, f);
  unsigned char *want = malloc (n), *got = malloc (n);
  tu_sink sink;
  gb_native_io nio;
  tu_sink_init (&sink, &nio, f, area, w, h, 0, 0, w, h, want);
  gb_status st = gb_blur_native (&q, &nio, NULL, NULL, NULL);
  mem_io m = { area, got, w, h, w, h, gb_pixel_format_bytes (f), NULL, 0,
               0, 0, 0, 0 };
  const gb_banded_io io = { *f, w, h, 0, 0, w, h, read_area, write_out,
                            scratch_make, scratch_store, scratch_load, &m };
  gb_report r;
  if (st == GB_OK)
    st = gb_blur_banded (&p, &io, (size_t) 1 << 20, (size_t) 1 << 30, NULL,
                         NULL, &r);
  TU_CHECK (st == GB_OK && r.backend_used == GB_BACKEND_CPU
            && r.gpu_status == GB_ERR_CUDA_LAUNCH
            && !memcmp (got, want, n),
            "a failing GPU: %s, ran on %s (%s), %s", gb_status_message (st),
            gb_backend_name (r.backend_used), r.reason,
            memcmp (got, want, n) ? "differs from the CPU's" : "equal");
  printf ("a failing GPU: %s\n", r.reason);
  unsetenv ("GB_CUDA_FAULT");
  free (m.scratch);
  free (area);
  free (want);
  free (got);
#endif
  for (int i = 0; i < N_SOURCES; i++)
    tu_free (&photos[i]);
  /* What the GPU keeps between calls, so that a leak check sees none. */
  gb_shutdown ();
  return tu_finish (NAME);
}
