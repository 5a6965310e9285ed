#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# GIMP 3's filter tool on the operation, under Xvfb (filter-tool-driver.sh):
# GIMP's GUI opens a photograph, the filter is found through GIMP's action
# search and opens in the filter tool, and the canvas shows its preview:
# the middle of the photograph on screen must have changed, and be nearer
# to a blur of what was there than to it.  The screenshots go to
# tests/artefacts/ (gimp3-filter-tool.png: look at it).  Skipped with
# CUDABLUR_GUI_TESTS=skip.  Called by `make check` where GIMP 3 is.
set -u
: "${srcdir:=.}"
: "${builddir:=.}"
[ "${CUDABLUR_GUI_TESTS:-}" = skip ] && { echo "GUI tests skipped"; exit 77; }
gimp=$("$srcdir/tools/gimp3-program.sh" gimp) \
  || { echo "no gimp-3.N installed: skipped"; exit 77; }
for cmd in xvfb-run dbus-run-session xdotool import convert compare; do
  command -v $cmd >/dev/null 2>&1 || { echo "$cmd not installed: skipped"; exit 77; }
done
top_build=$(cd "$builddir" && pwd)
data=$(cd "$srcdir/tests/data" && pwd)
driver=$(cd "$srcdir/tests/gimp3" && pwd)/filter-tool-driver.sh
art=$top_build/tests/artefacts
mkdir -p "$art" || exit 99
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudablur-tool.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
export GIMP3_DIRECTORY="$tmp/profile" XDG_DATA_HOME="$tmp/share"
# In German, as a German user has it (the locale tools/deps.sh and
# tools/gimp3-root.sh make).
export HOME="$tmp/home" LANGUAGE=de LANG=de_DE.UTF-8 LC_ALL=de_DE.UTF-8
locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\{0,1\}8$' \
  || { echo "FAIL: no de_DE.UTF-8 locale (tools/gimp3-root.sh makes it)"; exit 1; }
modules="$XDG_DATA_HOME/gegl-0.4/plug-ins"
# GIMP keeps the last used filter settings in filters/ (its user install
# makes the folder).
mkdir -p "$GIMP3_DIRECTORY/filters" || exit 99
mkdir -p "$GIMP3_DIRECTORY/plug-ins/cudablur" "$modules" "$HOME" || exit 99
cp "$top_build/gimp3/cudablur" "$GIMP3_DIRECTORY/plug-ins/cudablur/" || exit 99
cp "$top_build/gegl/cudablur.so" "$modules/" || exit 99
# The catalogues where make install puts them: beside the module and the
# procedures.
for dir in "$modules/cudablur/locale" "$GIMP3_DIRECTORY/plug-ins/cudablur/locale"; do
  for lang in $(sed -e 's/#.*//' "$srcdir/po/LINGUAS"); do
    mkdir -p "$dir/$lang/LC_MESSAGES" || exit 99
    cp "$top_build/po/$lang/LC_MESSAGES/gimp-cudablur.mo" "$dir/$lang/LC_MESSAGES/" \
      || exit 99
  done
done
# One window per image (the canvas alone in it); GIMP's welcome on a new
# version not shown (the profile says this version ran before).
version=$("$gimp" --version | awk '{ print $NF }')
echo "GIMP 3: $gimp ($version)"
printf '(show-welcome-dialog no)\n(config-version "%s")\n' "$version" \
  >"$GIMP3_DIRECTORY/gimprc"
printf '(single-window-mode no)\n' >"$GIMP3_DIRECTORY/sessionrc"
# A PNM photograph: no colour profile for GIMP to ask about.
cp "$data/coffee.ppm" "$tmp/coffee.ppm" || exit 99

# GIMP's GUI wants a session bus: without one it quits.
timeout 600 xvfb-run -a -s "-screen 0 1600x1200x24" dbus-run-session -- \
  sh "$driver" "$gimp" "$tmp/coffee.ppm" "$art" "$tmp/gimp.log" "r w Right c" 2>/dev/null
status=$?
fail=0
[ $status -eq 0 ] || { echo "FAIL: the GUI run exited with $status"; fail=1; }
if grep -qiE 'segmentation|fatal error|cudablur:gaussian-blur:' "$tmp/gimp.log"; then
  echo "FAIL: GIMP 3 reported:"; grep -iE 'segmentation|fatal error|cudablur' "$tmp/gimp.log" | head -n 5
  fail=1
fi
if [ $fail -eq 0 ]; then
  # The middle quarter of the image window: inside the photograph.
  read -r x y w h <"$art/gimp3-canvas.txt"
  box="$((w / 4))x$((h / 4))+$((x + w * 3 / 8))+$((y + h * 3 / 8))"
  convert "$art/gimp3-before.png" -crop "$box" +repage "$tmp/before.png"
  convert "$art/gimp3-filter-tool.png" -crop "$box" +repage "$tmp/after.png"
  convert "$tmp/before.png" -blur 0x3 "$tmp/blurred.png"
  # Pixels of which a channel moved by more than 2 % (ImageMagick 7.1.2's
  # compare -metric AE no longer counts them).
  changed=$(convert "$tmp/before.png" "$tmp/after.png" -compose difference \
              -composite -separate -evaluate-sequence max -threshold 2% \
              -format '%[fx:round(mean*w*h)]' info:)
  to_before=$(compare -metric RMSE "$tmp/before.png" "$tmp/after.png" null: 2>&1 | sed 's/ .*//')
  to_blur=$(compare -metric RMSE "$tmp/blurred.png" "$tmp/after.png" null: 2>&1 | sed 's/ .*//')
  pixels=$(( (w / 4) * (h / 4) ))
  if [ "${changed%.*}" -gt $((pixels / 3)) ] 2>/dev/null \
     && awk -v a="$to_blur" -v b="$to_before" 'BEGIN { exit !(a < b) }'; then
    echo "PASS: gimp3 filter tool: the canvas shows the blur ($changed of $pixels pixels changed; RMSE to a blur $to_blur, to the original $to_before)"
  else
    echo "FAIL: gimp3 filter tool: the canvas did not show a blur ($changed of $pixels pixels changed; RMSE to a blur $to_blur, to the original $to_before)"
    fail=1
  fi
fi
# German as the catalogue has it: the tool's title, opened from Filters >
# Blur by the menus' mnemonics (German GIMP's Filte_r, _Weichzeichnen,
# ours _CUDA-...); the dialog no taller or shorter with the edge-aware
# rows (greyed, not hidden); device-used, as GIMP kept it with the
# settings OK applied (Device CUDA), the text of a CPU run under CUDA or
# of the GPU.
de () {
  TEXTDOMAINDIR="$top_build/po" LANGUAGE=de gettext gimp-cudablur "$1"
}
check () {
  if [ "$2" = "$3" ]; then echo "PASS: $1: $2"
  else echo "FAIL: $1: \"$2\", wanted \"$3\""; fail=1; fi
}
dialog () { sed -n "s/^$1 //p" "$art/gimp3-dialog.txt" 2>/dev/null; }
check "the tool's title" "$(dialog name)" \
  "$(de "CUDA Gaussian Blur") (cudablur:gaussian-blur)"
check "opened by" "$(dialog opened)" mnemonics
check "height with the edge-aware rows" "$(dialog height-edge-aware)" \
  "$(dialog height-before)"
check "height after them" "$(dialog height-after)" "$(dialog height-before)"
settings="$GIMP3_DIRECTORY/filters/GimpGegl-cudablur-gaussian-blur-config.settings"
used=$(sed -n 's/^ *(device-used "\([^"]*\)").*/\1/p' "$settings" 2>/dev/null | head -n 1)
cuda=$(de "CPU instead of the GPU: %s" | sed 's/%s$//')
case $used in
  "$cuda"?*|"GPU ("*) echo "PASS: device-used with Device CUDA: $used" ;;
  *) echo "FAIL: device-used with Device CUDA: \"$used\" (wanted \"$cuda...\" or \"GPU (...)\") in $settings"
     fail=1 ;;
esac
cp "$tmp/gimp.log" "$art/gimp3-filter-tool.log"
[ $fail -eq 0 ] || tail -n 20 "$tmp/gimp.log"
echo "screenshots: $art/gimp3-*.png"
exit $fail
