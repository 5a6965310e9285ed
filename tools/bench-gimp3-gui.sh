#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# How long GIMP 3 stops answering while a filter redraws the canvas
# (tests/gimp3/bench_gui.py): GIMP 3's GUI under Xvfb with a D-Bus session,
# a 6000x4000 RGB 8-bit photograph (coffee, scaled) in a 1920x1080
# window, at fit and at 100 % zoom; for every algorithm of ours and for
# GIMP's own Gaussian Blur, one step up of the standard deviation (5 to 6)
# in the filter tool, the redraw timed to the canvas's last change and
# GIMP's main loop asked over D-Bus meanwhile.  Prints a table.
#   BUILD=DIR [PHOTO=FILE] [SIZE=WxH] tools/bench-gimp3-gui.sh [FILTER...]
# DIR holds gegl/cudablur.so and gimp3/cudablur (a build tree; default
# _build-gimp3).  FILTER: the algorithms' names and "gimp" (default all).
# Needs gimp-3.N, xvfb-run, dbus-run-session, xdotool, ImageMagick and
# python3 with GObject introspection (Gdk 3, Gio): tools/gimp3-root.sh's
# root has them.  The screenshots go to ARTEFACTS (default
# tests/artefacts/bench-gui in the build tree).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${BUILD:-$top/_build-gimp3}" && pwd)
size=${SIZE:-6000x4000}
art=${ARTEFACTS:-$build/tests/artefacts/bench-gui}
mkdir -p "$art"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudablur-bench-gui.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export GIMP3_DIRECTORY="$tmp/profile" XDG_DATA_HOME="$tmp/share"
export HOME="$tmp/home" LC_ALL=C.UTF-8 LANGUAGE=en
mkdir -p "$GIMP3_DIRECTORY/plug-ins/cudablur" "$XDG_DATA_HOME/gegl-0.4/plug-ins" "$HOME"
cp "$build/gimp3/cudablur" "$GIMP3_DIRECTORY/plug-ins/cudablur/"
cp "$build/gegl/cudablur.so" "$XDG_DATA_HOME/gegl-0.4/plug-ins/"
gimp=$("$top/tools/gimp3-program.sh" gimp) || { echo "no gimp-3.N installed" >&2; exit 1; }
export GIMP_PROGRAM="$gimp"
version=$("$gimp" --version | awk '{ print $NF }')
printf '(show-welcome-dialog no)\n(config-version "%s")\n' "$version" \
  >"$GIMP3_DIRECTORY/gimprc"
printf '(single-window-mode no)\n' >"$GIMP3_DIRECTORY/sessionrc"
photo=${PHOTO:-$top/tests/data/coffee.ppm}
convert "$photo" -resize "$size!" "$tmp/photo.ppm"
export CUDABLUR_OP_LOG="$art/process.log"
rm -f "$CUDABLUR_OP_LOG"
echo "GIMP $version, $(nproc) cores$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 | sed 's/^/, /'), load $(cut -d' ' -f1-3 /proc/loadavg), $(date +%Y-%m-%d)"
echo "$size RGB 8-bit in a 1920x1080 window; sigma 5 to 6 in the filter tool"
xvfb-run -a -s "-screen 0 2560x1080x24" dbus-run-session -- \
  python3 "$top/tests/gimp3/bench_gui.py" "$tmp/photo.ppm" "$art" "$@" \
  2>>"$art/driver.log"
