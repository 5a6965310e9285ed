/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The dialog's preview (preview.h): widgets, zoom and scrolling, reading
 * the drawable on the main thread, handing the blur to the worker
 * (preview-render.c) and drawing what comes back. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <gdk/gdkkeysyms.h>

#include "preview.h"
#include "preview-render.h"
#include "intl.h"

/* Quiet time after a change before a render starts (a slider being
 * dragged renders when it rests), and how often results are looked for. */
#define DEBOUNCE_MS 60
#define POLL_MS 25
/* "Rendering..." shows only for renders slower than this. */
#define BUSY_NOTE_US 250000
/* A halo read this much larger than needed serves a growing sigma from the
 * cache. */
#define HALO_SLACK 1.5
/* The most the source pixels may take (float). */
#define PREVIEW_MAX_BYTES ((gdouble) (256u << 20))

struct _CudablurPreview
{
  gint32 drawable_id;
  const gb_params *vals;
  GeglBuffer *buffer;
  GeglBuffer *mask;           /* the selection, when there is one */
  gint offset_x, offset_y;    /* the drawable in the image */
  const Babl *source_format;  /* linear float, straight alpha */
  const Babl *to_display;
  gint channels, display_bpp;

  pv_view view;
  gboolean fit;               /* the zoom follows the widget's size */
  pv_worker *worker;
  pv_source *cache;
  pv_job *shown;              /* what the area shows (with its layout) */
  pv_layout shown_layout;
  pv_layout pending_layout;   /* of the newest job submitted */
  gint64 requested;           /* when the newest render was asked for */
  guint debounce_id, poll_id;

  gboolean split;
  gint split_x;               /* in the area; -1: its middle */
  enum { DRAG_NONE, DRAG_PAN, DRAG_SPLIT } drag;
  gdouble drag_x, drag_y, drag_cx, drag_cy;
  gboolean setting_scroll;    /* set while the scrollbars are written */

  GtkWidget *box, *area, *hscroll, *vscroll, *zoom_label, *preview_toggle;
  GtkWidget *split_toggle, *status;

  const gchar *dump_dir;
  gint dumps;
};

/* ------------------------------------------------------------ dumps */

static void
dump_log (CudablurPreview *p, const gchar *fmt, ...) G_GNUC_PRINTF (2, 3);

static void
dump_log (CudablurPreview *p, const gchar *fmt, ...)
{
  if (!p->dump_dir)
    return;
  gchar *path = g_build_filename (p->dump_dir, "render.log", NULL);
  FILE *f = fopen (path, "a");
  g_free (path);
  if (!f)
    return;
  va_list ap;
  va_start (ap, fmt);
  vfprintf (f, fmt, ap);
  va_end (ap);
  fprintf (f, " t=%.3f\n", g_get_monotonic_time () / 1e6);
  fclose (f);
}

/* The shown preview's blurred pixels (unmagnified, as PAM) and where they
 * came from. */
static void
dump_shown (CudablurPreview *p)
{
  const pv_job *j = p->shown;
  if (!p->dump_dir || !j)
    return;
  gchar *base = g_strdup_printf ("%s/preview-%03d", p->dump_dir, p->dumps++);
  gchar *pam = g_strconcat (base, ".pam", NULL);
  gchar *txt = g_strconcat (base, ".txt", NULL);
  FILE *f = fopen (pam, "wb");
  if (f)
    {
      fprintf (f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH %d\nMAXVAL 255\n"
               "TUPLTYPE %s\nENDHDR\n", j->out.width, j->out.height,
               j->display_bpp, j->display_bpp == 4 ? "RGB_ALPHA" : "RGB");
      fwrite (j->blurred, j->display_bpp,
              (gsize) j->out.width * j->out.height, f);
      fclose (f);
    }
  f = fopen (txt, "w");
  if (f)
    {
      gchar d[G_ASCII_DTOSTR_BUF_SIZE];
      fprintf (f, "scale %s x %d y %d width %d height %d",
               g_ascii_dtostr (d, sizeof d, j->source->scale),
               j->out.x, j->out.y, j->out.width, j->out.height);
      /* Every row of the table, "name value". */
      for (gint i = 0; i < cb_params_count (); i++)
        {
          const cb_param *row = cb_param_nth (i);
          if (row->type == CB_PARAM_DOUBLE)
            fprintf (f, " %s %s", row->name,
                     g_ascii_dtostr (d, sizeof d,
                                     cb_param_get_double (row, &j->vals)));
          else
            fprintf (f, " %s %d", row->name,
                     cb_param_get_int (row, &j->vals));
        }
      fprintf (f, "\n");
      fclose (f);
    }
  dump_log (p, "shown %d %s", j->generation, base);
  g_free (pam);
  g_free (txt);
  g_free (base);
}

/* ---------------------------------------------------------- drawing */

static gboolean
preview_on (CudablurPreview *p)
{
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (p->preview_toggle));
}

static gint
split_at (const CudablurPreview *p)
{
  return p->split_x >= 0 ? p->split_x : p->view.area_width / 2;
}

/* The shown job's pixels magnified into the area, original left of the
 * split line when split view is on. */
static void
draw (CudablurPreview *p)
{
  GimpPreviewArea *area = GIMP_PREVIEW_AREA (p->area);
  GtkStyle *style = gtk_widget_get_style (p->area);
  const GdkColor *bg = &style->bg[GTK_STATE_NORMAL];
  if (p->view.area_width < 1 || p->view.area_height < 1)
    return;
  gimp_preview_area_fill (area, 0, 0, p->view.area_width,
                          p->view.area_height, bg->red >> 8, bg->green >> 8,
                          bg->blue >> 8);
  const pv_job *j = p->shown;
  const pv_layout *l = &p->shown_layout;
  if (j && l->dest.x + l->dest.width <= p->view.area_width
      && l->dest.y + l->dest.height <= p->view.area_height)
    {
      const gint bpp = j->display_bpp, w = l->dest.width, h = l->dest.height;
      const gint split = p->split ? split_at (p) : -1;
      guchar *buf = g_try_malloc ((gsize) w * h * bpp);
      if (!buf)
        return;
      for (gint y = 0; y < h; y++)
        for (gint x = 0; x < w; x++)
          {
            const gsize from = ((gsize) (y / l->mag) * j->out.width
                                + x / l->mag) * bpp;
            const guchar *src = l->dest.x + x < split ? j->original
                                : preview_on (p) ? j->blurred : j->original;
            memcpy (buf + ((gsize) y * w + x) * bpp, src + from, bpp);
          }
      gimp_preview_area_draw (area, l->dest.x, l->dest.y, w, h,
                              bpp == 4 ? GIMP_RGBA_IMAGE : GIMP_RGB_IMAGE,
                              buf, w * bpp);
      g_free (buf);
      if (split >= l->dest.x && split < l->dest.x + w)
        {
          /* A dashed line, visible on any image. */
          guchar *line = g_malloc ((gsize) h * 3);
          for (gint y = 0; y < h; y++)
            memset (line + y * 3, (y / 4) % 2 ? 0 : 255, 3);
          gimp_preview_area_draw (area, split, l->dest.y, 1, h,
                                  GIMP_RGB_IMAGE, line, 3);
          g_free (line);
        }
    }
  gtk_widget_queue_draw (p->area);
}

/* ---------------------------------------------------------- status */

static void
set_status (CudablurPreview *p, const gchar *text, const gchar *tip)
{
  gtk_label_set_text (GTK_LABEL (p->status), text);
  gimp_help_set_help_data (p->status, tip, NULL);
}

static void
show_result_status (CudablurPreview *p, const pv_job *j)
{
  const gdouble ms = (g_get_monotonic_time () - p->requested) / 1000.0;
  gchar *text;
  if (j->status != GB_OK)
    text = g_strdup_printf (_("Preview failed: %s"),
                            _(gb_status_message (j->status)));
  else if (!preview_on (p))
    text = g_strdup (_("Preview off"));
  else if (!(j->vals.sigma_x >= GB_SIGMA_IDENTITY)
           && !(j->vals.sigma_y >= GB_SIGMA_IDENTITY))
    text = g_strdup_printf (_("Standard deviations below %g leave the image "
                              "as it is"), GB_SIGMA_IDENTITY);
  else
    {
      const gb_algorithm_info *info = gb_algorithm_get (j->report.algorithm_used);
      gchar *where = j->report.backend_used == GB_BACKEND_CUDA
        ? g_strdup (_("the GPU"))
        : g_strdup_printf (ngettext ("the CPU (%d thread)",
                                     "the CPU (%d threads)",
                                     j->report.threads_used),
                           j->report.threads_used);
      gchar *time = ms < 1000.0 ? g_strdup_printf (_("%.0f ms"), ms)
                                : g_strdup_printf (_("%.1f s"), ms / 1000.0);
      /* TRANSLATORS: "Preview in 12 ms: Exact, large blurs (Deriche) on the GPU"
       * (the time first: a narrow dialog cuts the end off) */
      text = g_strdup_printf (_("Preview in %s: %s on %s"), time,
                              info ? _(info->label) : "", where);
      g_free (time);
      g_free (where);
    }
  set_status (p, text, j->report.reason);
  g_free (text);
}

/* ------------------------------------------------------- rendering */

static void update_scrollbars (CudablurPreview *p, const pv_layout *l);

static gboolean
poll_result (gpointer data)
{
  CudablurPreview *p = data;
  gboolean busy;
  pv_job *j = pv_worker_poll (p->worker, &busy);
  if (j)
    {
      pv_job_free (p->shown);
      p->shown = j;
      p->shown_layout = p->pending_layout;
      draw (p);
      show_result_status (p, j);
      if (j->status == GB_OK && preview_on (p))
        dump_shown (p);
    }
  else if (busy && g_get_monotonic_time () - p->requested > BUSY_NOTE_US)
    set_status (p, _("Preview: rendering..."), NULL);
  if (busy)
    return G_SOURCE_CONTINUE;
  p->poll_id = 0;
  return G_SOURCE_REMOVE;
}

/* The source format for the current values, as the final render moves
 * pixels (cudablur_io_format): float in the drawable's own space, alpha
 * straight (the engine premultiplies), linear or perceptual as the blur
 * space says, with an alpha of 1 added for "None" on a drawable without
 * one.  Displayed as R'G'B'(A) u8. */
static void
formats (CudablurPreview *p)
{
  static const char *const names[2][2][2] = {
    { { "Y float", "YA float" }, { "RGB float", "RGBA float" } },
    { { "Y' float", "Y'A float" }, { "R'G'B' float", "R'G'B'A float" } } };
  const Babl *native = gimp_drawable_get_format (p->drawable_id);
  const gboolean alpha = gimp_drawable_has_alpha (p->drawable_id);
  const gboolean rgb = gimp_drawable_is_rgb (p->drawable_id);
  const gboolean with_alpha = alpha || p->vals->border == GB_BORDER_NONE;
  p->channels = (rgb ? 3 : 1) + (with_alpha ? 1 : 0);
  p->source_format = babl_format_with_space (
    names[p->vals->perceptual != 0][rgb][with_alpha],
    native ? babl_format_get_space (native) : babl_space ("sRGB"));
  /* Without an alpha of its own the drawable shows opaque: the added one
   * is dropped, as the final render drops it. */
  const Babl *display = babl_format (alpha ? "R'G'B'A u8" : "R'G'B' u8");
  p->display_bpp = alpha ? 4 : 3;
  p->to_display = babl_fish (p->source_format, display);
}

/* The blur's reach at the preview's sigmas, in scaled pixels. */
static void
halo (CudablurPreview *p, gdouble scale, gdouble slack, gint *hx, gint *hy)
{
  gb_params params = *p->vals;
  params.sigma_x = MIN (params.sigma_x * scale * slack, GB_SIGMA_MAX);
  params.sigma_y = MIN (params.sigma_y * scale * slack, GB_SIGMA_MAX);
  if (!preview_on (p))
    params.sigma_x = params.sigma_y = 0.0;
  *hx = gb_reach (&params, 0) + 1;
  *hy = gb_reach (&params, 1) + 1;
}

/* The source pixels for read: the cache when it holds them, else read
 * with room for a larger sigma. */
static pv_source *
source_for (CudablurPreview *p, const pv_layout *l, pv_rect read)
{
  if (!pv_source_covers (p->cache, read, l->scale, p->source_format))
    {
      gint hx, hy;
      halo (p, l->scale, HALO_SLACK, &hx, &hy);
      pv_rect wide = pv_read_rect (&p->view, l, hx, hy);
      pv_source_unref (p->cache);
      p->cache = pv_source_read (p->buffer, p->source_format, p->channels,
                                 wide, l->scale);
      if (!p->cache)
        return NULL;
    }
  return pv_source_ref (p->cache);
}

/* The selection mask under out (scaled drawable coordinates), or NULL
 * where there is no selection. */
static guchar *
mask_for (CudablurPreview *p, const pv_layout *l)
{
  if (!p->mask)
    return NULL;
  guchar *m = g_try_malloc ((gsize) l->out.width * l->out.height);
  if (!m)
    return NULL;
  GeglRectangle r = { l->out.x + (gint) (p->offset_x * l->scale + 0.5),
                      l->out.y + (gint) (p->offset_y * l->scale + 0.5),
                      l->out.width, l->out.height };
  gegl_buffer_get (p->mask, &r, l->scale, babl_format ("Y u8"), m,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  return m;
}

static gboolean
render (gpointer data)
{
  CudablurPreview *p = data;
  p->debounce_id = 0;
  if (p->view.area_width < 1 || p->view.area_height < 1)
    return G_SOURCE_REMOVE;
  if (p->fit)
    p->view.zoom = pv_fit_zoom (&p->view);
  formats (p);
  /* A halo too large to hold (a huge sigma at a high zoom) is read
   * coarser: the blurred result is smooth there anyway. */
  pv_layout l;
  pv_rect read;
  for (p->view.coarse = 1;; p->view.coarse *= 2)
    {
      gint hx, hy;
      pv_layout_make (&p->view, &l);
      halo (p, l.scale, 1.0, &hx, &hy);
      read = pv_read_rect (&p->view, &l, hx, hy);
      if ((gdouble) read.width * read.height * p->channels * sizeof (gfloat)
          * HALO_SLACK * HALO_SLACK <= PREVIEW_MAX_BYTES
          || p->view.coarse >= 64)
        break;
    }
  update_scrollbars (p, &l);
  pv_job *j = g_new0 (pv_job, 1);
  j->vals = *p->vals;
  if (!preview_on (p))
    j->vals.sigma_x = j->vals.sigma_y = 0.0;   /* the original only */
  j->source = source_for (p, &l, read);
  j->read = read;
  j->out = l.out;
  j->to_display = p->to_display;
  j->display_bpp = p->display_bpp;
  j->mask = mask_for (p, &l);
  if (!j->source)
    {
      pv_job_free (j);
      gchar *text = g_strdup_printf (_("Preview failed: %s"),
                                     _(gb_status_message (GB_ERR_NO_MEMORY)));
      set_status (p, text, NULL);
      g_free (text);
      return G_SOURCE_REMOVE;
    }
  p->pending_layout = l;
  p->requested = g_get_monotonic_time ();
  pv_worker_submit (p->worker, j);
  dump_log (p, "submit %d scale %g read %dx%d", j->generation, l.scale,
            read.width, read.height);
  if (!p->poll_id)
    p->poll_id = g_timeout_add (POLL_MS, poll_result, p);
  return G_SOURCE_REMOVE;
}

void
cudablur_preview_invalidate (CudablurPreview *p)
{
  if (p->debounce_id)
    g_source_remove (p->debounce_id);
  p->debounce_id = g_timeout_add (DEBOUNCE_MS, render, p);
}

/* ------------------------------------------------ zoom and scrolling */

static void
update_zoom_label (CudablurPreview *p)
{
  gchar *text = g_strdup_printf ("%.0f%%", p->view.zoom * 100.0);
  gtk_label_set_text (GTK_LABEL (p->zoom_label), text);
  g_free (text);
}

static void
set_zoom (CudablurPreview *p, gdouble zoom, gboolean fit)
{
  p->fit = fit;
  p->view.zoom = fit ? pv_fit_zoom (&p->view) : zoom;
  update_zoom_label (p);
  cudablur_preview_invalidate (p);
}

static void
zoom_in (CudablurPreview *p)
{
  set_zoom (p, pv_zoom_in (p->view.zoom, pv_fit_zoom (&p->view)), FALSE);
}

static void
zoom_out (CudablurPreview *p)
{
  const gdouble fit = pv_fit_zoom (&p->view);
  const gdouble z = pv_zoom_out (p->view.zoom, fit);
  set_zoom (p, z, z <= fit);
}

static void
zoom_fit (CudablurPreview *p)
{
  p->view.centre_x = p->view.bounds.x + p->view.bounds.width / 2.0;
  p->view.centre_y = p->view.bounds.y + p->view.bounds.height / 2.0;
  set_zoom (p, 0.0, TRUE);
}

static void
zoom_one (CudablurPreview *p)
{
  set_zoom (p, 1.0, FALSE);
}

static void
set_adjustment (GtkAdjustment *adj, GtkWidget *bar, gdouble lower,
                gdouble upper, gdouble value, gdouble page)
{
  gtk_adjustment_configure (adj, value, lower, upper, MAX (page / 10.0, 1.0),
                            MAX (page * 0.9, 1.0), page);
  if (page < upper - lower)
    gtk_widget_show (bar);
  else
    gtk_widget_hide (bar);
}

static void
update_scrollbars (CudablurPreview *p, const pv_layout *l)
{
  const pv_rect *b = &p->view.bounds;
  p->setting_scroll = TRUE;
  set_adjustment (gtk_range_get_adjustment (GTK_RANGE (p->hscroll)),
                  p->hscroll, b->x, b->x + b->width, l->image.x,
                  MIN (l->image.width, b->width));
  set_adjustment (gtk_range_get_adjustment (GTK_RANGE (p->vscroll)),
                  p->vscroll, b->y, b->y + b->height, l->image.y,
                  MIN (l->image.height, b->height));
  p->setting_scroll = FALSE;
  update_zoom_label (p);
}

static void
scrolled (GtkAdjustment *adj, CudablurPreview *p)
{
  if (p->setting_scroll)
    return;
  const gdouble centre = gtk_adjustment_get_value (adj)
                         + gtk_adjustment_get_page_size (adj) / 2.0;
  GtkAdjustment *h = gtk_range_get_adjustment (GTK_RANGE (p->hscroll));
  if (adj == h)
    p->view.centre_x = centre;
  else
    p->view.centre_y = centre;
  cudablur_preview_invalidate (p);
}

static void
area_allocated (GtkWidget *w, GtkAllocation *a, CudablurPreview *p)
{
  (void) w;
  if (a->width == p->view.area_width && a->height == p->view.area_height)
    return;
  p->view.area_width = a->width;
  p->view.area_height = a->height;
  if (p->fit)
    p->view.zoom = pv_fit_zoom (&p->view);
  update_zoom_label (p);
  /* The area's own buffer is new: redraw what is there, then render. */
  draw (p);
  cudablur_preview_invalidate (p);
}

static gboolean
area_pressed (GtkWidget *w, GdkEventButton *e, CudablurPreview *p)
{
  (void) w;
  if (e->button != 1 && e->button != 2)
    return FALSE;
  p->drag_x = e->x;
  p->drag_y = e->y;
  p->drag_cx = p->view.centre_x;
  p->drag_cy = p->view.centre_y;
  p->drag = p->split && e->button == 1 && ABS (e->x - split_at (p)) <= 5
            ? DRAG_SPLIT : DRAG_PAN;
  return TRUE;
}

static gboolean
area_released (GtkWidget *w, GdkEventButton *e, CudablurPreview *p)
{
  (void) w;
  (void) e;
  p->drag = DRAG_NONE;
  return TRUE;
}

static gboolean
area_moved (GtkWidget *w, GdkEventMotion *e, CudablurPreview *p)
{
  GdkCursor *cursor = NULL;
  if (p->drag == DRAG_SPLIT)
    {
      p->split_x = CLAMP ((gint) e->x, 0, p->view.area_width - 1);
      draw (p);
    }
  else if (p->drag == DRAG_PAN)
    {
      const gdouble z = p->view.zoom;
      p->view.centre_x = p->drag_cx - (e->x - p->drag_x) / z;
      p->view.centre_y = p->drag_cy - (e->y - p->drag_y) / z;
      cudablur_preview_invalidate (p);
    }
  if (p->split && ABS (e->x - split_at (p)) <= 5)
    cursor = gdk_cursor_new (GDK_SB_H_DOUBLE_ARROW);
  else if (p->drag == DRAG_PAN)
    cursor = gdk_cursor_new (GDK_FLEUR);
  gdk_window_set_cursor (gtk_widget_get_window (w), cursor);
  if (cursor)
    gdk_cursor_unref (cursor);
  return TRUE;
}

static gboolean
area_scrolled (GtkWidget *w, GdkEventScroll *e, CudablurPreview *p)
{
  (void) w;
  const gboolean up = e->direction == GDK_SCROLL_UP
                      || e->direction == GDK_SCROLL_LEFT;
  if (e->state & GDK_CONTROL_MASK)
    {
      if (up)
        zoom_in (p);
      else
        zoom_out (p);
      return TRUE;
    }
  gboolean horizontal = (e->state & GDK_SHIFT_MASK)
                        || e->direction == GDK_SCROLL_LEFT
                        || e->direction == GDK_SCROLL_RIGHT;
  GtkAdjustment *adj = gtk_range_get_adjustment (
    GTK_RANGE (horizontal ? p->hscroll : p->vscroll));
  const gdouble step = gtk_adjustment_get_step_increment (adj);
  gtk_adjustment_set_value (adj, CLAMP (gtk_adjustment_get_value (adj)
                                        + (up ? -step : step),
                                        gtk_adjustment_get_lower (adj),
                                        gtk_adjustment_get_upper (adj)
                                        - gtk_adjustment_get_page_size (adj)));
  return TRUE;
}

static void
split_toggled (GtkToggleButton *b, CudablurPreview *p)
{
  p->split = gtk_toggle_button_get_active (b);
  draw (p);
}

/* --------------------------------------------------------- assembly */

static GtkWidget *
icon_button (const gchar *icon, const gchar *tip, GtkAccelGroup *accel,
             const guint *keys, gsize n_keys, GCallback cb,
             CudablurPreview *p)
{
  GtkWidget *b = gtk_button_new ();
  gtk_button_set_relief (GTK_BUTTON (b), GTK_RELIEF_NONE);
  gtk_container_add (GTK_CONTAINER (b),
                     gtk_image_new_from_icon_name (icon, GTK_ICON_SIZE_MENU));
  gimp_help_set_help_data (b, tip, NULL);
  for (gsize i = 0; accel && i < n_keys; i++)
    gtk_widget_add_accelerator (b, "clicked", accel, keys[i],
                                GDK_CONTROL_MASK, 0);
  g_signal_connect_swapped (b, "clicked", cb, p);
  return b;
}

static void
preview_destroyed (GtkWidget *w, CudablurPreview *p)
{
  (void) w;
  if (p->debounce_id)
    g_source_remove (p->debounce_id);
  if (p->poll_id)
    g_source_remove (p->poll_id);
  pv_worker_free (p->worker);   /* cancels a running blur, waits for it */
  pv_job_free (p->shown);
  pv_source_unref (p->cache);
  g_clear_object (&p->buffer);
  g_clear_object (&p->mask);
  g_free (p);
}

CudablurPreview *
cudablur_preview_new (gint32 drawable_id, const gb_params *vals,
                      GtkAccelGroup *accel)
{
  gint x, y, w, h;
  if (!gimp_drawable_mask_intersect (drawable_id, &x, &y, &w, &h))
    {
      /* Nothing selected on this drawable: show all of it unchanged. */
      x = y = 0;
      w = gimp_drawable_width (drawable_id);
      h = gimp_drawable_height (drawable_id);
    }
  CudablurPreview *p = g_new0 (CudablurPreview, 1);
  p->drawable_id = drawable_id;
  p->vals = vals;
  p->buffer = gimp_drawable_get_buffer (drawable_id);
  if (!p->buffer || w < 1 || h < 1)
    {
      g_clear_object (&p->buffer);
      g_free (p);
      return NULL;
    }
  const gint32 image = gimp_item_get_image (drawable_id);
  if (image != -1 && !gimp_selection_is_empty (image))
    {
      p->mask = gimp_drawable_get_buffer (gimp_image_get_selection (image));
      gimp_drawable_offsets (drawable_id, &p->offset_x, &p->offset_y);
    }
  p->view.image_width = gimp_drawable_width (drawable_id);
  p->view.image_height = gimp_drawable_height (drawable_id);
  p->view.bounds = (pv_rect) { x, y, w, h };
  p->view.centre_x = x + w / 2.0;
  p->view.centre_y = y + h / 2.0;
  p->view.zoom = 1.0;
  p->fit = TRUE;
  p->split_x = -1;
  p->worker = pv_worker_new ();
  p->dump_dir = g_getenv ("CUDABLUR_PREVIEW_DUMP");
  if (p->dump_dir && !*p->dump_dir)
    p->dump_dir = NULL;

  p->box = gtk_vbox_new (FALSE, 4);
  GtkWidget *table = gtk_table_new (2, 2, FALSE);
  gtk_box_pack_start (GTK_BOX (p->box), table, TRUE, TRUE, 0);
  GtkWidget *frame = gtk_frame_new (NULL);
  gtk_frame_set_shadow_type (GTK_FRAME (frame), GTK_SHADOW_IN);
  gtk_table_attach (GTK_TABLE (table), frame, 0, 1, 0, 1,
                    GTK_EXPAND | GTK_FILL, GTK_EXPAND | GTK_FILL, 0, 0);
  p->area = gimp_preview_area_new ();
  /* A starting size in the bounds' shape; the dialog may grow it.  The
   * controls below take about 420 pixels: on a small screen the preview
   * gives way so that the dialog fits. */
  GdkScreen *screen = gdk_screen_get_default ();
  const gint screen_height = screen ? gdk_screen_get_height (screen) : 1024;
  const gint side = CLAMP (screen_height - 520, 200, 400);
  gtk_widget_set_size_request (p->area,
                               w >= h ? side : MAX (side * w / h, 160),
                               h >= w ? side : MAX (side * h / w, 160));
  gtk_widget_add_events (p->area, GDK_BUTTON_PRESS_MASK
                                  | GDK_BUTTON_RELEASE_MASK
                                  | GDK_POINTER_MOTION_MASK
                                  | GDK_SCROLL_MASK);
  gtk_container_add (GTK_CONTAINER (frame), p->area);
  p->hscroll = gtk_hscrollbar_new (NULL);
  p->vscroll = gtk_vscrollbar_new (NULL);
  gtk_table_attach (GTK_TABLE (table), p->hscroll, 0, 1, 1, 2,
                    GTK_EXPAND | GTK_FILL, GTK_FILL, 0, 0);
  gtk_table_attach (GTK_TABLE (table), p->vscroll, 1, 2, 0, 1, GTK_FILL,
                    GTK_EXPAND | GTK_FILL, 0, 0);
  /* Shown by update_scrollbars only when the view is larger than the
   * area: a first allocation without them gives the fit zoom at once. */
  gtk_widget_set_no_show_all (p->hscroll, TRUE);
  gtk_widget_set_no_show_all (p->vscroll, TRUE);

  GtkWidget *bar = gtk_hbox_new (FALSE, 2);
  gtk_box_pack_start (GTK_BOX (p->box), bar, FALSE, FALSE, 0);
  p->preview_toggle = gtk_check_button_new_with_mnemonic (_("Pre_view"));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (p->preview_toggle), TRUE);
  gtk_box_pack_start (GTK_BOX (bar), p->preview_toggle, FALSE, FALSE, 0);
  p->split_toggle = gtk_check_button_new_with_mnemonic (_("_Split view"));
  gimp_help_set_help_data (p->split_toggle,
                           _("Show the original left of a line that can be "
                             "dragged"), NULL);
  gtk_box_pack_start (GTK_BOX (bar), p->split_toggle, FALSE, FALSE, 6);

  static const guint in_keys[] = { GDK_plus, GDK_equal, GDK_KP_Add };
  static const guint out_keys[] = { GDK_minus, GDK_KP_Subtract };
  static const guint fit_keys[] = { GDK_0, GDK_KP_0 };
  static const guint one_keys[] = { GDK_1, GDK_KP_1 };
  GtkWidget *b[4] = {
    icon_button (GIMP_ICON_ZOOM_FIT_BEST, _("Show all (Ctrl+0)"), accel,
                 fit_keys, G_N_ELEMENTS (fit_keys), G_CALLBACK (zoom_fit), p),
    icon_button (GIMP_ICON_ZOOM_ORIGINAL, _("Zoom 1:1 (Ctrl+1)"), accel,
                 one_keys, G_N_ELEMENTS (one_keys), G_CALLBACK (zoom_one), p),
    icon_button (GIMP_ICON_ZOOM_IN, _("Zoom in (Ctrl++)"), accel, in_keys,
                 G_N_ELEMENTS (in_keys), G_CALLBACK (zoom_in), p),
    icon_button (GIMP_ICON_ZOOM_OUT, _("Zoom out (Ctrl+-)"), accel, out_keys,
                 G_N_ELEMENTS (out_keys), G_CALLBACK (zoom_out), p),
  };
  for (gint i = 0; i < 4; i++)
    gtk_box_pack_end (GTK_BOX (bar), b[i], FALSE, FALSE, 0);
  p->zoom_label = gtk_label_new ("");
  gtk_label_set_width_chars (GTK_LABEL (p->zoom_label), 5);
  gtk_box_pack_end (GTK_BOX (bar), p->zoom_label, FALSE, FALSE, 4);

  p->status = gtk_label_new ("");
  gtk_misc_set_alignment (GTK_MISC (p->status), 0.0, 0.5);
  /* Long texts must not widen the dialog (and so resize the preview). */
  gtk_label_set_ellipsize (GTK_LABEL (p->status), PANGO_ELLIPSIZE_END);
  gtk_box_pack_start (GTK_BOX (p->box), p->status, FALSE, FALSE, 0);

  g_signal_connect (p->box, "destroy", G_CALLBACK (preview_destroyed), p);
  g_signal_connect (p->area, "size-allocate", G_CALLBACK (area_allocated), p);
  g_signal_connect (p->area, "button-press-event", G_CALLBACK (area_pressed),
                    p);
  g_signal_connect (p->area, "button-release-event",
                    G_CALLBACK (area_released), p);
  g_signal_connect (p->area, "motion-notify-event", G_CALLBACK (area_moved),
                    p);
  g_signal_connect (p->area, "scroll-event", G_CALLBACK (area_scrolled), p);
  g_signal_connect (gtk_range_get_adjustment (GTK_RANGE (p->hscroll)),
                    "value-changed", G_CALLBACK (scrolled), p);
  g_signal_connect (gtk_range_get_adjustment (GTK_RANGE (p->vscroll)),
                    "value-changed", G_CALLBACK (scrolled), p);
  g_signal_connect_swapped (p->preview_toggle, "toggled",
                            G_CALLBACK (cudablur_preview_invalidate), p);
  g_signal_connect (p->split_toggle, "toggled", G_CALLBACK (split_toggled),
                    p);
  return p;
}

GtkWidget *
cudablur_preview_widget (CudablurPreview *p)
{
  return p->box;
}
