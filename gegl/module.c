/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GEGL module's entry points: GEGL loads every module in its module
 * folders (GEGL_PATH, ~/.local/share/gegl-0.4/plug-ins, its own) and asks
 * it to register its operations. */
#include "config.h"

#include <gegl.h>
#include <gegl-plugin.h>

#include "op.h"

static const GeglModuleInfo module_info = { GEGL_MODULE_ABI_VERSION };

G_MODULE_EXPORT const GeglModuleInfo *gegl_module_query (GTypeModule *module);
G_MODULE_EXPORT gboolean gegl_module_register (GTypeModule *module);

G_MODULE_EXPORT const GeglModuleInfo *
gegl_module_query (GTypeModule *module)
{
  (void) module;
  return &module_info;
}

G_MODULE_EXPORT gboolean
gegl_module_register (GTypeModule *module)
{
  /* TRUE either way: a copy that found the operation registered by
   * another stays loaded, unused, rather than making GEGL warn. */
  cudablur_op_register (module);
  return TRUE;
}
