#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole test suite, as CI runs it (through .ci/run), on Debian 12, 13
# or forky: installs what is missing, then
#   1. the normal build (the CUDA backend too when nvcc is found, for
#      the five GPU architectures of a release): every test -- engine,
#      GPU tests (they skip without a GPU), the GIMP tests of the GIMP
#      installed here (2.10: batch, fuzz and dialog tests, translations;
#      3.N: batch and filter tool), the GEGL operation and the gegl
#      program;
#   2. `make distcheck` of that tree's tarball built without CUDA, what
#      most users build: its `make check` runs what may differ without
#      the CUDA backend (engine, GIMP batch tests, the operation) and
#      skips the GUI suites and the GIMP 2.10 suites of code that is the
#      same in both builds (CUDABLUR_REPEAT_TESTS: PDB fuzz, blur-file.sh,
#      table check), which ran in 1.;
#   3. the engine and its tests under AddressSanitizer and
#      UndefinedBehaviorSanitizer;
#   4. GIMP 3 in roots made with debootstrap (tools/gimp3-root.sh) of the
#      releases this system is not, Debian 13 (GIMP 3.0) and forky (3.2):
#      the GEGL operation and the GIMP 3 procedures built without CUDA and
#      tested in real GIMP 3: `make check`;
#   5. the Debian packages: this release's, and Debian 13's and forky's
#      in those roots, built from 2.'s tarball (tools/build-deb.sh), each
#      installed, run and purged in a fresh root of its release; in forky
#      Debian 13's package first, what a user who upgrades has, then
#      forky's over it (tools/test-deb.sh).  This release's is built with
#      CUDA where nvcc compiles, for one GPU architecture (the tarball's
#      build with CUDA: the normal build has built the CUDA files for
#      five); those in the roots without, as their CUDA code is the same.
#   tools/test.sh [STEP...]    (default: 1 2 3 4 5)
# Build trees go to _build/ (2.'s inside it, removed when it passes),
# _build-sanitize/ and, in the roots, _build-gimp3/ and
# _build-gimp3-forky/; the packages and their roots to _deb/.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
steps=${*:-1 2 3 4 5}
dist=
./tools/deps.sh
./autogen.sh >/dev/null
jobs=$(nproc)
. /etc/os-release
here=${VERSION_CODENAME:-}
# The GIMP 3 releases to test in a root: those this system is not.
roots=
for release in trixie forky; do
  [ "$release" = "$here" ] || roots="$roots $release"
done

step () {
  case " $steps " in *" ${1%%/*} "*) ;; *) return 1 ;; esac
  echo
  echo "=== tools/test.sh: $* ($(date +%H:%M:%S))"
}

check () {
  make -j"$jobs" check || { cat test-suite.log; exit 1; }
}

# The packages' builds (5.) compile the CUDA files for one GPU
# architecture, as well as five do for what is tested (1.): the build
# machine's GPU's where it has one from 7.5 to 9.0 (newer ones run 9.0's
# PTX), else 9.0.
# The operation's fuzz (tests/gegl/fuzz_op) runs its 1,000 cases once, in
# the Debian 13 root (4.); the other builds, on the same code, fewer.
export CUDABLUR_FUZZ_CASES=150

arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null \
       | head -n 1 | tr -d ' .')
case $arch in
  7[5-9]|8[0-9]|90) ;;
  *) arch=90 ;;
esac

if step "1/5 normal build"; then
  rm -rf _build && mkdir _build && cd _build
  ../configure
  make -j"$jobs"
  check
  cd "$top"
fi

if step "2/5 make distcheck, the tarball built without CUDA"; then
  [ -f _build/Makefile ] || { mkdir -p _build && cd _build && ../configure --without-cuda && cd "$top"; }
  cd _build
  # The GUI suites (dialog, quit, filter tool) and those of the same code
  # on the same GIMP ran in 1.
  CUDABLUR_GUI_TESTS=skip CUDABLUR_REPEAT_TESTS=skip make -j"$jobs" distcheck \
    DISTCHECK_CONFIGURE_FLAGS="--without-cuda" || {
    # A failed distcheck leaves its tree; its tests' log is in there.
    find . -path '*/_build/sub/test-suite.log' -exec cat {} +
    exit 1
  }
  dist=$top/_build/$(ls gimp-cudablur-*.tar.gz)
  cd "$top"
fi

if step "3/5 engine under AddressSanitizer and UndefinedBehaviorSanitizer"; then
  rm -rf _build-sanitize && mkdir _build-sanitize && cd _build-sanitize
  san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
  ../configure --disable-plugin --without-cuda \
    CFLAGS="-g -O1 -fno-omit-frame-pointer $san" LDFLAGS="$san"
  make -j"$jobs"
  check
  cd "$top"
fi

for release in $roots; do
  build=_build-gimp3
  [ "$release" = trixie ] || build=_build-gimp3-$release
  step "4/5 GIMP 3 in a Debian $release root" || continue
  ./tools/gimp3-root.sh "$release"
  fuzz=150
  [ "$release" != trixie ] || fuzz=1000
  ./tools/gimp3-chroot.sh "$release" env CUDABLUR_FUZZ_CASES=$fuzz sh -c "
    rm -rf /src/$build && mkdir /src/$build && cd /src/$build &&
    ../configure --without-cuda >configure.log &&
    make -j$jobs >make.log 2>&1 &&
    { make -j$jobs check || { cat test-suite.log; exit 1; }; }" || {
      tail -n 30 $build/configure.log $build/make.log 2>/dev/null
      exit 1
    }
done

if step "5/5 Debian packages, installed in fresh roots"; then
  releases=
  for release in bookworm trixie forky; do
    case " $here $roots " in *" $release "*) releases="$releases $release" ;; esac
  done
  # From 2.'s tarball where 2. ran, else from the tree.
  case " $releases " in
    *" $here "*) DIST=$dist CUDA_ARCHS=$arch ./tools/build-deb.sh "$here" ;;
  esac
  DIST=$dist CUDABLUR_ROOT_CUDA=0 ./tools/build-deb.sh $roots
  debs=
  trixie_deb=
  for release in $releases; do
    deb=$(ls _deb/$release/gimp-cudablur_*.deb)
    # Debian 13's package in forky first, what a user who upgrades has;
    # forky's is then installed over it.
    [ "$release" != forky ] || [ -z "$trixie_deb" ] || debs="$debs $trixie_deb:forky"
    debs="$debs $deb"
    [ "$release" != trixie ] || trixie_deb=$deb
  done
  ./tools/test-deb.sh $debs
fi

echo
echo "tools/test.sh: steps $steps passed ($(date +%H:%M:%S))"
