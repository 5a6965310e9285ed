#!/bin/sh
# The whole test suite, as CI runs it (through .ci/run): installs what is
# missing, then
#   1. the normal build (the CUDA backend too when nvcc is found): every
#      test -- engine, GPU tests (they skip without a GPU), GIMP batch,
#      fuzz and dialog tests, translations -- and `make distcheck`;
#   2. a build without CUDA, what most users build: `make check`;
#   3. the engine and its tests under AddressSanitizer and
#      UndefinedBehaviorSanitizer.
# Build trees go to _build/, _build-nocuda/ and _build-sanitize/.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
./tools/deps.sh
./autogen.sh >/dev/null
jobs=$(nproc)

step () {
  echo
  echo "=== tools/test.sh: $* ($(date +%H:%M:%S))"
}

check () {
  make -j"$jobs" check || { cat test-suite.log; exit 1; }
}

step "1/3 normal build"
rm -rf _build && mkdir _build && cd _build
../configure
make -j"$jobs"
check
make -j"$jobs" distcheck
cd "$top"

step "2/3 build without CUDA"
rm -rf _build-nocuda && mkdir _build-nocuda && cd _build-nocuda
../configure --without-cuda
make -j"$jobs"
check
cd "$top"

step "3/3 engine under AddressSanitizer and UndefinedBehaviorSanitizer"
rm -rf _build-sanitize && mkdir _build-sanitize && cd _build-sanitize
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
../configure --disable-plugin --without-cuda \
  CFLAGS="-g -O1 -fno-omit-frame-pointer $san" LDFLAGS="$san"
make -j"$jobs"
check
cd "$top"

echo
echo "tools/test.sh: all tests passed ($(date +%H:%M:%S))"
