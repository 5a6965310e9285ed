/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudablur:gaussian-blur, a GEGL operation over the engine: GIMP 3 runs it
 * in its own process, shows it in its filter tool (on-canvas preview,
 * split view, presets, blending options) and keeps it as a
 * non-destructive filter.  Its properties are the parameter table's rows,
 * the arguments of plug-in-cudablur-full (gegl/properties.c).
 *
 * GIMP renders the canvas from its main loop, and each process() call
 * blocks it: a finite input is computed whole where that is fast (on the
 * GPU, or a small image), else as GIMP asks, each request from its pixels
 * and the blur's reach around them (which leaves out less than float
 * precision of the weight, so a request equals the same pixels of the
 * whole), or, where the reach is large next to what GIMP asks at a time,
 * in blocks sized to a call budget (get_cached_region, gegl/region.c).
 * An infinite input is computed as asked, with the reach.  At a mipmap level (a
 * smaller view of the image; GIMP 3.0's canvas asks for full resolution
 * at every zoom) the standard deviations are scaled to the level, as the
 * 2.10 dialog's preview does.  A failed blur passes the input through
 * and says why (gegl/report.c): the operation runs inside GIMP and must
 * never bring it down.  CUDABLUR_OP_LOG=FILE logs every call
 * (gegl/oplog.c). */
#define _GNU_SOURCE   /* dladdr */
#include "config.h"

#include <dlfcn.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include <gegl.h>
#include <gegl-plugin.h>
#include <gmodule.h>

#include <glib/gi18n-lib.h>

#include "blocks.h"
#include "catalogue.h"
#include "early.h"
#include "format.h"
#include "gblur.h"
#include "last-run.h"
#include "memory.h"
#include "op.h"
#include "oplog.h"
#include "pixels.h"
#include "region.h"
#include "report.h"

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
  if (self->params.backend != GB_BACKEND_CPU)
    cudablur_gpu_start ();
}

static GeglRectangle
get_bounding_box (GeglOperation *operation)
{
  const GeglRectangle *in =
    gegl_operation_source_get_bounding_box (operation, "input");
  return in ? *in : *GEGL_RECTANGLE (0, 0, 0, 0);
}

/* The roi grown by the blur's reach at any mipmap level. */
static GeglRectangle
grow_by_reach (GeglOperation *operation, const GeglRectangle *roi)
{
  gb_params p;
  params_at_level (CUDABLUR_OP (operation), 0, &p);
  const gint rx = cudablur_reach_any_level (&p, 0);
  const gint ry = cudablur_reach_any_level (&p, 1);
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

/* Whether the engine will run a whole-image render of the input on the
 * GPU: where it does, the whole image at once is fastest.  Until CUDA
 * has started (gegl/early.c), renders are planned for the CPU. */
static gboolean
gpu_runs_whole (CudablurOp *self, const GeglRectangle *box)
{
  gb_params p;
  params_at_level (self, 0, &p);
  return p.backend != GB_BACKEND_CPU && cudablur_gpu_ready ()
         && gb_backend_for (&p, box->width, box->height) == GB_BACKEND_CUDA;
}

/* The side of the blocks a finite input is computed in, CUDABLUR_WHOLE
 * or CUDABLUR_REQUESTS (gegl/region.c). */
static gint
block_side (CudablurOp *self, const GeglRectangle *box)
{
  if (gpu_runs_whole (self, box))
    return CUDABLUR_WHOLE;
  gb_params p;
  params_at_level (self, 0, &p);
  return cudablur_block_side (&p, self->engine_format.channels, box);
}

/* What a request makes GEGL compute and keep: the whole input, the
 * request itself, or the blocks the request touches (a grid of squares
 * from the origin), in full-resolution coordinates; GEGL's cache keeps
 * the result for the requests that follow. */
static GeglRectangle
get_cached_region (GeglOperation *operation, const GeglRectangle *roi)
{
  GeglRectangle box;
  if (!finite_input (operation, &box))
    return *roi;
  const gint side = block_side (CUDABLUR_OP (operation), &box);
  if (side == CUDABLUR_REQUESTS)
    return *roi;
  if (side == CUDABLUR_WHOLE || gegl_rectangle_is_empty (roi))
    return box;
  const gint x0 = (gint) floor ((gdouble) roi->x / side) * side;
  const gint y0 = (gint) floor ((gdouble) roi->y / side) * side;
  const gint x1 = (gint) ceil ((gdouble) (roi->x + roi->width) / side) * side;
  const gint y1 = (gint) ceil ((gdouble) (roi->y + roi->height) / side)
                  * side;
  GeglRectangle blocks = { x0, y0, x1 - x0, y1 - y0 };
  gegl_rectangle_intersect (&blocks, &blocks, &box);
  return blocks;
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

/* The values a region is computed with: on the CPU, and the two
 * approximations whose result depends on where each line is split (the
 * two-way filter seeds both halves from the line's centre, Algorithm C
 * cuts lines into equal blocks) as the exact filters they approximate:
 * on the CPU they are no faster, and a region of them would differ from
 * the same region of the whole by their approximation, not by float
 * rounding. */
static void
region_params (gb_params *p)
{
  p->backend = GB_BACKEND_CPU;
  if (p->algorithm == GB_ALGO_YVV_TWO_WAY)
    p->algorithm = GB_ALGO_YVV;
  else if (p->algorithm == GB_ALGO_EDGE_PARTITIONED)
    p->algorithm = GB_ALGO_EDGE_EXACT;
}

/* One engine call for `out` (level coordinates); a failure passes the
 * input through there and is reported (gegl/report.c). */
static gb_status
blur_rect (CudablurOp *self, GeglOperation *operation, GeglBuffer *input,
           GeglBuffer *output, const gb_params *p, gint level,
           const GeglRectangle *out, const GeglRectangle *image,
           gboolean finite, gboolean whole, gdouble *pixels,
           gb_report *report)
{
  const gb_status st = cudablur_blur_rect (operation, input, output, p,
                                           &self->engine_format,
                                           self->io_format, level, out, image,
                                           finite, whole, pixels, report);
  if (st != GB_OK)
    {
      cudablur_pass_through (input, output, self->io_format, level, out);
      cudablur_report_failure (&self->reported, st);
    }
  return st;
}

/* What one process() call did, for the log. */
typedef struct
{
  gint side, reach, blocks, cached;
  gdouble pixels;
  gb_report report;   /* the last engine call's */
} call_record;

/* The blocks of `in_box` (full-resolution coordinates, within the image
 * `box`) that GEGL's cache does not hold; at full resolution each with
 * its reach (each fits the call budget), at a mipmap level the new ones
 * together, as small there as the request. */
static gb_status
process_blocks (CudablurOp *self, GeglOperation *operation, GeglBuffer *input,
                GeglBuffer *output, const gb_params *p, gint level,
                const GeglRectangle *in_box, const GeglRectangle *box,
                const GeglRectangle *image, call_record *rec)
{
  const gint side = rec->side;
  const gint bx0 = (gint) floor ((gdouble) in_box->x / side);
  const gint by0 = (gint) floor ((gdouble) in_box->y / side);
  gb_status st = GB_OK;
  GeglRectangle todo = { 0, 0, 0, 0 };
  for (gint by = by0; by * side < in_box->y + in_box->height; by++)
    for (gint bx = bx0; bx * side < in_box->x + in_box->width; bx++)
      {
        if (cudablur_block_done (operation, output, side, level, bx, by))
          {
            rec->cached++;
            continue;
          }
        const GeglRectangle block = { bx * side, by * side, side, side };
        GeglRectangle part, inside;
        gegl_rectangle_intersect (&part, &block, in_box);
        gegl_rectangle_intersect (&inside, &block, box);
        if (level > 0)
          {
            gegl_rectangle_bounding_box (&todo, &todo, &part);
            continue;
          }
        const gb_status bst = blur_rect (self, operation, input, output, p,
                                         level, &part, image, TRUE, FALSE,
                                         &rec->pixels, &rec->report);
        rec->blocks++;
        if (bst != GB_OK)
          st = bst;
        else if (gegl_rectangle_equal (&part, &inside))
          cudablur_block_computed (operation, output, side, level, bx, by);
      }
  const GeglRectangle todo_out = at_level (&todo, level);
  if (todo_out.width < 1 || todo_out.height < 1)
    return st;
  st = blur_rect (self, operation, input, output, p, level, &todo_out, image,
                  TRUE, FALSE, &rec->pixels, &rec->report);
  rec->blocks++;
  for (gint by = by0; st == GB_OK && by * side < in_box->y + in_box->height;
       by++)
    for (gint bx = bx0; bx * side < in_box->x + in_box->width; bx++)
      {
        const GeglRectangle block = { bx * side, by * side, side, side };
        GeglRectangle inside;
        gegl_rectangle_intersect (&inside, &block, box);
        if (gegl_rectangle_contains (&todo, &inside))
          cudablur_block_computed (operation, output, side, level, bx, by);
      }
  return st;
}

/* Why the CPU computed the parts of an image GIMP asked for where the
 * GPU was asked for (region_params): the engine, given the CPU, says
 * nothing of the GPU.  The GPU is left out only where it would not run
 * the whole image (gpu_runs_whole): a build without CUDA, the engine's
 * own choice (a small image, an algorithm without a GPU version: GB_OK,
 * which cudablur_last_run_describe words), CUDA still starting, or no
 * GPU found. */
static gb_status
parts_on_cpu_status (const gb_params *asked, const GeglRectangle *box)
{
#ifndef HAVE_CUDA
  (void) asked;
  (void) box;
  return GB_ERR_CUDA_NOT_BUILT;
#else
  if (gb_backend_for (asked, box->width, box->height) != GB_BACKEND_CUDA)
    return GB_OK;
  if (cudablur_gpu_ready ())
    return GB_OK;
  return cudablur_gpu_starting () ? CUDABLUR_GPU_STARTING
                                  : GB_ERR_CUDA_NO_DEVICE;
#endif
}

static gboolean
process (GeglOperation *operation, GeglBuffer *input, GeglBuffer *output,
         const GeglRectangle *result, gint level)
{
  CudablurOp *self = CUDABLUR_OP (operation);
  const gdouble started = cudablur_log_now ();
  cudablur_memory_hold ();
  gb_params p;
  params_at_level (self, level, &p);
  GeglRectangle box = get_bounding_box (operation), in_box;
  /* The part of the result that holds pixels; the rest stays empty. */
  if (!gegl_rectangle_intersect (&in_box, result, &box))
    return TRUE;
  const GeglRectangle out = at_level (&in_box, level);
  if (out.width < 1 || out.height < 1)
    return TRUE;
  const gboolean finite = !gegl_rectangle_is_infinite_plane (&box);
  const GeglRectangle image = finite ? at_level (&box, level) : box;
  gb_status st = GB_OK;
  call_record rec = { 0, 0, 0, 0, 0.0, { 0 } };
  rec.report.backend_used = GB_BACKEND_CPU;
  const gb_params asked = p;
  const char *mode;
  if (gb_effective_sigma (p.sigma_x) == 0.0
      && gb_effective_sigma (p.sigma_y) == 0.0)
    {
      cudablur_pass_through (input, output, self->io_format, level, &out);
      mode = "copy";
    }
  else if (!finite
           || (rec.side = block_side (self, &box)) == CUDABLUR_REQUESTS)
    {
      /* What is asked, with the reach, on the CPU (an infinite input has
       * no edges). */
      region_params (&p);
      st = blur_rect (self, operation, input, output, &p, level, &out, &image,
                      finite, FALSE, &rec.pixels, &rec.report);
      rec.blocks = 1;
      rec.side = 0;
      rec.reach = MAX (cudablur_reach (&p, 0, GB_BACKEND_CPU),
                       cudablur_reach (&p, 1, GB_BACKEND_CPU));
      mode = finite ? "requests" : "region";
    }
  else if (rec.side == CUDABLUR_WHOLE)
    {
      /* get_cached_region asked for the whole image. */
      st = blur_rect (self, operation, input, output, &p, level, &out, &image,
                      TRUE, gegl_rectangle_equal (&in_box, &box), &rec.pixels,
                      &rec.report);
      rec.blocks = 1;
      mode = "whole";
    }
  else
    {
      region_params (&p);
      rec.reach = MAX (cudablur_reach (&p, 0, GB_BACKEND_CPU),
                       cudablur_reach (&p, 1, GB_BACKEND_CPU));
      st = process_blocks (self, operation, input, output, &p, level,
                           &in_box, &box, &image, &rec);
      mode = "blocks";
    }
  cudablur_log_process (level, result, mode, rec.side, rec.reach, rec.blocks,
                        rec.cached, rec.pixels, rec.report.backend_used, started,
                        cudablur_log_now () - started, st);
  if (rec.pixels > 0.0)
    {
      /* device-used: what the user asked, and why the CPU where the
       * operation gave it the parts GIMP asked for. */
      gb_report said = rec.report;
      if (p.backend != asked.backend)
        said.gpu_status = parts_on_cpu_status (&asked, &box);
      cudablur_last_run_note (operation, &asked, st, &said, rec.pixels);
    }
  return st == GB_OK;
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

  /* The texts below and the properties' in the user's language. */
  cudablur_bind_catalogue ();
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
    "title", _("CUDA Gaussian Blur"),
    "categories", "blur",
    "description",
    _("Gaussian blur on an NVIDIA GPU through CUDA, or on all CPU cores: "
      "exact FIR and recursive (Young-van Vliet, Deriche) Gaussians and an "
      "edge-aware blur that keeps strong edges sharp"),
    "gimp:menu-path", "<Image>/Filters/Blur",
    /* TRANSLATORS: in GIMP's Filters > Blur, with a mnemonic unused there */
    "gimp:menu-label", _("CU_DA Gaussian Blur..."),
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
  cudablur_last_run_attach (G_OBJECT (self));
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
