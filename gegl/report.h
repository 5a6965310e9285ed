/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A blur that cannot be done is said where it is seen (gegl/report.c):
 * in GIMP's own messages, and to plug-in-cudablur, which then fails. */
#ifndef CUDABLUR_GEGL_REPORT_H
#define CUDABLUR_GEGL_REPORT_H

#include <glib.h>

#include "gblur.h"

/* Reports that a render failed with `status` (the operation has passed
 * its input through): counts it where plug-in-cudablur reads failures
 * (cudablur_failures_read) and, the first time this node fails with this
 * status, logs a message in GEGL's domain, which GIMP shows in its
 * message system (its error console or a message dialog). */
void cudablur_report_failure (guint *reported, gb_status status);

/* The failures counted so far in the process `pid` (the operation's
 * process, GIMP), and in *last (when not NULL) the last one's status;
 * 0 (and GB_OK) when there were none. */
guint cudablur_failures_read (long pid, gb_status *last);

#endif
