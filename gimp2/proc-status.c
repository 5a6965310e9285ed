/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Figures in kB from Linux's /proc text files: the plug-in's memory check
 * (render.c), its timing report (timing.c) and the test helper's limits. */
#include "config.h"

#include <string.h>

#include "proc-status.h"

guint64
cudablur_proc_kb (const gchar *file, const gchar *key)
{
  gchar *text = NULL;
  guint64 kb = 0;
  if (g_file_get_contents (file, &text, NULL, NULL))
    {
      const gchar *p = strstr (text, key);
      if (p)
        kb = g_ascii_strtoull (p + strlen (key), NULL, 10);
    }
  g_free (text);
  return kb;
}
