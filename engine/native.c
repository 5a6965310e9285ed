/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gb_blur_native: a blur of pixels in the caller's own format, read and
 * written in bands through callbacks.
 *   CPU: bands are decoded on all cores into one work image, which is
 *        blurred in place, then encoded band by band on all cores and
 *        written;
 *   GPU: cuda/native_io.cu moves the native pixels and converts them on
 *        the device.  When the CUDA context does not exist yet, it starts
 *        on another thread while this one reads the image into memory,
 *        so that the start-up hides behind the read.
 * A failed GPU run is redone on the CPU, reading again. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gblur.h"
#include "big_alloc.h"
#include "border.h"
#include "convert.h"
#include "cpu_backend.h"
#include "dispatch.h"
#include "backend.h"

/* Native bytes per band on the CPU path: large enough that each callback
 * moves many of GIMP's 64x64 tiles, small enough to stay in cache. */
#define CPU_BAND_BYTES (4u << 20)

static gb_status
validate_io (const gb_params *params, const gb_native_io *io)
{
  if (!params || !io || !io->read || !io->write)
    return GB_ERR_NULL;
  if (!gb_pixel_format_bytes (&io->format))
    return GB_ERR_FORMAT;
  if (io->width < 1 || io->height < 1 || io->width > GB_SIZE_MAX
      || io->height > GB_SIZE_MAX || io->out_width < 1 || io->out_height < 1
      || io->out_x < 0 || io->out_y < 0
      || io->out_x > io->width - io->out_width
      || io->out_y > io->height - io->out_height)
    return GB_ERR_SIZE;
  /* The parameters as gb_blur checks them, on a view of the area's size
   * (never dereferenced). */
  float dummy = 0.0f;
  gb_image v = { &dummy, io->width, io->height, io->format.channels,
                 (size_t) io->width * io->format.channels };
  return gb_validate (params, &v, &v);
}

static int
band_rows (size_t row_bytes, int rows)
{
  size_t n = CPU_BAND_BYTES / row_bytes;
  n = n < 1 ? 1 : n;
  return n > (size_t) rows ? rows : (int) n;
}

static int
report_progress (gb_progress_fn progress, void *user, double f)
{
  return progress && progress (f, user);
}

/* No axis moves a pixel: the output rectangle goes back as it came. */
static gb_status
copy_through (const gb_native_io *io, gb_report *r)
{
  const size_t bpp = gb_pixel_format_bytes (&io->format);
  const size_t row = bpp * (size_t) io->width;
  const int band = band_rows (row, io->out_height);
  unsigned char *buf = malloc (row * (size_t) band);
  gb_status st = buf ? GB_OK : GB_ERR_NO_MEMORY;
  for (int y = 0; y < io->out_height && st == GB_OK; y += band)
    {
      int rows = band < io->out_height - y ? band : io->out_height - y;
      double t = gb_now ();
      st = io->read (io->user, io->out_y + y, rows, buf, row);
      r->seconds_read += gb_now () - t;
      t = gb_now ();
      if (st == GB_OK)
        st = io->write (io->user, y, rows, buf + (size_t) io->out_x * bpp,
                        row);
      r->seconds_write += gb_now () - t;
    }
  free (buf);
  return st;
}

static gb_status
cpu_native (const gb_plan *plan, const gb_native_io *io,
            gb_progress_fn progress, void *user, gb_report *r)
{
  const gb_pixel_format *f = &io->format;
  const int w = io->width, h = io->height, c = f->channels;
  const int threads = plan->p.threads;
  const size_t bpp = gb_pixel_format_bytes (f);
  const size_t row = bpp * (size_t) w, wrow = (size_t) w * c;
  const int band = band_rows (row, h);
  float *work = gb_big_alloc (sizeof (float) * wrow * (size_t) h);
  unsigned char *buf = malloc (row * (size_t) band);
  gb_status st = work && buf ? GB_OK : GB_ERR_NO_MEMORY;

  r->backend_used = GB_BACKEND_CPU;
  r->threads_used = gb_threads_for (threads);
  for (int y = 0; y < h && st == GB_OK; y += band)
    {
      int rows = band < h - y ? band : h - y;
      double t = gb_now ();
      st = io->read (io->user, y, rows, buf, row);
      r->seconds_read += gb_now () - t;
      t = gb_now ();
      if (st == GB_OK)
        st = gb_decode_rows (f, buf, row, work + (size_t) y * wrow, wrow, w,
                             rows, threads);
      r->seconds_decode += gb_now () - t;
      if (st == GB_OK && report_progress (progress, user, 0.3 * (y + rows) / h))
        st = GB_ERR_CANCELLED;
    }
  if (st == GB_OK)
    {
      gb_image img = { work, w, h, c, wrow };
      gb_progress_span s = { progress, user, 0.3, 0.5 };
      double t = gb_now ();
      st = gb_plan_run_cpu (plan, &img, &img, progress ? gb_progress_span_report : NULL, &s,
                            r);
      r->seconds_compute += gb_now () - t;
    }
  const size_t orow = bpp * (size_t) io->out_width;
  const float *out = work + (size_t) io->out_y * wrow + (size_t) io->out_x * c;
  for (int y = 0; y < io->out_height && st == GB_OK; y += band)
    {
      int rows = band < io->out_height - y ? band : io->out_height - y;
      double t = gb_now ();
      st = gb_encode_rows (f, out + (size_t) y * wrow, wrow, buf, orow,
                           io->out_width, rows, threads);
      r->seconds_encode += gb_now () - t;
      t = gb_now ();
      if (st == GB_OK)
        st = io->write (io->user, y, rows, buf, orow);
      r->seconds_write += gb_now () - t;
      if (st == GB_OK
          && report_progress (progress, user,
                              0.8 + 0.2 * (y + rows) / io->out_height))
        st = GB_ERR_CANCELLED;
    }
  free (buf);
  gb_big_free (work);
  return st;
}

/* ---- a cold GPU: start CUDA while the image is read into memory ------- */

typedef struct
{
  size_t native_bytes, work_bytes;
  int third_buffer;
  gb_status st;
  char why[200];
  double seconds;
} warm_up;

static void *
warm_up_main (void *arg)
{
  warm_up *wu = arg;
  double t = gb_now ();
  wu->st = gb_cuda_prepare (wu->native_bytes, wu->work_bytes, wu->third_buffer,
                            wu->why, sizeof wu->why);
  wu->seconds = gb_now () - t;
  return NULL;
}

/* The caller's io with reads served from memory (writes still go to the
 * caller). */
typedef struct
{
  const gb_native_io *io;
  const unsigned char *pixels;
  size_t row;
} memory_io;

static gb_status
memory_read (void *user, int y, int rows, void *dst, size_t stride)
{
  const memory_io *m = user;
  for (int i = 0; i < rows; i++)
    memcpy ((unsigned char *) dst + (size_t) i * stride,
            m->pixels + (size_t) (y + i) * m->row, m->row);
  return GB_OK;
}

static gb_status
memory_write (void *user, int y, int rows, const void *src, size_t stride)
{
  const memory_io *m = user;
  return m->io->write (m->io->user, y, rows, src, stride);
}

static int
whole_image (gb_algorithm a)
{
  return !gb_algorithm_banded (a);
}

/* Reads the whole area into memory while another thread starts CUDA.
 * Returns the pixels (or NULL when they could not be held: the GPU run
 * then reads through the caller as usual) and the start-up's outcome. */
static unsigned char *
read_while_warming (const gb_plan *plan, const gb_native_io *io,
                    gb_progress_fn progress, void *user, warm_up *wu,
                    gb_report *r, gb_status *read_status)
{
  const size_t row = gb_pixel_format_bytes (&io->format) * (size_t) io->width;
  wu->native_bytes = row * (size_t) io->height;
  wu->work_bytes = sizeof (float) * (size_t) io->width * io->height
                   * (size_t) io->format.channels;
  wu->third_buffer = whole_image (plan->ax) || whole_image (plan->ay);
  pthread_t thread;
  const int started = pthread_create (&thread, NULL, warm_up_main, wu) == 0;
  unsigned char *pixels = started ? malloc (wu->native_bytes) : NULL;
  *read_status = GB_OK;
  if (pixels)
    {
      const int band = band_rows (row, io->height);
      for (int y = 0; y < io->height && *read_status == GB_OK; y += band)
        {
          int rows = band < io->height - y ? band : io->height - y;
          double t = gb_now ();
          *read_status = io->read (io->user, y, rows,
                                   pixels + (size_t) y * row, row);
          r->seconds_read += gb_now () - t;
          if (*read_status == GB_OK
              && report_progress (progress, user,
                                  0.3 * (y + rows) / io->height))
            *read_status = GB_ERR_CANCELLED;
        }
    }
  if (started)
    pthread_join (thread, NULL);
  else
    warm_up_main (wu);
  r->seconds_startup += wu->seconds;
  return pixels;
}

size_t
gb_native_memory (const gb_params *params, const gb_native_io *io)
{
  if (validate_io (params, io) != GB_OK)
    return 0;
  /* A border colour adds a one-pixel frame. */
  const size_t frame = params->border != GB_BORDER_CLAMP ? 2 : 0;
  const size_t w = (size_t) io->width + frame;
  const size_t h = (size_t) io->height + frame;
  const size_t c = (size_t) io->format.channels;
  const size_t row = gb_pixel_format_bytes (&io->format) * w;
  const size_t work = sizeof (float) * w * h * c;
  const size_t threads = (size_t) gb_threads_for (params->threads);
  /* The filters' own: the recursive filters' gathered lines (two copies
   * of up to 16 rows or columns per thread), the edge-aware spacings (two
   * planes), the FIR's ring and padded rows (small next to those). */
  const gb_algorithm a = gb_resolve_algorithm (params->algorithm,
                                               params->sigma_x,
                                               params->sigma_y,
                                               GB_BACKEND_CPU);
  size_t filter = threads * 2 * sizeof (float) * (w > h ? w : h) * 16 * c;
  if (gb_algorithm_get (a)->uses & GB_USES_RANGE_SIGMA)
    filter += 2 * sizeof (float) * w * h;   /* the edge-aware spacings */
  const size_t cpu = work + row * (size_t) band_rows (row, (int) h) + filter;
  /* A cold GPU holds the image as read; pinned bands are 24 MiB. */
  const size_t gpu = row * h + (24u << 20);
  return cpu > gpu ? cpu : gpu;
}

size_t
gb_native_device_memory (const gb_params *params, const gb_native_io *io)
{
  if (validate_io (params, io) != GB_OK)
    return 0;
  const size_t frame = params->border != GB_BORDER_CLAMP ? 2 : 0;
  const size_t w = (size_t) io->width + frame;
  const size_t h = (size_t) io->height + frame;
  const size_t c = (size_t) io->format.channels;
  const size_t work = sizeof (float) * w * h * c;
  const gb_algorithm a = gb_resolve_algorithm (params->algorithm,
                                               params->sigma_x,
                                               params->sigma_y,
                                               GB_BACKEND_CUDA);
  /* The image as read and two work images; a third for the filters that
   * need the whole image at once; the edge-aware filter's exact blocks
   * keep up to 2 (4c + 4) floats a block of at least 16 pixels, and a
   * grey image's second spacing plane does not fit the third image. */
  size_t bytes = gb_pixel_format_bytes (&io->format) * w * h
                 + work * (whole_image (a) ? 3 : 2);
  if (gb_algorithm_get (a)->uses & GB_USES_RANGE_SIGMA)
    bytes += sizeof (float) * w * h * ((c == 1 ? 1 : 0) + (4 * c + 4) / 8);
  return bytes;
}

gb_status
gb_blur_native (const gb_params *params, const gb_native_io *io,
                gb_progress_fn progress, void *user, gb_report *report)
{
  gb_report local;
  gb_report *r = report ? report : &local;
  double t0 = gb_now ();
  memset (r, 0, sizeof *r);
  r->backend_used = GB_BACKEND_CPU;
  gb_status st = validate_io (params, io);
  if (st != GB_OK)
    {
      snprintf (r->reason, sizeof r->reason, "%s", gb_status_message (st));
      return st;
    }
  /* A border colour: the rows pass through a one-pixel frame of it, and
   * the rest runs with replicated borders. */
  gb_params clamped = *params;
  gb_framed_io frame;
  gb_native_io framed;
  if (params->border != GB_BORDER_CLAMP)
    {
      gb_frame_io (io, params->border, &frame, &framed);
      clamped.border = GB_BORDER_CLAMP;
      params = &clamped;
      io = &framed;
    }

  gb_plan plan;
  const int cold = !gb_cuda_probe_is_cheap ();
  gb_plan_make (params, io->width, io->height, !cold, &plan, r);
  if (!plan.blur)
    {
      st = copy_through (io, r);
      r->seconds_total = gb_now () - t0;
      return st;
    }

  const gb_native_io *use = io;
  memory_io mem = { io, NULL, 0 };
  gb_native_io from_memory;
  gb_progress_span rest = { progress, user, 0.0, 1.0 };
  if (plan.gpu && cold)
    {
      warm_up wu;
      memset (&wu, 0, sizeof wu);
      unsigned char *pixels = read_while_warming (&plan, io, progress, user,
                                                  &wu, r, &st);
      if (st != GB_OK)
        {
          free (pixels);
          r->seconds_total = gb_now () - t0;
          return st;
        }
      if (wu.st != GB_OK)
        {
          r->gpu_status = wu.st;
          snprintf (r->reason, sizeof r->reason,
                    "GPU not used: %.200s; ran on the CPU", wu.why);
          gb_plan_use_cpu (params, &plan);
          r->algorithm_used = plan.p.algorithm;
        }
      else
        snprintf (r->reason, sizeof r->reason, "ran on %.200s", wu.why);
      if (pixels)
        {
          mem.pixels = pixels;
          mem.row = gb_pixel_format_bytes (&io->format) * (size_t) io->width;
          from_memory = *io;
          from_memory.read = memory_read;
          from_memory.write = memory_write;
          from_memory.user = &mem;
          use = &from_memory;
          rest.base = 0.3;
          rest.span = 0.7;
        }
    }

  gb_progress_fn p = progress ? gb_progress_span_report : NULL;
  if (plan.gpu)
    {
      const double read_before = r->seconds_read;
      st = gb_cuda_run_native (&plan.p, plan.ax, plan.ay, use, p, &rest, r);
      if (use != io)
        {
          /* Copies out of memory are staging, not reading the image. */
          r->seconds_upload += r->seconds_read - read_before;
          r->seconds_read = read_before;
        }
      if (st == GB_OK || st == GB_ERR_CANCELLED)
        r->backend_used = GB_BACKEND_CUDA;
      else if (gb_is_device_failure (st))
        {
          gb_note_gpu_failure (st, r);
          gb_plan_use_cpu (params, &plan);
          r->algorithm_used = plan.p.algorithm;
        }
    }
  if (!plan.gpu)
    st = cpu_native (&plan, use, p, &rest, r);
  free ((void *) mem.pixels);
  r->seconds_total = gb_now () - t0;
  if (st == GB_OK && progress)
    progress (1.0, user);
  return st;
}
