/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Native formats to and from the work format on the GPU: one thread per
 * pixel around the per-pixel conversions of engine/convert_pixel.h, the
 * very code the CPU runs, with the tables copied to the device once per
 * context.  A GPU run thus sends the image across PCIe in its own size
 * (a quarter of the floats for 8-bit) and converts it where it is. */
#include "cuda_internal.h"

namespace {

constexpr int THREADS = 256;

template <int TYPE, int C>
__global__ void
decode_kernel (const unsigned char *__restrict__ in, float *__restrict__ out,
               size_t n, int trc, gb_convert_luts l)
{
  const size_t i = (size_t) blockIdx.x * THREADS + threadIdx.x;
  if (i >= n)
    return;
  constexpr size_t sample = TYPE == GB_SAMPLE_U8 ? 1
                            : TYPE == GB_SAMPLE_U16 || TYPE == GB_SAMPLE_HALF
                            ? 2 : 4;
  gb_decode_pixel (TYPE, trc, C, in + i * sample * C, out + i * C, &l);
}

template <int TYPE, int C>
__global__ void
encode_kernel (const float *__restrict__ in, int w, int x0, int y0, int ow,
               int oh, unsigned char *__restrict__ out, int trc,
               gb_convert_luts l)
{
  const int x = blockIdx.x * 32 + threadIdx.x;
  const int y = blockIdx.y * 8 + threadIdx.y;
  if (x >= ow || y >= oh)
    return;
  constexpr size_t sample = TYPE == GB_SAMPLE_U8 ? 1
                            : TYPE == GB_SAMPLE_U16 || TYPE == GB_SAMPLE_HALF
                            ? 2 : 4;
  gb_encode_pixel (TYPE, trc, C,
                   in + ((size_t) (y0 + y) * w + (x0 + x)) * C,
                   out + ((size_t) y * ow + x) * sample * C, &l);
}

template <int TYPE, int C>
gb_status
launch (int encode, int trc, const unsigned char *nin, const float *fin,
        unsigned char *nout, float *fout, int w, int h, int x0, int y0,
        int ow, int oh, cudaStream_t s)
{
  if (encode)
    {
      dim3 grid ((ow + 31) / 32, (oh + 7) / 8);
      encode_kernel<TYPE, C><<<grid, dim3 (32, 8), 0, s>>> (
          fin, w, x0, y0, ow, oh, nout, trc, gb_ctx.d_luts);
      return gb_cuda_check_launch ("encode_kernel");
    }
  const size_t n = (size_t) w * h;
  decode_kernel<TYPE, C><<<(unsigned) ((n + THREADS - 1) / THREADS), THREADS,
                           0, s>>> (nin, fout, n, trc, gb_ctx.d_luts);
  return gb_cuda_check_launch ("decode_kernel");
}

template <int TYPE>
gb_status
by_channels (const gb_pixel_format *f, int encode,
             const unsigned char *nin, const float *fin, unsigned char *nout,
             float *fout, int w, int h, int x0, int y0, int ow, int oh,
             cudaStream_t s)
{
  switch (f->channels)
    {
    case 1: return launch<TYPE, 1> (encode, f->trc, nin, fin, nout, fout, w, h, x0, y0, ow, oh, s);
    case 2: return launch<TYPE, 2> (encode, f->trc, nin, fin, nout, fout, w, h, x0, y0, ow, oh, s);
    case 3: return launch<TYPE, 3> (encode, f->trc, nin, fin, nout, fout, w, h, x0, y0, ow, oh, s);
    default: return launch<TYPE, 4> (encode, f->trc, nin, fin, nout, fout, w, h, x0, y0, ow, oh, s);
    }
}

gb_status
convert (const gb_pixel_format *f, int encode, const unsigned char *nin,
         const float *fin, unsigned char *nout, float *fout, int w, int h,
         int x0, int y0, int ow, int oh, cudaStream_t s)
{
  if (!gb_pixel_format_bytes (f))
    return GB_ERR_FORMAT;
  if ((encode ? ow * oh : w * h) <= 0)
    return GB_OK;
  switch (f->type)
    {
    case GB_SAMPLE_U8: return by_channels<GB_SAMPLE_U8> (f, encode, nin, fin, nout, fout, w, h, x0, y0, ow, oh, s);
    case GB_SAMPLE_U16: return by_channels<GB_SAMPLE_U16> (f, encode, nin, fin, nout, fout, w, h, x0, y0, ow, oh, s);
    case GB_SAMPLE_U32: return by_channels<GB_SAMPLE_U32> (f, encode, nin, fin, nout, fout, w, h, x0, y0, ow, oh, s);
    case GB_SAMPLE_HALF: return by_channels<GB_SAMPLE_HALF> (f, encode, nin, fin, nout, fout, w, h, x0, y0, ow, oh, s);
    default: return by_channels<GB_SAMPLE_FLOAT> (f, encode, nin, fin, nout, fout, w, h, x0, y0, ow, oh, s);
    }
}

} // namespace

gb_status
gb_cuda_decode (const gb_pixel_format *f, const unsigned char *in, float *out,
                int w, int h, cudaStream_t s)
{
  return convert (f, 0, in, nullptr, nullptr, out, w, h, 0, 0, 0, 0, s);
}

gb_status
gb_cuda_encode (const gb_pixel_format *f, const float *in, int w, int x0,
                int y0, int ow, int oh, unsigned char *out, cudaStream_t s)
{
  return convert (f, 1, nullptr, in, out, nullptr, w, 0, x0, y0, ow, oh, s);
}
