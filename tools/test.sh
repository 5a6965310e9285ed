#!/bin/sh
# The whole test suite, as CI runs it: installs what is missing, builds
# everything (the CUDA backend too when nvcc is found), runs `make check`
# (engine tests, GPU tests that skip without a GPU, GIMP batch tests) and
# `make distcheck`.  Build output goes to _build/.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
./tools/deps.sh
./autogen.sh >/dev/null
rm -rf _build
mkdir _build
cd _build
../configure
make -j"$(nproc)"
make -j"$(nproc)" check || { cat test-suite.log; exit 1; }
make -j"$(nproc)" distcheck
echo "tools/test.sh: all tests passed"
