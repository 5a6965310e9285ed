/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The native pipeline: the caller's pixels cross PCIe in their own format.
 *   read:   the caller fills a ring of pinned bands (GB_RING_SLOTS of
 *           GB_RING_SLOT_BYTES, kept between calls), each band uploaded
 *           while the caller fills the next;
 *   device: decode to linear premultiplied float, blur, encode the output
 *           rectangle back into the native buffer;
 *   write:  bands download into the ring while the caller writes earlier
 *           ones.
 * Nothing is written before the whole blur succeeded on the device; a
 * failure leaves the caller free to redo everything on the CPU. */
#include <stdio.h>

#include "cuda_internal.h"

namespace {

struct run
{
  const gb_params *p;
  gb_algorithm ax, ay;
  const gb_native_io *io;
  gb_progress_fn progress;
  void *user;
  gb_report *r;
  cudaStream_t s;
};

int
cancelled (const run *j, double f)
{
  return j->progress && j->progress (f, j->user);
}

/* Rows per band: as many as fit a ring slot, in whole 64-row tile rows
 * (GIMP's tiles) where the slot holds more than one. */
int
band_rows (size_t row_bytes, int rows)
{
  size_t n = GB_RING_SLOT_BYTES / (row_bytes ? row_bytes : 1);
  if (n >= 128)
    n -= n % 64;
  if (n < 1)
    n = 1;
  return n > (size_t) rows ? rows : (int) n;
}

unsigned char *
slot (int i)
{
  return gb_ctx.h_ring + (size_t) (i % GB_RING_SLOTS) * GB_RING_SLOT_BYTES;
}

gb_status
upload (run *j, size_t row, int band)
{
  const gb_native_io *io = j->io;
  for (int i = 0, y = 0; y < io->height; i++, y += band)
    {
      const int rows = band < io->height - y ? band : io->height - y;
      cudaEvent_t ev = gb_ctx.ring_ev[i % GB_RING_SLOTS];
      if (i >= GB_RING_SLOTS)   /* the slot's last upload must be done */
        GB_CUDA_TRY (cudaEventSynchronize (ev), GB_ERR_CUDA_COPY);
      double t = gb_now ();
      gb_status st = io->read (io->user, y, rows, slot (i), row);
      j->r->seconds_read += gb_now () - t;
      if (st != GB_OK)
        return st;
      if ((st = gb_cuda_copy_fault ()) != GB_OK)
        return st;
      GB_CUDA_TRY (cudaMemcpyAsync (gb_ctx.d_native + (size_t) y * row,
                                    slot (i), (size_t) rows * row,
                                    cudaMemcpyHostToDevice, j->s),
                   GB_ERR_CUDA_COPY);
      GB_CUDA_TRY (cudaEventRecord (ev, j->s), GB_ERR_CUDA_COPY);
      if (cancelled (j, 0.4 * (y + rows) / io->height))
        return GB_ERR_CANCELLED;
    }
  double t = gb_now ();
  GB_CUDA_TRY (cudaStreamSynchronize (j->s), GB_ERR_CUDA_COPY);
  j->r->seconds_upload = gb_now () - t;   /* what reading did not hide */
  return GB_OK;
}

gb_status
queue_download (run *j, int i, size_t row, int band)
{
  const int y = i * band;
  const int rows = band < j->io->out_height - y ? band
                                                : j->io->out_height - y;
  gb_status st = gb_cuda_copy_fault ();
  if (st != GB_OK)
    return st;
  GB_CUDA_TRY (cudaMemcpyAsync (slot (i), gb_ctx.d_native + (size_t) y * row,
                                (size_t) rows * row, cudaMemcpyDeviceToHost,
                                j->s), GB_ERR_CUDA_COPY);
  GB_CUDA_TRY (cudaEventRecord (gb_ctx.ring_ev[i % GB_RING_SLOTS], j->s),
               GB_ERR_CUDA_COPY);
  return GB_OK;
}

gb_status
download (run *j, size_t row, int band)
{
  const gb_native_io *io = j->io;
  const int n = (io->out_height + band - 1) / band;
  gb_status st = GB_OK;
  for (int i = 0; i < n && i < GB_RING_SLOTS && st == GB_OK; i++)
    st = queue_download (j, i, row, band);
  for (int i = 0; i < n && st == GB_OK; i++)
    {
      const int y = i * band;
      const int rows = band < io->out_height - y ? band : io->out_height - y;
      double t = gb_now ();
      GB_CUDA_TRY (cudaEventSynchronize (gb_ctx.ring_ev[i % GB_RING_SLOTS]),
                   GB_ERR_CUDA_COPY);
      j->r->seconds_download += gb_now () - t;
      t = gb_now ();
      st = io->write (io->user, y, rows, slot (i), row);
      j->r->seconds_write += gb_now () - t;
      if (st == GB_OK && i + GB_RING_SLOTS < n)
        st = queue_download (j, i + GB_RING_SLOTS, row, band);
      if (st == GB_OK && cancelled (j, 0.6 + 0.4 * (y + rows) / io->out_height))
        st = GB_ERR_CANCELLED;
    }
  return st;
}

/* One device phase, timed to its end. */
#define TIMED(field, call)                                               \
  do {                                                                   \
    double t_ = gb_now ();                                                  \
    gb_status st_ = (call);                                              \
    if (st_ != GB_OK)                                                    \
      return st_;                                                        \
    GB_CUDA_TRY (cudaStreamSynchronize (j->s), GB_ERR_CUDA_LAUNCH);      \
    j->r->field += gb_now () - t_;                                          \
  } while (0)

gb_status
run_locked (run *j)
{
  const gb_native_io *io = j->io;
  const gb_pixel_format *f = &io->format;
  const int w = io->width, h = io->height, c = f->channels;
  const size_t bpp = gb_pixel_format_bytes (f);
  const size_t row = bpp * (size_t) w, orow = bpp * (size_t) io->out_width;
  const int third_buffer = gb_cuda_whole_image (j->ax)
                    || gb_cuda_whole_image (j->ay);

  double t = gb_now ();
  gb_status st = gb_cuda_ensure_float_locked ((size_t) w * h * c
                                              * sizeof (float), third_buffer);
  if (st == GB_OK)
    st = gb_cuda_ensure_native_locked (row * (size_t) h);
  j->r->seconds_startup += gb_now () - t;
  if (st != GB_OK)
    return st;

  if ((st = upload (j, row, band_rows (row, h))) != GB_OK)
    return st;
  TIMED (seconds_decode, gb_cuda_decode (f, gb_ctx.d_native, gb_ctx.d_a, w,
                                         h, j->s));
  float *result = gb_ctx.d_a;
  TIMED (seconds_compute, gb_cuda_blur_device (j->p, j->ax, j->ay, gb_ctx.d_a,
                                               gb_ctx.d_b, gb_ctx.d_c, w, h,
                                               c, j->s, &result));
  if (cancelled (j, 0.55))
    return GB_ERR_CANCELLED;
  /* The native buffer is free again: the output goes there, packed. */
  TIMED (seconds_encode, gb_cuda_encode (f, result, w, io->out_x, io->out_y,
                                         io->out_width, io->out_height,
                                         gb_ctx.d_native, j->s));
  return download (j, orow, band_rows (orow, io->out_height));
}

/* Statuses that say the device failed, not the caller or the user. */
int
device_failure (gb_status st)
{
  return st == GB_ERR_CUDA_NO_MEMORY || st == GB_ERR_CUDA_LAUNCH
         || st == GB_ERR_CUDA_COPY || st == GB_ERR_CUDA_NO_DEVICE;
}

} // namespace

extern "C" gb_status
gb_cuda_run_native (const gb_params *params, gb_algorithm ax,
                    gb_algorithm ay, const gb_native_io *io,
                    gb_progress_fn progress, void *user, gb_report *report)
{
  run j = { params, ax, ay, io, progress, user, report, nullptr };
  gb_cuda_lock ();
  gb_cuda_clear_error ();
  double t = gb_now ();
  gb_status st = gb_cuda_init_locked ();
  report->seconds_startup += gb_now () - t;
  if (gb_cuda_simulated (st))
    st = gb_cuda_simulated_failure ();
  else if (st == GB_OK)
    {
      cudaSetDevice (gb_ctx.device);
      j.s = gb_ctx.streams[0];
      st = run_locked (&j);
      if (st != GB_OK)
        cudaStreamSynchronize (j.s);   /* no copy into the ring in flight */
      if (device_failure (st))
        gb_cuda_reset_locked ();       /* start afresh next time */
    }
  if (st != GB_OK && device_failure (st) && gb_cuda_last_error ()[0])
    snprintf (report->reason, sizeof report->reason, "%s",
              gb_cuda_last_error ());
  gb_cuda_unlock ();
  return st;
}
