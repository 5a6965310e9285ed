#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The GEGL operation as a guest, on a machine with an NVIDIA GPU, from an
# unpacked `make dist` tarball with GEGL's development files installed
# (libgegl-dev): builds with CUDA for ARCH (default 90) in _build-gpu, then
#   1. test_op, test_guest and the fuzz (CUDABLUR_FUZZ_CASES, default 1500)
#      on the GPU: every line PASS, "0 failed";
#   2. make bench-preview: the first table (a sigma change at a fit zoom)
#      and the second (opening the filter to its first preview, each in a
#      new process): "ours, default device" should be no slower than "ours,
#      CPU" in the first preview (CUDA starts on a thread of its own while
#      the CPU renders the first blocks).
#   tools/gpu-check-guest.sh [ARCH]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:-90}
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
mkdir -p "$top/_build-gpu"
cd "$top/_build-gpu"
[ -f Makefile ] || "$top/configure" --disable-plugin CUDA_ARCHS="$arch" >configure.log
make -j"$(nproc)" >make.log
make -j"$(nproc)" tests/gegl/test_op tests/gegl/test_guest tests/gegl/fuzz_op \
  >>make.log
./tests/gegl/test_op | tail -n 1
./tests/gegl/test_guest | grep -E "^view|^a request|^failure|checks"
CUDABLUR_FUZZ_CASES=${CUDABLUR_FUZZ_CASES:-1500} ./tests/gegl/fuzz_op | tail -n 3
make bench-preview
