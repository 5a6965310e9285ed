/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The blocks GEGL's cache holds (blocks.h).  GEGL computes what
 * get_cached_region returns for a request whole unless its cache holds
 * all of it; GIMP's chunks grow once rendering is fast, so a chunk that
 * reaches one new block would have every cached block it touches computed
 * again.  Each block computed into the node's cache is remembered here;
 * GEGL emits the node's "invalidated" signal wherever it invalidates the
 * cache (gegl_node_invalidated), which forgets the blocks it touches, and
 * a cache GEGL replaces is a new buffer, which forgets them all. */
#include "config.h"

#include <string.h>

#include "blocks.h"

typedef struct
{
  GMutex lock;
  GHashTable *done;       /* keys: packed (level, bx, by) */
  GeglBuffer *output;     /* the cache the blocks are in (not a reference) */
  gint side;
  gboolean watching;      /* connected to the node's "invalidated" */
} block_memory;

/* Block numbers within +-2^27 (blocks of 256 pixels or more: any image
 * GEGL can hold). */
#define BIAS 0x8000000
#define MASK 0xfffffff

static guint64
key_of (gint level, gint bx, gint by)
{
  return ((guint64) (level & 0xff) << 56)
         | ((guint64) ((bx + BIAS) & MASK) << 28)
         | (guint64) ((by + BIAS) & MASK);
}

static void
forget_all_locked (block_memory *m)
{
  g_hash_table_remove_all (m->done);
}

static void
free_memory (gpointer data)
{
  block_memory *m = data;
  g_hash_table_unref (m->done);
  g_mutex_clear (&m->lock);
  g_free (m);
}

/* The cache was freed: whatever takes its address is another buffer. */
static void
output_gone (gpointer data, GObject *where)
{
  block_memory *m = data;
  g_mutex_lock (&m->lock);
  if ((GObject *) m->output == where)
    {
      m->output = NULL;
      forget_all_locked (m);
    }
  g_mutex_unlock (&m->lock);
}

static void
on_invalidated (GeglNode *node, const GeglRectangle *rect, gpointer operation)
{
  (void) node;
  block_memory *m = g_object_get_data (G_OBJECT (operation),
                                       "cudablur-blocks");
  if (!m)
    return;
  g_mutex_lock (&m->lock);
  if (!rect || m->side <= 0)
    forget_all_locked (m);
  else
    {
      GHashTableIter it;
      gpointer key;
      g_hash_table_iter_init (&it, m->done);
      while (g_hash_table_iter_next (&it, &key, NULL))
        {
          const guint64 k = *(guint64 *) key;
          const gint bx = (gint) ((k >> 28) & MASK) - BIAS;
          const gint by = (gint) (k & MASK) - BIAS;
          const GeglRectangle block = { bx * m->side, by * m->side, m->side,
                                        m->side };
          if (gegl_rectangle_intersect (NULL, &block, rect))
            g_hash_table_iter_remove (&it);
        }
    }
  g_mutex_unlock (&m->lock);
}

static void
detach (gpointer data)
{
  block_memory *m = data;
  if (m->output)
    g_object_weak_unref (G_OBJECT (m->output), output_gone, m);
  free_memory (m);
}

static block_memory *
memory_of (GeglOperation *operation)
{
  static GMutex create;
  g_mutex_lock (&create);
  block_memory *m = g_object_get_data (G_OBJECT (operation),
                                       "cudablur-blocks");
  if (!m)
    {
      m = g_new0 (block_memory, 1);
      g_mutex_init (&m->lock);
      m->done = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                       NULL);
      g_object_set_data_full (G_OBJECT (operation), "cudablur-blocks", m,
                              detach);
    }
  if (!m->watching && operation->node)
    {
      /* Disconnected when the operation goes. */
      g_signal_connect_object (operation->node, "invalidated",
                               G_CALLBACK (on_invalidated), operation, 0);
      m->watching = TRUE;
    }
  g_mutex_unlock (&create);
  return m;
}

/* Only the node's cache keeps what was computed; a buffer of a single
 * request does not. */
static gboolean
is_cache (GeglBuffer *output)
{
  return output && !strcmp (G_OBJECT_TYPE_NAME (output), "GeglCache");
}

gboolean
cudablur_block_done (GeglOperation *operation, GeglBuffer *output, gint side,
                     gint level, gint bx, gint by)
{
  if (!is_cache (output))
    return FALSE;
  block_memory *m = memory_of (operation);
  guint64 key = key_of (level, bx, by);
  g_mutex_lock (&m->lock);
  const gboolean done = m->watching && m->output == output
                        && m->side == side
                        && g_hash_table_contains (m->done, &key);
  g_mutex_unlock (&m->lock);
  return done;
}

void
cudablur_block_computed (GeglOperation *operation, GeglBuffer *output,
                         gint side, gint level, gint bx, gint by)
{
  if (!is_cache (output))
    return;
  block_memory *m = memory_of (operation);
  g_mutex_lock (&m->lock);
  if (m->output != output || m->side != side)
    {
      if (m->output)
        g_object_weak_unref (G_OBJECT (m->output), output_gone, m);
      forget_all_locked (m);
      m->output = output;
      m->side = side;
      g_object_weak_ref (G_OBJECT (output), output_gone, m);
    }
  guint64 *key = g_new (guint64, 1);
  *key = key_of (level, bx, by);
  g_hash_table_add (m->done, key);
  g_mutex_unlock (&m->lock);
}
