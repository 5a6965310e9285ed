#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The operation through GEGL's own command-line tool, without GIMP, as the
# README shows it:
#   gegl IN -o OUT -- cudablur:gaussian-blur std-dev-x=8 std-dev-y=8 ...
# with the module from the build tree where a user's copy goes
# (~/.local/share/gegl-0.4/plug-ins).  Each result is checked by
# check_blur against the engine and, for the Gaussians, a double-precision
# convolution.  Called by `make check` where the module is built; skipped
# without the `gegl` program (Debian's package gegl).
set -u
: "${srcdir:=.}"
: "${builddir:=.}"
command -v gegl >/dev/null 2>&1 || { echo "gegl not installed: skipped"; exit 77; }
top_build=$(cd "$builddir" && pwd)
data=$(cd "$srcdir/tests/data" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudablur-gegl.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/share" HOME="$tmp/home"
mkdir -p "$XDG_DATA_HOME/gegl-0.4/plug-ins" "$HOME" || exit 99
cp "$top_build/gegl/cudablur.so" "$XDG_DATA_HOME/gegl-0.4/plug-ins/" || exit 99
check=$top_build/tests/gegl/check_blur
fail=0
# What the gegl program itself says as it exits, with GEGL's own filters
# as well (gegl:gaussian-blur, gegl:box-blur), in GEGL 0.4.42: not counted.
at_exit='gegl_tile_cache_destroy: runtime check failed\|GeglBuffers leaked'

# NAME IN OUT CHECK-ARGS -- OPERATION-ARGS: gegl writes OUT (poisoned
# first: an old file must not pass), check_blur checks it.
case_ () {
  name=$1 in=$2 out=$tmp/$3 args=$4
  shift 5
  printf 'not written' >"$out"
  if ! gegl "$in" -o "$out" -- cudablur:gaussian-blur "$@" >"$tmp/$name.log" 2>&1; then
    echo "FAIL: gegl $name: gegl exited with an error: $(tail -n 3 "$tmp/$name.log")"
    fail=1
  elif grep -v "$at_exit" "$tmp/$name.log" | grep -qi 'cudablur\|warning\|critical\|error'; then
    echo "FAIL: gegl $name: $(grep -v "$at_exit" "$tmp/$name.log" | head -n 3)"
    fail=1
  else
    # shellcheck disable=SC2086
    "$check" "gegl-$name" "$in" "$out" $args || fail=1
  fi
}
# The README's command, with the CPU chosen: check_blur's reference is
# the engine's CPU blur.
case_ deriche "$data/coffee.ppm" deriche.png "4 8 8 50 2 2 0 0 -" -- \
  std-dev-x=8 std-dev-y=8 algorithm=deriche device=cpu
case_ fir "$data/astronaut.ppm" fir.png "1 3 5 50 2 2 0 0 -" -- \
  std-dev-x=3 std-dev-y=5 algorithm=fir device=cpu
case_ edge-aware "$data/astronaut.ppm" edge.png "5 6 6 30 3 2 0 0 -" -- \
  std-dev-x=6 std-dev-y=6 algorithm=edge-aware range-sigma=30 iterations=3 \
  device=cpu
case_ perceptual-white "$data/coffee.ppm" white.png "2 12 12 50 2 2 3 1 -" -- \
  std-dev-x=12 std-dev-y=12 algorithm=yvrg edge-mode=white \
  blur-space=perceptual device=cpu
# `-o OUT.png` writes 16 bits per channel, as the README says; its other
# form ends the chain with the saver and writes 8 (checked as above).
if command -v identify >/dev/null 2>&1; then
  depth=$(identify -format %z "$tmp/deriche.png" 2>/dev/null)
  [ "$depth" = 16 ] || { echo "FAIL: gegl -o wrote $depth bits per channel, not 16"; fail=1; }
fi
out=$tmp/saver8.png
printf 'not written' >"$out"
if ! gegl "$data/coffee.ppm" -- cudablur:gaussian-blur std-dev-x=8 std-dev-y=8 \
       algorithm=deriche device=cpu gegl:png-save path="$out" bitdepth=8 \
       >"$tmp/saver8.log" 2>&1; then
  echo "FAIL: gegl saver8: gegl exited with an error: $(tail -n 3 "$tmp/saver8.log")"
  fail=1
elif grep -v "$at_exit" "$tmp/saver8.log" | grep -qi 'cudablur\|warning\|critical\|error'; then
  echo "FAIL: gegl saver8: $(grep -v "$at_exit" "$tmp/saver8.log" | head -n 3)"
  fail=1
else
  "$check" gegl-saver8 "$data/coffee.ppm" "$out" 4 8 8 50 2 2 0 0 - || fail=1
  if command -v identify >/dev/null 2>&1; then
    depth=$(identify -format %z "$out" 2>/dev/null)
    [ "$depth" = 8 ] || { echo "FAIL: gegl's png-save bitdepth=8 wrote $depth bits per channel"; fail=1; }
  fi
fi
exit $fail
