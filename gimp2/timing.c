/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CUDABLUR_TIMING: where one call's time went, as key=value pairs on
 * stderr (tools/bench-gimp.sh parses them). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "proc-status.h"
#include "timing.h"

gboolean
cudablur_timing_wanted (void)
{
  const gchar *v = g_getenv ("CUDABLUR_TIMING");
  return v && *v && strcmp (v, "0") != 0;
}

void
cudablur_timing_start (void)
{
  if (!cudablur_timing_wanted ())
    return;
  /* "5" resets VmHWM (Linux 4.0 and later); older kernels keep the
   * process's lifetime peak, which is then what is printed. */
  FILE *f = fopen ("/proc/self/clear_refs", "w");
  if (f)
    {
      fputs ("5", f);
      fclose (f);
    }
}

/* -1 where /proc cannot tell (no live process has a peak of 0). */
static long
peak_rss_mb (void)
{
  const guint64 kb = cudablur_proc_kb ("/proc/self/status", "VmHWM:");
  return kb ? (long) (kb / 1024) : -1;
}

/* Seconds from this process's start to now, or -1 where /proc cannot
 * tell (start times are in clock ticks, 10 ms here). */
static double
process_age (void)
{
  double uptime = -1.0;
  unsigned long long start = 0;
  char buf[1024];
  FILE *f = fopen ("/proc/uptime", "r");
  if (f)
    {
      if (fscanf (f, "%lf", &uptime) != 1)
        uptime = -1.0;
      fclose (f);
    }
  f = fopen ("/proc/self/stat", "r");
  if (!f)
    return -1.0;
  size_t n = fread (buf, 1, sizeof buf - 1, f);
  fclose (f);
  buf[n] = '\0';
  /* Field 22, counted after the command name's closing parenthesis. */
  const char *p = strrchr (buf, ')');
  if (!p || uptime < 0.0
      || sscanf (p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u "
                 "%*d %*d %*d %*d %*d %*d %llu", &start) != 1)
    return -1.0;
  return uptime - (double) start / (double) sysconf (_SC_CLK_TCK);
}

void
cudablur_timing_print (const CudablurTiming *t, gboolean resident,
                       gdouble gegl_init, gdouble total)
{
  if (!cudablur_timing_wanted ())
    return;
  const gb_report *r = &t->report;
  gchar *format = g_strdup (t->format ? t->format : "none");
  g_strdelimit (format, " ", '_');
  /* Before run () was entered: exec, libgimp's start-up and the wire. */
  const double before_run = resident ? 0.0 : process_age () - total;
  g_printerr ("cudablur-timing: where=%s backend=%s algorithm=%s size=%dx%d "
              "format=%s native=%d process=%.3f gegl_init=%.3f "
              "cuda_startup=%.3f read=%.3f decode=%.3f upload=%.3f "
              "kernels=%.3f download=%.3f encode=%.3f write=%.3f "
              "flush=%.3f merge=%.3f run=%.3f peak_rss_mb=%ld\n",
              resident ? "resident" : "process",
              gb_backend_name (r->backend_used),
              gb_algorithm_name (r->algorithm_used), t->width, t->height,
              format, t->native, before_run, gegl_init, r->seconds_startup,
              r->seconds_read, r->seconds_decode, r->seconds_upload,
              r->seconds_compute, r->seconds_download, r->seconds_encode,
              r->seconds_write, t->flush, t->merge, total, peak_rss_mb ());
  g_free (format);
}
