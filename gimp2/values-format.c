/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The last values' formats (values-format.h), from the parameter
 * table. */
#include "config.h"

#include <string.h>

#include "params.h"
#include "values-format.h"

/* Bytes of the doubles and of the integers (the version and the 0
 * included), before padding. */
static void
sizes (gsize *doubles, gsize *ints)
{
  *doubles = 0;
  *ints = 2 * sizeof (gint32);
  for (gint i = 0; i < cb_params_count (); i++)
    if (cb_param_nth (i)->type == CB_PARAM_DOUBLE)
      *doubles += sizeof (gdouble);
    else
      *ints += sizeof (gint32);
}

gsize
cudablur_vals_bytes_size (void)
{
  gsize doubles, ints;
  sizes (&doubles, &ints);
  return (doubles + ints + 7) / 8 * 8;
}

void
cudablur_vals_to_bytes (const gb_params *v, guint8 *bytes)
{
  gsize doubles, ints;
  sizes (&doubles, &ints);
  memset (bytes, 0, cudablur_vals_bytes_size ());
  guint8 *d = bytes, *n = bytes + doubles;
  for (gint i = 0; i < cb_params_count (); i++)
    {
      const cb_param *p = cb_param_nth (i);
      if (p->type == CB_PARAM_DOUBLE)
        {
          const gdouble x = cb_param_get_double (p, v);
          memcpy (d, &x, sizeof x);
          d += sizeof x;
        }
      else
        {
          const gint32 x = cb_param_get_int (p, v);
          memcpy (n, &x, sizeof x);
          n += sizeof x;
        }
    }
  const gint32 version = CUDABLUR_VALS_VERSION;
  memcpy (n, &version, sizeof version);   /* and the 0 after it */
}

gboolean
cudablur_vals_from_bytes (const guint8 *bytes, gsize size, gb_params *v)
{
  gsize doubles, ints;
  sizes (&doubles, &ints);
  if (!bytes || size != cudablur_vals_bytes_size ())
    return FALSE;
  gb_params read;
  gb_params_init (&read);
  const guint8 *d = bytes, *n = bytes + doubles;
  for (gint i = 0; i < cb_params_count (); i++)
    {
      const cb_param *p = cb_param_nth (i);
      if (p->type == CB_PARAM_DOUBLE)
        {
          gdouble x;
          memcpy (&x, d, sizeof x);
          d += sizeof x;
          cb_param_set_double (p, &read, x);
        }
      else
        {
          gint32 x;
          memcpy (&x, n, sizeof x);
          n += sizeof x;
          cb_param_set_int (p, &read, x);
        }
    }
  gint32 version;
  memcpy (&version, n, sizeof version);
  gchar *message = NULL;
  if (version != CUDABLUR_VALS_VERSION || !cb_params_check (&read, &message))
    {
      g_free (message);
      return FALSE;
    }
  *v = read;
  return TRUE;
}

gboolean
cudablur_vals_from_keys (GKeyFile *k, const gchar *group, gb_params *v)
{
  if (!g_key_file_has_group (k, group))
    return FALSE;
  gb_params read;
  gb_params_init (&read);
  for (gint i = 0; i < cb_params_count (); i++)
    {
      const cb_param *p = cb_param_nth (i);
      GError *e = NULL;
      if (p->type == CB_PARAM_DOUBLE)
        {
          const gdouble x = g_key_file_get_double (k, group, p->name, &e);
          if (!e)
            cb_param_set_double (p, &read, x);
        }
      else
        {
          const gint x = g_key_file_get_integer (k, group, p->name, &e);
          if (!e)
            cb_param_set_int (p, &read, x);
        }
      g_clear_error (&e);
    }
  gchar *message = NULL;
  if (!cb_params_check (&read, &message))
    {
      g_free (message);
      return FALSE;
    }
  *v = read;
  return TRUE;
}

void
cudablur_vals_to_keys (const gb_params *v, GKeyFile *k, const gchar *group)
{
  g_key_file_set_integer (k, group, "version", CUDABLUR_VALS_VERSION);
  for (gint i = 0; i < cb_params_count (); i++)
    {
      const cb_param *p = cb_param_nth (i);
      if (p->type == CB_PARAM_DOUBLE)
        g_key_file_set_double (k, group, p->name,
                               cb_param_get_double (p, v));
      else
        g_key_file_set_integer (k, group, p->name, cb_param_get_int (p, v));
    }
}
