/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The values a call carries, independent of the GIMP version: their
 * defaults, their conversion to engine parameters and their checks. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "values.h"
#include "intl.h"

void
cudablur_vals_defaults (CudablurVals *vals)
{
  gb_params p;
  gb_params_init (&p);
  memset (vals, 0, sizeof *vals);
  vals->version = CUDABLUR_VALS_VERSION;
  vals->algorithm = GB_ALGO_AUTO;
  vals->std_dev_x = p.sigma_x;
  vals->std_dev_y = p.sigma_y;
  vals->range_sigma = p.range_sigma;
  vals->iterations = p.iterations;
  vals->kappa = p.kappa;
  vals->device = GB_BACKEND_AUTO;
  vals->border = GB_BORDER_CLAMP;
  vals->space = 0;
}

void
cudablur_vals_to_params (const CudablurVals *v, gb_params *p)
{
  gb_params_init (p);
  p->algorithm = (gb_algorithm) v->algorithm;
  p->sigma_x = v->std_dev_x;
  p->sigma_y = v->std_dev_y;
  p->range_sigma = v->range_sigma;
  p->iterations = v->iterations;
  p->kappa = v->kappa;
  p->backend = (gb_backend) v->device;
  p->border = (gb_border) v->border;
  p->perceptual = v->space == 1;
}

static gboolean
sigma_ok (gdouble s)
{
  return isfinite (s) && s >= 0.0 && s <= GB_SIGMA_MAX;
}

/* "0 (auto), 1 (fir), ..." from the registry. */
static gchar *
algorithm_choices (void)
{
  GString *s = g_string_new (NULL);
  for (gint i = 0; i < GB_ALGO_COUNT; i++)
    g_string_append_printf (s, "%s%d (%s)",
                            i == 0 ? "" : i == GB_ALGO_COUNT - 1 ? _(" or ")
                                                                 : ", ",
                            i, gb_algorithm_get ((gb_algorithm) i)->name);
  return g_string_free (s, FALSE);
}

gboolean
cudablur_vals_check (const CudablurVals *v, gchar **message)
{
  const gb_algorithm_info *info = gb_algorithm_get ((gb_algorithm) v->algorithm);
  const unsigned uses = info ? info->uses : 0;

  if (!info)
    {
      gchar *choices = algorithm_choices ();
      *message = g_strdup_printf (_("algorithm: %d is not one of %s"),
                                  v->algorithm, choices);
      g_free (choices);
    }
  else if (!sigma_ok (v->std_dev_x))
    *message = g_strdup_printf (_("std-dev-x: %g is not from 0 to %g"),
                                v->std_dev_x, GB_SIGMA_MAX);
  else if (!sigma_ok (v->std_dev_y))
    *message = g_strdup_printf (_("std-dev-y: %g is not from 0 to %g"),
                                v->std_dev_y, GB_SIGMA_MAX);
  else if ((uses & GB_USES_RANGE_SIGMA)
           && !(isfinite (v->range_sigma) && v->range_sigma > 0.0
                && v->range_sigma <= GB_RANGE_SIGMA_MAX))
    *message = g_strdup_printf (_("range-sigma: %g is not greater than 0 "
                                  "and at most %g"),
                                v->range_sigma, GB_RANGE_SIGMA_MAX);
  else if ((uses & GB_USES_ITERATIONS)
           && (v->iterations < 1 || v->iterations > GB_ITERATIONS_MAX))
    *message = g_strdup_printf (_("iterations: %d is not from 1 to %d"),
                                v->iterations, GB_ITERATIONS_MAX);
  else if ((uses & GB_USES_KAPPA)
           && !(isfinite (v->kappa) && v->kappa >= 0.0
                && v->kappa <= GB_KAPPA_MAX))
    *message = g_strdup_printf (_("kappa: %g is not from 0 to %g"),
                                v->kappa, GB_KAPPA_MAX);
  else if (v->device < 0 || v->device > GB_BACKEND_CPU)
    *message = g_strdup_printf (_("device: %d is not one of 0 (auto), "
                                  "1 (cuda) or 2 (cpu)"), v->device);
  else if (v->border < 0 || v->border >= GB_BORDER_COUNT)
    *message = g_strdup_printf (_("edge-mode: %d is not one of 0 (clamp), "
                                  "1 (none), 2 (black) or 3 (white)"),
                                v->border);
  else if (v->space != 0 && v->space != 1)
    *message = g_strdup_printf (_("blur-space: %d is not 0 (linear) or 1 "
                                  "(perceptual)"), v->space);
  else
    return TRUE;
  return FALSE;
}
