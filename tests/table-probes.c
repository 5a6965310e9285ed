/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The table tests' probes (table-probes.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "table-probes.h"

/* An algorithm that uses the row: the first in the registry (the default
 * where every algorithm does). */
static gint
algorithm_for (const cb_param *p)
{
  if (!p->uses)
    return GB_ALGO_AUTO;
  for (gint a = 0; a < GB_ALGO_COUNT; a++)
    if (cb_param_used_by (p, a))
      return a;
  return GB_ALGO_AUTO;
}

static void
probe (const cb_param *p, gdouble value, gboolean accepted, tp_probe *out)
{
  gb_params_init (&out->values);
  out->values.algorithm = (gb_algorithm) algorithm_for (p);
  if (p->type == CB_PARAM_DOUBLE)
    cb_param_set_double (p, &out->values, value);
  else
    cb_param_set_int (p, &out->values, (gint) value);
  out->value = value;
  out->accepted = accepted;
}

gint
tp_probes (const cb_param *p, tp_probe probes[TP_PROBES_MAX])
{
  if (p->type != CB_PARAM_DOUBLE)
    {
      probe (p, p->min - 1, FALSE, &probes[0]);
      probe (p, p->min, TRUE, &probes[1]);
      probe (p, p->max, TRUE, &probes[2]);
      probe (p, p->max + 1, FALSE, &probes[3]);
      return 4;
    }
  if (p->min_excluded)
    {
      probe (p, p->min, FALSE, &probes[0]);
      probe (p, nextafter (p->min, INFINITY), TRUE, &probes[1]);
    }
  else
    {
      probe (p, nextafter (p->min, -INFINITY), FALSE, &probes[0]);
      probe (p, p->min, TRUE, &probes[1]);
    }
  probe (p, p->max, TRUE, &probes[2]);
  probe (p, nextafter (p->max, INFINITY), FALSE, &probes[3]);
  return 4;
}

gboolean
tp_names (const cb_param *p, const gchar *message)
{
  const gsize n = strlen (p->name);
  return message && !strncmp (message, p->name, n) && message[n] == ':';
}
