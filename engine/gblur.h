/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gimp-cudablur engine: the one public header.
 *
 * The engine blurs float32 images with 1-4 interleaved channels on the CPU or,
 * when built with CUDA and a usable GPU is present, on the GPU.  It knows
 * nothing of GIMP, GTK or GLib so that it, its tests and its benchmark build
 * with only a C compiler (and nvcc for the GPU part).
 *
 * The source image is never modified, so a failed GPU run can always be
 * redone on the CPU from the same data.
 */
#ifndef GBLUR_H
#define GBLUR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Numbering matches the PDB interface of the plug-in. */
typedef enum
{
  GB_ALGO_AUTO = 0,
  GB_ALGO_FIR = 1,              /* separable FIR, taps to radius ceil(3 sigma) */
  GB_ALGO_YVV = 2,              /* Young-van Vliet recursive Gaussian */
  GB_ALGO_YVV_TWO_WAY = 3,      /* two-way partitioned Young-van Vliet */
  GB_ALGO_DERICHE = 4,          /* Deriche 4th-order recursive Gaussian */
  GB_ALGO_EDGE_EXACT = 5,       /* domain transform, Algorithm A */
  GB_ALGO_EDGE_PARTITIONED = 6, /* domain transform, Algorithm C */
  GB_ALGO_COUNT
} gb_algorithm;

/* Which parameters an algorithm uses (gb_algorithm_info.uses). */
#define GB_USES_RANGE_SIGMA 0x1u
#define GB_USES_ITERATIONS  0x2u
#define GB_USES_KAPPA       0x4u

/* One description per algorithm (engine/algorithms.c).  Everything that
 * lists algorithms iterates these: the validator and the dispatcher, both
 * backends, the plug-in's PDB text, argument checks and dialog, the
 * benchmark and the tests. */
typedef struct
{
  gb_algorithm id;
  const char *name;      /* short and untranslated: "fir" */
  const char *label;     /* for menus; marked for translation */
  const char *summary;   /* what it is, for the PDB help (untranslated) */
  const char *tooltip;   /* when it is best; marked for translation; may
                            hold two %g: GB_AUTO_FIR_MAX_SIGMA_CPU and
                            _CUDA, in that order */
  unsigned uses;         /* GB_USES_* */
  double reach;          /* sigmas that hold its weight: gb_reach */
  double fir_below;      /* below this sigma an axis runs the exact FIR
                            (where its constants stop holding); 0: never */
  int gpu;               /* has a GPU implementation */
} gb_algorithm_info;

/* The description of an algorithm, or NULL for a number that is none. */
const gb_algorithm_info *gb_algorithm_get (gb_algorithm algorithm);

/* Numbering matches the PDB "device" argument and return value. */
typedef enum
{
  GB_BACKEND_AUTO = 0,
  GB_BACKEND_CUDA = 1,
  GB_BACKEND_CPU = 2
} gb_backend;

/* What lies beyond the image's edges, on every side: GIMP's "abyss
 * policy" in its own Gaussian blur.  The colours are in the working space
 * (premultiplied; with 2 or 4 channels the last is alpha). */
typedef enum
{
  GB_BORDER_CLAMP = 0,  /* the edge pixels repeat (default) */
  GB_BORDER_NONE = 1,   /* transparent: every channel 0 (without an alpha
                           channel that is black: a caller wanting "the
                           layer ends here" adds an alpha of 1 inside, as
                           the plug-in does) */
  GB_BORDER_BLACK = 2,  /* opaque black */
  GB_BORDER_WHITE = 3,  /* opaque white */
  GB_BORDER_COUNT
} gb_border;

typedef enum
{
  GB_OK = 0,
  GB_ERR_NULL,            /* a required pointer is NULL */
  GB_ERR_SIZE,            /* width or height < 1, or too large */
  GB_ERR_CHANNELS,        /* channels not in 1..4 */
  GB_ERR_STRIDE,          /* row stride smaller than width * channels */
  GB_ERR_SIGMA,           /* sigma negative, not finite or > GB_SIGMA_MAX */
  GB_ERR_RANGE_SIGMA,     /* range sigma not in (0, GB_RANGE_SIGMA_MAX] */
  GB_ERR_ITERATIONS,      /* iterations not in 1..GB_ITERATIONS_MAX */
  GB_ERR_KAPPA,           /* kappa not in 0..GB_KAPPA_MAX */
  GB_ERR_ALGORITHM,       /* unknown algorithm */
  GB_ERR_BACKEND,         /* unknown backend request */
  GB_ERR_MISMATCH,        /* src and dst differ in size or channels */
  GB_ERR_ALIAS,           /* dst overlaps src but is not the same view */
  GB_ERR_NO_MEMORY,       /* host allocation failed */
  GB_ERR_THREAD,          /* could not start worker threads */
  GB_ERR_CANCELLED,       /* the progress callback asked to stop */
  GB_ERR_CUDA_NOT_BUILT,  /* engine built without CUDA */
  GB_ERR_CUDA_NO_DEVICE,  /* no usable CUDA device or driver */
  GB_ERR_CUDA_NO_MEMORY,  /* device or pinned allocation failed */
  GB_ERR_CUDA_LAUNCH,     /* a kernel launch or execution failed */
  GB_ERR_CUDA_COPY,       /* a host/device copy failed */
  GB_ERR_CUDA_DISABLED,   /* GPU not tried after repeated failures */
  GB_ERR_FORMAT,          /* a native pixel format the engine cannot convert */
  GB_ERR_IO,              /* a read or write callback failed */
  GB_ERR_BORDER,          /* unknown border */
  GB_STATUS_COUNT
} gb_status;

/* Knobs that change how a blur is computed, not what it computes
 * (engine/research.h): not part of the API. */
typedef struct gb_research gb_research;

/* Parameter limits: the engine's checks, its status messages (tested to
 * agree), the plug-in's argument checks and the dialog's ranges. */
#define GB_SIGMA_MAX 1500.0
#define GB_RANGE_SIGMA_MAX 1e9   /* far beyond it colours stop mattering */
/* Below this a Gaussian's nearest-neighbour weight, exp(-1/(2 sigma^2)),
 * is under 3e-8 (half a float ulp of 1): such an axis moves no pixel and is
 * left alone, which also keeps underflowing sigmas (1e-300) finite. */
#define GB_SIGMA_IDENTITY 0.17
/* Young-van Vliet's q(sigma) fit and Deriche's constants hold from sigma
 * 0.5 up; an axis of a recursive filter below it runs the exact FIR (radius
 * at most 2), so every algorithm tends to the identity as sigma -> 0. */
#define GB_SIGMA_RECURSIVE_MIN 0.5
#define GB_ITERATIONS_MAX 10
#define GB_KAPPA_MAX 10.0
/* Largest width or height accepted (GIMP's own limit is 524288). */
#define GB_SIZE_MAX 524288

typedef struct
{
  gb_algorithm algorithm;
  double sigma_x;          /* pixels, 0..GB_SIGMA_MAX; 0 leaves the axis alone */
  double sigma_y;
  double range_sigma;      /* edge-aware only: on a 0-255 scale, (0,
                              GB_RANGE_SIGMA_MAX] */
  int iterations;          /* edge-aware only: H+V iterations */
  double kappa;            /* Algorithm C boundary extension, units of sigma */
  gb_backend backend;      /* requested backend */
  int threads;             /* CPU threads; 0 = one per online core */
  gb_border border;        /* beyond the edges; not CLAMP: the image is
                              framed by one pixel of the border colour and
                              the frame replicated, which is the constant
                              extension exactly for every filter but the
                              edge-aware ones (they see the frame as one
                              more pixel, so iterations after the first
                              start from the frame as blurred) */
  int perceptual;          /* the colour values are perceptual (sRGB-
                              encoded) rather than linear: the edge-aware
                              filter then measures colour differences on
                              them as they are.  The blur itself is the same
                              arithmetic either way; what it runs on is the
                              caller's choice of data. */
  const gb_research *research;  /* NULL (gb_params_init): the defaults;
                                   other ways of computing the same blur,
                                   for tests and benchmarks only
                                   (engine/research.h) */
} gb_params;

/* A view of an image: interleaved float32 channels, rows stride floats
 * apart (stride >= width * channels). */
typedef struct
{
  float *data;
  int width;
  int height;
  int channels;
  size_t stride;
} gb_image;

/* Called from the calling thread only, with fraction in [0, 1].  Return
 * non-zero to cancel; gb_blur then returns GB_ERR_CANCELLED and the content
 * of dst is unspecified (src is untouched). */
typedef int (*gb_progress_fn) (double fraction, void *user);

typedef struct
{
  gb_backend backend_used;      /* GB_BACKEND_CUDA or GB_BACKEND_CPU */
  gb_algorithm algorithm_used;  /* what auto resolved to */
  gb_status gpu_status;         /* GB_OK, or why the GPU was not used */
  char reason[256];             /* human-readable account of the choice */
  int threads_used;             /* CPU threads, 0 when the GPU ran */
  double seconds_total;
  double seconds_startup;       /* CUDA start-up paid by this call (context,
                                   buffers), overlapping the read when cold */
  double seconds_read;          /* gb_blur_native: the read callbacks */
  double seconds_decode;        /* native to linear premultiplied float */
  double seconds_upload;        /* GPU only: host to device */
  double seconds_compute;       /* kernels, or CPU filtering */
  double seconds_download;      /* GPU only: device to host */
  double seconds_encode;        /* float back to the native format */
  double seconds_write;         /* gb_blur_native: the write callbacks */
  int bands;                    /* gb_blur_banded: the bands and strips it
                                   ran (0: the whole area at once) */
} gb_report;

/* Defaults: auto algorithm, sigma 5 on both axes, range sigma 50,
 * 2 iterations, kappa 2, auto backend, all cores, replicated edges,
 * linear light. */
void gb_params_init (gb_params *params);

/* Blur src into dst.  dst may be the very same view as src (same data and
 * stride); any other overlap is GB_ERR_ALIAS.  Invalid input returns its
 * status and writes nothing.  progress and report may be NULL. */
gb_status gb_blur (const gb_params *params,
                   const gb_image *src,
                   const gb_image *dst,
                   gb_progress_fn progress,
                   void *user,
                   gb_report *report);

/* ---- Native pixel formats ----------------------------------------------
 * gb_blur_native moves pixels in the caller's own format (8/16/32-bit
 * integer, half or float; linear or sRGB-encoded; grey or RGB, with or
 * without straight alpha) and converts them to the work format (linear
 * light, colour premultiplied by alpha, float) where the blur runs: on the
 * GPU for a GPU run, on all cores for a CPU run.  The conversions follow
 * babl's: the sRGB curve in both directions, alpha never encoded, alpha
 * below 1/65536 taken as 1/65536 when (un)premultiplying so that the
 * colour of transparent pixels survives, integers clamped and rounded to
 * the nearest code. */
typedef enum
{
  GB_SAMPLE_U8 = 0,
  GB_SAMPLE_U16,
  GB_SAMPLE_U32,
  GB_SAMPLE_HALF,
  GB_SAMPLE_FLOAT,
  GB_SAMPLE_COUNT
} gb_sample_type;

typedef enum
{
  GB_TRC_LINEAR = 0,
  GB_TRC_SRGB = 1
} gb_trc;

typedef struct
{
  gb_sample_type type;
  gb_trc trc;          /* of the colour channels; alpha is always linear */
  int channels;        /* 1-4; with 2 or 4 the last one is alpha */
} gb_pixel_format;

/* Bytes of one pixel, or 0 for an invalid format. */
size_t gb_pixel_format_bytes (const gb_pixel_format *format);

/* Band callbacks, called from the calling thread only, rows in order
 * (after a failed GPU run the CPU starts again from row 0, reading and
 * writing everything anew).
 * read: rows [y, y + rows) of the area into dst (stride bytes apart);
 * write: rows [y, y + rows) of the output rectangle from src.  Return
 * GB_OK, or any other status to stop (the call then returns it). */
typedef gb_status (*gb_read_fn) (void *user, int y, int rows, void *dst,
                                 size_t stride);
typedef gb_status (*gb_write_fn) (void *user, int y, int rows,
                                  const void *src, size_t stride);

typedef struct
{
  gb_pixel_format format;
  int width, height;        /* the area read: the blur's input */
  int out_x, out_y;         /* the output rectangle, inside the area */
  int out_width, out_height;
  gb_read_fn read;
  gb_write_fn write;
  void *user;
} gb_native_io;

/* Reads the area through io->read, blurs it as gb_blur would the decoded
 * area (borders replicated at the area's edges), and writes the output
 * rectangle through io->write, every row of it, after the blur itself
 * succeeded.  A GPU that fails (even while rows are being written) has the
 * whole call redone on the CPU, reading and writing again, so a caller's
 * writes must go somewhere it commits only on success (GIMP's shadow
 * buffer).  Same statuses as gb_blur, plus GB_ERR_FORMAT and whatever a
 * callback returned. */
gb_status gb_blur_native (const gb_params *params, const gb_native_io *io,
                          gb_progress_fn progress, void *user,
                          gb_report *report);

/* Bytes of host memory gb_blur_native will allocate for this call at
 * most (the CPU path's work image, bands and the filter's scratch, or the
 * GPU path's staging, whichever is larger), so that a caller can refuse a
 * call that cannot fit instead of failing half-way.  0 for invalid io. */
size_t gb_native_memory (const gb_params *params, const gb_native_io *io);

/* Bytes of GPU memory gb_blur_native takes on the device for this call
 * when it runs there (the image as read, the work images, the
 * edge-aware filter's planes), so that a caller can tell whether it fits
 * the device.  0 for invalid io. */
size_t gb_native_device_memory (const gb_params *params,
                                const gb_native_io *io);

/* Bytes of GPU memory a blur could use now: what the device has free
 * plus what the engine keeps from earlier calls.  Starts CUDA where it
 * has not started yet; 0 where no GPU can be used. */
size_t gb_gpu_memory_available (void);

/* ---- Bounded memory: the same blur in bands -----------------------------
 * gb_blur_native holds the whole area in the work format (or on the
 * GPU).  gb_blur_banded gives the same result within a memory budget,
 * however large the area: each 1-D pass (rows, then columns; each of the
 * edge-aware filter's iterations has one of each) runs over bands of
 * whole rows or strips of whole columns, and between passes the image
 * lives in an intermediate image that the caller keeps (a GEGL buffer,
 * which GEGL may swap to disk).  Every 1-D pass still sees whole lines,
 * so the result equals gb_blur_native's: to the bit on the CPU, and
 * within the GPU's rounding there.  The edge-aware filter's spacings are
 * taken from the area as read, again for each pass.
 *
 * Rectangles: x, y, width, height in the coordinates each callback names;
 * stride in bytes.  Called from the calling thread only. */
typedef gb_status (*gb_rect_read_fn) (void *user, int x, int y, int width,
                                      int height, void *dst, size_t stride);
typedef gb_status (*gb_rect_write_fn) (void *user, int x, int y, int width,
                                       int height, const void *src,
                                       size_t stride);
/* Makes the intermediate image: width x height pixels of `channels`
 * floats (the work format), all of it stored before it is loaded.  Called
 * at most once a call, where the blur has more than one pass. */
typedef gb_status (*gb_scratch_fn) (void *user, int width, int height,
                                    int channels);

typedef struct
{
  gb_pixel_format format;
  int width, height;            /* the area read: the blur's input */
  int out_x, out_y;             /* the output rectangle, inside the area */
  int out_width, out_height;
  gb_rect_read_fn read;         /* native pixels of the area */
  gb_rect_write_fn write;       /* native pixels of the output rectangle
                                   (0, 0 is its corner) */
  gb_scratch_fn scratch_make;   /* the intermediate image and its pixels, */
  gb_rect_write_fn scratch_store;   /* in its own coordinates (the area,
                                       with a one-pixel frame for a */
  gb_rect_read_fn scratch_load;     /* border colour), work-format floats */
  void *user;
} gb_banded_io;

/* Blurs as gb_blur_native does, taking at most about host_bytes of host
 * memory (besides the intermediate image, which is the caller's) and,
 * where the GPU runs, gpu_bytes of its memory.  The budget sets the band
 * size; a pass needs at least one line, and the CPU filters' per-thread
 * lines come first.  A GPU failure redoes the whole call on the CPU.
 * Same statuses as gb_blur_native. */
gb_status gb_blur_banded (const gb_params *params, const gb_banded_io *io,
                          size_t host_bytes, size_t gpu_bytes,
                          gb_progress_fn progress, void *user,
                          gb_report *report);

/* Converts rows between a native format and the work format on all cores
 * (threads as in gb_params; 0 = all): the conversions gb_blur_native
 * uses, for callers that hold pixels already (the preview) and for tests.
 * Strides in bytes for native rows, in floats for work rows. */
gb_status gb_decode_rows (const gb_pixel_format *format, const void *src,
                          size_t src_stride, float *dst, size_t dst_stride,
                          int width, int rows, int threads);
gb_status gb_encode_rows (const gb_pixel_format *format, const float *src,
                          size_t src_stride, void *dst, size_t dst_stride,
                          int width, int rows, int threads);

/* Frees what the GPU keeps between calls (device buffers, pinned bands)
 * but not the CUDA context, for a long-lived caller that goes idle. */
void gb_trim (void);

/* gb_trim without waiting: where a blur is running on the GPU (another
 * thread), what it uses stays, and the host's buffers that are in use
 * too.  For a caller that must not block (a GEGL operation's finalize,
 * on GIMP's main thread). */
void gb_trim_idle (void);

/* Checks params, src and dst without blurring. */
gb_status gb_validate (const gb_params *params,
                       const gb_image *src,
                       const gb_image *dst);

const char *gb_status_message (gb_status status);
const char *gb_algorithm_name (gb_algorithm algorithm);
const char *gb_backend_name (gb_backend backend);

/* The algorithm auto picks for these sigmas on this backend (CUDA or CPU;
 * never GB_ALGO_AUTO): the FIR up to a crossover sigma measured by
 * `make bench` (GB_AUTO_FIR_MAX_SIGMA_*), Deriche above it, the most
 * accurate recursive filter (PSNR >= 48 dB against the exact Gaussian). */
gb_algorithm gb_resolve_algorithm (gb_algorithm algorithm,
                                   double sigma_x, double sigma_y,
                                   gb_backend backend);
#define GB_AUTO_FIR_MAX_SIGMA_CPU 3.0
#define GB_AUTO_FIR_MAX_SIGMA_CUDA 12.0

/* sigma, or 0 below GB_SIGMA_IDENTITY: what gb_blur does with an axis. */
double gb_effective_sigma (double sigma);

/* How far (in pixels) the blur reaches on each axis, for reading a halo
 * around a region: FIR radius, or the recursive filters' effective reach. */
int gb_reach (const gb_params *params, int axis /* 0 = x, 1 = y */);

/* Where gb_blur would run a call of this size, decided without starting
 * CUDA: GB_BACKEND_CUDA when the engine has the GPU backend and the
 * parameters, algorithm and size choose it; whether a usable device
 * exists only a start of CUDA tells (gb_cuda_info). */
gb_backend gb_backend_for (const gb_params *params, int width, int height);
/* The automatic backend runs images of fewer pixels than this side
 * squared on the CPU: counting uploads and downloads (4 MiB each way for
 * 512 x 512 RGBA float) they are faster there. */
#define GB_GPU_MIN_SIDE 512

/* GPU information: 1 and the device name when a CUDA device can be used,
 * else 0 and the reason.  buf receives at most size bytes. */
int gb_cuda_info (char *buf, size_t size);

/* Frees the GPU context (buffers, streams) kept between calls. */
void gb_shutdown (void);

/* Whether this process holds a CUDA context (started by a GPU run). */
int gb_gpu_context_alive (void);

/* Number of CPU threads gb_blur uses for params->threads == 0. */
int gb_cpu_threads (void);

/* ---- FIR taps ---------------------------------------------------------
 * The Gaussian is truncated at radius ceil(3 sigma): beyond it the weights
 * sum to less than 0.27 % of the total, and the taps are renormalised to
 * sum to exactly 1 so that a constant image stays constant. */
int gb_fir_radius (double sigma);

/* Normalised taps taps[0..radius] (taps[k] is the weight at distance k),
 * exp() evaluated for every tap.  Returns the radius. */
int gb_fir_taps_direct (double sigma, double *taps, int radius);

/* The same taps generated by forward quotients: one exp() for the first
 * quotient, the second quotient its square, then two multiplications per
 * tap.  Evaluated in double so that it holds to radius 3000 and beyond. */
int gb_fir_taps_incremental (double sigma, double *taps, int radius);

#ifdef __cplusplus
}
#endif

#endif /* GBLUR_H */
