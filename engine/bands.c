/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gb_blur_banded: the blur of gb_blur_native within a memory budget.
 *
 * The blur is a sequence of 1-D passes: rows then columns (the linear
 * filters), or rows then columns for each iteration (the edge-aware
 * ones).  A pass over rows runs on bands of whole rows, a pass over
 * columns on strips of whole columns, each band or strip as one float
 * image of the work format in memory, filtered by the same code as the
 * whole image (gb_cpu_run with the other axis's sigma 0, which is the
 * identity there; gb_cpu_edge_pass; their GPU counterparts), so each line
 * sees exactly what it sees in the whole image.  The first pass reads
 * the area, the last writes the output rectangle, and between passes the
 * image goes through the caller's intermediate image.  A border colour
 * frames the area with one pixel of it, decoded as gb_blur_native's frame
 * is (border.c).
 *
 * Working backwards from the output, each pass computes only the lines
 * the next needs and stores only the samples it reads.  The edge-aware
 * filter's spacings come from the area as read, recomputed for each pass
 * (band_spacings.c). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gblur.h"
#include "backend.h"
#include "bands.h"
#include "border.h"
#include "cpu_backend.h"
#include "dispatch.h"

/* Native pixels (and the floats the spacings are computed from) move in
 * chunks of a sixteenth of the budget, within these bounds (and at least
 * a line). */
#define CHUNK_MIN ((size_t) 64 << 10)
#define CHUNK_MAX ((size_t) 4 << 20)

static gb_status
validate (const gb_params *params, const gb_banded_io *io)
{
  if (!params || !io || !io->read || !io->write || !io->scratch_make
      || !io->scratch_store || !io->scratch_load)
    return GB_ERR_NULL;
  if (!gb_pixel_format_bytes (&io->format))
    return GB_ERR_FORMAT;
  if (io->width < 1 || io->height < 1 || io->width > GB_SIZE_MAX
      || io->height > GB_SIZE_MAX || io->out_width < 1 || io->out_height < 1
      || io->out_x < 0 || io->out_y < 0
      || io->out_x > io->width - io->out_width
      || io->out_y > io->height - io->out_height)
    return GB_ERR_SIZE;
  float dummy = 0.0f;
  gb_image v = { &dummy, io->width, io->height, io->format.channels,
                 (size_t) io->width * io->format.channels };
  return gb_validate (params, &v, &v);
}

/* The passes, and what each must compute: the lines of its axis in
 * [lo, hi) and, along them, the samples in [keep_lo, keep_hi) that the
 * pass after it reads (the output rectangle for the last).  A pass reads
 * whole lines, so the pass before it must give those lines' every
 * sample. */
static void
pass_regions (gb_band_job *j)
{
  j->n = 0;
  const int iterations = j->edge ? j->p.iterations : 1;
  for (int it = 1; it <= iterations; it++)
    for (int v = 0; v < 2; v++)
      if ((v ? j->p.sigma_y : j->p.sigma_x) > 0.0)
        j->pass[j->n++] = (gb_band_pass) { v, it,
                                           v ? j->plan.ay : j->plan.ax,
                                           0, 0, 0, 0 };
  /* The region each pass's output must cover: rows [y0, y1) by columns
   * [x0, x1). */
  int x0 = j->ox, x1 = j->ox + j->ow, y0 = j->oy, y1 = j->oy + j->oh;
  for (int i = j->n - 1; i >= 0; i--)
    {
      gb_band_pass *ps = &j->pass[i];
      if (ps->vertical)
        {
          ps->lo = x0, ps->hi = x1, ps->keep_lo = y0, ps->keep_hi = y1;
          y0 = 0, y1 = j->H;   /* its input: whole columns */
        }
      else
        {
          ps->lo = y0, ps->hi = y1, ps->keep_lo = x0, ps->keep_hi = x1;
          x0 = 0, x1 = j->W;   /* its input: whole rows */
        }
    }
}

/* Lines a band or strip holds, within the budgets: a line of L samples
 * costs host_px (and gpu_px on the device) bytes a sample; `fixed` bytes
 * of the host budget go first (chunks, the CPU filters' own lines).
 * Whole 64-line tiles where a band holds more (GIMP's and GEGL's tiles
 * are 64 high and 64 or 128 wide). */
static int
lines_per_band (const gb_band_job *j, int L, size_t host_px, size_t gpu_px,
                size_t fixed, int lines)
{
  const size_t line = (size_t) L;
  size_t host = j->host > fixed ? j->host - fixed : 0;
  size_t n = host / (host_px * line);
  if (j->plan.gpu && gpu_px)
    {
      const size_t g = j->gpu / (gpu_px * line);
      n = g < n ? g : n;
    }
  if (n >= 128)
    n -= n % 64;
  if (n < 1)
    n = 1;
  return n > (size_t) lines ? lines : (int) n;
}

/* Bytes a sample of a band or strip costs, on the host and on the
 * device, and the host's fixed part, for pass ps. */
static void
pass_costs (const gb_band_job *j, const gb_band_pass *ps, int first,
            size_t *host_px, size_t *gpu_px, size_t *fixed)
{
  const size_t work = sizeof (float) * (size_t) j->c;
  const int L = ps->vertical ? j->H : j->W;
  const size_t threads = (size_t) gb_threads_for (j->p.threads);
  *host_px = work;
  *gpu_px = 0;
  /* The chunk buffers: native pixels, and for the spacings the area's
   * floats and two planes. */
  *fixed = 3 * j->chunk;
  if (j->plan.gpu)
    {
      if (j->edge)
        {
          /* The area as read beside the band, for the device's
           * spacings; on the device the band, its copy, its spacings
           * and the exact blocks' states. */
          *host_px += first ? 0 : work;
          *gpu_px = 3 * work + 2 * sizeof (float) + (4 * work + 16) / 8;
        }
      else
        {
          /* The pinned copy the float pipeline stages through; on the
           * device two or three work images. */
          *host_px += work;
          *gpu_px = (gb_algorithm_banded (ps->algorithm) ? 2 : 3) * work;
        }
      return;
    }
  if (j->edge)
    {
      *host_px += sizeof (float);   /* the pass's spacings */
      *fixed += threads * 2 * sizeof (double) * (size_t) L * j->c;
    }
  else if (!gb_algorithm_banded (ps->algorithm))
    /* The recursive filters gather up to 16 lines a thread, twice. */
    *fixed += threads * 2 * 16 * work * (size_t) L;
  else
    *fixed += threads * (2 * (size_t) L + 4096) * work;
}

/* ---- the domain: the area, framed where the border is a colour --------- */

/* Decoded pixels of the domain's rectangle [x, x + w) x [y, y + h) as
 * first read, into dst (stride floats apart). */
gb_status
gb_band_read_area (gb_band_job *j, int x, int y, int w, int h, float *dst,
                   size_t stride)
{
  const gb_banded_io *io = j->io;
  const int c = j->c, F = j->F;
  /* Columns inside the area, in domain coordinates. */
  const int ix0 = x > F ? x : F;
  const int ix1 = x + w < j->W - F ? x + w : j->W - F;
  const int inner = ix1 - ix0;
  size_t rows_per_chunk = inner > 0
                          ? j->chunk / (j->bpp * (size_t) inner) : 1;
  rows_per_chunk = rows_per_chunk < 1 ? 1 : rows_per_chunk;
  int r = 0;
  while (r < h)
    {
      const int Y = y + r;
      float *row = dst + (size_t) r * stride;
      if (Y < F || Y >= j->H - F || inner <= 0)
        {
          for (int k = 0; k < w; k++)
            memcpy (row + (size_t) k * c, j->frame, sizeof (float) * c);
          r++;
          continue;
        }
      int n = h - r < (int) rows_per_chunk ? h - r : (int) rows_per_chunk;
      if (Y + n > j->H - F)
        n = j->H - F - Y;
      const double t = gb_now ();
      gb_status st = io->read (io->user, ix0 - F, Y - F, inner, n, j->native,
                               j->bpp * (size_t) inner);
      j->r->seconds_read += gb_now () - t;
      if (st != GB_OK)
        return st;
      const double t2 = gb_now ();
      st = gb_decode_rows (&io->format, j->native, j->bpp * (size_t) inner,
                           row + (size_t) (ix0 - x) * c, stride, inner, n,
                           j->p.threads);
      j->r->seconds_decode += gb_now () - t2;
      if (st != GB_OK)
        return st;
      for (int i = 0; i < n; i++)
        {
          float *ri = row + (size_t) i * stride;
          for (int X = x; X < ix0; X++)
            memcpy (ri + (size_t) (X - x) * c, j->frame, sizeof (float) * c);
          for (int X = ix1; X < x + w; X++)
            memcpy (ri + (size_t) (X - x) * c, j->frame, sizeof (float) * c);
        }
      r += n;
    }
  return GB_OK;
}

/* The part of the domain's rectangle that lies in the output, encoded
 * and written. */
static gb_status
write_output (gb_band_job *j, int x, int y, int w, int h, const float *src,
              size_t stride)
{
  const gb_banded_io *io = j->io;
  const int x0 = x > j->ox ? x : j->ox;
  const int x1 = x + w < j->ox + j->ow ? x + w : j->ox + j->ow;
  const int y0 = y > j->oy ? y : j->oy;
  const int y1 = y + h < j->oy + j->oh ? y + h : j->oy + j->oh;
  if (x1 <= x0 || y1 <= y0)
    return GB_OK;
  const size_t row = j->bpp * (size_t) (x1 - x0);
  size_t rows_per_chunk = j->chunk / row;
  rows_per_chunk = rows_per_chunk < 1 ? 1 : rows_per_chunk;
  for (int Y = y0; Y < y1; Y += (int) rows_per_chunk)
    {
      const int n = y1 - Y < (int) rows_per_chunk ? y1 - Y
                                                  : (int) rows_per_chunk;
      double t = gb_now ();
      gb_status st = gb_encode_rows (&io->format,
                                     src + (size_t) (Y - y) * stride
                                     + (size_t) (x0 - x) * j->c,
                                     stride, j->native, row, x1 - x0, n,
                                     j->p.threads);
      j->r->seconds_encode += gb_now () - t;
      if (st != GB_OK)
        return st;
      t = gb_now ();
      st = io->write (io->user, x0 - j->ox, Y - j->oy, x1 - x0, n,
                      j->native, row);
      j->r->seconds_write += gb_now () - t;
      if (st != GB_OK)
        return st;
    }
  return GB_OK;
}

/* ---- one pass --------------------------------------------------------- */

/* Runs pass number i over its bands or strips. */
static gb_status
run_pass (gb_band_job *j, int i, gb_progress_fn progress, void *user)
{
  const gb_band_pass *ps = &j->pass[i];
  const int first = i == 0, last = i == j->n - 1;
  const int L = ps->vertical ? j->H : j->W;
  const int lines = ps->hi - ps->lo;
  if (lines <= 0)
    return GB_OK;
  size_t host_px, gpu_px, fixed;
  pass_costs (j, ps, first, &host_px, &gpu_px, &fixed);
  const int per = lines_per_band (j, L, host_px, gpu_px, fixed, lines);
  const size_t c = (size_t) j->c;
  const size_t band_floats = (size_t) per * L * c;
  float *band = malloc (sizeof (float) * band_floats);
  float *dt = NULL, *orig = NULL;
  gb_status st = band ? GB_OK : GB_ERR_NO_MEMORY;
  if (st == GB_OK && j->edge && !j->plan.gpu
      && !(dt = malloc (sizeof (float) * (size_t) per * L)))
    st = GB_ERR_NO_MEMORY;
  if (st == GB_OK && j->edge && j->plan.gpu && !first
      && !(orig = malloc (sizeof (float) * band_floats)))
    st = GB_ERR_NO_MEMORY;
  j->bands += (lines + per - 1) / per;

  for (int b0 = ps->lo; b0 < ps->hi && st == GB_OK; b0 += per)
    {
      const int n = ps->hi - b0 < per ? ps->hi - b0 : per;
      /* The band as an image: rows [b0, b0 + n) of width W, or columns
       * [b0, b0 + n) of height H. */
      const int bx = ps->vertical ? b0 : 0, by = ps->vertical ? 0 : b0;
      const int bw = ps->vertical ? n : j->W, bh = ps->vertical ? j->H : n;
      const gb_image img = { band, bw, bh, j->c, (size_t) bw * c };
      double t = gb_now ();
      if (first)
        st = gb_band_read_area (j, bx, by, bw, bh, band, img.stride);
      else
        {
          st = j->io->scratch_load (j->io->user, bx, by, bw, bh, band,
                                    sizeof (float) * img.stride);
          j->r->seconds_read += gb_now () - t;
        }
      if (st != GB_OK)
        break;
      t = gb_now ();
      if (j->edge && j->plan.gpu)
        {
          gb_image original = img;
          if (!first)
            {
              original.data = orig;
              st = gb_band_read_area (j, bx, by, bw, bh, orig, img.stride);
            }
          if (st == GB_OK)
            st = gb_cuda_edge_pass (&j->p, ps->iteration, ps->vertical,
                                    ps->vertical ? j->W : j->H, &img,
                                    &original, j->r);
        }
      else if (j->edge)
        {
          st = first ? gb_band_spacings_of (j, &img, ps->vertical, dt)
                     : gb_band_spacings (j, bx, by, bw, bh, ps->vertical, dt);
          if (st == GB_OK)
            st = gb_cpu_edge_pass (&j->p, ps->iteration, ps->vertical, &img,
                                   dt, NULL);
        }
      else
        {
          gb_params q = j->p;
          q.algorithm = ps->algorithm;
          if (ps->vertical)
            q.sigma_x = 0.0;
          else
            q.sigma_y = 0.0;
          st = j->plan.gpu ? gb_cuda_run (&q, ps->algorithm, ps->algorithm,
                                          &img, &img, NULL, NULL, j->r)
                           : gb_cpu_run (&q, &img, &img, NULL, j->r);
        }
      j->r->seconds_compute += gb_now () - t;
      if (st != GB_OK)
        break;
      /* What the next pass reads, or the output. */
      const int kx = ps->vertical ? b0 : ps->keep_lo;
      const int ky = ps->vertical ? ps->keep_lo : b0;
      const int kw = ps->vertical ? n : ps->keep_hi - ps->keep_lo;
      const int kh = ps->vertical ? ps->keep_hi - ps->keep_lo : n;
      const float *kept = band + (size_t) (ky - by) * img.stride
                          + (size_t) (kx - bx) * c;
      if (last)
        st = write_output (j, kx, ky, kw, kh, kept, img.stride);
      else
        {
          t = gb_now ();
          st = j->io->scratch_store (j->io->user, kx, ky, kw, kh, kept,
                                     sizeof (float) * img.stride);
          j->r->seconds_write += gb_now () - t;
        }
      if (st == GB_OK && progress
          && progress ((i + (double) (b0 + n - ps->lo) / lines) / j->n,
                       user))
        st = GB_ERR_CANCELLED;
    }
  free (orig);
  free (dt);
  free (band);
  return st;
}

/* No axis moves a pixel: the output rectangle as it was read. */
static gb_status
copy_through (gb_band_job *j)
{
  const size_t row = sizeof (float) * (size_t) j->ow * j->c;
  int per = (int) (j->chunk / row);
  per = per < 1 ? 1 : per > j->oh ? j->oh : per;
  float *band = malloc (row * (size_t) per);
  gb_status st = band ? GB_OK : GB_ERR_NO_MEMORY;
  const size_t stride = (size_t) j->ow * j->c;
  for (int y = j->oy; y < j->oy + j->oh && st == GB_OK; y += per)
    {
      const int n = j->oy + j->oh - y < per ? j->oy + j->oh - y : per;
      st = gb_band_read_area (j, j->ox, y, j->ow, n, band, stride);
      if (st == GB_OK)
        st = write_output (j, j->ox, y, j->ow, n, band, stride);
    }
  free (band);
  return st;
}

/* Every pass in turn, the intermediate image made before the first
 * stores into it. */
static gb_status
run_passes (gb_band_job *j, gb_progress_fn progress, void *user)
{
  pass_regions (j);
  gb_status st = GB_OK;
  if (j->n > 1 && !j->scratch_made)
    {
      st = j->io->scratch_make (j->io->user, j->W, j->H, j->c);
      j->scratch_made = st == GB_OK;
    }
  for (int i = 0; i < j->n && st == GB_OK; i++)
    st = run_pass (j, i, progress, user);
  return st;
}

gb_status
gb_blur_banded (const gb_params *params, const gb_banded_io *io,
                size_t host_bytes, size_t gpu_bytes, gb_progress_fn progress,
                void *user, gb_report *report)
{
  gb_report local;
  gb_report *r = report ? report : &local;
  const double t0 = gb_now ();
  memset (r, 0, sizeof *r);
  r->backend_used = GB_BACKEND_CPU;
  gb_status st = validate (params, io);
  if (st != GB_OK)
    {
      snprintf (r->reason, sizeof r->reason, "%s", gb_status_message (st));
      return st;
    }
  gb_band_job j;
  memset (&j, 0, sizeof j);
  j.io = io;
  j.r = r;
  j.host = host_bytes;
  j.gpu = gpu_bytes;
  j.c = io->format.channels;
  j.bpp = gb_pixel_format_bytes (&io->format);
  j.F = params->border != GB_BORDER_CLAMP;
  j.W = io->width + 2 * j.F;
  j.H = io->height + 2 * j.F;
  j.ox = io->out_x + j.F;
  j.oy = io->out_y + j.F;
  j.ow = io->out_width;
  j.oh = io->out_height;
  if (j.F)
    {
      /* The frame's colour as gb_blur_native decodes it: its native
       * pixel (border.c) through the same conversion. */
      gb_framed_io framed;
      gb_native_io unused, inner = { io->format, 1, 1, 0, 0, 1, 1, NULL,
                                     NULL, NULL };
      gb_frame_io (&inner, params->border, &framed, &unused);
      st = gb_decode_rows (&io->format, framed.pixel, j.bpp, j.frame,
                           (size_t) j.c, 1, 1, 1);
      if (st != GB_OK)
        return st;
    }
  gb_params clamped = *params;
  clamped.border = GB_BORDER_CLAMP;
  gb_plan_make (&clamped, j.W, j.H, 1, &j.plan, r);
  j.p = j.plan.p;
  j.edge = (gb_algorithm_get (j.plan.ax)->uses & GB_USES_RANGE_SIGMA) != 0;
  j.chunk = host_bytes / 16 < CHUNK_MIN ? CHUNK_MIN
            : host_bytes / 16 > CHUNK_MAX ? CHUNK_MAX : host_bytes / 16;
  j.native = malloc (j.chunk > j.bpp * (size_t) j.W ? j.chunk
                                                    : j.bpp * (size_t) j.W);
  if (!j.native)
    return GB_ERR_NO_MEMORY;
  if (!j.plan.blur)
    st = copy_through (&j);
  else
    {
      st = run_passes (&j, progress, user);
      if (j.plan.gpu && gb_is_device_failure (st))
        {
          /* Everything again on the CPU, with auto resolved for it. */
          gb_note_gpu_failure (st, r);
          gb_plan_use_cpu (&clamped, &j.plan);
          j.p = j.plan.p;
          r->algorithm_used = j.plan.p.algorithm;
          st = run_passes (&j, progress, user);
        }
      r->backend_used = j.plan.gpu ? GB_BACKEND_CUDA : GB_BACKEND_CPU;
    }
  free (j.native);
  r->bands = j.bands;
  r->seconds_total = gb_now () - t0;
  if (st == GB_OK && progress)
    progress (1.0, user);
  return st;
}
