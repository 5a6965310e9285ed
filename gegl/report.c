/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Failures where GIMP and plug-in-cudablur see them (report.h).
 *
 * GIMP shows the messages logged in the "GEGL" domain at the "message"
 * level in its own message system (app/errors.c hands them to
 * gimp_show_message); a GEGL program prints them.  A merge has no error
 * path for an operation (GIMP's gimp_gegl_apply_cached_operation fails
 * only when cancelled), so plug-in-cudablur, a child process of GIMP,
 * learns of a failure from a small file the operation keeps in the
 * user's runtime folder, named after GIMP's process id: the number of
 * failures so far and the last one's status.  It reads it before and
 * after each merge. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "report.h"

static gint failures;
static GMutex file_lock;

static gchar *
failures_file (long pid)
{
  gchar *name = g_strdup_printf ("gimp-cudablur-failures-%ld", pid);
  gchar *path = g_build_filename (g_get_user_runtime_dir (), name, NULL);
  g_free (name);
  return path;
}

void
cudablur_report_failure (guint *reported, gb_status status)
{
  const guint n = (guint) g_atomic_int_add (&failures, 1) + 1;
  gchar *path = failures_file ((long) getpid ());
  gchar *line = g_strdup_printf ("%u %d\n", n, (int) status);
  g_mutex_lock (&file_lock);
  /* Written whole and renamed into place: a reader sees the old line or
   * the new one. */
  g_file_set_contents (path, line, -1, NULL);
  g_mutex_unlock (&file_lock);
  g_free (line);
  g_free (path);
  /* One message per node and status: a redraw fails once per block. */
  const guint bit = 1u << ((guint) status % 32);
  if (g_atomic_int_or (reported, bit) & bit)
    return;
  g_log ("GEGL", G_LOG_LEVEL_MESSAGE,
         "CUDA Gaussian Blur could not blur the image: %s. The image is "
         "shown and left unblurred.", gb_status_message (status));
}

guint
cudablur_failures_read (long pid, gb_status *last)
{
  gchar *path = failures_file (pid), *text = NULL;
  guint n = 0;
  int status = 0;
  if (!g_file_get_contents (path, &text, NULL, NULL)
      || sscanf (text, "%u %d", &n, &status) != 2
      || status <= 0 || status >= GB_STATUS_COUNT)
    n = 0, status = GB_OK;
  if (last)
    *last = (gb_status) status;
  g_free (text);
  g_free (path);
  return n;
}
