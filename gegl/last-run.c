/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The property device-used: where the operation's last preview was
 * blurred and why there ("GPU (NVIDIA ...)", "CPU: no usable CUDA device",
 * "CPU instead of the GPU: ..."), as the GIMP 2.10 dialog's status line
 * says it.
 *
 * GIMP's filter tool shows an operation's readable and writable
 * properties and keeps its settings object in step with the node both
 * ways: a change notified on the node is copied into the settings and
 * shown (app/operations/gimp-operation-config.c,
 * gimp_operation_config_connect_node).  So the operation announces a new
 * text by notifying the node, from the main loop: notifying the operation
 * itself would also make GEGL drop the node's result (the node forwards
 * its operation's notifications that way), and a report must not cause a
 * new blur.  GIMP redraws the preview when its settings change; the text
 * of that redraw is the same, and nothing more is announced.  The widget
 * is insensitive ("sensitive" key 0): the operation writes the text, the
 * user reads it.
 *
 * GIMP renders the canvas at its zoom and other views of the image
 * (smaller mipmap levels) beside it, which may run elsewhere (Automatic
 * leaves small images to the CPU): the largest run since the parameters
 * last changed is the one shown, so that the texts of two views never
 * take turns. */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "last-run.h"

typedef struct
{
  GMutex lock;
  gchar *shown;      /* the property's value */
  gchar *pending;    /* a new text not yet announced, or NULL */
  gdouble largest;   /* pixels of the largest run since the values changed */
  GWeakRef op;       /* for the main loop's announcement */
} last_run;

static GQuark
record_quark (void)
{
  return g_quark_from_static_string ("cudablur-last-run");
}

static void
record_clear (gpointer data)
{
  last_run *lr = data;
  g_mutex_clear (&lr->lock);
  g_free (lr->shown);
  g_free (lr->pending);
  g_weak_ref_clear (&lr->op);
}

static void
record_unref (gpointer data)
{
  g_atomic_rc_box_release_full (data, record_clear);
}

void
cudablur_last_run_attach (GObject *op)
{
  last_run *lr = g_atomic_rc_box_new0 (last_run);
  g_mutex_init (&lr->lock);
  lr->shown = g_strdup ("");
  g_weak_ref_init (&lr->op, op);
  g_object_set_qdata_full (op, record_quark (), lr, record_unref);
}

static last_run *
record_of (GObject *op)
{
  return g_object_get_qdata (op, record_quark ());
}

GParamSpec *
cudablur_last_run_spec (void)
{
  GParamSpec *pspec = g_param_spec_string (
      CUDABLUR_LAST_RUN_PROPERTY, _("Device used"),
      _("Where the last preview was blurred, and why there (the device "
        "setting, the build, the GPU, the image's size)"),
      "", G_PARAM_READWRITE);
  /* Read-only in GIMP's filter tool. */
  gegl_param_spec_set_property_key (pspec, "sensitive", "0");
  return pspec;
}

void
cudablur_last_run_get (GObject *op, GValue *value)
{
  last_run *lr = record_of (op);
  g_mutex_lock (&lr->lock);
  g_value_set_string (value, lr->shown);
  g_mutex_unlock (&lr->lock);
}

void
cudablur_last_run_set (GObject *op, const GValue *value)
{
  last_run *lr = record_of (op);
  const gchar *text = g_value_get_string (value);
  g_mutex_lock (&lr->lock);
  g_free (lr->shown);
  lr->shown = g_strdup (text ? text : "");
  g_mutex_unlock (&lr->lock);
}

void
cudablur_last_run_restart (GObject *op)
{
  last_run *lr = record_of (op);
  if (!lr)
    return;
  g_mutex_lock (&lr->lock);
  lr->largest = 0.0;
  g_mutex_unlock (&lr->lock);
}

/* Why the CPU ran a blur the GPU could have run. */
static gchar *
cpu_reason (const gb_params *p, const gb_report *r)
{
  const gb_algorithm_info *info = gb_algorithm_get (p->algorithm);
  if (r->gpu_status == CUDABLUR_GPU_STARTING)
    return g_strdup (_("the GPU was still starting"));
  if (r->gpu_status == CUDABLUR_GPU_SHORT)
    return g_strdup (_("the image needs more memory than the GPU has "
                       "free"));
  switch (r->gpu_status)
    {
    case GB_OK:
      if (info && !info->gpu)
        /* TRANSLATORS: %s is an algorithm's name, as the list shows it */
        return g_strdup_printf (_("%s has no GPU version"),
                                _(info->label));
      return g_strdup_printf (_("images under %d x %d pixels are faster "
                                "there"), GB_GPU_MIN_SIDE, GB_GPU_MIN_SIDE);
    case GB_ERR_CUDA_NO_MEMORY:
    case GB_ERR_CUDA_LAUNCH:
    case GB_ERR_CUDA_COPY:
      /* TRANSLATORS: %s says what failed, e.g. "out of GPU memory" */
      return g_strdup_printf (_("the GPU failed (%s)"),
                              _(gb_status_message (r->gpu_status)));
    default:
      return g_strdup (_(gb_status_message (r->gpu_status)));
    }
}

gchar *
cudablur_last_run_describe (const gb_params *p, gb_status st,
                            const gb_report *r)
{
  if (st != GB_OK)
    /* TRANSLATORS: %s says why, e.g. "out of memory" */
    return g_strdup_printf (_("Not blurred: %s"),
                            _(gb_status_message (st)));
  if (r->backend_used == GB_BACKEND_CUDA)
    {
      char name[200] = "";
      gb_cuda_info (name, sizeof name);
      /* TRANSLATORS: %s is the GPU's name, "NVIDIA GeForce RTX 4090" */
      return g_strdup_printf (_("GPU (%s)"), name);
    }
  if (p->backend == GB_BACKEND_CPU)
    return g_strdup (_("CPU, as chosen"));
  gchar *why = cpu_reason (p, r);
  gchar *text = p->backend == GB_BACKEND_CUDA
    /* TRANSLATORS: Device CUDA, and the CPU ran it; %s says why */
    ? g_strdup_printf (_("CPU instead of the GPU: %s"), why)
    /* TRANSLATORS: Device Automatic chose the CPU; %s says why */
    : g_strdup_printf (_("CPU: %s"), why);
  g_free (why);
  return text;
}

/* In the main loop: the pending text becomes the property's value, and
 * the node (or the operation, outside a graph) says so. */
static gboolean
announce (gpointer data)
{
  last_run *lr = data;
  g_mutex_lock (&lr->lock);
  gchar *text = lr->pending;
  lr->pending = NULL;
  const gboolean changed = text && strcmp (text, lr->shown);
  if (changed)
    {
      g_free (lr->shown);
      lr->shown = text;
    }
  else
    g_free (text);
  g_mutex_unlock (&lr->lock);
  GObject *op = g_weak_ref_get (&lr->op);
  if (op && changed)
    {
      GParamSpec *pspec = g_object_class_find_property (
          G_OBJECT_GET_CLASS (op), CUDABLUR_LAST_RUN_PROPERTY);
      GeglNode *node = GEGL_OPERATION (op)->node;
      g_object_notify_by_pspec (node ? G_OBJECT (node) : op, pspec);
    }
  if (op)
    g_object_unref (op);
  return G_SOURCE_REMOVE;
}

void
cudablur_last_run_note (GeglOperation *op, const gb_params *p, gb_status st,
                        const gb_report *r, gdouble pixels)
{
  last_run *lr = record_of (G_OBJECT (op));
  if (!lr || st == GB_ERR_CANCELLED)
    return;
  gchar *text = cudablur_last_run_describe (p, st, r);
  gboolean schedule = FALSE;
  g_mutex_lock (&lr->lock);
  if (pixels >= lr->largest)
    {
      lr->largest = pixels;
      const gchar *newest = lr->pending ? lr->pending : lr->shown;
      if (strcmp (text, newest))
        {
          /* One announcement in flight at a time: it takes the newest. */
          schedule = !lr->pending;
          g_free (lr->pending);
          lr->pending = text;
          text = NULL;
        }
    }
  g_mutex_unlock (&lr->lock);
  g_free (text);
  if (schedule)
    g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, announce,
                     g_atomic_rc_box_acquire (lr), record_unref);
}
