#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole call in real GIMP 2.10, as a user or a script waits for it:
# plug-in-cudablur against GIMP's own Gaussian blur in the same session.
#
#   tools/bench-gimp.sh [--installed] [--quick] [--reps N] [--photo FILE]
#                       [--modes "resident process"]
#
# Runs tests/gimp/bench.scm in GIMP once per mode: "resident" (script calls
# served by the resident process, the default) and "process"
# (CUDABLUR_NO_RESIDENT=1: a process per call).  Prints a Markdown table
# per mode: the median of N calls (default 3) on fresh duplicates of an RGB
# 8-bit photograph scaled to 3840x2160 and 6000x4000, the ratio to GIMP's
# plug-in-gauss at the same sigma in the same session, and the plug-in's
# own stages (CUDABLUR_TIMING).  --quick: sigma 10 and 3840x2160 only.
#
# Without --installed the plug-in and the test helper (its clock) come
# from the build tree ($builddir, default _build) in a private
# GIMP2_DIRECTORY; with it, GIMP must find both already (for example the
# GIMP 2.10 packed with the plug-in on a machine without GIMP).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
installed=0 quick="#f" reps=3 modes="resident process"
photo=/usr/lib/python3/dist-packages/skimage/data/coffee.png
[ -f "$photo" ] || photo=$top/tests/data/coffee.ppm
while [ $# -gt 0 ]; do
  case $1 in
    --installed) installed=1 ;;
    --quick) quick="#t" ;;
    --reps) reps=$2; shift ;;
    --photo) photo=$2; shift ;;
    --modes) modes=$2; shift ;;
    *) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
  shift
done
photo=$(cd "$(dirname "$photo")" && pwd)/$(basename "$photo")
gimp=$(command -v gimp-console-2.10 || command -v gimp) \
  || { echo "bench-gimp: GIMP 2.10 is not installed" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/cudablur-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ $installed = 0 ]; then
  build=$(cd "${builddir:-$top/_build}" && pwd)
  for b in gimp2/cudablur tests/gimp/cudablur-test; do
    [ -x "$build/$b" ] || { echo "bench-gimp: $build/$b not built (make bench-gimp builds it)" >&2; exit 1; }
  done
  export GIMP2_DIRECTORY="$work/profile"
  mkdir -p "$GIMP2_DIRECTORY/plug-ins"
  for d in brushes dynamics fonts gradients palettes patterns tool-presets; do
    mkdir -p "$GIMP2_DIRECTORY/$d"
  done
  cp "$build/gimp2/cudablur" "$build/tests/gimp/cudablur-test" \
     "$GIMP2_DIRECTORY/plug-ins/"
fi
scm=$top/tests/gimp/bench.scm
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 || true)
echo "bench-gimp: $(nproc) CPU threads${device:+, $device}; photo $(basename "$photo"); $reps calls per row"
for mode in $modes; do
  log=$work/$mode.log
  case $mode in
    process) no_resident=1 ;;
    *) no_resident=0 ;;
  esac
  CUDABLUR_TIMING=1 CUDABLUR_NO_RESIDENT=$no_resident "$gimp" -i -d -f \
    --batch-interpreter=plug-in-script-fu-eval \
    -b "(begin (load \"$scm\") (cudablur-bench \"$photo\" $reps $quick))" \
    -b "(gimp-quit 0)" >"$log" 2>&1 || true
  if ! grep -q "bench-done" "$log"; then
    cat "$log" >&2
    echo "bench-gimp: the $mode run did not finish" >&2
    exit 1
  fi
  echo
  echo "### plug-in-cudablur, $mode mode"
  echo
  awk -f "$top/tools/bench-gimp-table.awk" "$log"
done
