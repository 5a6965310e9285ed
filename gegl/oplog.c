/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The process() log (oplog.h).  Lines of key=value pairs:
 *   process t=SECONDS dt=SECONDS thread=ID level=L x= y= w= h=
 *           mode=M side=S reach=R blocks=N cached=N pixels=N backend=B
 *           status=S
 * t is the monotonic clock (CLOCK_MONOTONIC on Linux), so that a driver
 * can place its own events among the calls. */
#define _GNU_SOURCE   /* gettid */
#include "config.h"

#include <stdio.h>
#include <unistd.h>
#if defined (__linux__)
#include <sys/syscall.h>
#endif

#include "oplog.h"

static FILE *log_file;

static gpointer
open_log (gpointer unused)
{
  (void) unused;
  const gchar *path = g_getenv ("CUDABLUR_OP_LOG");
  if (path && *path)
    {
      log_file = fopen (path, "a");
      if (log_file)
        setvbuf (log_file, NULL, _IOLBF, 0);
    }
  return NULL;
}

gboolean
cudablur_log_enabled (void)
{
  static GOnce once = G_ONCE_INIT;
  g_once (&once, open_log, NULL);
  return log_file != NULL;
}

gdouble
cudablur_log_now (void)
{
  return g_get_monotonic_time () * 1e-6;
}

static long
thread_id (void)
{
#if defined (__linux__) && defined (SYS_gettid)
  return (long) syscall (SYS_gettid);
#else
  return (long) (gintptr) g_thread_self ();
#endif
}

void
cudablur_log_process (gint level, const GeglRectangle *result,
                      const char *mode, gint side, gint reach, gint blocks,
                      gint cached,
                      gdouble pixels, gb_backend backend, gdouble started,
                      gdouble seconds, gb_status status)
{
  if (!cudablur_log_enabled ())
    return;
  fprintf (log_file, "process t=%.4f dt=%.4f thread=%ld level=%d x=%d y=%d "
           "w=%d h=%d mode=%s side=%d reach=%d blocks=%d cached=%d "
           "pixels=%.0f backend=%s status=%d\n", started, seconds,
           thread_id (), level, result->x, result->y, result->width,
           result->height, mode, side, reach, blocks, cached, pixels,
           backend == GB_BACKEND_CUDA ? "cuda" : "cpu", (int) status);
}
