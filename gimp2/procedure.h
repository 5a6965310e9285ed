/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The PDB procedures (plugin/procedure.c): plug-in-cudablur, with the
 * arguments scripts have always passed, and plug-in-cudablur-full, the
 * same and two more (edge mode, blur space); GIMP 2.10 does not fill in
 * missing trailing arguments, so the longer signature has a name of its
 * own.  Shared by the permanent procedures and the resident process's
 * temporary ones; plug-in-cudablur-menu, the menu entry, takes the
 * longer signature. */
#ifndef CUDABLUR_PROCEDURE_H
#define CUDABLUR_PROCEDURE_H

#include <libgimp/gimp.h>

#include "values.h"

#define CUDABLUR_N_ARGS 10        /* run-mode, image, drawable + 7 */
#define CUDABLUR_N_ARGS_FULL 12   /* + edge-mode, blur-space */
#define CUDABLUR_N_RETURN_VALS 1

/* The arguments (the short procedure takes the first CUDABLUR_N_ARGS),
 * return values and help texts. */
extern GimpParamDef cudablur_args[CUDABLUR_N_ARGS_FULL];
extern const GimpParamDef cudablur_return_vals[CUDABLUR_N_RETURN_VALS];
extern const gchar *cudablur_help, *cudablur_help_full;

/* The number of arguments of our procedure of that name, 0 for others. */
gint cudablur_n_args (const gchar *name);

/* Installs both procedures: permanent (in query, temporary NULL, with the
 * menu entry's procedure beside them) or as temporary ones run by
 * `temporary`. */
void cudablur_procedure_install (GimpRunProc temporary);

/* One call of either procedure, in a process of its own (resident FALSE)
 * or in the resident process. */
void cudablur_run (const gchar *name, gint nparams, const GimpParam *param,
                   gint *nreturn_vals, GimpParam **return_vals,
                   gboolean resident);

#endif
