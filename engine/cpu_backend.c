/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CPU backend's entry: a resolved algorithm to its filter, through the
 * registry. */
#include "algorithms.h"
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
  gb_cpu_filter filter = gb_algorithm_cpu (params->algorithm);
  return filter ? filter (params, src, dst, progress) : GB_ERR_ALGORITHM;
}
