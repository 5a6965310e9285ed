/* Each GPU failure (no device, allocation, launch, copy) falls back to the
 * CPU and gives the CPU's exact output; after repeated failures the GPU is
 * no longer tried.  Faults come from GB_CUDA_FAULT; on a machine without a
 * GPU the backend simulates a device that fails that way, so this runs in
 * CI as well as on the GPU machine. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int
main (void)
{
  uint64_t seed = tu_seed ("test_fallback");
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
