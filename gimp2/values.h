/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The procedure's values: what a call, the dialog and the last values
 * share, their defaults, checks and storage. */
#ifndef CUDABLUR_VALUES_H
#define CUDABLUR_VALUES_H

#include <libgimp/gimp.h>

#include "gblur.h"

#define PLUG_IN_PROC   "plug-in-cudablur"
#define PLUG_IN_PROC_FULL "plug-in-cudablur-full"
/* The menu entry's procedure: a name that no temporary procedure shares
 * (gimp2/resident.c says why), with plug-in-cudablur-full's arguments. */
#define PLUG_IN_PROC_MENU "plug-in-cudablur-menu"
#define PLUG_IN_BINARY "cudablur"
#define PLUG_IN_ROLE   "gimp-cudablur"
/* The Help button's pages: a help domain of our own, whose gimp-help.xml
 * maps PLUG_IN_HELP to a page installed with the plug-in. */
#define PLUG_IN_HELP        "plug-in-cudablur"
#define PLUG_IN_HELP_DOMAIN "gimp-cudablur"

/* The procedure's arguments after run-mode, image and drawable.  Stored
 * with gimp_set_data as the last values, so the layout has no padding
 * (doubles first, 32-bit fields after them, a multiple of 8 bytes) and
 * carries a version: stored bytes of another size or version are
 * ignored. */
typedef struct
{
  gdouble std_dev_x;
  gdouble std_dev_y;
  gdouble range_sigma;   /* 0-255 scale, edge-aware only */
  gdouble kappa;         /* edge-aware partitioned only */
  gint32  algorithm;     /* gb_algorithm numbering */
  gint32  iterations;    /* edge-aware only */
  gint32  device;        /* gb_backend numbering */
  gint32  border;        /* gb_border numbering: the edge-mode argument */
  gint32  space;         /* 0 linear light, 1 perceptual: blur-space */
  gint32  version;       /* CUDABLUR_VALS_VERSION */
  gint32  reserved;      /* 0: an even number of 32-bit fields */
} CudablurVals;

#define CUDABLUR_VALS_VERSION 3

void cudablur_vals_defaults (CudablurVals *vals);

/* Checks the values of a non-interactive call; on failure returns FALSE
 * and a message naming the argument (free with g_free). */
gboolean cudablur_vals_check (const CudablurVals *vals, gchar **message);

/* The last values: those of this GIMP session, else those kept in the
 * profile from an earlier one, else the defaults (whatever is stored must
 * pass the checks).  Saving keeps them for both. */
void cudablur_vals_load (CudablurVals *vals);
void cudablur_vals_save (const CudablurVals *vals);

/* Values as keys of a key-file group (the last values across sessions,
 * the presets): missing keys read as defaults, and values that fail the
 * checks are not taken (FALSE). */
gboolean cudablur_vals_from_keys (GKeyFile *k, const gchar *group,
                                  CudablurVals *vals);
void cudablur_vals_to_keys (const CudablurVals *vals, GKeyFile *k,
                            const gchar *group);

/* Converts plug-in values into engine parameters. */
void cudablur_vals_to_params (const CudablurVals *vals, gb_params *params);

#endif
