/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The dialog's controls, one per row of the parameter table: a combo box
 * for an enumeration, a slider with an entry for a number (the standard
 * deviations on a logarithmic scale, linked by a chain button), each with
 * the row's mnemonic label and tooltip.  Controls an algorithm does not
 * use are greyed out.  The device is the last row shown: its combo names
 * the GPU and the CPU threads. */
#ifndef CUDABLUR_CONTROLS_H
#define CUDABLUR_CONTROLS_H

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "../values.h"

typedef struct _CudablurControls CudablurControls;

/* The number of rows of a GtkTable the controls take. */
gint cudablur_controls_rows (void);

/* Builds the controls into rows first_row.. of table (4 columns), editing
 * *vals: each change by the user writes vals and then calls changed. */
CudablurControls *cudablur_controls_new (GtkTable *table, gint first_row,
                                         gb_params *vals,
                                         void (*changed) (gpointer user),
                                         gpointer user);

/* Shows *vals (changed is not called). */
void cudablur_controls_show (CudablurControls *c);

/* The control to focus first: the horizontal standard deviation's
 * entry. */
GtkWidget *cudablur_controls_first (CudablurControls *c);

void cudablur_controls_free (CudablurControls *c);

#endif
