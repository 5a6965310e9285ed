/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Worker threads pull item indices from one atomic counter; the calling
 * thread works too and is the only one that calls the progress callback,
 * since GIMP's progress functions are not thread-safe. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "pool.h"

typedef struct
{
  long n_items;
  gb_item_fn item;
  void *ctx;
  atomic_long next;
  atomic_long done;
  atomic_int cancel;
} pool_job;

typedef struct
{
  pool_job *job;
  void *scratch;
} worker_arg;

static void
work (pool_job *job, void *scratch)
{
  for (;;)
    {
      if (atomic_load_explicit (&job->cancel, memory_order_relaxed))
        return;
      long i = atomic_fetch_add (&job->next, 1);
      if (i >= job->n_items)
        return;
      job->item (job->ctx, i, scratch);
      atomic_fetch_add (&job->done, 1);
    }
}

static void *
worker_main (void *p)
{
  worker_arg *a = p;
  work (a->job, a->scratch);
  return NULL;
}

int
gb_cpu_threads (void)
{
  long n = sysconf (_SC_NPROCESSORS_ONLN);
  if (n < 1)
    n = 1;
  if (n > 256)
    n = 256;
  return (int) n;
}

int
gb_threads_for (int requested)
{
  if (requested > 0)
    return requested > 256 ? 256 : requested;
  return gb_cpu_threads ();
}

/* The caller's own loop: one item at a time, reporting after each. */
static void
work_reporting (pool_job *job, void *scratch, const gb_progress_span *pr)
{
  for (;;)
    {
      if (atomic_load (&job->cancel))
        return;
      long i = atomic_fetch_add (&job->next, 1);
      if (i >= job->n_items)
        return;
      job->item (job->ctx, i, scratch);
      long done = atomic_fetch_add (&job->done, 1) + 1;
      double f = pr->base + pr->span * (double) done / (double) job->n_items;
      if (pr->fn (f, pr->user))
        atomic_store (&job->cancel, 1);
    }
}

gb_status
gb_parallel_for (long n_items, gb_item_fn item, void *ctx,
                 size_t scratch_bytes, int threads,
                 const gb_progress_span *progress)
{
  gb_status status = GB_OK;
  pool_job job = { .n_items = n_items, .item = item, .ctx = ctx };
  atomic_init (&job.next, 0);
  atomic_init (&job.done, 0);
  atomic_init (&job.cancel, 0);

  if (n_items <= 0)
    return GB_OK;
  int n = gb_threads_for (threads);
  if (n > n_items)
    n = (int) n_items;

  pthread_t *tids = calloc ((size_t) n, sizeof *tids);
  worker_arg *args = calloc ((size_t) n, sizeof *args);
  int started = 0;
  if (!tids || !args)
    {
      status = GB_ERR_NO_MEMORY;
      goto out;
    }
  for (int t = 0; t < n; t++)
    {
      args[t].job = &job;
      if (scratch_bytes)
        {
          args[t].scratch = calloc (1, scratch_bytes);
          if (!args[t].scratch)
            {
              status = GB_ERR_NO_MEMORY;
              goto out;
            }
        }
    }
  for (int t = 1; t < n; t++)
    {
      if (pthread_create (&tids[t], NULL, worker_main, &args[t]) != 0)
        break;  /* fewer threads still finish the job */
      started++;
    }

  if (progress && progress->fn)
    work_reporting (&job, args[0].scratch, progress);
  else
    work (&job, args[0].scratch);

  for (int t = 1; t <= started; t++)
    pthread_join (tids[t], NULL);

  if (atomic_load (&job.cancel))
    status = GB_ERR_CANCELLED;
  else if (atomic_load (&job.done) != n_items)
    status = GB_ERR_THREAD;

out:
  if (args)
    for (int t = 0; t < n; t++)
      free (args[t].scratch);
  free (args);
  free (tids);
  return status;
}

int
gb_progress_span_report (double fraction, void *span)
{
  const gb_progress_span *s = span;
  return s->fn (s->base + s->span * fraction, s->user);
}
