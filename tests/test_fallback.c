/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Each GPU failure (no device, allocation, launch, copy) falls back to the
 * CPU and gives the CPU's exact output; after repeated failures the GPU is
 * no longer tried.  Faults come from GB_CUDA_FAULT; on a machine without a
 * GPU the backend simulates a device that fails that way, so this runs in
 * CI as well as on the GPU machine. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "native_util.h"
#include "testutil.h"

static tu_image src, cpu;

static void
run_fault (const char *fault, gb_status expect, int in_place)
{
  tu_image out;
  gb_report rep;
  gb_params p;
  if (!tu_alloc (&out, 700, 500, 4, 0))
    return;
  if (in_place)
    memcpy (out.mem, src.mem, sizeof (float) * 700 * 500 * 4);
  gb_params_init (&p);
  p.algorithm = GB_ALGO_FIR;
  p.backend = GB_BACKEND_CUDA;
  p.sigma_x = 4.0;
  p.sigma_y = 2.5;
  if (fault)
    setenv ("GB_CUDA_FAULT", fault, 1);
  else
    unsetenv ("GB_CUDA_FAULT");
  const gb_image *in = in_place ? &out.view : &src.view;
  gb_status st = gb_blur (&p, in, &out.view, NULL, NULL, &rep);
  const char *name = fault ? fault : "none";
  TU_CHECK (st == GB_OK, "fault %s: status %s", name, gb_status_message (st));
  TU_CHECK (rep.backend_used == GB_BACKEND_CPU, "fault %s: ran on %s", name,
            gb_backend_name (rep.backend_used));
  TU_CHECK (rep.gpu_status == expect, "fault %s: gpu_status \"%s\", want \"%s\"",
            name, gb_status_message (rep.gpu_status),
            gb_status_message (expect));
  TU_CHECK (strlen (rep.reason) > 0, "fault %s: no reason", name);
  TU_CHECK (memcmp (out.mem, cpu.mem, sizeof (float) * 700 * 500 * 4) == 0,
            "fault %s%s: output differs from the CPU's", name,
            in_place ? " (in place)" : "");
  printf ("fault %-6s -> %s\n", name, rep.reason);
  tu_free (&out);
}

/* The native pipeline: the same faults, the CPU's exact bytes.  An RGB
 * 8-bit area of 700 x 500 (auto would choose the GPU) with an output
 * rectangle inside. */
static void
run_native_fault (const char *fault, gb_status expect, uint64_t *seed)
{
  const gb_pixel_format f = { GB_SAMPLE_U8, GB_TRC_SRGB, 3 };
  const int w = 700, h = 500, ox = 20, oy = 30, ow = 600, oh = 400;
  unsigned char *area = malloc ((size_t) w * h * 3);
  unsigned char *want = malloc ((size_t) ow * oh * 3);
  unsigned char *got = malloc ((size_t) ow * oh * 3);
  if (!area || !want || !got)
    {
      TU_CHECK (0, "allocation");
      goto out;
    }
  tu_fill_native (&f, area, (size_t) w * h * 3, seed);
  gb_params p;
  gb_params_init (&p);
  p.sigma_x = 6.0;
  p.sigma_y = 3.0;
  p.backend = GB_BACKEND_CPU;
  tu_sink s;
  gb_native_io io;
  unsetenv ("GB_CUDA_FAULT");
  tu_sink_init (&s, &io, &f, area, w, h, ox, oy, ow, oh, want);
  if (gb_blur_native (&p, &io, NULL, NULL, NULL) != GB_OK)
    {
      TU_CHECK (0, "CPU native blur");
      goto out;
    }
  p.backend = GB_BACKEND_AUTO;
  setenv ("GB_CUDA_FAULT", fault, 1);
  memset (got, 0x5a, (size_t) ow * oh * 3);
  tu_sink_init (&s, &io, &f, area, w, h, ox, oy, ow, oh, got);
  gb_report rep;
  gb_status st = gb_blur_native (&p, &io, NULL, NULL, &rep);
  TU_CHECK (st == GB_OK, "native fault %s: %s", fault, gb_status_message (st));
  TU_CHECK (rep.backend_used == GB_BACKEND_CPU && rep.gpu_status == expect,
            "native fault %s: ran on %s, gpu_status \"%s\", want \"%s\"",
            fault, gb_backend_name (rep.backend_used),
            gb_status_message (rep.gpu_status), gb_status_message (expect));
  TU_CHECK (memcmp (got, want, (size_t) ow * oh * 3) == 0,
            "native fault %s: output differs from the CPU's", fault);
  TU_CHECK (s.order_errors == 0 && s.next_write == oh && s.restarts <= 2,
            "native fault %s: callbacks out of order (%d), incomplete or "
            "restarted %d times", fault, s.order_errors, s.restarts);
  printf ("native fault %-6s -> %s\n", fault, rep.reason);
out:
  unsetenv ("GB_CUDA_FAULT");
  free (area);
  free (want);
  free (got);
}

/* The native pipeline's faults in a process of their own: the GPU is
 * disabled after three failures per process.  Forked before CUDA is
 * touched (a CUDA context does not survive fork). */
static int
native_faults (uint64_t seed)
{
  pid_t pid = fork ();
  if (pid == 0)
    {
      run_native_fault ("probe", GB_ERR_CUDA_NO_DEVICE, &seed);
      run_native_fault ("alloc", GB_ERR_CUDA_NO_MEMORY, &seed);
      run_native_fault ("launch", GB_ERR_CUDA_LAUNCH, &seed);
      run_native_fault ("copy", GB_ERR_CUDA_COPY, &seed);
      fflush (stdout);
      _exit (tu_finish ("test_fallback (native)"));
    }
  int status = 0;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return 99;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 99;
}

int
main (void)
{
  uint64_t seed = tu_seed ("test_fallback");
  int native = native_faults (seed);
  TU_CHECK (native == 0, "the native faults' process exited with %d", native);
  gb_params p;
  if (!tu_alloc (&src, 700, 500, 4, 0) || !tu_alloc (&cpu, 700, 500, 4, 0))
    return 99;
  tu_fill_random (&src, &seed);
  gb_params_init (&p);
  p.algorithm = GB_ALGO_FIR;
  p.backend = GB_BACKEND_CPU;
  p.sigma_x = 4.0;
  p.sigma_y = 2.5;
  if (gb_blur (&p, &src.view, &cpu.view, NULL, NULL, NULL) != GB_OK)
    return 99;

  char name[256];
  int real_gpu = gb_cuda_info (name, sizeof name);
  printf ("test_fallback: %s\n", real_gpu ? name : "no GPU: simulated device");

  /* "No device" is not a failure of the GPU: it is not counted. */
  run_fault ("probe", GB_ERR_CUDA_NO_DEVICE, 0);
  run_fault ("alloc", GB_ERR_CUDA_NO_MEMORY, 0);
  run_fault ("launch", GB_ERR_CUDA_LAUNCH, 1);
  run_fault ("copy", GB_ERR_CUDA_COPY, 1);
  /* Three failures: the GPU is not tried again, even with no fault. */
  run_fault (NULL, GB_ERR_CUDA_DISABLED, 0);
  TU_CHECK (!gb_cuda_info (name, sizeof name), "GPU still offered");
  gb_shutdown ();
  tu_free (&src);
  tu_free (&cpu);
  return tu_finish ("test_fallback");
}
