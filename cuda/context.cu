/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA context kept between calls: device choice, streams, device
 * buffers, pinned staging and the conversion tables on the device, error
 * mapping and fault injection.  Never exits; every CUDA call is checked
 * and mapped to a gb_status.  The pipelines that use it are float_io.cu
 * (host floats) and native_io.cu (native formats). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "fault.h"
#include "../engine/convert.h"

gb_cuda_ctx gb_ctx;

namespace {

pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
char last_error[256];
/* Set once a probe found no device or driver: asking again is cheap. */
int known_absent;

/* Device buffers and pinned memory, not the context itself. */
void
free_buffers_locked (void)
{
  cudaFree (gb_ctx.d_a);
  cudaFree (gb_ctx.d_b);
  cudaFree (gb_ctx.d_c);
  cudaFree (gb_ctx.d_native);
  cudaFreeHost (gb_ctx.h_stage);
  cudaFreeHost (gb_ctx.h_ring);
  gb_ctx.d_a = gb_ctx.d_b = gb_ctx.d_c = nullptr;
  gb_ctx.d_native = nullptr;
  gb_ctx.h_stage = nullptr;
  gb_ctx.h_ring = nullptr;
  gb_ctx.d_bytes = gb_ctx.h_bytes = gb_ctx.d_native_bytes = 0;
}

void
release_locked (void)
{
  if (!gb_ctx.ready)
    return;
  cudaSetDevice (gb_ctx.device);
  free_buffers_locked ();
  for (int i = 0; i < GB_RING_SLOTS; i++)
    if (gb_ctx.ring_ev[i])
      cudaEventDestroy (gb_ctx.ring_ev[i]);
  for (int i = 0; i < GB_N_STREAMS; i++)
    if (gb_ctx.streams[i])
      cudaStreamDestroy (gb_ctx.streams[i]);
  cudaFree (gb_ctx.d_lut_mem);
  gb_ctx = gb_cuda_ctx {};
}

/* The conversion tables, copied once per context. */
gb_status
upload_luts_locked (void)
{
  const gb_convert_luts *h = gb_convert_luts_host ();
  const size_t f8 = GB_LUT_U8_FLOATS * sizeof (float);
  const size_t f16 = GB_LUT_U16_FLOATS * sizeof (float);
  const size_t guess = GB_U8_BINS + 1;
  const size_t total = 3 * f8 + f16 + guess;
  char *d = nullptr;
  GB_CUDA_TRY (cudaMalloc ((void **) &d, total), GB_ERR_CUDA_NO_MEMORY);
  gb_ctx.d_lut_mem = d;
  const void *parts[5] = { h->u8_linear, h->u8_srgb, h->u8_threshold,
                           h->u16_srgb, h->u8_guess };
  const size_t sizes[5] = { f8, f8, f8, f16, guess };
  size_t off = 0;
  for (int i = 0; i < 5; i++)
    {
      GB_CUDA_TRY (cudaMemcpy (d + off, parts[i], sizes[i],
                               cudaMemcpyHostToDevice), GB_ERR_CUDA_COPY);
      off += sizes[i];
    }
  gb_ctx.d_luts.u8_linear = (const float *) d;
  gb_ctx.d_luts.u8_srgb = (const float *) (d + f8);
  gb_ctx.d_luts.u8_threshold = (const float *) (d + 2 * f8);
  gb_ctx.d_luts.u16_srgb = (const float *) (d + 3 * f8);
  gb_ctx.d_luts.u8_guess = (const uint8_t *) (d + 3 * f8 + f16);
  return GB_OK;
}

} // namespace

/* Why no device can be used, in words a user can act on: a machine with
 * no NVIDIA driver at all gets "CUDA driver version is insufficient" from
 * the runtime, which suggests an update rather than an install. */
const char *
gb_cuda_no_device_reason (cudaError_t e)
{
  static char text[200];
  void *driver = dlopen ("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!driver)
    return "no NVIDIA driver found (libcuda.so.1 is not installed)";
  dlclose (driver);
  if (e == cudaSuccess)
    return "no CUDA device found";
  if (e == cudaErrorInsufficientDriver)
    snprintf (text, sizeof text, "the NVIDIA driver is older than this "
              "build needs (CUDA %d.%d): update the driver",
              CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
  else
    snprintf (text, sizeof text, "no usable CUDA device (%s)",
              cudaGetErrorString (e));
  return text;
}

void
gb_cuda_lock (void)
{
  pthread_mutex_lock (&ctx_lock);
}

void
gb_cuda_unlock (void)
{
  pthread_mutex_unlock (&ctx_lock);
}

const char *
gb_cuda_last_error (void)
{
  return last_error;
}

void
gb_cuda_clear_error (void)
{
  last_error[0] = '\0';
}

/* Picks the device with the most multiprocessors (ties: most memory). */
gb_status
gb_cuda_init_locked (void)
{
  int n = 0, best = -1;
  long best_score = -1;
  cudaDeviceProp prop;

  if (gb_cuda_fault_at ("probe"))
    {
      snprintf (last_error, sizeof last_error, "no usable CUDA device "
                "(GB_CUDA_FAULT=probe)");
      return GB_ERR_CUDA_NO_DEVICE;
    }
  if (gb_ctx.ready)
    return GB_OK;
  cudaError_t e = cudaGetDeviceCount (&n);
  if (e != cudaSuccess || n == 0)
    {
      snprintf (last_error, sizeof last_error, "%s",
                gb_cuda_no_device_reason (e));
      cudaGetLastError ();
      known_absent = 1;
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
      known_absent = 1;
      return GB_ERR_CUDA_NO_DEVICE;
    }
  GB_CUDA_TRY (cudaGetDeviceProperties (&prop, best), GB_ERR_CUDA_NO_DEVICE);
  GB_CUDA_TRY (cudaSetDevice (best), GB_ERR_CUDA_NO_DEVICE);
  gb_ctx.device = best;
  gb_ctx.sm_count = prop.multiProcessorCount;
  gb_ctx.shm_optin = gb_cuda_shm_limit (prop.sharedMemPerBlockOptin);
  if (cudaDeviceGetAttribute (&gb_ctx.clusters, cudaDevAttrClusterLaunch,
                              best) != cudaSuccess)
    {
      cudaGetLastError ();
      gb_ctx.clusters = 0;   /* the kernels without clusters still work */
    }
  gb_ctx.clusters = gb_cuda_clusters_allowed (gb_ctx.clusters);
  gb_ctx.pdl = gb_cuda_pdl_allowed (prop.major >= 9);
  snprintf (gb_ctx.name, sizeof gb_ctx.name, "%.190s", prop.name);
  gb_ctx.ready = 1;   /* from here release_locked undoes what exists */
  for (int i = 0; i < GB_N_STREAMS; i++)
    {
      cudaError_t se = cudaStreamCreateWithFlags (&gb_ctx.streams[i],
                                                  cudaStreamNonBlocking);
      if (se != cudaSuccess)
        {
          release_locked ();
          return gb_cuda_fail (se, GB_ERR_CUDA_NO_DEVICE, "cudaStreamCreate");
        }
    }
  for (int i = 0; i < GB_RING_SLOTS; i++)
    {
      cudaError_t ee = cudaEventCreateWithFlags (&gb_ctx.ring_ev[i],
                                                 cudaEventDisableTiming);
      if (ee != cudaSuccess)
        {
          release_locked ();
          return gb_cuda_fail (ee, GB_ERR_CUDA_NO_DEVICE, "cudaEventCreate");
        }
    }
  gb_status st = upload_luts_locked ();
  if (st != GB_OK)
    release_locked ();
  return st;
}

/* Device buffers a, b (and c when third_buffer) of `bytes` each. */
gb_status
gb_cuda_ensure_float_locked (size_t bytes, int third_buffer)
{
  if (gb_cuda_fault_at ("alloc"))
    return gb_cuda_fail (cudaErrorMemoryAllocation, GB_ERR_CUDA_NO_MEMORY,
                         "cudaMalloc (GB_CUDA_FAULT=alloc)");
  if (gb_ctx.d_bytes < bytes)
    {
      cudaFree (gb_ctx.d_a);
      cudaFree (gb_ctx.d_b);
      cudaFree (gb_ctx.d_c);
      gb_ctx.d_a = gb_ctx.d_b = gb_ctx.d_c = nullptr;
      gb_ctx.d_bytes = 0;
      GB_CUDA_TRY (cudaMalloc ((void **) &gb_ctx.d_a, bytes),
                   GB_ERR_CUDA_NO_MEMORY);
      GB_CUDA_TRY (cudaMalloc ((void **) &gb_ctx.d_b, bytes),
                   GB_ERR_CUDA_NO_MEMORY);
      gb_ctx.d_bytes = bytes;
    }
  if (third_buffer && !gb_ctx.d_c)
    GB_CUDA_TRY (cudaMalloc ((void **) &gb_ctx.d_c, gb_ctx.d_bytes),
                 GB_ERR_CUDA_NO_MEMORY);
  return GB_OK;
}

/* Pinned staging of `bytes` for the float pipeline. */
gb_status
gb_cuda_ensure_stage_locked (size_t bytes)
{
  if (gb_ctx.h_bytes >= bytes)
    return GB_OK;
  cudaFreeHost (gb_ctx.h_stage);
  gb_ctx.h_stage = nullptr;
  gb_ctx.h_bytes = 0;
  GB_CUDA_TRY (cudaMallocHost ((void **) &gb_ctx.h_stage, bytes),
               GB_ERR_CUDA_NO_MEMORY);
  gb_ctx.h_bytes = bytes;
  return GB_OK;
}

/* The native image on the device and the ring of pinned bands. */
gb_status
gb_cuda_ensure_native_locked (size_t bytes)
{
  if (gb_cuda_fault_at ("alloc"))
    return gb_cuda_fail (cudaErrorMemoryAllocation, GB_ERR_CUDA_NO_MEMORY,
                         "cudaMalloc (GB_CUDA_FAULT=alloc)");
  if (gb_ctx.d_native_bytes < bytes)
    {
      cudaFree (gb_ctx.d_native);
      gb_ctx.d_native = nullptr;
      gb_ctx.d_native_bytes = 0;
      GB_CUDA_TRY (cudaMalloc ((void **) &gb_ctx.d_native, bytes),
                   GB_ERR_CUDA_NO_MEMORY);
      gb_ctx.d_native_bytes = bytes;
    }
  if (!gb_ctx.h_ring)
    GB_CUDA_TRY (cudaMallocHost ((void **) &gb_ctx.h_ring,
                                 (size_t) GB_RING_SLOTS * GB_RING_SLOT_BYTES),
                 GB_ERR_CUDA_NO_MEMORY);
  return GB_OK;
}

gb_status
gb_cuda_copy_fault (void)
{
  if (gb_cuda_fault_at ("copy"))
    return gb_cuda_fail (cudaErrorUnknown, GB_ERR_CUDA_COPY,
                         "cudaMemcpyAsync (GB_CUDA_FAULT=copy)");
  return GB_OK;
}

/* After a failed run the context starts afresh next time. */
void
gb_cuda_reset_locked (void)
{
  release_locked ();
}

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
  if (gb_cuda_fault_at ("launch"))
    return gb_cuda_fail (cudaErrorLaunchFailure, GB_ERR_CUDA_LAUNCH, kernel);
  cudaError_t e = cudaGetLastError ();
  if (e != cudaSuccess)
    return gb_cuda_fail (e, GB_ERR_CUDA_LAUNCH, kernel);
  return GB_OK;
}

int
gb_cuda_sm_count (void)
{
  return gb_ctx.sm_count;
}

size_t
gb_cuda_shm_optin (void)
{
  return gb_ctx.shm_optin;
}

int
gb_cuda_clusters (void)
{
  return gb_ctx.clusters;
}

int
gb_cuda_pdl (void)
{
  return gb_ctx.pdl;
}

/* A simulated device stands in on machines without a GPU while a fault
 * is injected, so that every fallback path runs in CI too. */
int
gb_cuda_simulated (gb_status st)
{
  return st == GB_ERR_CUDA_NO_DEVICE && gb_cuda_fault_status () != GB_OK;
}

gb_status
gb_cuda_simulated_failure (void)
{
  snprintf (last_error, sizeof last_error,
            "simulated failure, GB_CUDA_FAULT=%.100s", getenv ("GB_CUDA_FAULT"));
  return gb_cuda_fault_status ();
}

extern "C" int
gb_cuda_built (void)
{
  return 1;
}

extern "C" int
gb_cuda_context_alive (void)
{
  gb_cuda_lock ();
  int alive = gb_ctx.ready;
  gb_cuda_unlock ();
  return alive;
}

extern "C" int
gb_cuda_probe_is_cheap (void)
{
  gb_cuda_lock ();
  int cheap = gb_ctx.ready || known_absent;
  gb_cuda_unlock ();
  return cheap;
}

extern "C" gb_status
gb_cuda_probe (char *name, size_t size)
{
  gb_cuda_lock ();
  gb_status st = gb_cuda_init_locked ();
  if (name && size)
    snprintf (name, size, "%s", st == GB_OK ? gb_ctx.name : last_error);
  gb_cuda_unlock ();
  if (gb_cuda_simulated (st))
    {
      if (name && size)
        snprintf (name, size, "%s", GB_CUDA_FAULT_DEVICE_NAME);
      return GB_OK;
    }
  return st;
}

extern "C" gb_status
gb_cuda_prepare (size_t native_bytes, size_t work_bytes, int third_buffer,
                 char *why, size_t size)
{
  gb_cuda_lock ();
  gb_status st = gb_cuda_init_locked ();
  if (st == GB_OK)
    {
      cudaSetDevice (gb_ctx.device);
      st = gb_cuda_ensure_float_locked (work_bytes, third_buffer);
      if (st == GB_OK)
        st = gb_cuda_ensure_native_locked (native_bytes);
    }
  if (why && size)
    snprintf (why, size, "%s", st == GB_OK ? gb_ctx.name : last_error);
  gb_cuda_unlock ();
  if (gb_cuda_simulated (st))
    {
      if (why && size)
        snprintf (why, size, "%s", GB_CUDA_FAULT_DEVICE_NAME);
      return GB_OK;
    }
  return st;
}

extern "C" size_t
gb_cuda_memory_available (void)
{
  size_t available = 0;
  gb_cuda_lock ();
  if (gb_cuda_init_locked () == GB_OK)
    {
      size_t free_bytes = 0, total = 0;
      cudaSetDevice (gb_ctx.device);
      if (cudaMemGetInfo (&free_bytes, &total) == cudaSuccess)
        available = free_bytes + gb_ctx.d_bytes * (gb_ctx.d_c ? 3 : 2)
                    + gb_ctx.d_native_bytes;
      else
        cudaGetLastError ();
    }
  gb_cuda_unlock ();
  return available;
}

extern "C" void
gb_cuda_trim (void)
{
  gb_cuda_lock ();
  if (gb_ctx.ready)
    {
      cudaSetDevice (gb_ctx.device);
      free_buffers_locked ();
    }
  gb_cuda_unlock ();
}

extern "C" void
gb_cuda_trim_idle (void)
{
  if (pthread_mutex_trylock (&ctx_lock) != 0)
    return;   /* a blur holds the context: its buffers are in use */
  if (gb_ctx.ready)
    {
      cudaSetDevice (gb_ctx.device);
      free_buffers_locked ();
    }
  gb_cuda_unlock ();
}

extern "C" void
gb_cuda_release (void)
{
  gb_cuda_lock ();
  release_locked ();
  gb_cuda_unlock ();
}
