/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CUDA started ahead of the first render (early.h).  Creating a CUDA
 * context takes 0.3-0.8 s; on the render path the first preview on the
 * GPU would wait for it, on GIMP's main thread.  Until the start has
 * finished, renders are planned for the CPU (gegl/op.c), so the first
 * preview is never slower than the CPU's. */
#include "config.h"

#include "gblur.h"
#include "early.h"

static gint started;   /* 0 no, 1 yes */
static gint finished;  /* 0 no, 1 found no GPU, 2 found one */

static gpointer
start_cuda (gpointer unused)
{
  (void) unused;
  char name[256];
  g_atomic_int_set (&finished, gb_cuda_info (name, sizeof name) ? 2 : 1);
  return NULL;
}

void
cudablur_gpu_start (void)
{
  if (!g_atomic_int_compare_and_exchange (&started, 0, 1))
    return;
  GThread *thread = g_thread_try_new ("cudablur-start", start_cuda, NULL,
                                      NULL);
  if (thread)
    g_thread_unref (thread);
  else
    start_cuda (NULL);
}

gboolean
cudablur_gpu_ready (void)
{
  return g_atomic_int_get (&finished) == 2;
}

gboolean
cudablur_gpu_starting (void)
{
  return g_atomic_int_get (&started) && !g_atomic_int_get (&finished);
}
