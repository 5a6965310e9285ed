/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The operation's memory budget and what it gives back (memory.h). */
#define _GNU_SOURCE   /* malloc_trim */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <gegl.h>

#include "gblur.h"
#include "memory.h"

/* No budget below this: a band needs some room to be worth its I/O. */
#define FLOOR_BYTES ((size_t) 32 << 20)

/* A size in megabytes from the environment (decimals allowed); 0 where
 * the variable is unset or not a positive number. */
static size_t
env_megabytes (const char *name)
{
  const gchar *text = g_getenv (name);
  if (!text || !*text)
    return 0;
  gchar *end = NULL;
  const gdouble mb = g_ascii_strtod (text, &end);
  if (end == text || !(mb > 0.0) || mb > 1e12)
    {
      static gboolean warned;
      if (!warned)
        g_warning ("%s=%s is not a size in megabytes; ignored", name, text);
      warned = TRUE;
      return 0;
    }
  return (size_t) (mb * 1048576.0);
}

/* A "key:  N kB" line of a /proc file, in bytes; 0 where absent. */
static size_t
proc_kb (const char *path, const char *key)
{
  FILE *f = fopen (path, "r");
  char line[256];
  size_t bytes = 0;
  const size_t n = strlen (key);
  while (f && fgets (line, sizeof line, f))
    if (!strncmp (line, key, n) && line[n] == ':')
      bytes = (size_t) g_ascii_strtoull (line + n + 1, NULL, 10) << 10;
  if (f)
    fclose (f);
  return bytes;
}

/* A number in a file of its own (cgroup's memory.max, memory.current);
 * SIZE_MAX where it is "max" or unreadable. */
static size_t
file_number (const char *path)
{
  FILE *f = fopen (path, "r");
  char text[64] = "";
  size_t value = SIZE_MAX;
  if (f && fgets (text, sizeof text, f) && g_ascii_isdigit (text[0]))
    value = (size_t) g_ascii_strtoull (text, NULL, 10);
  if (f)
    fclose (f);
  return value;
}

/* Bytes the process may still take: the system's available memory, its
 * cgroup's room and its address space's room, the least of them. */
static size_t
room (void)
{
  size_t least = proc_kb ("/proc/meminfo", "MemAvailable");
  if (!least)
    least = SIZE_MAX;
  /* The process's control group (a systemd-run scope, a container):
   * "0::/path" in /proc/self/cgroup for cgroup v2, "N:memory:/path" for
   * v1. */
  FILE *f = fopen ("/proc/self/cgroup", "r");
  char line[512];
  while (f && fgets (line, sizeof line, f))
    {
      g_strchomp (line);
      const char *v2 = !strncmp (line, "0::", 3) ? line + 3 : NULL;
      const char *v1 = strstr (line, ":memory:");
      if (!v2 && !v1)
        continue;
      gchar *max = v2 ? g_build_filename ("/sys/fs/cgroup", v2, "memory.max",
                                          NULL)
                      : g_build_filename ("/sys/fs/cgroup/memory", v1 + 8,
                                          "memory.limit_in_bytes", NULL);
      gchar *cur = v2 ? g_build_filename ("/sys/fs/cgroup", v2,
                                          "memory.current", NULL)
                      : g_build_filename ("/sys/fs/cgroup/memory", v1 + 8,
                                          "memory.usage_in_bytes", NULL);
      const size_t limit = file_number (max), used = file_number (cur);
      /* v1 says "no limit" with a huge number. */
      if (limit < ((size_t) 1 << 62) && used != SIZE_MAX)
        least = MIN (least, limit > used ? limit - used : 0);
      g_free (max);
      g_free (cur);
    }
  if (f)
    fclose (f);
  struct rlimit as;
  if (getrlimit (RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    {
      const size_t mapped = proc_kb ("/proc/self/status", "VmSize");
      const size_t limit = (size_t) as.rlim_cur;
      least = MIN (least, limit > mapped ? limit - mapped : 0);
    }
  return least;
}

void
cudablur_budget_lookup (cudablur_budget *budget)
{
  memset (budget, 0, sizeof *budget);
  budget->host = env_megabytes ("CUDABLUR_MEMORY_SIZE");
  if (!budget->host)
    {
      /* GEGL's tile cache may still grow to its size (and GEGL swaps
       * beyond it): that much of the room is GEGL's, though no more than
       * half of it (GEGL's own default size is all the free memory). */
      guint64 cache = 0, cached = 0;
      g_object_get (gegl_config (), "tile-cache-size", &cache, NULL);
      g_object_get (gegl_stats (), "tile-cache-total", &cached, NULL);
      const size_t space = room ();
      const size_t grows = MIN (cache > cached ? cache - cached : 0,
                                space / 2);
      budget->host = MAX ((space - grows) / 2, FLOOR_BYTES);
    }
  budget->gpu = env_megabytes ("CUDABLUR_GPU_MEMORY_SIZE");
  budget->gpu_known = budget->gpu > 0;
}

size_t
cudablur_budget_gpu (cudablur_budget *budget)
{
  if (!budget->gpu_known)
    {
      /* The device's free memory, less a tenth for what others (the
       * display) take meanwhile. */
      const size_t free_bytes = gb_gpu_memory_available ();
      budget->gpu = free_bytes ? free_bytes / 10 * 9 : SIZE_MAX;
      budget->gpu_known = TRUE;
    }
  return budget->gpu;
}

static void
give_back_now (void)
{
  gb_trim_idle ();
#ifdef __GLIBC__
  /* Freed blocks below glibc's mmap threshold stay in its arenas (one a
   * thread) until trimmed. */
  malloc_trim (0);
#endif
}

/* The give-back to come: its time (g_get_monotonic_time), 0 for none. */
static GMutex due_lock;
static GCond due_changed;
static gint64 due;
static gboolean waiter_started;

static gpointer
give_back_waiter (gpointer unused)
{
  (void) unused;
  g_mutex_lock (&due_lock);
  for (;;)
    {
      if (!due)
        g_cond_wait (&due_changed, &due_lock);
      else if (g_get_monotonic_time () >= due)
        {
          due = 0;
          g_mutex_unlock (&due_lock);
          give_back_now ();
          g_mutex_lock (&due_lock);
        }
      else
        g_cond_wait_until (&due_changed, &due_lock, due);
    }
  return NULL;
}

void
cudablur_memory_give_back (void)
{
  const gchar *env = g_getenv ("CUDABLUR_GIVE_BACK_SECONDS");
  const gdouble delay = env ? g_ascii_strtod (env, NULL) : 2.0;
  g_mutex_lock (&due_lock);
  gboolean now = !(delay > 0.0 && delay <= 3600.0);
  if (!now && !waiter_started)
    {
      GThread *waiter = g_thread_try_new ("cudablur-give-back",
                                          give_back_waiter, NULL, NULL);
      if (waiter)
        {
          g_thread_unref (waiter);
          waiter_started = TRUE;
        }
      now = !waiter;
    }
  if (!now)
    {
      due = g_get_monotonic_time () + (gint64) (delay * G_USEC_PER_SEC);
      g_cond_signal (&due_changed);
    }
  g_mutex_unlock (&due_lock);
  if (now)
    give_back_now ();
}

void
cudablur_memory_hold (void)
{
  g_mutex_lock (&due_lock);
  due = 0;
  g_mutex_unlock (&due_lock);
}
