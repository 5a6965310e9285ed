/* The PDB procedure: its signature and help, shared by the permanent
 * procedure and the resident process's temporary one (plugin/main.c). */
#ifndef CUDABLUR_PROCEDURE_H
#define CUDABLUR_PROCEDURE_H

#include <libgimp/gimp.h>

#include "values.h"

#define CUDABLUR_N_ARGS 10   /* run-mode, image, drawable + 7 */
#define CUDABLUR_N_RETURN_VALS 1

/* The arguments, return values and help text; built once from the
 * algorithm registry (cudablur_procedure_init). */
extern GimpParamDef cudablur_args[CUDABLUR_N_ARGS];
extern const GimpParamDef cudablur_return_vals[CUDABLUR_N_RETURN_VALS];
extern const gchar *cudablur_help;
void cudablur_procedure_init (void);

/* One call of plug-in-cudablur, in a process of its own (resident FALSE)
 * or in the resident process. */
void cudablur_run (const gchar *name, gint nparams, const GimpParam *param,
                   gint *nreturn_vals, GimpParam **return_vals,
                   gboolean resident);

#endif
