#!/bin/sh
# One dialog case inside Xvfb (see run-dialog-tests.sh): starts GIMP with a
# Script-Fu batch command that opens the dialog, then presses keys.
set -u
case=$1
img="$CB_DATA/coffee.ppm"
snap="$CB_TMP/snapshot-$case"
load="(img (car (gimp-file-load RUN-NONINTERACTIVE \"$img\" \"coffee.ppm\")))
      (d (car (gimp-image-get-active-drawable img)))"
snapshot="(plug-in-cudablur-test-snapshot RUN-NONINTERACTIVE img d \"$snap\")"
verify() { # mode sx sy algorithm label
  echo "(plug-in-cudablur-test-verify RUN-NONINTERACTIVE img d \"$snap\" $1 $2 $3 $4 \"$5\")"
}
dialog="(plug-in-cudablur RUN-INTERACTIVE img d 0 5.0 5.0 50.0 2 2.0 0)"

case $case in
  ok) script="(let* ($load) (gimp-display-new img) $snapshot $dialog
                 $(verify 0 12.0 12.0 1 "dialog OK")
                 (plug-in-cudablur-test-wait-file RUN-NONINTERACTIVE \"$CB_TMP/undone\" 300)
                 $(verify 1 0 0 0 undo) (gimp-quit 1))" ;;
  cancel) script="(let* ($load) (gimp-display-new img) $snapshot $dialog
                     $(verify 1 0 0 0 cancel) (gimp-quit 1))" ;;
  de) export LANGUAGE=de LANG=de_DE.UTF-8 LC_ALL=de_DE.UTF-8
      script="(let* ($load) (gimp-display-new img) $dialog (gimp-quit 1))" ;;
esac

gimp --no-splash -d -f -b "$script" >"$CB_TMP/gimp-$case.log" 2>&1 &
gimp_pid=$!

title="CUDA Gaussian Blur"
[ "$case" = de ] && title="CUDA-Gaußscher Weichzeichner"
# Generous limits: CI runs on two busy cores, where GIMP has taken over a
# minute to show the dialog; every wait ends as soon as its condition holds.
win=
for i in $(seq 1 300); do
  win=$(xdotool search --name "^$title\$" 2>/dev/null | head -n 1)
  [ -n "$win" ] && break
  sleep 1
done
if [ -z "$win" ]; then
  echo "FAIL: $case: no window titled \"$title\" appeared"
  import -window root "$CUDABLUR_ARTEFACTS/dialog-$case-missing.png" 2>/dev/null
  kill $gimp_pid 2>/dev/null
  exit 1
fi
echo "PASS: $case: the dialog \"$title\" opened"
sleep 3   # the first preview
import -window root "$CUDABLUR_ARTEFACTS/dialog-$case.png"

case $case in
  ok)
    # Focus starts in the X standard deviation; the chain makes Y follow.
    xdotool key --clearmodifiers ctrl+a
    xdotool type --delay 50 12
    xdotool key Tab
    xdotool key alt+a Down   # Algorithm: Automatic -> FIR
    sleep 3
    import -window root "$CUDABLUR_ARTEFACTS/dialog-ok-changed.png"
    xdotool key alt+o
    for i in $(seq 1 300); do
      grep -q "dialog OK" "$CUDABLUR_TEST_LOG" && break
      sleep 1
    done
    sleep 1
    imgwin=$(xdotool search --name "coffee" 2>/dev/null | head -n 1)
    [ -n "$imgwin" ] && xdotool windowfocus "$imgwin"
    sleep 1
    xdotool key ctrl+z
    sleep 2
    import -window root "$CUDABLUR_ARTEFACTS/dialog-ok-undone.png"
    touch "$CB_TMP/undone" ;;
  *)
    xdotool key Escape ;;
esac

for i in $(seq 1 300); do
  kill -0 $gimp_pid 2>/dev/null || break
  sleep 1
done
kill $gimp_pid 2>/dev/null
grep -v -e "theme engine" -e "^$" "$CB_TMP/gimp-$case.log" >&2
exit 0
