/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Device helpers shared by the kernel files (CUDA C++ only). */
#ifndef GB_DEVICE_UTIL_CUH
#define GB_DEVICE_UTIL_CUH

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

template <int C> struct vec;
template <> struct vec<1> { typedef float t; };
template <> struct vec<2> { typedef float2 t; };
template <> struct vec<4> { typedef float4 t; };

/* A pixel of C interleaved floats, read with one vector access where C
 * allows: through the read-only cache (global) or plainly (shared). */
template <int C, bool GLOBAL = true>
__device__ __forceinline__ void
load_px (const float *p, float (&v)[C])
{
  if constexpr (C == 3)
    {
#pragma unroll
      for (int ch = 0; ch < 3; ch++)
        v[ch] = GLOBAL ? __ldg (p + ch) : p[ch];
    }
  else
    {
      typedef typename vec<C>::t V;
      V q = GLOBAL ? __ldg (reinterpret_cast<const V *> (p))
                   : *reinterpret_cast<const V *> (p);
      const float *f = reinterpret_cast<const float *> (&q);
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        v[ch] = f[ch];
    }
}

template <int C>
__device__ __forceinline__ void
store_px (float *p, const float (&v)[C])
{
  if constexpr (C == 3)
    {
      p[0] = v[0]; p[1] = v[1]; p[2] = v[2];
    }
  else
    {
      typedef typename vec<C>::t V;
      V q;
      float *f = reinterpret_cast<float *> (&q);
#pragma unroll
      for (int ch = 0; ch < C; ch++)
        f[ch] = v[ch];
      *reinterpret_cast<V *> (p) = q;
    }
}

/* A pixel from global to shared memory without passing through registers;
 * cp.async moves 4, 8 or 16 bytes, so three channels take three copies.
 * Callers wait with __pipeline_commit and __pipeline_wait_prior. */
template <int C>
__device__ __forceinline__ void
copy_px_async (float *sh, const float *g)
{
  if constexpr (C == 3)
    {
#pragma unroll
      for (int ch = 0; ch < 3; ch++)
        __pipeline_memcpy_async (sh + ch, g + ch, sizeof (float));
    }
  else
    __pipeline_memcpy_async (sh, g, sizeof (float) * C);
}

/* Past 48 KB a kernel must be allowed its shared memory.  Once per
 * kernel (callers keep the result in a static), for the most it may take:
 * a call per launch cost microseconds, which timed launches and banded
 * passes paid every time. */
template <class Kernel>
cudaError_t
allow_shared (Kernel kern, size_t most, bool all_shared)
{
  cudaError_t e = cudaFuncSetAttribute (
    kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) most);
  /* All of the unified L1 as shared memory: room for one more block. */
  if (e == cudaSuccess && all_shared)
    e = cudaFuncSetAttribute (
      kern, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
  return e;
}

/* Programmatic dependent launch (compute capability 9.0 on; nothing
 * before).  A kernel launched as a dependent may start while the kernel
 * before it in the stream still runs: griddepcontrol.wait returns once
 * that one has finished and its writes are visible.  Each such kernel
 * waits, and only then lets its own dependent start, so a kernel that has
 * started knows that the kernel two launches back has finished: what it
 * reads before this call must come from there or earlier, and it writes
 * nothing before it.  Every thread calls it (or has returned). */
__device__ __forceinline__ void
pdl_wait_then_release ()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile ("griddepcontrol.wait;" ::: "memory");
  asm volatile ("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

#endif
