/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GEGL operation cudablur:gaussian-blur (gegl/op.c) and its
 * properties, the parameter table's rows (gegl/properties.c). */
#ifndef CUDABLUR_GEGL_OP_H
#define CUDABLUR_GEGL_OP_H

#include <gegl.h>
#include <gegl-plugin.h>

#include "gblur.h"
#include "params.h"

typedef struct
{
  GeglOperationFilter parent_instance;
  gb_params params;         /* the properties, at full resolution */
  /* Set by prepare: how pixels move to the engine. */
  const Babl *io_format;
  gb_pixel_format engine_format;
  gboolean warned;          /* a failure was reported */
} CudablurOp;

typedef struct
{
  GeglOperationFilterClass parent_class;
} CudablurOpClass;

GType cudablur_op_get_type (void);
#define CUDABLUR_TYPE_OP (cudablur_op_get_type ())
#define CUDABLUR_OP(obj) \
  (G_TYPE_CHECK_INSTANCE_CAST ((obj), CUDABLUR_TYPE_OP, CudablurOp))

/* Registers the enumerations and the operation with GEGL's module;
 * FALSE where another copy of the module did already. */
gboolean cudablur_op_register (GTypeModule *module);

/* properties.c */
void cudablur_op_register_enums (GTypeModule *module);
void cudablur_op_install_properties (GObjectClass *klass);
void cudablur_op_set_defaults (CudablurOp *self);

#endif
