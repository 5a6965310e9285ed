/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Figures in kB from Linux's /proc text files (status, meminfo). */
#ifndef CUDABLUR_PROC_STATUS_H
#define CUDABLUR_PROC_STATUS_H

#include <glib.h>

/* The number after `key` in `file`, in kB; 0 where either is missing. */
guint64 cudablur_proc_kb (const gchar *file, const gchar *key);

#endif
