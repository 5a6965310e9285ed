#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The operation as a guest in GIMP 3's GUI (guest_gui.py, under Xvfb and
# a D-Bus session):
#   1. what a redraw computes, from the process() log (CUDABLUR_OP_LOG):
#      the filter tool on a 3000x2000 photograph, the standard deviation
#      raised at fit zoom and at 100 %: each redraw computes the image
#      once, with no more reach around each request than it needs (GIMP
#      3.0 renders the whole image at full resolution either way, the
#      visible part first), requests as asked (the default for sigma 5)
#      or, in blocks, no call more than four (a request of GIMP's across
#      new blocks computes them all);
#   2. a blur that cannot be done (GB_HOST_FAULT=alloc): GIMP shows the
#      operation's message in its message window.
# Screenshots go to tests/artefacts/ (guest-*.png: look at them).
# Skipped with CUDABLUR_GUI_TESTS=skip.  Called by `make check` where GIMP
# 3 is.
set -u
: "${srcdir:=.}"
: "${builddir:=.}"
[ "${CUDABLUR_GUI_TESTS:-}" = skip ] && { echo "GUI tests skipped"; exit 77; }
gimp=$("$srcdir/tools/gimp3-program.sh" gimp) \
  || { echo "no gimp-3.N installed: skipped"; exit 77; }
for cmd in xvfb-run dbus-run-session xdotool import convert python3; do
  command -v $cmd >/dev/null 2>&1 || { echo "$cmd not installed: skipped"; exit 77; }
done
python3 -c 'import gi; gi.require_version("Gdk", "3.0"); from gi.repository import Gdk, Gio' \
  2>/dev/null || { echo "python3's Gdk 3 and Gio not installed: skipped"; exit 77; }
top_build=$(cd "$builddir" && pwd)
data=$(cd "$srcdir/tests/data" && pwd)
driver=$(cd "$srcdir/tests/gimp3" && pwd)/guest_gui.py
art=$top_build/tests/artefacts
mkdir -p "$art" || exit 99
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudablur-guest.XXXXXX") || exit 99
trap 'for t in redraw failure; do cp "$tmp/$t/gimp.log" "$art/guest-$t-gimp.log"; cp "$tmp/$t.log" "$art/guest-$t-driver.log"; done; cp "$tmp"/op.log "$art"/guest-op.log; rm -rf "$tmp"' EXIT
export GIMP3_DIRECTORY="$tmp/profile" XDG_DATA_HOME="$tmp/share"
export HOME="$tmp/home" LC_ALL=C.UTF-8 LANGUAGE=en
mkdir -p "$GIMP3_DIRECTORY/plug-ins/cudablur" "$XDG_DATA_HOME/gegl-0.4/plug-ins" \
  "$HOME" "$tmp/redraw" "$tmp/failure" || exit 99
cp "$top_build/gimp3/cudablur" "$GIMP3_DIRECTORY/plug-ins/cudablur/" || exit 99
cp "$top_build/gegl/cudablur.so" "$XDG_DATA_HOME/gegl-0.4/plug-ins/" || exit 99
export GIMP_PROGRAM="$gimp"
version=$("$gimp" --version | awk '{ print $NF }')
printf '(show-welcome-dialog no)\n(config-version "%s")\n' "$version" \
  >"$GIMP3_DIRECTORY/gimprc"
printf '(single-window-mode no)\n' >"$GIMP3_DIRECTORY/sessionrc"
convert "$data/coffee.ppm" -resize '3000x2000!' "$tmp/photo.ppm" || exit 99
fail=0

# 1. What a redraw computes.
CUDABLUR_OP_LOG="$tmp/op.log" \
  timeout 600 xvfb-run -a -s "-screen 0 2100x1000x24" dbus-run-session -- \
  python3 "$driver" redraw "$tmp/photo.ppm" "$tmp/redraw" >"$tmp/redraw.log" 2>&1
cp "$tmp/redraw"/guest-*.png "$art/" 2>/dev/null
while read -r zoom t0 t1; do
  # The calls between the click and the canvas's last change.
  verdict=$(awk -v t0="$t0" -v t1="$t1" -v W=3000 -v H=2000 -v zoom="$zoom" '
    function val(k,   i, kv) {
      for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] }
    }
    $1 == "process" && val("t") >= t0 && val("t") <= t1 {
      calls++; pixels += val("pixels"); mode = val("mode"); r = val("reach")
      if (mode == "requests") {
        # A request as asked, with its reach: no more.
        if (val("pixels") > (val("w") + 2 * r) * (val("h") + 2 * r)) over++
      } else if (mode == "blocks") {
        s = val("side"); b = val("blocks")
        if (b > most) most = b
        if (val("pixels") > b * (s + 2 * r) * (s + 2 * r)) over++
      } else other++
      modes[mode] = 1
    }
    END {
      if (!calls) { print "FAIL no calls"; exit }
      m = ""; for (k in modes) m = m k " "
      msg = sprintf("%d calls (%s) computed %.2f times the image, at most %d blocks a call",
                    calls, m, pixels / (W * H), most)
      # Every pixel computed, none twice but for the reach around them.
      if (other || over || most > 4 || pixels < W * H || pixels > 3 * W * H)
        print "FAIL " msg " (" over " over their request, " other " whole)"
      else
        print "PASS " msg
    }' "$tmp/op.log")
  case $verdict in
    PASS*) echo "PASS: gimp3 redraw at $zoom: ${verdict#PASS }" ;;
    *) echo "FAIL: gimp3 redraw at $zoom: ${verdict#FAIL }"; fail=1 ;;
  esac
done <"$tmp/redraw/redraws.txt"
[ -s "$tmp/redraw/redraws.txt" ] \
  || { echo "FAIL: gimp3 redraw: no redraw measured"; cat "$tmp/redraw.log"; fail=1; }

# 2. A blur that cannot be done: GIMP's message window.
GB_HOST_FAULT=alloc \
  timeout 600 xvfb-run -a -s "-screen 0 2100x1000x24" dbus-run-session -- \
  python3 "$driver" failure "$tmp/photo.ppm" "$tmp/failure" >"$tmp/failure.log" 2>&1
cp "$tmp/failure"/guest-*.png "$art/" 2>/dev/null
# The operation counted its failure where plug-in-cudablur reads it (the
# user's runtime folder, else the cache folder, of this HOME).
counted=$(cat "$HOME"/.cache/gimp-cudablur-failures-* \
          "${XDG_RUNTIME_DIR:-/nonexistent}"/gimp-cudablur-failures-* 2>/dev/null)
if grep -q "GIMP Message" "$tmp/failure/message.txt" 2>/dev/null \
   && [ -n "$counted" ]; then
  echo "PASS: gimp3 failure: GIMP showed its message window (screenshot: $art/guest-failure-message.png)"
else
  echo "FAIL: gimp3 failure: no message window ($(cat "$tmp/failure/message.txt" 2>/dev/null)) or no failure counted ($counted)"
  fail=1
fi
if grep -qiE 'segmentation|fatal error' "$tmp/redraw/gimp.log" "$tmp/failure/gimp.log"; then
  echo "FAIL: GIMP 3 crashed:"
  grep -h -iE -A 40 'segmentation|fatal error' "$tmp/redraw/gimp.log" "$tmp/failure/gimp.log"
  fail=1
fi
[ $fail -eq 0 ] || { tail -n 20 "$tmp/redraw.log" "$tmp/failure.log"; }
exit $fail
