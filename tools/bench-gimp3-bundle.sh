#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Prepares GIMP 3's benchmark (tools/bench-gimp3.sh) for a machine with an
# NVIDIA GPU that has no GIMP 3:
#   tools/bench-gimp3-bundle.sh PACKER DIR [RELEASE...]   (default: trixie forky)
# First, in tools/gimp3-root.sh's Debian 13 root with /usr/local/cuda bound
# in, the GEGL module and GIMP 3's procedures are built with the CUDA
# backend for CUDA_ARCHS (default 90: the H100's and H200's) in
# _build-bench/; what Debian 13 builds runs in GIMP 3.2 as well (the
# Debian 13 package does), and CUDA 13.0 compiles nothing in forky.  Then,
# for each RELEASE, PACKER packs the GIMP 3.N of that release's root into
# DIR/gimp-3.N, a folder that runs from that same absolute path on the
# other machine; this adds ours and a PNG of the benchmark's photograph
# and writes DIR/gimp-3.N.tar.xz.  PACKER is called as
#   PACKER ROOT OUT PLUGIN...
# and must make OUT a relocatable GIMP 3 with each PLUGIN in
# OUT/plug-ins/NAME/NAME, that reads GEGL modules from OUT/gegl, and write
# OUT/env.sh, which puts OUT/bin first on PATH.  Needs root.  On the GPU
# machine, in this tree or its `make dist` tarball, for each bundle:
#   tar xJf DIR/gimp-3.N.tar.xz -C DIR && . DIR/gimp-3.N/env.sh
#   PHOTO=DIR/gimp-3.N/coffee.png tools/bench-gimp3.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ $# -ge 2 ] || { sed -n '3,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
packer=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$2
shift 2
[ $# -gt 0 ] || set -- trixie forky
case $dir in /*) ;; *) echo "bench-gimp3-bundle: DIR must be absolute" >&2; exit 2 ;; esac
[ -x /usr/local/cuda/bin/nvcc ] \
  || { echo "bench-gimp3-bundle: no /usr/local/cuda/bin/nvcc" >&2; exit 1; }
archs=${CUDA_ARCHS:-90}
build=_build-bench
./tools/gimp3-root.sh trixie
echo "bench-gimp3-bundle: building with CUDA ($archs) in $build, in the Debian 13 root"
CUDABLUR_ROOT_CUDA=1 ./tools/gimp3-chroot.sh trixie sh -c "
  rm -rf /src/$build && mkdir /src/$build && cd /src/$build &&
  ../configure --with-cuda=/usr/local/cuda CUDA_ARCHS='$archs' >configure.log &&
  make -j$(nproc) gegl/cudablur.so gimp3/cudablur >make.log 2>&1" \
  || { tail -n 30 "$build/configure.log" "$build/make.log" 2>/dev/null; exit 1; }
grep -q '^#define HAVE_CUDA 1' "$build/config.h" \
  || { echo "bench-gimp3-bundle: $build has no CUDA backend" >&2; exit 1; }
mkdir -p "$dir"
for release in "$@"; do
  ./tools/gimp3-root.sh "$release"
  root=$top/_gimp3-root
  [ "$release" = trixie ] || root=$top/_gimp3-root-$release
  console=$(./tools/gimp3-chroot.sh "$release" /src/tools/gimp3-program.sh gimp-console)
  name=gimp-${console##*-}
  out=$dir/$name
  echo "bench-gimp3-bundle: $release: packing GIMP ${console##*-} into $out"
  "$packer" "$root" "$out" "$top/$build/gimp3/cudablur"
  cp "$build/gegl/cudablur.so" "$out/gegl/"
  convert "$top/tests/data/coffee.ppm" "$out/coffee.png"
  tar -C "$dir" -cJf "$dir/$name.tar.xz" "$name"
  echo "bench-gimp3-bundle: $release: $out ($(du -sh "$out" | cut -f1)), $dir/$name.tar.xz ($(du -h "$dir/$name.tar.xz" | cut -f1))"
done
