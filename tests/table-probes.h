/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the front ends' table tests call each procedure with: for every
 * row of the parameter table, each end of its range and the value just
 * beyond it, with an algorithm that uses the row (so that it is checked).
 * The procedures must accept the ends and refuse the rest with a calling
 * error naming the argument. */
#ifndef CUDABLUR_TABLE_PROBES_H
#define CUDABLUR_TABLE_PROBES_H

#include "params.h"

typedef struct
{
  gb_params values;     /* defaults, the algorithm, the probed value */
  gdouble value;        /* the probed value */
  gboolean accepted;
} tp_probe;

#define TP_PROBES_MAX 4

/* The probes of a row; returns how many. */
gint tp_probes (const cb_param *p, tp_probe probes[TP_PROBES_MAX]);

/* Whether a refusal's message names the row: "name: ...". */
gboolean tp_names (const cb_param *p, const gchar *message);

#endif
