/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The last values and presets as GIMP 2.10 keeps them, one field per row
 * of the parameter table: the bytes gimp_set_data stores for the session,
 * and the key-file group the profile's parasite and the presets file
 * hold.  GLib only, so that the tests read and write them without GIMP. */
#ifndef CUDABLUR_VALUES_FORMAT_H
#define CUDABLUR_VALUES_FORMAT_H

#include <glib.h>

#include "gblur.h"

/* Bumped when the meaning of stored bytes changes; a row added or
 * removed changes their size, which is refused too. */
#define CUDABLUR_VALS_VERSION 3

/* The bytes: the DOUBLE rows' values, then the others' as 32-bit
 * integers, then the version and a 0, zero-padded to a multiple of 8
 * bytes: the layout of the struct earlier versions stored.  Bytes of
 * another size or version, or whose values fail the checks, are not
 * taken (FALSE). */
gsize cudablur_vals_bytes_size (void);
void cudablur_vals_to_bytes (const gb_params *v, guint8 *bytes);
gboolean cudablur_vals_from_bytes (const guint8 *bytes, gsize size,
                                   gb_params *v);

/* The key-file group: a key per row (its name), and "version".  Missing
 * or unreadable keys read as defaults, so that an older profile's values
 * load; values that fail the checks are not taken (FALSE). */
gboolean cudablur_vals_from_keys (GKeyFile *k, const gchar *group,
                                  gb_params *v);
void cudablur_vals_to_keys (const gb_params *v, GKeyFile *k,
                            const gchar *group);

#endif
