/* The render path: drawable (selection bounds plus the blur's reach) to
 * float, engine, shadow buffer, merge with undo. */
#include "config.h"

#include <string.h>

#include "cudablur.h"
#include "plugin-intl.h"

const Babl *
cudablur_work_format (gint32 drawable_id, gint *channels)
{
  gboolean alpha = gimp_drawable_has_alpha (drawable_id);
  if (gimp_drawable_is_rgb (drawable_id))
    {
      *channels = alpha ? 4 : 3;
      return babl_format (alpha ? "RaGaBaA float" : "RGB float");
    }
  /* Grey layers, channels and layer masks stay grey. */
  *channels = alpha ? 2 : 1;
  return babl_format (alpha ? "YaA float" : "Y float");
}

gb_status
cudablur_blur_pixels (const CudablurVals *vals, gdouble scale, gfloat *pixels,
                      gint width, gint height, gint channels,
                      gb_progress_fn progress, gpointer user,
                      gb_report *report)
{
  gb_params params;
  cudablur_vals_to_params (vals, &params);
  params.sigma_x = MIN (params.sigma_x * scale, GB_SIGMA_MAX);
  params.sigma_y = MIN (params.sigma_y * scale, GB_SIGMA_MAX);
  gb_image img = { pixels, width, height, channels,
                   (size_t) width * channels };
  return gb_blur (&params, &img, &img, progress, user, report);
}

typedef struct
{
  gdouble last;
} progress_state;

/* The engine reports from the calling thread; GIMP's progress is updated
 * at most every 1 %. */
static int
on_progress (double fraction, void *user)
{
  progress_state *ps = user;
  if (fraction - ps->last >= 0.01 || fraction >= 1.0)
    {
      ps->last = fraction;
      gimp_progress_update (fraction);
    }
  return 0;
}

GimpPDBStatusType
cudablur_render_drawable (gint32 drawable_id, const CudablurVals *vals,
                          gboolean show_progress, gint32 *device_used,
                          gchar **message)
{
  gint x, y, w, h, c;
  gb_params params;
  gb_report report;
  progress_state ps = { 0.0 };

  *device_used = GB_BACKEND_CPU;
  cudablur_vals_to_params (vals, &params);
  if (!gimp_drawable_mask_intersect (drawable_id, &x, &y, &w, &h))
    return GIMP_PDB_SUCCESS;   /* the selection misses this drawable */
  if (gb_effective_sigma (vals->std_dev_x) == 0.0
      && gb_effective_sigma (vals->std_dev_y) == 0.0)
    return GIMP_PDB_SUCCESS;   /* too small to move a pixel */

  /* Read the selection's bounds plus the blur's reach; beyond the drawable
   * the engine replicates the edge, exactly as GEGL's clamp abyss would. */
  const gint dw = gimp_drawable_width (drawable_id);
  const gint dh = gimp_drawable_height (drawable_id);
  const gint rx = gb_reach (&params, 0), ry = gb_reach (&params, 1);
  GeglRectangle area = { MAX (x - rx, 0), MAX (y - ry, 0), 0, 0 };
  area.width = MIN (x + w + rx, dw) - area.x;
  area.height = MIN (y + h + ry, dh) - area.y;

  const Babl *format = cudablur_work_format (drawable_id, &c);
  gsize floats = (gsize) area.width * area.height * c;
  gfloat *pixels = g_try_new (gfloat, floats);
  if (!pixels)
    {
      *message = g_strdup_printf (_("Not enough memory for a %d x %d image"),
                                  area.width, area.height);
      return GIMP_PDB_EXECUTION_ERROR;
    }

  GeglBuffer *buffer = gimp_drawable_get_buffer (drawable_id);
  gegl_buffer_get (buffer, &area, 1.0, format, pixels, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_CLAMP);
  g_object_unref (buffer);

  if (show_progress)
    gimp_progress_init (_("CUDA Gaussian blur"));

  gb_status st = cudablur_blur_pixels (vals, 1.0, pixels, area.width,
                                       area.height, c,
                                       show_progress ? on_progress : NULL, &ps,
                                       &report);
  if (st != GB_OK)
    {
      *message = g_strdup_printf (_("Blur failed: %s"),
                                  _(gb_status_message (st)));
      g_free (pixels);
      return st == GB_ERR_CANCELLED ? GIMP_PDB_CANCEL
                                    : GIMP_PDB_EXECUTION_ERROR;
    }
  *device_used = report.backend_used;

  /* Only the selection's bounds go back; merging the shadow applies the
   * selection mask (feathering included) as one undo step. */
  GeglRectangle out = { x, y, w, h };
  gfloat *first = pixels + ((gsize) (y - area.y) * area.width + (x - area.x)) * c;
  GeglBuffer *shadow = gimp_drawable_get_shadow_buffer (drawable_id);
  gegl_buffer_set (shadow, &out, 0, format, first,
                   area.width * c * (gint) sizeof (gfloat));
  g_object_unref (shadow);   /* flushes it */
  g_free (pixels);

  gimp_drawable_merge_shadow (drawable_id, TRUE);
  gimp_drawable_update (drawable_id, x, y, w, h);
  if (show_progress)
    gimp_progress_update (1.0);
  return GIMP_PDB_SUCCESS;
}
