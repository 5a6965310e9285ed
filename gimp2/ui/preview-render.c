/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The preview's worker thread and its jobs (preview-render.h). */
#include "config.h"

#include <string.h>

#include "preview-render.h"

/* ----------------------------------------------------------- sources */

pv_source *
pv_source_read (GeglBuffer *buffer, const Babl *format, gint channels,
                pv_rect rect, gdouble scale)
{
  pv_source *s = g_try_new0 (pv_source, 1);
  if (!s)
    return NULL;
  s->pixels = g_try_new (gfloat, (gsize) rect.width * rect.height * channels);
  if (!s->pixels)
    {
      g_free (s);
      return NULL;
    }
  s->refs = 1;
  s->rect = rect;
  s->scale = scale;
  s->format = format;
  s->channels = channels;
  GeglRectangle r = { rect.x, rect.y, rect.width, rect.height };
  gegl_buffer_get (buffer, &r, scale, format, s->pixels, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_CLAMP);
  return s;
}

pv_source *
pv_source_ref (pv_source *s)
{
  g_atomic_int_inc (&s->refs);
  return s;
}

void
pv_source_unref (pv_source *s)
{
  if (s && g_atomic_int_dec_and_test (&s->refs))
    {
      g_free (s->pixels);
      g_free (s);
    }
}

gboolean
pv_source_covers (const pv_source *s, pv_rect r, gdouble scale,
                  const Babl *format)
{
  return s && s->scale == scale && s->format == format && r.x >= s->rect.x
         && r.y >= s->rect.y
         && r.x + r.width <= s->rect.x + s->rect.width
         && r.y + r.height <= s->rect.y + s->rect.height;
}

/* --------------------------------------------------------------- jobs */

void
pv_job_free (pv_job *job)
{
  if (!job)
    return;
  pv_source_unref (job->source);
  g_free (job->mask);
  g_free (job->blurred);
  g_free (job->original);
  g_free (job);
}

struct pv_worker
{
  GThread *thread;
  GMutex lock;
  GCond wake;
  pv_job *pending;    /* the newest job, not started */
  pv_job *result;     /* the newest finished one */
  gint newest;        /* its generation (atomic: the engine polls it) */
  gboolean running;
  gboolean quit;
};

/* The engine's view of one job. */
typedef struct
{
  pv_worker *worker;
  pv_job *job;
  gfloat *out;        /* out's float pixels */
} job_io;

static gboolean
stale (const job_io *j)
{
  return g_atomic_int_get (&j->worker->newest) != j->job->generation;
}

static int
on_progress (double fraction, void *user)
{
  (void) fraction;
  return stale (user);
}

static gb_status
read_rows (void *user, int y, int rows, void *dst, size_t stride)
{
  const job_io *j = user;
  const pv_source *s = j->job->source;
  const pv_rect *r = &j->job->read;
  const gsize row_bytes = sizeof (gfloat) * r->width * s->channels;
  for (int i = 0; i < rows; i++)
    {
      const gfloat *from = s->pixels
        + ((gsize) (r->y - s->rect.y + y + i) * s->rect.width
           + (r->x - s->rect.x)) * s->channels;
      memcpy ((guchar *) dst + (gsize) i * stride, from, row_bytes);
    }
  return stale (j) ? GB_ERR_CANCELLED : GB_OK;
}

static gb_status
write_rows (void *user, int y, int rows, const void *src, size_t stride)
{
  const job_io *j = user;
  const pv_rect *o = &j->job->out;
  const gint c = j->job->source->channels;
  const gsize row_bytes = sizeof (gfloat) * o->width * c;
  for (int i = 0; i < rows; i++)
    memcpy (j->out + (gsize) (y + i) * o->width * c,
            (const guchar *) src + (gsize) i * stride, row_bytes);
  return GB_OK;
}

/* Blurred and original pixels of out in the display format, the blur
 * shown only where the selection mask lets it through (as merging the
 * shadow buffer does in the final render). */
static gb_status
to_display (pv_job *job, const gfloat *blurred)
{
  const pv_source *s = job->source;
  const pv_rect *o = &job->out;
  const gsize n = (gsize) o->width * o->height;
  const Babl *fish = job->to_display;
  job->blurred = g_try_malloc (n * job->display_bpp);
  job->original = g_try_malloc (n * job->display_bpp);
  if (!job->blurred || !job->original)
    return GB_ERR_NO_MEMORY;
  babl_process (fish, blurred, job->blurred, (long) n);
  for (gint y = 0; y < o->height; y++)
    babl_process (fish,
                  s->pixels + ((gsize) (o->y - s->rect.y + y) * s->rect.width
                               + (o->x - s->rect.x)) * s->channels,
                  job->original + (gsize) y * o->width * job->display_bpp,
                  o->width);
  if (job->mask)
    for (gsize i = 0; i < n; i++)
      for (gint c = 0; c < job->display_bpp; c++)
        {
          const gsize k = i * job->display_bpp + c;
          const gint a = job->original[k], b = job->blurred[k];
          job->blurred[k] = (guchar) (a + ((b - a) * job->mask[i]
                                           + (b >= a ? 127 : -127)) / 255);
        }
  return GB_OK;
}

static void
run_job (pv_worker *w, pv_job *job)
{
  const pv_source *s = job->source;
  gb_params params = job->vals;
  params.sigma_x = MIN (params.sigma_x * s->scale, GB_SIGMA_MAX);
  params.sigma_y = MIN (params.sigma_y * s->scale, GB_SIGMA_MAX);

  job_io j = { w, job, NULL };
  j.out = g_try_new (gfloat, (gsize) job->out.width * job->out.height
                             * s->channels);
  if (!j.out)
    {
      job->status = GB_ERR_NO_MEMORY;
      return;
    }
  const gb_native_io io = {
    { GB_SAMPLE_FLOAT, GB_TRC_LINEAR, s->channels },
    job->read.width, job->read.height,
    job->out.x - job->read.x, job->out.y - job->read.y,
    job->out.width, job->out.height, read_rows, write_rows, &j
  };
  job->status = gb_blur_native (&params, &io, on_progress, &j,
                                &job->report);
  if (job->status == GB_OK)
    job->status = to_display (job, j.out);
  g_free (j.out);
}

/* Hands out only the newest job's result. */
static void
finish_locked (pv_worker *w, pv_job *job)
{
  if (job->generation == g_atomic_int_get (&w->newest)
      && job->status != GB_ERR_CANCELLED)
    {
      pv_job_free (w->result);
      w->result = job;
    }
  else
    pv_job_free (job);
}

/* Runs the pending job with the lock released; called and returns with
 * the lock held. */
static void
run_pending_locked (pv_worker *w)
{
  pv_job *job = w->pending;
  w->pending = NULL;
  w->running = TRUE;
  g_mutex_unlock (&w->lock);
  run_job (w, job);
  g_mutex_lock (&w->lock);
  w->running = FALSE;
  finish_locked (w, job);
}

static gpointer
worker_main (gpointer data)
{
  pv_worker *w = data;
  g_mutex_lock (&w->lock);
  while (!w->quit)
    if (w->pending)
      run_pending_locked (w);
    else
      g_cond_wait (&w->wake, &w->lock);
  g_mutex_unlock (&w->lock);
  return NULL;
}

pv_worker *
pv_worker_new (void)
{
  pv_worker *w = g_new0 (pv_worker, 1);
  g_mutex_init (&w->lock);
  g_cond_init (&w->wake);
  return w;
}

void
pv_worker_submit (pv_worker *w, pv_job *job)
{
  g_mutex_lock (&w->lock);
  job->generation = g_atomic_int_get (&w->newest) + 1;
  g_atomic_int_set (&w->newest, job->generation);
  pv_job_free (w->pending);
  w->pending = job;
  if (!w->thread)
    w->thread = g_thread_try_new ("cudablur-preview", worker_main, w, NULL);
  if (w->thread)
    {
      g_cond_signal (&w->wake);
      g_mutex_unlock (&w->lock);
      return;
    }
  /* No thread to be had: render here, slower to answer but right. */
  run_pending_locked (w);
  g_mutex_unlock (&w->lock);
}

void
pv_worker_cancel (pv_worker *w)
{
  g_mutex_lock (&w->lock);
  g_atomic_int_inc (&w->newest);
  pv_job_free (w->pending);
  w->pending = NULL;
  pv_job_free (w->result);
  w->result = NULL;
  g_mutex_unlock (&w->lock);
}

pv_job *
pv_worker_poll (pv_worker *w, gboolean *busy)
{
  g_mutex_lock (&w->lock);
  pv_job *r = w->result;
  w->result = NULL;
  *busy = w->pending || w->running;
  g_mutex_unlock (&w->lock);
  return r;
}

void
pv_worker_free (pv_worker *w)
{
  if (!w)
    return;
  pv_worker_cancel (w);
  g_mutex_lock (&w->lock);
  w->quit = TRUE;
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
  if (w->thread)
    g_thread_join (w->thread);
  pv_job_free (w->pending);
  pv_job_free (w->result);
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->wake);
  g_free (w);
}
