/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the operation may take of the machine's memory, and what it gives
 * back when an instance goes (gegl/memory.c). */
#ifndef CUDABLUR_GEGL_MEMORY_H
#define CUDABLUR_GEGL_MEMORY_H

#include <stddef.h>

#include <glib.h>

typedef struct
{
  size_t host;         /* bytes of host memory one blur may take, besides
                          GEGL's buffers (GEGL's tile cache holds those) */
  size_t gpu;          /* bytes of GPU memory, where gpu_known */
  gboolean gpu_known;  /* CUDABLUR_GPU_MEMORY_SIZE set, or asked already */
} cudablur_budget;

/* The budget now: CUDABLUR_MEMORY_SIZE (megabytes, as GEGL_CACHE_SIZE),
 * else half the memory the process may still take (the system's
 * available memory, within its cgroup's limit and its address-space
 * limit) once GEGL's tile cache has grown to its tile-cache-size (GIMP
 * sets it from its preferences; counted for at most half of that room);
 * CUDABLUR_GPU_MEMORY_SIZE (megabytes) caps the GPU's,
 * which is otherwise nine tenths of what the device has free, asked when
 * needed. */
void cudablur_budget_lookup (cudablur_budget *budget);

/* The GPU's share: asks the device where no variable set it (which
 * starts CUDA); SIZE_MAX where nothing can be told. */
size_t cudablur_budget_gpu (cudablur_budget *budget);

/* Gives back what blurs kept for the next one: the engine's work image,
 * the GPU's buffers and pinned memory (not the CUDA context) and the
 * allocator's free pages, CUDABLUR_GIVE_BACK_SECONDS (default 2) after
 * the call unless a blur starts meanwhile (cudablur_memory_hold): a
 * script's merges, one after another, keep them; 0 gives them back at
 * once.  Never waits: whatever another instance is using at the time (a
 * blur on another thread) stays with it; what it kept idle it allocates
 * again next time. */
void cudablur_memory_give_back (void);

/* A blur starts: a give-back not yet done waits for the next call. */
void cudablur_memory_hold (void);

#endif
