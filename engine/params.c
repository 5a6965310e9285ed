/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Parameter defaults, validation and the automatic algorithm choice. */
#include <math.h>
#include <stdint.h>

#include "gblur.h"
#include "research.h"

void
gb_params_init (gb_params *params)
{
  if (!params)
    return;
  params->algorithm = GB_ALGO_AUTO;
  params->sigma_x = 5.0;
  params->sigma_y = 5.0;
  params->range_sigma = 50.0;
  params->iterations = 2;
  params->kappa = 2.0;
  params->backend = GB_BACKEND_AUTO;
  params->threads = 0;
  params->border = GB_BORDER_CLAMP;
  params->perceptual = 0;
  params->research = NULL;
}

void
gb_research_init (gb_research *research)
{
  if (!research)
    return;
  research->taps = GB_TAPS_TABLE;
  research->blocks_per_stripe = 0;
  research->edge_interpolation = GB_EDGE_HOLD;
  research->naive_borders = 0;
}

static const gb_research research_defaults = { GB_TAPS_TABLE, 0, GB_EDGE_HOLD,
                                               0 };

const gb_research *
gb_research_of (const gb_params *params)
{
  return params && params->research ? params->research : &research_defaults;
}

static int
sigma_ok (double s)
{
  return isfinite (s) && s >= 0.0 && s <= GB_SIGMA_MAX;
}

static gb_status
validate_image (const gb_image *img)
{
  if (!img || !img->data)
    return GB_ERR_NULL;
  if (img->width < 1 || img->height < 1
      || img->width > GB_SIZE_MAX || img->height > GB_SIZE_MAX)
    return GB_ERR_SIZE;
  if (img->channels < 1 || img->channels > 4)
    return GB_ERR_CHANNELS;
  if (img->stride < (size_t) img->width * (size_t) img->channels)
    return GB_ERR_STRIDE;
  return GB_OK;
}

/* Byte range [first, last) touched by a view. */
static void
image_extent (const gb_image *img, uintptr_t *first, uintptr_t *last)
{
  size_t floats = (size_t) (img->height - 1) * img->stride
                  + (size_t) img->width * (size_t) img->channels;
  *first = (uintptr_t) img->data;
  *last = *first + floats * sizeof (float);
}

gb_status
gb_validate (const gb_params *params, const gb_image *src, const gb_image *dst)
{
  gb_status st;

  if (!params)
    return GB_ERR_NULL;
  if ((st = validate_image (src)) != GB_OK)
    return st;
  if ((st = validate_image (dst)) != GB_OK)
    return st;
  const gb_algorithm_info *info = gb_algorithm_get (params->algorithm);
  if (!info)
    return GB_ERR_ALGORITHM;
  if ((int) params->backend < 0 || params->backend > GB_BACKEND_CPU)
    return GB_ERR_BACKEND;
  if ((int) params->border < 0 || params->border >= GB_BORDER_COUNT)
    return GB_ERR_BORDER;
  if (!sigma_ok (params->sigma_x) || !sigma_ok (params->sigma_y))
    return GB_ERR_SIGMA;
  if ((info->uses & GB_USES_RANGE_SIGMA)
      && !(isfinite (params->range_sigma) && params->range_sigma > 0.0
           && params->range_sigma <= GB_RANGE_SIGMA_MAX))
    return GB_ERR_RANGE_SIGMA;
  if ((info->uses & GB_USES_ITERATIONS)
      && (params->iterations < 1 || params->iterations > GB_ITERATIONS_MAX))
    return GB_ERR_ITERATIONS;
  if ((info->uses & GB_USES_KAPPA)
      && !(isfinite (params->kappa) && params->kappa >= 0.0
           && params->kappa <= GB_KAPPA_MAX))
    return GB_ERR_KAPPA;
  if (src->width != dst->width || src->height != dst->height
      || src->channels != dst->channels)
    return GB_ERR_MISMATCH;

  /* Same view is fine (the backends never read what they already wrote);
   * any other overlap is refused. */
  if (!(src->data == dst->data && src->stride == dst->stride))
    {
      uintptr_t s0, s1, d0, d1;
      image_extent (src, &s0, &s1);
      image_extent (dst, &d0, &d1);
      if (s0 < d1 && d0 < s1)
        return GB_ERR_ALIAS;
    }
  return GB_OK;
}

gb_algorithm
gb_resolve_algorithm (gb_algorithm algorithm, double sigma_x, double sigma_y,
                      gb_backend backend)
{
  if (algorithm != GB_ALGO_AUTO)
    return algorithm;
  double s = sigma_x > sigma_y ? sigma_x : sigma_y;
  double fir_max = backend == GB_BACKEND_CUDA ? GB_AUTO_FIR_MAX_SIGMA_CUDA
                                              : GB_AUTO_FIR_MAX_SIGMA_CPU;
  return s <= fir_max ? GB_ALGO_FIR : GB_ALGO_DERICHE;
}

int
gb_reach (const gb_params *params, int axis)
{
  if (!params)
    return 0;
  double s = axis == 0 ? params->sigma_x : params->sigma_y;
  if (!sigma_ok (s))
    return 0;
  /* The FIR's reach is its radius; the recursive and edge-aware filters
   * have infinite support, and 4 sigma leaves less than 1e-4 of the weight
   * outside (auto may become either). */
  const gb_algorithm_info *info = gb_algorithm_get (params->algorithm);
  if (!info)
    return 0;
  if (params->algorithm == GB_ALGO_FIR)
    return gb_fir_radius (s);
  return (int) ceil (info->reach * s);
}
