/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Large buffers (whole work images) for the engine, kept between calls.
 * Fresh memory costs page faults and zeroing when first touched, on a
 * small machine as much as the blur itself.  A
 * long-lived caller (the plug-in's resident process) reuses the buffers
 * of its last call instead; gb_trim frees them.  New ones ask for
 * transparent huge pages. */
#ifndef GB_BIG_ALLOC_H
#define GB_BIG_ALLOC_H

#include <stddef.h>

/* NULL when there is no memory. */
void *gb_big_alloc (size_t bytes);
/* Keeps the buffer for a later gb_big_alloc, or unmaps it. */
void gb_big_free (void *p);
/* Unmaps every kept buffer. */
void gb_big_trim (void);

#endif
