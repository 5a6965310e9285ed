#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Inside Xvfb (run-filter-tool-test.sh): GIMP 3's GUI (GIMP: the path of
# its gimp-3.N) opens PHOTO, in the language of the environment, and the filter is opened as a user finds
# it: Filters > Blur by the menus' mnemonics (KEYS, e.g. "r w Right c":
# Alt+the first, then each other key, the Blur menu taken before the
# last), else GIMP's action search ("/", then "cudablur").  Then the
# screen is taken with the filter tool open (the canvas's preview), the
# dialog shown, an edge-aware algorithm chosen and left again, Device set
# to CUDA, the Algorithm tooltip shown, the algorithm list open; OK
# applies it, Undo takes it back and GIMP is quit.
#   filter-tool-driver.sh GIMP PHOTO ARTEFACTS LOG KEYS
# Writes into ARTEFACTS: gimp3-before.png, gimp3-blur-menu.png,
# gimp3-filter-tool.png (the canvas), gimp3-filter-tool-dialog.png,
# gimp3-algorithm-list.png, gimp3-edge-aware.png, gimp3-edge-aware-left.png,
# gimp3-device-cuda.png, gimp3-algorithm-tooltip.png; gimp3-canvas.txt
# (the image window: X Y W H), gimp3-dialog.txt (how the dialog was
# opened, its window's name, and its height before, with and after the
# edge-aware rows); exits 1 when a window does not appear.
set -u
gimp_program=$1 photo=$2 art=$3 log=$4 keys=$5
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

shot () {
  import -window root "$art/$1" 2>/dev/null
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
  q=$(window "Quit GIMP|GIMP beenden" 5) && xdotool windowfocus "$q" 2>/dev/null \
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

# The windows new on the screen since $art/.shown was written.
new_windows () {
  xdotool search --onlyvisible --class . 2>/dev/null | sort \
    | comm -13 "$art/.shown" -
}

height () {
  xdotool getwindowgeometry --shell "$1" 2>/dev/null | sed -n 's/^HEIGHT=//p'
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
shot gimp3-before.png

# Filters > Blur > ours, by the mnemonics: Alt+first, then the others.
set -- $keys
xdotool windowfocus "$img" 2>/dev/null
xdotool key --clearmodifiers "alt+$1"
shift
while [ $# -gt 1 ]; do
  sleep 2
  xdotool key "$1"
  shift
done
sleep 2
shot gimp3-blur-menu.png
xdotool key "$1"
opened=mnemonics
dlg=$(window "cudablur:gaussian-blur" 20)
tries=0
while [ -z "$dlg" ] && [ "$tries" -lt 3 ]; do
  opened=search
  xdotool key --clearmodifiers Escape Escape Escape
  xdotool windowfocus "$img" 2>/dev/null
  xdotool search --onlyvisible --class . 2>/dev/null | sort >"$art/.shown"
  xdotool key --clearmodifiers slash
  tries=$((tries + 1))
  # The search's own window, new on the screen: without a window manager
  # it has to be given the keyboard.  Typed into the image window, the
  # query would be tool shortcuts: a busy GIMP may take seconds.
  popup= n=0
  while [ -z "$popup" ] && [ "$n" -lt 30 ]; do
    sleep 1
    popup=$(new_windows | tail -n 1)
    n=$((n + 1))
  done
  [ -n "$popup" ] || continue
  xdotool windowfocus "$popup" 2>/dev/null
  sleep 1
  xdotool type --delay 60 "cudablur:gaussian"
  sleep 2
  xdotool key Return
  dlg=$(window "cudablur:gaussian-blur" 60)
  [ -n "$dlg" ] || xdotool key Escape
done
rm -f "$art/.shown"
[ -n "$dlg" ] || { shot gimp3-no-tool.png
                   echo "FAIL: the filter tool did not open"; finish 1; }
echo "opened $opened" >"$art/gimp3-dialog.txt"
echo "name $(xdotool getwindowname "$dlg")" >>"$art/gimp3-dialog.txt"
# The tool's dialog out of the way of the canvas, then time to render.
xdotool windowmove "$dlg" 2000 0 2>/dev/null
sleep 8
shot gimp3-filter-tool.png
xdotool windowmove --sync "$dlg" 700 0 2>/dev/null
sleep 2
shot gimp3-filter-tool-dialog.png
eval "$(xdotool getwindowgeometry --shell "$dlg")"
dx=$X dy=$Y dw=$WIDTH
echo "height-before $HEIGHT" >>"$art/gimp3-dialog.txt"

# A combo box of the dialog, by its row's centre (pixels from the dialog's
# top): opened with a click for the screen and closed with another on the
# choice it shows, which its list puts there; its value stepped with the
# mouse wheel over it (in GIMP 3.2 a key in its list reaches the dialog
# too, where Return is OK).
open_combo () {
  xdotool mousemove $((dx + dw / 2)) $((dy + $1)) click 1
  sleep 2
}
close_combo () {
  xdotool mousemove $((dx + dw / 2)) $((dy + $1)) click 1
  sleep 1
}
# $2 steps down the list (negative: up), then the mouse out of the way.
step_combo () {
  xdotool mousemove $((dx + dw / 2)) $((dy + $1))
  sleep 1
  if [ "$2" -gt 0 ]; then xdotool click --repeat "$2" --delay 300 5
  else xdotool click --repeat $((-$2)) --delay 300 4; fi
  xdotool mousemove 0 1100
  sleep 6
}

# The rows, in the dialog's layout: the header, Presets, Algorithm, Size
# X and Y, the three edge-aware rows, then Device.
algorithm_row=86
device_row=255
# Down to "Keep edges (edge-aware)", the sixth choice, and back.
step_combo "$algorithm_row" 5
shot gimp3-edge-aware.png
echo "height-edge-aware $(height "$dlg")" >>"$art/gimp3-dialog.txt"
step_combo "$algorithm_row" -5
shot gimp3-edge-aware-left.png
echo "height-after $(height "$dlg")" >>"$art/gimp3-dialog.txt"
# Device: CUDA, the second choice.
step_combo "$device_row" 1
shot gimp3-device-cuda.png
# The Algorithm row's tooltip: the choices in the list's words.
xdotool mousemove $((dx + 60)) $((dy + algorithm_row))
sleep 3
shot gimp3-algorithm-tooltip.png
xdotool mousemove 0 1100

# The algorithm list, open.  Under Xvfb with no window manager, GIMP 3.2
# ends the filter tool when a list closes (applying it); 3.0 does not.
open_combo "$algorithm_row"
shot gimp3-algorithm-list.png
close_combo "$algorithm_row"
# OK, the dialog's last button (GIMP keeps these settings as the last
# used), then Undo.
if xdotool search --onlyvisible --name "cudablur:gaussian-blur" >/dev/null 2>&1; then
  dh=$(height "$dlg")
  xdotool mousemove $((dx + dw - 30)) $((dy + dh - 20)) click 1
  sleep 5
fi
shot gimp3-applied.png
xdotool windowfocus "$img" 2>/dev/null
xdotool key --clearmodifiers ctrl+z
sleep 2
echo "filter tool open: window $dlg"
finish 0
