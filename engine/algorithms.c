/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The algorithm registry: one row per algorithm, everything about it that
 * is not its implementation.  Adding an algorithm: its enum value in
 * gblur.h, a row here, its CPU filter, its CUDA kernels with their case in
 * cuda/device_blur.cu, its files in Makefile.am (HACKING.md). */
#include <stddef.h>

#include "algorithms.h"
#include "backend.h"
#include "cpu_backend.h"
#include "research.h"

/* Marks messages for the plug-in's translation catalogues (xgettext
 * --keyword=GB_N_); the engine itself does not translate. */
#define GB_N_(s) (s)
#define STR_(x) #x
#define STR(x) STR_ (x)

typedef struct
{
  gb_algorithm_info info;
  gb_cpu_filter cpu;
  int banded;   /* filters bands of rows as they arrive (see algorithms.h) */
} registry_row;

static const registry_row rows[GB_ALGO_COUNT] = {
  [GB_ALGO_AUTO] = {
    { GB_ALGO_AUTO, "auto", GB_N_ ("Automatic"),
      "the FIR filter up to sigma " STR (GB_AUTO_FIR_MAX_SIGMA_CPU)
      " on the CPU and " STR (GB_AUTO_FIR_MAX_SIGMA_CUDA) " on the GPU, "
      "Deriche's recursive filter above",
      GB_N_ ("Picks the fastest accurate method for the standard deviation: "
             "the FIR filter up to sigma %g on the CPU and %g on the GPU, "
             "Deriche's recursive filter above."),
      GB_USES_TAPS, 4.0, 0.0, 1 },
    NULL, 0 },
  [GB_ALGO_FIR] = {
    { GB_ALGO_FIR, "fir", GB_N_ ("Exact, small blurs (FIR)"),
      "separable FIR, taps to 3 sigma",
      GB_N_ ("Separable FIR filter: exact to 3 sigma; best for small "
             "standard deviations."),
      GB_USES_TAPS, 3.0, 0.0, 1 },
    gb_cpu_fir, 1 },
  [GB_ALGO_YVV] = {
    { GB_ALGO_YVV, "yvrg", GB_N_ ("Fast (Young-van Vliet)"),
      "Young-van Vliet recursive",
      GB_N_ ("Young-van Vliet recursive filter: time independent of sigma; "
             "good up to sigma 100."),
      0, 4.0, GB_SIGMA_RECURSIVE_MIN, 1 },
    gb_cpu_recursive, 0 },
  [GB_ALGO_YVV_TWO_WAY] = {
    { GB_ALGO_YVV_TWO_WAY, "yvrg-two-way", GB_N_ ("Fastest on a GPU, approximate"),
      "two-way partitioned recursive",
      GB_N_ ("Two-way partitioned Young-van Vliet filter: faster on the GPU "
             "for small images, less accurate."),
      0, 4.0, GB_SIGMA_RECURSIVE_MIN, 1 },
    gb_cpu_recursive, 0 },
  [GB_ALGO_DERICHE] = {
    { GB_ALGO_DERICHE, "deriche", GB_N_ ("Exact, large blurs (Deriche)"),
      "Deriche recursive",
      GB_N_ ("Deriche's recursive filter: time independent of sigma and "
             "accurate at any sigma; best for large standard deviations."),
      0, 4.0, GB_SIGMA_RECURSIVE_MIN, 1 },
    gb_cpu_recursive, 0 },
  [GB_ALGO_EDGE_EXACT] = {
    { GB_ALGO_EDGE_EXACT, "edge-aware", GB_N_ ("Keep edges (edge-aware)"),
      "domain transform, exact Algorithm A",
      GB_N_ ("Edge-aware blur by the domain transform, exact: smooths "
             "detail but keeps edges whose colour difference is well above "
             "the edge contrast."),
      GB_USES_RANGE_SIGMA | GB_USES_ITERATIONS, 4.0, 0.0, 1 },
    gb_cpu_edge, 0 },
  [GB_ALGO_EDGE_PARTITIONED] = {
    { GB_ALGO_EDGE_PARTITIONED, "edge-aware-partitioned",
      GB_N_ ("Keep edges, faster (approximate)"),
      "edge-aware partitioned, Algorithm C",
      GB_N_ ("Edge-aware blur, partitioned into blocks that start from an "
             "estimate: faster, approximate at block boundaries."),
      GB_USES_RANGE_SIGMA | GB_USES_ITERATIONS | GB_USES_KAPPA, 4.0, 0.0,
      1 },
    gb_cpu_edge, 0 },
};

const gb_algorithm_info *
gb_algorithm_get (gb_algorithm algorithm)
{
  if ((int) algorithm < 0 || algorithm >= GB_ALGO_COUNT)
    return NULL;
  return &rows[algorithm].info;
}

gb_cpu_filter
gb_algorithm_cpu (gb_algorithm algorithm)
{
  if ((int) algorithm < 0 || algorithm >= GB_ALGO_COUNT)
    return NULL;
  return rows[algorithm].cpu;
}

int
gb_algorithm_banded (gb_algorithm algorithm)
{
  return (int) algorithm >= 0 && algorithm < GB_ALGO_COUNT
         && rows[algorithm].banded;
}
