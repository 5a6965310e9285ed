/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Babl formats to engine pixel formats (format.h). */
#include <string.h>

#include "format.h"

static int
model_format (const char *model, gb_pixel_format *f)
{
  static const struct { const char *name; int channels; gb_trc trc; } m[] = {
    { "Y", 1, GB_TRC_LINEAR }, { "YA", 2, GB_TRC_LINEAR },
    { "Y'", 1, GB_TRC_SRGB }, { "Y'A", 2, GB_TRC_SRGB },
    { "RGB", 3, GB_TRC_LINEAR }, { "RGBA", 4, GB_TRC_LINEAR },
    { "R'G'B'", 3, GB_TRC_SRGB }, { "R'G'B'A", 4, GB_TRC_SRGB },
  };
  for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
    if (!strcmp (model, m[i].name))
      {
        f->channels = m[i].channels;
        f->trc = m[i].trc;
        return 1;
      }
  return 0;
}

static int
type_format (const char *type, gb_pixel_format *f)
{
  static const struct { const char *name; gb_sample_type type; } t[] = {
    { "u8", GB_SAMPLE_U8 }, { "u16", GB_SAMPLE_U16 },
    { "u32", GB_SAMPLE_U32 }, { "half", GB_SAMPLE_HALF },
    { "float", GB_SAMPLE_FLOAT },
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (!strcmp (type, t[i].name))
      {
        f->type = t[i].type;
        return 1;
      }
  return 0;
}

static int
model_is_rgb (const Babl *format)
{
  const char *model = babl_get_name (babl_format_get_model (format));
  return strchr (model, 'R') && strchr (model, 'G') && strchr (model, 'B');
}

int
cudablur_io_format_for (const Babl *native, int perceptual, int add_alpha,
                        gb_pixel_format *f, const Babl **io)
{
  const Babl *space = babl_format_get_space (native);
  const int alpha = babl_format_has_alpha (native);
  const int rgb = model_is_rgb (native);
  add_alpha = add_alpha && !alpha;
  if (!add_alpha && space == babl_space ("sRGB")
      && model_format (babl_get_name (babl_format_get_model (native)), f)
      && type_format (babl_get_name (babl_format_get_type (native, 0)), f)
      && babl_format_get_n_components (native) == f->channels
      && (!perceptual || f->trc == GB_TRC_SRGB))
    {
      /* Perceptual: the encoded values are blurred as they are. */
      if (perceptual)
        f->trc = GB_TRC_LINEAR;
      *io = native;
      return 1;
    }
  static const char *const names[2][2][2] = {
    { { "Y float", "YA float" }, { "RGB float", "RGBA float" } },
    { { "Y' float", "Y'A float" }, { "R'G'B' float", "R'G'B'A float" } } };
  const int with_alpha = alpha || add_alpha;
  f->type = GB_SAMPLE_FLOAT;
  f->trc = GB_TRC_LINEAR;   /* whatever babl delivers is blurred as is */
  f->channels = (rgb ? 3 : 1) + with_alpha;
  *io = babl_format_with_space (names[perceptual != 0][rgb][with_alpha], space);
  return 0;
}
