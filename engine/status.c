/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Human-readable names and messages for the engine's enums. */
#include "gblur.h"

/* Marks messages for the plug-in's translation catalogues (xgettext
 * --keyword=GB_N_); the engine itself does not translate. */
#define GB_N_(s) (s)

static const char *const status_messages[GB_STATUS_COUNT] = {
  [GB_OK] = GB_N_ ("success"),
  [GB_ERR_NULL] = GB_N_ ("a required pointer (parameters, image or pixel data) is NULL"),
  [GB_ERR_SIZE] = GB_N_ ("image width and height must be between 1 and 524288"),
  [GB_ERR_CHANNELS] = GB_N_ ("images must have 1 to 4 channels"),
  [GB_ERR_STRIDE] = GB_N_ ("row stride is smaller than width times channels"),
  [GB_ERR_SIGMA] = GB_N_ ("standard deviation must be a finite number from 0 to 1500"),
  [GB_ERR_RANGE_SIGMA] = GB_N_ ("the edge contrast (range σ) must be greater than 0 and at most 1e+09"),
  [GB_ERR_ITERATIONS] = GB_N_ ("iterations must be from 1 to 10"),
  [GB_ERR_KAPPA] = GB_N_ ("kappa must be a finite number from 0 to 10"),
  [GB_ERR_ALGORITHM] = GB_N_ ("unknown algorithm"),
  [GB_ERR_BACKEND] = GB_N_ ("unknown backend (use auto, cuda or cpu)"),
  [GB_ERR_MISMATCH] = GB_N_ ("source and destination differ in size or channels"),
  [GB_ERR_ALIAS] = GB_N_ ("destination overlaps the source without being the same view"),
  [GB_ERR_NO_MEMORY] = GB_N_ ("out of memory"),
  [GB_ERR_THREAD] = GB_N_ ("could not start worker threads"),
  [GB_ERR_CANCELLED] = GB_N_ ("cancelled"),
  [GB_ERR_CUDA_NOT_BUILT] = GB_N_ ("built without CUDA"),
  [GB_ERR_CUDA_NO_DEVICE] = GB_N_ ("no usable CUDA device"),
  [GB_ERR_CUDA_NO_MEMORY] = GB_N_ ("out of GPU memory"),
  [GB_ERR_CUDA_LAUNCH] = GB_N_ ("a CUDA kernel failed"),
  [GB_ERR_CUDA_COPY] = GB_N_ ("a copy between host and GPU failed"),
  [GB_ERR_CUDA_DISABLED] = GB_N_ ("GPU disabled after repeated failures"),
  [GB_ERR_FORMAT] = GB_N_ ("unsupported pixel format"),
  [GB_ERR_IO] = GB_N_ ("reading or writing the image failed"),
  [GB_ERR_BORDER] = GB_N_ ("unknown border (use clamp, none, black or white)"),
};

const char *
gb_status_message (gb_status status)
{
  if ((int) status < 0 || status >= GB_STATUS_COUNT || !status_messages[status])
    return "unknown status";
  return status_messages[status];
}

const char *
gb_algorithm_name (gb_algorithm algorithm)
{
  const gb_algorithm_info *info = gb_algorithm_get (algorithm);
  return info ? info->name : "unknown";
}

const char *
gb_backend_name (gb_backend backend)
{
  switch (backend)
    {
    case GB_BACKEND_AUTO: return "auto";
    case GB_BACKEND_CUDA: return "cuda";
    case GB_BACKEND_CPU: return "cpu";
    default: return "unknown";
    }
}
