/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudablur:gaussian-blur, a GEGL operation over the engine: GIMP 3 runs it
 * in its own process, shows it in its filter tool (on-canvas preview,
 * split view, presets, blending options) and keeps it as a
 * non-destructive filter.  Its properties are the parameter table's rows,
 * the arguments of plug-in-cudablur-full (gegl/properties.c).
 *
 * The operation is computed for its whole input at once where the input
 * is finite (get_cached_region): one engine call per render, which the GPU
 * wants, and a region equals the same region of the whole.  On an
 * infinite input it computes what is asked for, from that region and the
 * blur's reach around it.  At a mipmap level (the canvas zoomed out) the
 * standard deviations are scaled to the level, as the 2.10 dialog's
 * preview does.  A failed blur passes the input through and says why,
 * once: the operation runs inside GIMP and must never bring it down. */
#define _GNU_SOURCE   /* dladdr */
#include "config.h"

#include <dlfcn.h>
#include <string.h>
#include <sys/stat.h>

#include <gegl.h>
#include <gegl-plugin.h>
#include <gmodule.h>

#include "bounded.h"
#include "format.h"
#include "gblur.h"
#include "memory.h"
#include "op.h"

G_DEFINE_DYNAMIC_TYPE (CudablurOp, cudablur_op, GEGL_TYPE_OPERATION_FILTER)

/* The operation's values as engine parameters at a mipmap level. */
static void
params_at_level (const CudablurOp *self, gint level, gb_params *p)
{
  const gdouble scale = 1.0 / (1 << level);
  *p = self->params;
  p->sigma_x *= scale;
  p->sigma_y *= scale;
}

static void
prepare (GeglOperation *operation)
{
  CudablurOp *self = CUDABLUR_OP (operation);
  const Babl *native = gegl_operation_get_source_format (operation, "input");
  if (!native)
    native = babl_format ("RGBA float");
  cudablur_io_format_for (native, self->params.perceptual,
                          self->params.border == GB_BORDER_NONE,
                          &self->engine_format, &self->io_format);
  gegl_operation_set_format (operation, "input", self->io_format);
  gegl_operation_set_format (operation, "output", self->io_format);
}

static GeglRectangle
get_bounding_box (GeglOperation *operation)
{
  const GeglRectangle *in =
    gegl_operation_source_get_bounding_box (operation, "input");
  return in ? *in : *GEGL_RECTANGLE (0, 0, 0, 0);
}

/* The roi grown by the blur's reach at full resolution (levels only
 * shrink it), with one more pixel for a level's rounding. */
static GeglRectangle
grow_by_reach (GeglOperation *operation, const GeglRectangle *roi)
{
  gb_params p;
  params_at_level (CUDABLUR_OP (operation), 0, &p);
  const gint rx = gb_reach (&p, 0) + 1, ry = gb_reach (&p, 1) + 1;
  return (GeglRectangle) { roi->x - rx, roi->y - ry, roi->width + 2 * rx,
                           roi->height + 2 * ry };
}

static gboolean
finite_input (GeglOperation *operation, GeglRectangle *box)
{
  *box = get_bounding_box (operation);
  return !gegl_rectangle_is_empty (box)
         && !gegl_rectangle_is_infinite_plane (box);
}

static GeglRectangle
get_required_for_output (GeglOperation *operation, const gchar *input_pad,
                         const GeglRectangle *roi)
{
  (void) input_pad;
  GeglRectangle box, need = grow_by_reach (operation, roi);
  if (finite_input (operation, &box))
    gegl_rectangle_intersect (&need, &need, &box);
  return need;
}

static GeglRectangle
get_invalidated_by_change (GeglOperation *operation, const gchar *input_pad,
                           const GeglRectangle *roi)
{
  (void) input_pad;
  return grow_by_reach (operation, roi);
}

static GeglRectangle
get_cached_region (GeglOperation *operation, const GeglRectangle *roi)
{
  GeglRectangle box;
  return finite_input (operation, &box) ? box : *roi;
}

/* A rectangle at full resolution in the coordinates of a mipmap level:
 * the pixels whose level-0 footprint it covers (as GEGL's own blurs
 * shift). */
static GeglRectangle
at_level (const GeglRectangle *r, gint level)
{
  if (!level)
    return *r;
  const gint x0 = r->x >> level, y0 = r->y >> level;
  return (GeglRectangle) { x0, y0, ((r->x + r->width) >> level) - x0,
                           ((r->y + r->height) >> level) - y0 };
}

/* What the engine's band callbacks move: rows of `area` from the input,
 * rows of `out` to the output, both in level coordinates. */
typedef struct
{
  GeglOperation *operation;
  GeglBuffer *input, *output;
  GeglRectangle area, out;
  const Babl *format;
  gint level;
} op_io;

/* One band's rows moved in parts on GEGL's worker threads: a buffer's
 * get and set convert and copy tile by tile in the calling thread, and a
 * whole image's worth of them would otherwise run on one core. */
typedef struct
{
  op_io *io;
  gint y;
  guchar *pixels;
  gsize stride;
} op_band;

/* What starting one more thread costs, in rows of `width` pixels: about
 * 16384 pixels' worth of copying. */
static gdouble
thread_cost (gint width)
{
  return MAX (1.0, 16384.0 / MAX (width, 1));
}

static void
read_part (gsize offset, gsize rows, gpointer user)
{
  op_band *b = user;
  GeglRectangle r = { b->io->area.x, b->io->area.y + b->y + (gint) offset,
                      b->io->area.width, (gint) rows };
  gegl_buffer_get (b->io->input, &r, 1.0 / (1 << b->io->level),
                   b->io->format, b->pixels + offset * b->stride,
                   (gint) b->stride, GEGL_ABYSS_CLAMP);
}

static void
write_part (gsize offset, gsize rows, gpointer user)
{
  op_band *b = user;
  GeglRectangle r = { b->io->out.x, b->io->out.y + b->y + (gint) offset,
                      b->io->out.width, (gint) rows };
  gegl_buffer_set (b->io->output, &r, b->io->level, b->io->format,
                   b->pixels + offset * b->stride, (gint) b->stride);
}

static gb_status
read_rows (void *user, int y, int rows, void *dst, size_t stride)
{
  op_io *io = user;
  op_band b = { io, y, dst, stride };
  gegl_parallel_distribute_range ((gsize) rows,
                                  thread_cost (io->area.width),
                                  read_part, &b);
  return GB_OK;
}

static gb_status
write_rows (void *user, int y, int rows, const void *src, size_t stride)
{
  op_io *io = user;
  op_band b = { io, y, (guchar *) src, stride };
  gegl_parallel_distribute_range ((gsize) rows,
                                  thread_cost (io->out.width),
                                  write_part, &b);
  return GB_OK;
}

static int
on_progress (double fraction, void *user)
{
  op_io *io = user;
  gegl_operation_progress (io->operation, fraction, "");
  return 0;
}

/* The input as it is, over `out` (level coordinates). */
static void
pass_through (op_io *io)
{
  const gsize bpp = babl_format_get_bytes_per_pixel (io->format);
  for (gint y = 0; y < io->out.height; y++)
    {
      GeglRectangle r = { io->out.x, io->out.y + y, io->out.width, 1 };
      guchar *row = g_try_malloc (bpp * (gsize) io->out.width);
      if (!row)
        return;
      gegl_buffer_get (io->input, &r, 1.0 / (1 << io->level), io->format, row,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_CLAMP);
      gegl_buffer_set (io->output, &r, io->level, io->format, row,
                       GEGL_AUTO_ROWSTRIDE);
      g_free (row);
    }
}

static gboolean
process (GeglOperation *operation, GeglBuffer *input, GeglBuffer *output,
         const GeglRectangle *result, gint level)
{
  CudablurOp *self = CUDABLUR_OP (operation);
  gb_params p;
  params_at_level (self, level, &p);
  GeglRectangle box = get_bounding_box (operation), out;
  /* The part of the result that holds pixels; the rest stays empty. */
  if (!gegl_rectangle_intersect (&out, result, &box))
    return TRUE;
  op_io io = { operation, input, output, { 0 }, at_level (&out, level),
               self->io_format, level };
  if (io.out.width < 1 || io.out.height < 1)
    return TRUE;
  /* Read the output plus the reach, within the input: beyond the input
   * the engine makes the edge mode's border. */
  const gint rx = gb_reach (&p, 0), ry = gb_reach (&p, 1);
  GeglRectangle want = { io.out.x - rx, io.out.y - ry, io.out.width + 2 * rx,
                         io.out.height + 2 * ry };
  GeglRectangle within = box;
  if (!gegl_rectangle_is_infinite_plane (&box))
    within = at_level (&box, level);
  if (!gegl_rectangle_intersect (&io.area, &want, &within))
    return TRUE;
  if (gb_effective_sigma (p.sigma_x) == 0.0
      && gb_effective_sigma (p.sigma_y) == 0.0)
    {
      pass_through (&io);
      return TRUE;
    }
  gb_native_io nio = { self->engine_format, io.area.width, io.area.height,
                       io.out.x - io.area.x, io.out.y - io.area.y,
                       io.out.width, io.out.height, read_rows, write_rows,
                       &io };
  /* Within the memory budget: in bands where the whole area would not
   * fit. */
  cudablur_budget budget;
  cudablur_budget_lookup (&budget);
  const cudablur_region region = { input, output, io.format, io.area,
                                   io.out, level };
  const gb_status st = cudablur_blur_bounded (&p, &nio, &region, &budget,
                                              on_progress, &io);
  if (st != GB_OK)
    {
      if (!self->warned)
        g_warning ("cudablur:gaussian-blur: %s; the input is shown "
                   "unblurred", gb_status_message (st));
      self->warned = TRUE;
      pass_through (&io);
      return FALSE;
    }
  return TRUE;
}

/* The graph that held this instance is gone (a filter tool closed, a
 * merge done, a filter removed): what blurs kept for the next goes back
 * too. */
static void
finalize (GObject *object)
{
  G_OBJECT_CLASS (cudablur_op_parent_class)->finalize (object);
  cudablur_memory_give_back ();
}

static const char *module_file (void);

static void
cudablur_op_class_init (CudablurOpClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GeglOperationClass *operation_class = GEGL_OPERATION_CLASS (klass);
  GeglOperationFilterClass *filter_class = GEGL_OPERATION_FILTER_CLASS (klass);

  cudablur_op_install_properties (object_class);
  object_class->finalize = finalize;
  operation_class->prepare = prepare;
  operation_class->get_bounding_box = get_bounding_box;
  operation_class->get_required_for_output = get_required_for_output;
  operation_class->get_invalidated_by_change = get_invalidated_by_change;
  operation_class->get_cached_region = get_cached_region;
  /* The engine uses every core (or the GPU) for one region itself. */
  operation_class->threaded = FALSE;
  filter_class->process = process;

  gegl_operation_class_set_keys (operation_class,
    "name", CUDABLUR_OP_NAME,
    "title", "CUDA Gaussian Blur",
    "categories", "blur",
    "description",
    "Gaussian blur on an NVIDIA GPU through CUDA, or on all CPU cores: "
    "exact FIR and recursive (Young-van Vliet, Deriche) Gaussians and an "
    "edge-aware blur that keeps strong edges sharp",
    "gimp:menu-path", "<Image>/Filters/Blur",
    "gimp:menu-label", "CUDA Gaussian Blur...",
    NULL);
  /* Which copy of the module runs the operation (see
   * cudablur_op_register). */
  gegl_operation_class_set_key (operation_class, "cudablur:module-file",
                                module_file ());
}

static void
cudablur_op_class_finalize (CudablurOpClass *klass)
{
  (void) klass;
}

static void
cudablur_op_init (CudablurOp *self)
{
  cudablur_op_set_defaults (self);
}

/* The file this module was loaded from, or "" where it cannot be told. */
static const char *
module_file (void)
{
  Dl_info self;
  if (!dladdr ((void *) module_file, &self) || !self.dli_fname)
    return "";
  return self.dli_fname;
}

/* GEGL unloads a module between uses; this one stays mapped: the static
 * CUDA runtime inside registers exit handlers and keeps a context that
 * must not outlive its code. */
static void
keep_loaded (void)
{
  if (!*module_file ())
    return;
  GModule *module = g_module_open (module_file (), G_MODULE_BIND_LAZY);
  if (module)
    g_module_make_resident (module);
}

/* Whether another copy of this module lies in the user's GEGL folder
 * (~/.local/share/gegl-0.4/plug-ins), which GEGL loads after its own. */
static gboolean
user_copy_elsewhere (void)
{
  gchar *user = g_build_filename (g_get_user_data_dir (), "gegl-0.4",
                                  "plug-ins", "cudablur.so", NULL);
  struct stat mine, theirs;
  const gboolean other = stat (user, &theirs) == 0
                         && *module_file () && stat (module_file (), &mine) == 0
                         && (mine.st_dev != theirs.st_dev
                             || mine.st_ino != theirs.st_ino);
  g_free (user);
  return other;
}

gboolean
cudablur_op_register (GTypeModule *module)
{
  /* One copy registers the operation (GLib refuses a type name twice),
   * and as with GIMP's plug-ins the user's own copy wins over one
   * installed for the system: a copy outside the user's folder leaves the
   * operation to the copy inside it. */
  const GType existing = g_type_from_name ("CudablurOp");
  if (existing && g_type_get_plugin (existing) != G_TYPE_PLUGIN (module))
    return FALSE;
  if (!existing && user_copy_elsewhere ())
    return FALSE;
  keep_loaded ();
  cudablur_op_register_enums (module);
  cudablur_op_register_type (module);
  return TRUE;
}
