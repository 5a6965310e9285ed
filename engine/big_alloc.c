/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A few large buffers kept between calls (see big_alloc.h). */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>

#include "big_alloc.h"

/* The work image of the native pipeline: the filters themselves run in
 * place. */
enum { SLOTS = 1 };
#define HUGE_PAGE ((size_t) 2 << 20)

typedef struct
{
  void *p;
  size_t bytes;    /* mapped size */
  int in_use;
} slot;

static slot slots[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Mapped sizes of buffers handed out but not kept (no slot free). */
typedef struct
{
  void *p;
  size_t bytes;
} header;

static size_t
mapped_size (size_t bytes)
{
  return (bytes + sizeof (header) + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

void *
gb_big_alloc (size_t bytes)
{
  if (bytes > SIZE_MAX - sizeof (header) - HUGE_PAGE)
    return NULL;
  const size_t want = mapped_size (bytes);
  pthread_mutex_lock (&lock);
  /* A kept buffer big enough, but not more than twice too big. */
  for (int i = 0; i < SLOTS; i++)
    if (slots[i].p && !slots[i].in_use && slots[i].bytes >= want
        && slots[i].bytes / 2 <= want)
      {
        slots[i].in_use = 1;
        pthread_mutex_unlock (&lock);
        return (char *) slots[i].p + sizeof (header);
      }
  pthread_mutex_unlock (&lock);
  void *p = mmap (NULL, want, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
#ifdef MADV_HUGEPAGE
  madvise (p, want, MADV_HUGEPAGE);   /* a hint; failure is harmless */
#endif
  ((header *) p)->p = p;
  ((header *) p)->bytes = want;
  return (char *) p + sizeof (header);
}

void
gb_big_free (void *q)
{
  if (!q)
    return;
  header *h = (header *) ((char *) q - sizeof (header));
  void *p = h->p;
  const size_t bytes = h->bytes;
  pthread_mutex_lock (&lock);
  for (int i = 0; i < SLOTS; i++)
    if (slots[i].p == p)
      {
        slots[i].in_use = 0;
        pthread_mutex_unlock (&lock);
        return;
      }
  /* Keep it in a free slot, or in place of a smaller idle one. */
  int best = -1;
  for (int i = 0; i < SLOTS; i++)
    if (!slots[i].in_use
        && (best < 0 || !slots[i].p
            || (slots[best].p && slots[i].bytes < slots[best].bytes)))
      best = i;
  void *drop = NULL;
  size_t drop_bytes = 0;
  if (best >= 0 && (!slots[best].p || slots[best].bytes < bytes))
    {
      drop = slots[best].p;
      drop_bytes = slots[best].bytes;
      slots[best] = (slot) { p, bytes, 0 };
    }
  else
    {
      drop = p;
      drop_bytes = bytes;
    }
  pthread_mutex_unlock (&lock);
  if (drop)
    munmap (drop, drop_bytes);
}

void
gb_big_trim (void)
{
  pthread_mutex_lock (&lock);
  for (int i = 0; i < SLOTS; i++)
    if (slots[i].p && !slots[i].in_use)
      {
        munmap (slots[i].p, slots[i].bytes);
        slots[i] = (slot) { NULL, 0, 0 };
      }
  pthread_mutex_unlock (&lock);
}
