/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The float pipeline: host float images to the device and back.  Uploads
 * in bands while the horizontal FIR of earlier bands runs, downloads bands
 * while later ones are filtered, copies between pageable and pinned memory
 * on all cores, and writes dst only once the whole result is on the host,
 * so a failure leaves src intact even in place.  (The plug-in's drawables
 * take the native pipeline, native_io.cu.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "../engine/pool.h"

namespace {

/* Rows per pipeline band: big enough to keep copies efficient, small
 * enough that uploads, kernels and downloads overlap on large images. */
constexpr size_t BAND_BYTES = 16u << 20;

/* Row copies between pageable and pinned memory run on all cores: one
 * core copies at about 10 GB/s, far below what PCIe takes, and a 4K RGBA
 * image crosses twice. */
struct row_copy
{
  float *dst;
  size_t dst_stride;
  const float *src;
  size_t src_stride;
  size_t row_bytes;
  int rows_per_item;
  int rows;
};

void
row_copy_item (void *ctx_, long item, void *scratch)
{
  const row_copy *rc = (const row_copy *) ctx_;
  (void) scratch;
  int y0 = (int) item * rc->rows_per_item;
  int y1 = y0 + rc->rows_per_item < rc->rows ? y0 + rc->rows_per_item : rc->rows;
  for (int y = y0; y < y1; y++)
    memcpy (rc->dst + (size_t) y * rc->dst_stride,
            rc->src + (size_t) y * rc->src_stride, rc->row_bytes);
}

void
copy_rows (float *dst, size_t dst_stride, const float *src, size_t src_stride,
           size_t row_bytes, int rows)
{
  row_copy rc = { dst, dst_stride, src, src_stride, row_bytes, 1, rows };
  /* Items of at least 256 KiB keep the threads' start-up cost small. */
  rc.rows_per_item = (int) ((256u << 10) / (row_bytes ? row_bytes : 1)) + 1;
  long items = (rows + rc.rows_per_item - 1) / rc.rows_per_item;
  if (items <= 1 || gb_parallel_for (items, row_copy_item, &rc, 0, 0, nullptr)
                     != GB_OK)
    for (long i = 0; i < items; i++)
      row_copy_item (&rc, i, nullptr);
}

struct job
{
  const gb_params *p;
  gb_algorithm ax, ay;
  const gb_image *src, *dst;
  gb_progress_fn progress;
  void *user;
  gb_report *report;
  gb_cuda_fir_plan plan;
  int w, h, c;
  size_t row_floats;
  int band_rows;
};

int
report_progress (job *j, double f)
{
  return j->progress && j->progress (f, j->user);
}

/* Band i's rows. */
void
band (const job *j, int i, int *r0, int *r1)
{
  *r0 = i * j->band_rows;
  *r1 = *r0 + j->band_rows < j->h ? *r0 + j->band_rows : j->h;
}

/* Splits the image into bands of about BAND_BYTES; returns their count. */
int
split_bands (job *j)
{
  const size_t row_bytes = j->row_floats * sizeof (float);
  j->band_rows = (int) (BAND_BYTES / row_bytes);
  j->band_rows = j->band_rows < 1 ? 1 : (j->band_rows > j->h ? j->h
                                                              : j->band_rows);
  return (j->h + j->band_rows - 1) / j->band_rows;
}

/* Stages band i's rows in pinned memory (on all cores) and queues their
 * upload into d_a on stream s. */
gb_status
upload_band (job *j, int i, cudaStream_t s, int *r0, int *r1)
{
  const size_t row_bytes = j->row_floats * sizeof (float);
  band (j, i, r0, r1);
  float *stage = gb_ctx.h_stage + (size_t) *r0 * j->row_floats;
  copy_rows (stage, j->row_floats,
             j->src->data + (size_t) *r0 * j->src->stride, j->src->stride,
             row_bytes, *r1 - *r0);
  gb_status st = gb_cuda_copy_fault ();
  if (st != GB_OK)
    return st;
  GB_CUDA_TRY (cudaMemcpyAsync (gb_ctx.d_a + (size_t) *r0 * j->row_floats, stage,
                                row_bytes * (*r1 - *r0),
                                cudaMemcpyHostToDevice, s),
               GB_ERR_CUDA_COPY);
  return GB_OK;
}

gb_status
sync_all (void)
{
  for (int i = 0; i < GB_N_STREAMS; i++)
    GB_CUDA_TRY (cudaStreamSynchronize (gb_ctx.streams[i]), GB_ERR_CUDA_LAUNCH);
  return GB_OK;
}

/* Upload band by band; the horizontal pass of a band starts as soon as the
 * band is on the device, while the CPU stages the next band. */
gb_status
upload_and_h (job *j, int n_bands, float **result)
{
  /* The fused kernel does both passes after the upload. */
  const int do_x = j->p->sigma_x > 0.0 && !gb_cuda_fir_fusable (&j->plan, j->c);
  for (int i = 0; i < n_bands; i++)
    {
      int r0, r1;
      cudaStream_t s = gb_ctx.streams[i % GB_N_STREAMS];
      gb_status st = upload_band (j, i, s, &r0, &r1);
      if (st != GB_OK)
        return st;
      if (do_x)
        {
          st = gb_cuda_fir_h (&j->plan, gb_ctx.d_a, gb_ctx.d_b, j->w, j->h, j->c, r0, r1, s);
          if (st != GB_OK)
            return st;
        }
      if (report_progress (j, 0.4 * (i + 1) / n_bands))
        return GB_ERR_CANCELLED;
    }
  GB_CUDA_TRY (cudaGetLastError (), GB_ERR_CUDA_LAUNCH);
  *result = do_x ? gb_ctx.d_b : gb_ctx.d_a;
  return sync_all ();
}

/* The vertical pass band by band into the other buffer, each band
 * downloaded while the next is filtered. */
gb_status
v_and_download (job *j, int n_bands, float *input)
{
  const size_t row_bytes = j->row_floats * sizeof (float);
  const int fused = gb_cuda_fir_fusable (&j->plan, j->c);
  float *out = input == gb_ctx.d_a ? gb_ctx.d_b : gb_ctx.d_a;
  if (!(j->p->sigma_y > 0.0))
    out = input;
  for (int i = 0; i < n_bands; i++)
    {
      int r0, r1;
      band (j, i, &r0, &r1);
      cudaStream_t s = gb_ctx.streams[i % GB_N_STREAMS];
      if (fused || j->p->sigma_y > 0.0)
        {
          gb_status st = fused
            ? gb_cuda_fir_fused (&j->plan, input, out, j->w, j->h, j->c, r0, r1, s)
            : gb_cuda_fir_v (&j->plan, input, out, j->w, j->h, j->c, r0, r1, s);
          if (st != GB_OK)
            return st;
        }
      gb_status st = gb_cuda_copy_fault ();
      if (st != GB_OK)
        return st;
      GB_CUDA_TRY (cudaMemcpyAsync (gb_ctx.h_stage + (size_t) r0 * j->row_floats,
                                    out + (size_t) r0 * j->row_floats,
                                    row_bytes * (r1 - r0),
                                    cudaMemcpyDeviceToHost, s),
                   GB_ERR_CUDA_COPY);
      if (report_progress (j, 0.4 + 0.5 * (i + 1) / n_bands))
        return GB_ERR_CANCELLED;
    }
  return sync_all ();
}

gb_status
run_fir_locked (job *j)
{
  const size_t bytes = j->row_floats * (size_t) j->h * sizeof (float);
  gb_status st = gb_cuda_ensure_float_locked (bytes, 0);
  if (st == GB_OK)
    st = gb_cuda_ensure_stage_locked (bytes);
  if (st != GB_OK)
    return st;
  st = gb_cuda_fir_plan_make (&j->plan, j->p);
  if (st != GB_OK)
    return st;

  size_t row_bytes = j->row_floats * sizeof (float);
  int n_bands = split_bands (j);

  double t0 = gb_now ();
  float *mid = nullptr;
  st = upload_and_h (j, n_bands, &mid);
  double t1 = gb_now ();
  if (st == GB_OK)
    st = v_and_download (j, n_bands, mid);
  double t2 = gb_now ();
  if (st != GB_OK)
    {
      sync_all ();
      gb_cuda_fir_plan_free (&j->plan);
      return st;
    }
  /* Only now, with the whole result on the host, is dst written: a failure
   * above left src intact even when dst is the same memory. */
  copy_rows (j->dst->data, j->dst->stride, gb_ctx.h_stage, j->row_floats,
             row_bytes, j->h);
  double t3 = gb_now ();
  gb_cuda_fir_plan_free (&j->plan);
  if (j->report)
    {
      j->report->seconds_upload = t1 - t0;
      j->report->seconds_compute = t2 - t1;
      j->report->seconds_download = t3 - t2;
    }
  return GB_OK;
}

/* Recursive and edge-aware filters need the whole image on the device:
 * upload it (the
 * CPU stages one band while the previous one is copied), filter, download,
 * and only then write dst. */
gb_status
run_whole_image_locked (job *j)
{
  const size_t row_bytes = j->row_floats * sizeof (float);
  const size_t bytes = row_bytes * (size_t) j->h;
  gb_status st = gb_cuda_ensure_float_locked (bytes, 1);
  if (st == GB_OK)
    st = gb_cuda_ensure_stage_locked (bytes);
  if (st != GB_OK)
    return st;
  int n_bands = split_bands (j);
  cudaStream_t s = gb_ctx.streams[0];

  double t0 = gb_now ();
  for (int i = 0; i < n_bands; i++)
    {
      int r0, r1;
      if ((st = upload_band (j, i, s, &r0, &r1)) != GB_OK)
        return st;
    }
  GB_CUDA_TRY (cudaStreamSynchronize (s), GB_ERR_CUDA_COPY);
  if (report_progress (j, 0.3))
    return GB_ERR_CANCELLED;
  double t1 = gb_now ();
  float *result = nullptr;
  st = gb_cuda_blur_device (j->p, j->ax, j->ay,
                            gb_ctx.d_a, gb_ctx.d_b, gb_ctx.d_c, j->w, j->h,
                            j->c, s, &result);
  if (st == GB_OK)
    GB_CUDA_TRY (cudaStreamSynchronize (s), GB_ERR_CUDA_LAUNCH);
  if (st != GB_OK)
    return st;
  if (report_progress (j, 0.7))
    return GB_ERR_CANCELLED;
  double t2 = gb_now ();
  if ((st = gb_cuda_copy_fault ()) != GB_OK)
    return st;
  GB_CUDA_TRY (cudaMemcpyAsync (gb_ctx.h_stage, result, bytes,
                                cudaMemcpyDeviceToHost, s), GB_ERR_CUDA_COPY);
  GB_CUDA_TRY (cudaStreamSynchronize (s), GB_ERR_CUDA_COPY);
  copy_rows (j->dst->data, j->dst->stride, gb_ctx.h_stage, j->row_floats,
             row_bytes, j->h);
  double t3 = gb_now ();
  if (j->report)
    {
      j->report->seconds_upload = t1 - t0;
      j->report->seconds_compute = t2 - t1;
      j->report->seconds_download = t3 - t2;
    }
  return GB_OK;
}

} // namespace

extern "C" gb_status
gb_cuda_run (const gb_params *params, gb_algorithm ax, gb_algorithm ay,
             const gb_image *src, const gb_image *dst,
             gb_progress_fn progress, void *user, gb_report *report)
{
  job j = {};
  j.p = params;
  j.ax = ax;
  j.ay = ay;
  j.src = src;
  j.dst = dst;
  j.progress = progress;
  j.user = user;
  j.report = report;
  j.w = src->width;
  j.h = src->height;
  j.c = src->channels;
  j.row_floats = (size_t) j.w * j.c;

  gb_cuda_lock ();
  gb_cuda_clear_error ();
  gb_status st = gb_cuda_init_locked ();
  if (gb_cuda_simulated (st))
    st = gb_cuda_simulated_failure ();
  else if (st == GB_OK)
    {
      cudaSetDevice (gb_ctx.device);
      if (ax == GB_ALGO_FIR && ay == GB_ALGO_FIR)
        st = run_fir_locked (&j);
      else
        st = run_whole_image_locked (&j);
      if (st != GB_OK && st != GB_ERR_CANCELLED)
        gb_cuda_reset_locked ();  /* start afresh next time */
    }
  if (report && st != GB_OK && gb_cuda_last_error ()[0])
    snprintf (report->reason, sizeof report->reason, "%s",
              gb_cuda_last_error ());
  gb_cuda_unlock ();
  if (st == GB_OK && progress)
    progress (1.0, user);
  return st;
}

