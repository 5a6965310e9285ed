/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The plug-in's names, and its last values: gb_params, as the parameter
 * table (common/params.h) reads and writes them. */
#ifndef CUDABLUR_VALUES_H
#define CUDABLUR_VALUES_H

#include <libgimp/gimp.h>

#include "gblur.h"
#include "params.h"

/* The menu entry's procedure: a name that no temporary procedure shares
 * (gimp2/resident.c says why), with plug-in-cudablur-full's arguments. */
#define PLUG_IN_PROC_MENU "plug-in-cudablur-menu"
#define PLUG_IN_BINARY "cudablur"
#define PLUG_IN_ROLE   "gimp-cudablur"
/* The Help button's pages: a help domain of our own, whose gimp-help.xml
 * maps PLUG_IN_HELP to a page installed with the plug-in. */
#define PLUG_IN_HELP        "plug-in-cudablur"
#define PLUG_IN_HELP_DOMAIN "gimp-cudablur"

/* The last values: those of this GIMP session, else those kept in the
 * profile from an earlier one, else the defaults (whatever is stored must
 * pass the checks).  Saving keeps them for both. */
void cudablur_vals_load (gb_params *vals);
void cudablur_vals_save (const gb_params *vals);

#endif
