#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The recursive blocks' fused kernel in thread-block clusters (Hopper)
# under compute-sanitizer's racecheck: a cluster's thread blocks store
# their partial states into the first one's shared memory, which they may
# do only once it has started (without the start barrier, racecheck
# reported 10^5 hazards a call).  Runs test_gpu's cluster cases
# (GB_TEST_CLUSTERS=1), which also compare with the CPU.  Skips (77) where
# there is no compute-sanitizer or no GPU (test_gpu's own 77).
sanitizer=$(command -v compute-sanitizer 2>/dev/null)
if [ -z "$sanitizer" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ]; then
  sanitizer=/usr/local/cuda/bin/compute-sanitizer
fi
if [ -z "$sanitizer" ]; then
  echo "test_gpu_racecheck: skipped: no compute-sanitizer"
  exit 77
fi
GB_TEST_CLUSTERS=1
export GB_TEST_CLUSTERS
test_gpu="${builddir:-.}/tests/test_gpu"
# Without the sanitizer first: its 77 where no GPU can be used, and the
# cases' own failures told apart from racecheck's.
"$test_gpu" "$@" || exit $?
exec "$sanitizer" --tool racecheck --error-exitcode 1 "$test_gpu" "$@"
