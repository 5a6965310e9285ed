/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The PDB procedures (gimp2/procedure.c): plug-in-cudablur, with the
 * arguments scripts have always passed, and plug-in-cudablur-full, the
 * same and the parameter table's full_only rows after them; GIMP 2.10
 * does not fill in missing trailing arguments, so the longer signature
 * has a name of its own.  Shared by the permanent procedures and the
 * resident process's temporary ones; plug-in-cudablur-menu, the menu
 * entry, takes the longer signature. */
#ifndef CUDABLUR_PROCEDURE_H
#define CUDABLUR_PROCEDURE_H

#include <libgimp/gimp.h>

#include "values.h"

/* Run-mode, image and drawable: the arguments before the table's rows
 * (argument CUDABLUR_FIRST_ROW_ARG + i is row i). */
#define CUDABLUR_FIRST_ROW_ARG 3
#define CUDABLUR_N_RETURN_VALS 1

/* The full procedure's arguments (the short one takes the first
 * cudablur_n_args (PLUG_IN_PROC)), built once from the table. */
const GimpParamDef *cudablur_args (void);

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
