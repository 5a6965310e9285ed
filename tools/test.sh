#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole test suite, as CI runs it (through .ci/run): installs what is
# missing, then
#   1. the normal build (the CUDA backend too when nvcc is found): every
#      test -- engine, GPU tests (they skip without a GPU), GIMP batch,
#      fuzz and dialog tests, translations -- and `make distcheck` (its
#      build for one GPU architecture);
#   2. a build without CUDA, what most users build: `make check`;
#   3. the engine and its tests under AddressSanitizer and
#      UndefinedBehaviorSanitizer;
#   4. GIMP 3: in a Debian 13 root made with debootstrap
#      (tools/gimp3-root.sh), the GEGL operation and the GIMP 3 procedures
#      built without CUDA and tested in real GIMP 3: `make check`;
#   5. the Debian packages (tools/build-deb.sh: Debian 12's here, Debian
#      13's in that root), each installed, run and purged in a fresh root
#      of its release (tools/test-deb.sh).
# Build trees go to _build/, _build-nocuda/, _build-sanitize/ and, in the
# root, _build-gimp3/; the packages and their roots to _deb/.
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

# The operation's fuzz (tests/gegl/fuzz_op) runs its 1,000 cases once, in
# the GIMP 3 root (step 4); the builds before it, on the same code, fewer.
export CUDABLUR_FUZZ_CASES=150

step "1/5 normal build"
rm -rf _build && mkdir _build && cd _build
../configure
make -j"$jobs"
check
# The dist tarball's build checks what the tarball carries, and one GPU
# architecture compiles every CUDA file as well as five (built once,
# above): the build machine's GPU's where it has one from 7.5 to 9.0 (newer
# ones run 9.0's PTX), else 9.0.
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null \
       | head -n 1 | tr -d ' .')
case $arch in
  7[5-9]|8[0-9]|90) ;;
  *) arch=90 ;;
esac
# The GUI suites (dialog, quit) ran above on the same sources; the
# tarball's build and the build without CUDA skip them.
CUDABLUR_GUI_TESTS=skip make -j"$jobs" distcheck \
  DISTCHECK_CONFIGURE_FLAGS="CUDA_ARCHS=$arch" || {
  # A failed distcheck leaves its tree; its tests' log is in there.
  find . -path '*/_build/sub/test-suite.log' -exec cat {} +
  exit 1
}
cd "$top"

step "2/5 build without CUDA"
rm -rf _build-nocuda && mkdir _build-nocuda && cd _build-nocuda
../configure --without-cuda
make -j"$jobs"
(CUDABLUR_GUI_TESTS=skip; export CUDABLUR_GUI_TESTS; check)
cd "$top"

step "3/5 engine under AddressSanitizer and UndefinedBehaviorSanitizer"
rm -rf _build-sanitize && mkdir _build-sanitize && cd _build-sanitize
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
../configure --disable-plugin --without-cuda \
  CFLAGS="-g -O1 -fno-omit-frame-pointer $san" LDFLAGS="$san"
make -j"$jobs"
check
cd "$top"

step "4/5 GIMP 3 in a Debian 13 root"
./tools/gimp3-root.sh
./tools/gimp3-chroot.sh "$top/_gimp3-root" env CUDABLUR_FUZZ_CASES=1000 sh -c "
  rm -rf /src/_build-gimp3 && mkdir /src/_build-gimp3 && cd /src/_build-gimp3 &&
  ../configure --without-cuda >configure.log &&
  make -j$jobs >make.log 2>&1 &&
  { make -j$jobs check || { cat test-suite.log; exit 1; }; }" || {
    tail -n 30 _build-gimp3/configure.log _build-gimp3/make.log 2>/dev/null
    exit 1
  }

step "5/5 Debian packages, installed in fresh roots"
./tools/build-deb.sh bookworm trixie
./tools/test-deb.sh _deb/bookworm/gimp-cudablur_*+deb12_*.deb \
  _deb/trixie/gimp-cudablur_*+deb13_*.deb

echo
echo "tools/test.sh: all tests passed ($(date +%H:%M:%S))"
