/* Human-readable names and messages for the engine's enums. */
#include "gblur.h"

static const char *const status_messages[GB_STATUS_COUNT] = {
  [GB_OK] = "success",
  [GB_ERR_NULL] = "a required pointer (parameters, image or pixel data) is NULL",
  [GB_ERR_SIZE] = "image width and height must be between 1 and 524288",
  [GB_ERR_CHANNELS] = "images must have 1 to 4 channels",
  [GB_ERR_STRIDE] = "row stride is smaller than width times channels",
  [GB_ERR_SIGMA] = "standard deviation must be a finite number from 0 to 1500",
  [GB_ERR_RANGE_SIGMA] = "range sigma must be a finite number greater than 0",
  [GB_ERR_ITERATIONS] = "iterations must be from 1 to 10",
  [GB_ERR_KAPPA] = "kappa must be a finite number from 0 to 10",
  [GB_ERR_ALGORITHM] = "unknown algorithm",
  [GB_ERR_BACKEND] = "unknown backend (use auto, cuda or cpu)",
  [GB_ERR_MISMATCH] = "source and destination differ in size or channels",
  [GB_ERR_ALIAS] = "destination overlaps the source without being the same view",
  [GB_ERR_NOT_AVAILABLE] = "this algorithm is not available yet",
  [GB_ERR_NO_MEMORY] = "out of memory",
  [GB_ERR_THREAD] = "could not start worker threads",
  [GB_ERR_CANCELLED] = "cancelled",
  [GB_ERR_CUDA_NOT_BUILT] = "built without CUDA",
  [GB_ERR_CUDA_NO_DEVICE] = "no usable CUDA device",
  [GB_ERR_CUDA_NO_MEMORY] = "out of GPU memory",
  [GB_ERR_CUDA_LAUNCH] = "a CUDA kernel failed",
  [GB_ERR_CUDA_COPY] = "a copy between host and GPU failed",
  [GB_ERR_CUDA_DISABLED] = "GPU disabled after repeated failures",
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
  switch (algorithm)
    {
    case GB_ALGO_AUTO: return "auto";
    case GB_ALGO_FIR: return "fir";
    case GB_ALGO_YVRG: return "yvrg";
    case GB_ALGO_YVRG_TWO_WAY: return "yvrg-two-way";
    case GB_ALGO_DERICHE: return "deriche";
    case GB_ALGO_EDGE_EXACT: return "edge-aware";
    case GB_ALGO_EDGE_PARTITIONED: return "edge-aware-partitioned";
    default: return "unknown";
    }
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
