/* The CPU backend's entry: routes a resolved algorithm to its filter. */
#include "cpu_backend.h"

gb_status
gb_cpu_run (const gb_params *params, const gb_image *src, const gb_image *dst,
            const gb_progress_span *progress, gb_report *report)
{
  if (report)
    report->threads_used = gb_threads_for (params->threads);
  if (!(params->sigma_x > 0.0) && !(params->sigma_y > 0.0))
    {
      gb_image_copy (src, dst);
      return GB_OK;
    }
  switch (params->algorithm)
    {
    case GB_ALGO_FIR:
      return gb_cpu_fir (params, src, dst, progress);
    case GB_ALGO_YVRG:
    case GB_ALGO_YVRG_TWO_WAY:
    case GB_ALGO_DERICHE:
      return gb_cpu_recursive (params, src, dst, progress);
    case GB_ALGO_EDGE_EXACT:
    case GB_ALGO_EDGE_PARTITIONED:
      return gb_cpu_edge (params, src, dst, progress);
    default:
      return GB_ERR_NOT_AVAILABLE;
    }
}
