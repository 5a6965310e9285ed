#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Prints the package's substitution variables from what the build made
# (debian/rules appends them to debian/gimp-cudablur.substvars):
#   sh debian/substvars.sh debian/gimp-cudablur
# cudablur:Frontend and cudablur:Depends follow the GIMP it was built
# for, cudablur:Backend says whether the CUDA backend is inside and for
# which GPU architectures.
set -eu
pkg=$1
# NAME=TEXT with TEXT folded into Description lines (${Newline} joins
# them; dpkg indents each).
var () {
  printf '%s=' "$1"
  printf '%s\n' "$2" | fold -s -w 78 | sed 's/ *$//' \
    | awk 'NR > 1 { printf "${Newline}" } { printf "%s", $0 } END { print "" }'
}
if [ -d "$pkg/usr/lib/gimp/2.0/plug-ins/cudablur" ]; then
  echo "cudablur:Depends=gimp (>= 2.10), gimp (<< 2.99)"
  var cudablur:Frontend "This package is for GIMP 2.10. The filter's dialog has its own zoomable preview, presets and a split view."
elif ls -d "$pkg"/usr/lib/*/gimp/3.0/plug-ins/cudablur >/dev/null 2>&1; then
  echo "cudablur:Depends=gimp (>= 3.0)"
  var cudablur:Frontend "This package is for GIMP 3: the GEGL operation cudablur:gaussian-blur runs in GIMP's own process and opens in GIMP's filter tool, with on-canvas preview, split view and non-destructive filters."
else
  echo "substvars: no GIMP front end under $pkg" >&2
  exit 1
fi
if grep -q '^#define HAVE_CUDA 1' config.h; then
  archs=$(sed -n 's/^CUDA_ARCHS = //p' Makefile | sed 's/\([0-9]\)\([0-9]\)\b/\1.\2/g; s/ /, /g')
  var cudablur:Backend "Built with the CUDA backend for NVIDIA GPUs of compute capability $archs (and newer GPUs through PTX). The blur runs on the GPU where the NVIDIA driver is installed, on the CPU elsewhere; the CUDA runtime is linked in."
else
  var cudablur:Backend "Built without the CUDA backend: every blur runs on the CPU."
fi
