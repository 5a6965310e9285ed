/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The render path: the selection's bounds plus the blur's reach, read and
 * written in bands through the engine's native pipeline, into the shadow
 * buffer, merged as one undo step.
 *
 * Pixels move in the drawable's own format when it is one the engine
 * converts (sRGB or linear, grey or RGB, 8/16/32-bit integer, half or
 * float): the conversion to linear premultiplied float then runs where the
 * blur runs, on the GPU or on all cores.  Any other drawable (another
 * colour space, 64-bit floats) is read as linear float in its own space,
 * babl converting each band: correct before fast.  A perceptual blur and
 * the edge mode choose too (cudablur_io_format). */
#include "config.h"

#include <string.h>
#include <sys/resource.h>

#include "format.h"
#include "proc-status.h"
#include "render.h"
#include "intl.h"

/* The drawable's buffers and the rectangles the callbacks move. */
typedef struct
{
  gint32 drawable_id;
  GeglBuffer *src, *shadow;
  GeglRectangle area, out;
  const Babl *format;     /* what GEGL reads and writes */
  gboolean show_progress;
  gdouble last;           /* progress last shown */
} drawable_io;

gboolean
cudablur_io_format (gint32 drawable_id, const gb_params *vals,
                    gb_pixel_format *f, const Babl **format)
{
  /* "None" on a drawable without alpha: the layer ends at its edge.  The
   * blur runs with an alpha of 1 inside (babl adds it), and the colour
   * comes back unpremultiplied as the alpha is dropped: what GIMP's own
   * Gaussian blur gives with abyss policy None. */
  return cudablur_io_format_for (gimp_drawable_get_format (drawable_id),
                                 vals->perceptual,
                                 vals->border == GB_BORDER_NONE, f, format);
}

/* The source buffer lives from the first band read to the last: once the
 * engine holds every row, GEGL's copies of the tiles (the image again, in
 * its own format) are let go.  A CPU run after a failed GPU run reads from
 * the top and opens it anew. */
static gb_status
read_rows (void *user, int y, int rows, void *dst, size_t stride)
{
  drawable_io *io = user;
  if (!io->src)
    io->src = gimp_drawable_get_buffer (io->drawable_id);
  if (!io->src)
    return GB_ERR_IO;
  GeglRectangle r = { io->area.x, io->area.y + y, io->area.width, rows };
  gegl_buffer_get (io->src, &r, 1.0, io->format, dst, (gint) stride,
                   GEGL_ABYSS_CLAMP);
  if (y + rows >= io->area.height)
    g_clear_object (&io->src);
  return GB_OK;
}

static gb_status
write_rows (void *user, int y, int rows, const void *src, size_t stride)
{
  drawable_io *io = user;
  GeglRectangle r = { io->out.x, io->out.y + y, io->out.width, rows };
  gegl_buffer_set (io->shadow, &r, 0, io->format, src, (gint) stride);
  return GB_OK;
}

/* Bytes this process can still allocate: the headroom under its
 * address-space limit, and what the system has available. */
static guint64
memory_available (void)
{
  guint64 avail = (cudablur_proc_kb ("/proc/meminfo", "MemAvailable:")
                   + cudablur_proc_kb ("/proc/meminfo", "SwapFree:")) * 1024;
  struct rlimit rl;
  if (avail == 0)
    avail = G_MAXUINT64;   /* no /proc: nothing to go by */
  if (getrlimit (RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    {
      guint64 used = cudablur_proc_kb ("/proc/self/status", "VmSize:") * 1024;
      guint64 room = rl.rlim_cur > used ? rl.rlim_cur - used : 0;
      avail = MIN (avail, room);
    }
  return avail;
}

/* GIMP keeps a plug-in's progress in its status bar, with a Cancel
 * button, until the plug-in ends it or its process exits; the resident
 * never exits. */
static void
end_progress (gboolean shown)
{
  if (shown && !gimp_progress_end ())
    g_warning ("CUDA Gaussian Blur: GIMP did not end the progress");
}

/* The engine reports from the calling thread; GIMP's progress is updated
 * at most every 1 %. */
static int
on_progress (double fraction, void *user)
{
  drawable_io *io = user;
  if (io->show_progress && (fraction - io->last >= 0.01 || fraction >= 1.0))
    {
      io->last = fraction;
      gimp_progress_update (fraction);
    }
  return 0;
}

GimpPDBStatusType
cudablur_render_drawable (gint32 drawable_id, const gb_params *vals,
                          gboolean show_progress, CudablurTiming *timing,
                          gint32 *device_used, gchar **message)
{
  gint x, y, w, h;
  gb_report report;
  gb_pixel_format pf;
  drawable_io io;

  memset (timing, 0, sizeof *timing);
  memset (&io, 0, sizeof io);
  *device_used = GB_BACKEND_CPU;
  if (!gimp_drawable_mask_intersect (drawable_id, &x, &y, &w, &h))
    return GIMP_PDB_SUCCESS;   /* the selection misses this drawable */
  if (gb_effective_sigma (vals->sigma_x) == 0.0
      && gb_effective_sigma (vals->sigma_y) == 0.0)
    return GIMP_PDB_SUCCESS;   /* too small to move a pixel */

  /* Read the selection's bounds plus the blur's reach; beyond the drawable
   * the engine replicates the edge, exactly as GEGL's clamp abyss would. */
  const gint dw = gimp_drawable_width (drawable_id);
  const gint dh = gimp_drawable_height (drawable_id);
  const gint rx = gb_reach (vals, 0), ry = gb_reach (vals, 1);
  io.area.x = MAX (x - rx, 0);
  io.area.y = MAX (y - ry, 0);
  io.area.width = MIN (x + w + rx, dw) - io.area.x;
  io.area.height = MIN (y + h + ry, dh) - io.area.y;
  io.out = (GeglRectangle) { x, y, w, h };
  io.show_progress = show_progress;
  timing->native = cudablur_io_format (drawable_id, vals, &pf, &io.format);
  timing->format = babl_get_name (io.format);

  gb_native_io nio = { pf, io.area.width, io.area.height, x - io.area.x,
                       y - io.area.y, w, h, read_rows, write_rows, &io };
  /* Refuse what cannot fit before anything is allocated: GLib ends the
   * process when GEGL's own allocations fail.  GEGL holds the tiles read
   * and written, in the drawable's format, besides the engine's needs. */
  const gdouble tiles = (gdouble) babl_format_get_bytes_per_pixel (io.format)
                        * ((gdouble) io.area.width * io.area.height
                           + (gdouble) w * h);
  const gdouble needed = gb_native_memory (vals, &nio) + tiles
                         + (64 << 20);
  const gdouble available = memory_available ();
  if (needed > available)
    {
      *message = g_strdup_printf (_("Not enough memory: blurring %d x %d "
                                    "pixels needs about %.1f GB, and %.1f "
                                    "GB are available"),
                                  io.area.width, io.area.height,
                                  needed / 1e9, available / 1e9);
      return GIMP_PDB_EXECUTION_ERROR;
    }

  io.drawable_id = drawable_id;
  io.shadow = gimp_drawable_get_shadow_buffer (drawable_id);
  if (!io.shadow)
    {
      *message = g_strdup (_("drawable: GIMP gave no pixel buffer for it"));
      return GIMP_PDB_EXECUTION_ERROR;
    }
  if (show_progress)
    gimp_progress_init (_("CUDA Gaussian blur"));

  gb_status st = gb_blur_native (vals, &nio, on_progress, &io, &report);
  g_clear_object (&io.src);   /* when a callback stopped the reading */
  gint64 t = g_get_monotonic_time ();
  g_object_unref (io.shadow);   /* flushes the last tiles to GIMP */
  timing->flush = (g_get_monotonic_time () - t) / 1e6;
  timing->report = report;
  timing->width = io.area.width;
  timing->height = io.area.height;
  if (st != GB_OK)
    {
      *message = g_strdup_printf (_("Blur failed: %s"),
                                  _(gb_status_message (st)));
      end_progress (show_progress);
      return st == GB_ERR_CANCELLED ? GIMP_PDB_CANCEL
                                    : GIMP_PDB_EXECUTION_ERROR;
    }
  *device_used = report.backend_used;

  /* Merging the shadow applies the selection mask (feathering included)
   * as one undo step. */
  t = g_get_monotonic_time ();
  if (!gimp_drawable_merge_shadow (drawable_id, TRUE)
      || !gimp_drawable_update (drawable_id, x, y, w, h))
    {
      *message = g_strdup (_("GIMP could not apply the blurred pixels to "
                             "the drawable"));
      end_progress (show_progress);
      return GIMP_PDB_EXECUTION_ERROR;
    }
  timing->merge = (g_get_monotonic_time () - t) / 1e6;
  end_progress (show_progress);
  return GIMP_PDB_SUCCESS;
}
