/* The CUDA host layer: device choice, a context reused between calls
 * (device buffers, pinned staging, streams), the upload / filter / download
 * pipeline, error mapping and fault injection.  Never exits; every CUDA
 * call is checked and mapped to a gb_status. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_internal.h"
#include "fault.h"
#include "../engine/cpu_pool.h"

namespace {

constexpr int N_STREAMS = 2;
/* Rows per pipeline band: big enough to keep copies efficient, small
 * enough that uploads, kernels and downloads overlap on large images. */
constexpr size_t BAND_BYTES = 16u << 20;

struct context
{
  int ready;
  int device;
  int sm_count;
  char name[200];
  cudaStream_t streams[N_STREAMS];
  float *d_a, *d_b, *d_c;  /* image and intermediates */
  size_t d_bytes;
  float *h_stage;          /* pinned staging for the whole image */
  size_t h_bytes;
};

pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
context ctx;
char last_error[256];

double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

void
release_locked (void)
{
  if (!ctx.ready)
    return;
  cudaSetDevice (ctx.device);
  for (int i = 0; i < N_STREAMS; i++)
    if (ctx.streams[i])
      cudaStreamDestroy (ctx.streams[i]);
  cudaFree (ctx.d_a);
  cudaFree (ctx.d_b);
  cudaFree (ctx.d_c);
  cudaFreeHost (ctx.h_stage);
  ctx = context {};
}

/* Picks the device with the most multiprocessors (ties: most memory). */
gb_status
init_locked (void)
{
  int n = 0, best = -1;
  long best_score = -1;
  cudaDeviceProp prop;

  if (gb_fault_at ("probe"))
    {
      snprintf (last_error, sizeof last_error, "no usable CUDA device "
                "(GB_CUDA_FAULT=probe)");
      return GB_ERR_CUDA_NO_DEVICE;
    }
  if (ctx.ready)
    return GB_OK;
  cudaError_t e = cudaGetDeviceCount (&n);
  if (e != cudaSuccess || n == 0)
    {
      snprintf (last_error, sizeof last_error, "no usable CUDA device (%s)",
                e != cudaSuccess ? cudaGetErrorString (e) : "none found");
      cudaGetLastError ();
      return GB_ERR_CUDA_NO_DEVICE;
    }
  for (int i = 0; i < n; i++)
    {
      int mode = 0;
      if (cudaGetDeviceProperties (&prop, i) != cudaSuccess
          || cudaDeviceGetAttribute (&mode, cudaDevAttrComputeMode, i)
             != cudaSuccess
          || mode == cudaComputeModeProhibited
          || prop.major * 10 + prop.minor < 75)
        {
          cudaGetLastError ();
          continue;
        }
      long score = (long) prop.multiProcessorCount * 1000000L
                   + (long) (prop.totalGlobalMem >> 20);
      if (score > best_score)
        {
          best_score = score;
          best = i;
        }
    }
  if (best < 0)
    {
      snprintf (last_error, sizeof last_error,
                "no CUDA device of compute capability 7.5 or newer");
      return GB_ERR_CUDA_NO_DEVICE;
    }
  GB_CUDA_TRY (cudaGetDeviceProperties (&prop, best), GB_ERR_CUDA_NO_DEVICE);
  GB_CUDA_TRY (cudaSetDevice (best), GB_ERR_CUDA_NO_DEVICE);
  ctx.device = best;
  ctx.sm_count = prop.multiProcessorCount;
  snprintf (ctx.name, sizeof ctx.name, "%.190s", prop.name);
  for (int i = 0; i < N_STREAMS; i++)
    {
      cudaError_t se = cudaStreamCreateWithFlags (&ctx.streams[i],
                                                  cudaStreamNonBlocking);
      if (se != cudaSuccess)
        {
          ctx.ready = 1;
          release_locked ();
          return gb_cuda_fail (se, GB_ERR_CUDA_NO_DEVICE, "cudaStreamCreate");
        }
    }
  ctx.ready = 1;
  return GB_OK;
}

/* Device buffers a, b (and c when three are asked for) of `bytes` each,
 * and pinned staging for the whole image, kept between calls. */
gb_status
ensure_buffers (size_t bytes, int three)
{
  if (gb_fault_at ("alloc"))
    return gb_cuda_fail (cudaErrorMemoryAllocation, GB_ERR_CUDA_NO_MEMORY,
                         "cudaMalloc (GB_CUDA_FAULT=alloc)");
  if (ctx.d_bytes < bytes)
    {
      cudaFree (ctx.d_a);
      cudaFree (ctx.d_b);
      cudaFree (ctx.d_c);
      ctx.d_a = ctx.d_b = ctx.d_c = nullptr;
      ctx.d_bytes = 0;
      GB_CUDA_TRY (cudaMalloc ((void **) &ctx.d_a, bytes), GB_ERR_CUDA_NO_MEMORY);
      GB_CUDA_TRY (cudaMalloc ((void **) &ctx.d_b, bytes), GB_ERR_CUDA_NO_MEMORY);
      ctx.d_bytes = bytes;
    }
  if (three && !ctx.d_c)
    GB_CUDA_TRY (cudaMalloc ((void **) &ctx.d_c, ctx.d_bytes),
                 GB_ERR_CUDA_NO_MEMORY);
  if (ctx.h_bytes < bytes)
    {
      cudaFreeHost (ctx.h_stage);
      ctx.h_stage = nullptr;
      ctx.h_bytes = 0;
      GB_CUDA_TRY (cudaMallocHost ((void **) &ctx.h_stage, bytes),
                   GB_ERR_CUDA_NO_MEMORY);
      ctx.h_bytes = bytes;
    }
  return GB_OK;
}

gb_status
copy_fault (void)
{
  if (gb_fault_at ("copy"))
    return gb_cuda_fail (cudaErrorUnknown, GB_ERR_CUDA_COPY,
                         "cudaMemcpyAsync (GB_CUDA_FAULT=copy)");
  return GB_OK;
}

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
  const gb_image *src, *dst;
  gb_progress_fn progress;
  void *user;
  gb_report *report;
  gb_fir_plan plan;
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
  float *stage = ctx.h_stage + (size_t) *r0 * j->row_floats;
  copy_rows (stage, j->row_floats,
             j->src->data + (size_t) *r0 * j->src->stride, j->src->stride,
             row_bytes, *r1 - *r0);
  gb_status st = copy_fault ();
  if (st != GB_OK)
    return st;
  GB_CUDA_TRY (cudaMemcpyAsync (ctx.d_a + (size_t) *r0 * j->row_floats, stage,
                                row_bytes * (*r1 - *r0),
                                cudaMemcpyHostToDevice, s),
               GB_ERR_CUDA_COPY);
  return GB_OK;
}

gb_status
sync_all (void)
{
  for (int i = 0; i < N_STREAMS; i++)
    GB_CUDA_TRY (cudaStreamSynchronize (ctx.streams[i]), GB_ERR_CUDA_LAUNCH);
  return GB_OK;
}

/* Upload band by band; the horizontal pass of a band starts as soon as the
 * band is on the device, while the CPU stages the next band. */
gb_status
upload_and_h (job *j, int n_bands, float **result)
{
  /* The fused kernel does both passes after the upload. */
  const int do_x = j->p->sigma_x > 0.0 && !gb_fir_fusable (&j->plan);
  for (int i = 0; i < n_bands; i++)
    {
      int r0, r1;
      cudaStream_t s = ctx.streams[i % N_STREAMS];
      gb_status st = upload_band (j, i, s, &r0, &r1);
      if (st != GB_OK)
        return st;
      if (do_x)
        {
          st = gb_fir_h (&j->plan, ctx.d_a, ctx.d_b, j->w, j->h, j->c, r0, r1, s);
          if (st != GB_OK)
            return st;
        }
      if (report_progress (j, 0.4 * (i + 1) / n_bands))
        return GB_ERR_CANCELLED;
    }
  GB_CUDA_TRY (cudaGetLastError (), GB_ERR_CUDA_LAUNCH);
  *result = do_x ? ctx.d_b : ctx.d_a;
  return sync_all ();
}

/* The vertical pass band by band into the other buffer, each band
 * downloaded while the next is filtered. */
gb_status
v_and_download (job *j, int n_bands, float *input)
{
  const size_t row_bytes = j->row_floats * sizeof (float);
  const int fused = gb_fir_fusable (&j->plan);
  float *out = input == ctx.d_a ? ctx.d_b : ctx.d_a;
  if (!(j->p->sigma_y > 0.0))
    out = input;
  for (int i = 0; i < n_bands; i++)
    {
      int r0, r1;
      band (j, i, &r0, &r1);
      cudaStream_t s = ctx.streams[i % N_STREAMS];
      if (fused || j->p->sigma_y > 0.0)
        {
          gb_status st = fused
            ? gb_fir_fused (&j->plan, input, out, j->w, j->h, j->c, r0, r1, s)
            : gb_fir_v (&j->plan, input, out, j->w, j->h, j->c, r0, r1, s);
          if (st != GB_OK)
            return st;
        }
      gb_status st = copy_fault ();
      if (st != GB_OK)
        return st;
      GB_CUDA_TRY (cudaMemcpyAsync (ctx.h_stage + (size_t) r0 * j->row_floats,
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
  gb_status st = ensure_buffers (bytes, 0);
  if (st != GB_OK)
    return st;
  st = gb_fir_plan_make (&j->plan, j->p);
  if (st != GB_OK)
    return st;

  size_t row_bytes = j->row_floats * sizeof (float);
  int n_bands = split_bands (j);

  double t0 = now ();
  float *mid = nullptr;
  st = upload_and_h (j, n_bands, &mid);
  double t1 = now ();
  if (st == GB_OK)
    st = v_and_download (j, n_bands, mid);
  double t2 = now ();
  if (st != GB_OK)
    {
      sync_all ();
      gb_fir_plan_free (&j->plan);
      return st;
    }
  /* Only now, with the whole result on the host, is dst written: a failure
   * above left src intact even when dst is the same memory. */
  copy_rows (j->dst->data, j->dst->stride, ctx.h_stage, j->row_floats,
             row_bytes, j->h);
  double t3 = now ();
  gb_fir_plan_free (&j->plan);
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
  gb_status st = ensure_buffers (bytes, 1);
  if (st != GB_OK)
    return st;
  int n_bands = split_bands (j);
  cudaStream_t s = ctx.streams[0];

  double t0 = now ();
  for (int i = 0; i < n_bands; i++)
    {
      int r0, r1;
      if ((st = upload_band (j, i, s, &r0, &r1)) != GB_OK)
        return st;
    }
  GB_CUDA_TRY (cudaStreamSynchronize (s), GB_ERR_CUDA_COPY);
  if (report_progress (j, 0.3))
    return GB_ERR_CANCELLED;
  double t1 = now ();
  float *result = nullptr;
  if (j->p->algorithm == GB_ALGO_EDGE_EXACT
      || j->p->algorithm == GB_ALGO_EDGE_PARTITIONED)
    st = gb_edge_run (j->p, ctx.d_a, ctx.d_b, ctx.d_c, j->w, j->h, j->c,
                      ctx.sm_count, s, &result);
  else
    st = gb_recursive_run (j->p, ctx.d_a, ctx.d_b, ctx.d_c, j->w, j->h, j->c,
                           s, &result);
  if (st != GB_OK)
    return st;
  if (report_progress (j, 0.7))
    return GB_ERR_CANCELLED;
  double t2 = now ();
  if ((st = copy_fault ()) != GB_OK)
    return st;
  GB_CUDA_TRY (cudaMemcpyAsync (ctx.h_stage, result, bytes,
                                cudaMemcpyDeviceToHost, s), GB_ERR_CUDA_COPY);
  GB_CUDA_TRY (cudaStreamSynchronize (s), GB_ERR_CUDA_COPY);
  copy_rows (j->dst->data, j->dst->stride, ctx.h_stage, j->row_floats,
             row_bytes, j->h);
  double t3 = now ();
  if (j->report)
    {
      j->report->seconds_upload = t1 - t0;
      j->report->seconds_compute = t2 - t1;
      j->report->seconds_download = t3 - t2;
    }
  return GB_OK;
}

} // namespace

gb_status
gb_cuda_fail (cudaError_t err, gb_status kind, const char *what)
{
  if (err == cudaErrorMemoryAllocation)
    kind = GB_ERR_CUDA_NO_MEMORY;
  else if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver
           || err == cudaErrorInitializationError)
    kind = GB_ERR_CUDA_NO_DEVICE;
  snprintf (last_error, sizeof last_error, "%s: %s", what,
            cudaGetErrorString (err));
  cudaGetLastError ();  /* clear non-sticky errors */
  return kind;
}

gb_status
gb_cuda_check_launch (const char *kernel)
{
  if (gb_fault_at ("launch"))
    return gb_cuda_fail (cudaErrorLaunchFailure, GB_ERR_CUDA_LAUNCH, kernel);
  cudaError_t e = cudaGetLastError ();
  if (e != cudaSuccess)
    return gb_cuda_fail (e, GB_ERR_CUDA_LAUNCH, kernel);
  return GB_OK;
}

int
gb_cuda_sm_count (void)
{
  return ctx.sm_count;
}

extern "C" int
gb_cuda_built (void)
{
  return 1;
}

extern "C" gb_status
gb_cuda_probe (char *name, size_t size)
{
  pthread_mutex_lock (&ctx_lock);
  gb_status st = init_locked ();
  if (name && size)
    snprintf (name, size, "%s", st == GB_OK ? ctx.name : last_error);
  pthread_mutex_unlock (&ctx_lock);
  if (st == GB_ERR_CUDA_NO_DEVICE && gb_fault_status () != GB_OK)
    {
      /* No GPU here: a simulated device lets the fallback be tested. */
      if (name && size)
        snprintf (name, size, "%s", GB_FAULT_DEVICE_NAME);
      return GB_OK;
    }
  return st;
}

extern "C" int
gb_cuda_supports (gb_algorithm algorithm)
{
  return algorithm == GB_ALGO_FIR || gb_whole_image_algorithm (algorithm);
}

extern "C" gb_status
gb_cuda_run (const gb_params *params, const gb_image *src, const gb_image *dst,
             gb_progress_fn progress, void *user, gb_report *report)
{
  job j = {};
  j.p = params;
  j.src = src;
  j.dst = dst;
  j.progress = progress;
  j.user = user;
  j.report = report;
  j.w = src->width;
  j.h = src->height;
  j.c = src->channels;
  j.row_floats = (size_t) j.w * j.c;

  pthread_mutex_lock (&ctx_lock);
  gb_status st = init_locked ();
  if (st == GB_ERR_CUDA_NO_DEVICE && gb_fault_status () != GB_OK)
    {
      st = gb_fault_status ();   /* the simulated device fails as asked */
      snprintf (last_error, sizeof last_error,
                "simulated failure, GB_CUDA_FAULT=%.100s",
                getenv ("GB_CUDA_FAULT"));
    }
  else if (st == GB_OK)
    {
      cudaSetDevice (ctx.device);
      if (params->algorithm == GB_ALGO_FIR)
        st = run_fir_locked (&j);
      else if (gb_whole_image_algorithm (params->algorithm))
        st = run_whole_image_locked (&j);
      else
        st = GB_ERR_NOT_AVAILABLE;
      if (st != GB_OK && st != GB_ERR_CANCELLED && st != GB_ERR_NOT_AVAILABLE)
        release_locked ();  /* start afresh next time */
    }
  if (report && st != GB_OK && last_error[0])
    snprintf (report->reason, sizeof report->reason, "%s", last_error);
  pthread_mutex_unlock (&ctx_lock);
  if (st == GB_OK && progress)
    progress (1.0, user);
  return st;
}

extern "C" void
gb_cuda_release (void)
{
  pthread_mutex_lock (&ctx_lock);
  release_locked ();
  pthread_mutex_unlock (&ctx_lock);
}
