#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Inside Xvfb (run-filter-tool-test.sh): GIMP 3's GUI (GIMP: the path of
# its gimp-3.N) opens PHOTO, the filter is opened as a user finds it
# (GIMP's action search, "/", then "CUDA Gaussian"), and the screen is
# taken before and with the filter tool open; then the tool is cancelled
# and GIMP quit.
#   filter-tool-driver.sh GIMP PHOTO ARTEFACTS LOG
# Writes ARTEFACTS/gimp3-before.png, gimp3-filter-tool.png and the image
# window's geometry (gimp3-canvas.txt: X Y W H); exits 1 when a window
# does not appear.
set -u
gimp_program=$1 photo=$2 art=$3 log=$4
"$gimp_program" -n --no-splash "$photo" >"$log" 2>&1 &
gimp=$!

# A visible window whose name matches, waited for up to $2 seconds.
window () {
  n=0
  while [ "$n" -lt "$2" ]; do
    w=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -n 1)
    [ -n "$w" ] && { echo "$w"; return 0; }
    kill -0 "$gimp" 2>/dev/null || return 1
    sleep 1
    n=$((n + 1))
  done
  return 1
}

finish () {
  # Cancel the tool through its dialog, as a user does, then quit.
  [ -z "${dlg:-}" ] || xdotool windowfocus "$dlg" 2>/dev/null
  xdotool key --clearmodifiers Escape 2>/dev/null
  sleep 1
  w=$(window "$stem" 2)
  [ -n "$w" ] && xdotool windowfocus "$w" 2>/dev/null && xdotool key ctrl+q
  # GIMP 3.2 then says the image has unsaved changes, after its own
  # filters' tool as well: discard them (Ctrl+D, as its dialog says).
  q=$(window "Quit GIMP" 5) && xdotool windowfocus "$q" 2>/dev/null \
    && xdotool key ctrl+d
  n=0
  while kill -0 "$gimp" 2>/dev/null && [ "$n" -lt 30 ]; do sleep 1; n=$((n + 1)); done
  if kill -0 "$gimp" 2>/dev/null; then
    import -window root "$art/gimp3-no-quit.png" 2>/dev/null
    echo "GIMP 3 did not quit: $art/gimp3-no-quit.png"
    kill "$gimp" 2>/dev/null
  fi
  exit "$1"
}

stem=$(basename "$photo" | sed 's/\.[^.]*$//')
img=$(window "\\[$stem\\]" 180) || { echo "FAIL: GIMP 3 showed no window for $stem"; finish 1; }
sleep 5
xdotool windowmove --sync "$img" 0 0 2>/dev/null
sleep 2
xdotool windowactivate --sync "$img" 2>/dev/null || xdotool windowfocus "$img"
xdotool mousemove 0 0
sleep 1
eval "$(xdotool getwindowgeometry --shell "$img")"
echo "$X $Y $WIDTH $HEIGHT" >"$art/gimp3-canvas.txt"
import -window root "$art/gimp3-before.png" 2>/dev/null

tries=0
dlg=
while [ -z "$dlg" ] && [ "$tries" -lt 3 ]; do
  xdotool windowfocus "$img" 2>/dev/null
  xdotool search --onlyvisible --class . 2>/dev/null | sort >"$art/.shown"
  xdotool key --clearmodifiers slash
  sleep 2
  # The search's own window, new on the screen: without a window manager
  # it has to be given the keyboard.
  popup=$(xdotool search --onlyvisible --class . 2>/dev/null | sort \
            | comm -13 "$art/.shown" - | tail -n 1)
  rm -f "$art/.shown"
  [ -n "$popup" ] && xdotool windowfocus "$popup" 2>/dev/null
  sleep 1
  xdotool type --delay 60 "CUDA Gaussian"
  sleep 2
  xdotool key Return
  dlg=$(window "CUDA Gaussian Blur" 20)
  [ -n "$dlg" ] || xdotool key Escape
  tries=$((tries + 1))
done
[ -n "$dlg" ] || { import -window root "$art/gimp3-no-tool.png" 2>/dev/null
                   echo "FAIL: the filter tool did not open"; finish 1; }
# The tool's dialog out of the way of the canvas, then time to render.
xdotool windowmove "$dlg" 2000 0 2>/dev/null
sleep 8
import -window root "$art/gimp3-filter-tool.png" 2>/dev/null
xdotool windowmove "$dlg" 700 0 2>/dev/null
sleep 2
import -window root "$art/gimp3-filter-tool-dialog.png" 2>/dev/null
echo "filter tool open: window $dlg"
finish 0
