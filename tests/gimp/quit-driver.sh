#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One quit case inside Xvfb (see run-quit-tests.sh): GIMP's GUI opens a
# photograph, the filter is used from Filters > Blur as a user uses it,
# then GIMP is quit with Ctrl+Q (discarding the changes).  GIMP must exit
# with status 0, print no crash and leave no file in its CrashLog folder.
# Results go to $CUDABLUR_TEST_LOG as PASS/FAIL lines.
set -u
case=$1
log=$CUDABLUR_TEST_LOG
art=$CUDABLUR_ARTEFACTS
img="$CB_DATA/coffee.ppm"
glog="$CB_TMP/gimp-quit-$case.log"
crashdir="$GIMP2_DIRECTORY/CrashLog"

pass () { echo "PASS: quit $case: $*" >>"$log"; }
fail () { echo "FAIL: quit $case: $*" >>"$log"; }
shot () { import -window root "$art/quit-$case-$1.png" 2>/dev/null; }

# The resident process and the plug-in's own processes: the executable
# GIMP runs from the private profile.
plugin_pids () { pgrep -f "$GIMP2_DIRECTORY/plug-ins/cudablur/cudablur" ; }
count_plugin () { plugin_pids | wc -l; }

# Waits until no process of ours but the resident (if any) is left, two
# polls in a row.
wait_idle () { # resident count
  calm=0
  for i in $(seq 1 600); do
    if [ "$(count_plugin)" -le "$1" ]; then
      calm=$((calm + 1))
      [ $calm -ge 2 ] && return 0
    else
      calm=0
    fi
    sleep 0.5
  done
  return 1
}

find_window () { # regex, seconds
  for i in $(seq 1 "$2"); do
    w=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -n 1)
    [ -n "$w" ] && { echo "$w"; return 0; }
    sleep 1
  done
  return 1
}

gone () { # window id, seconds
  for i in $(seq 1 "$2"); do
    xdotool getwindowname "$1" >/dev/null 2>&1 || return 0
    sleep 1
  done
  return 1
}

image_window () { find_window '\[coffee\]' 300; }

focus_image () {
  w=$(image_window) || return 1
  xdotool windowfocus --sync "$w" 2>/dev/null || xdotool windowfocus "$w"
  sleep 0.3
}

# Filters > Blur > CUDA Gaussian Blur...: two presses of G reach it past
# GIMP's own Gaussian Blur, which shares its mnemonic.  On a busy machine a
# menu can open after its keys were sent: when no plug-in process starts
# within 20 s, the menus are closed and the keys sent again (3 tries).
open_from_menu () {
  dlg=
  for try in 1 2 3; do
    focus_image || { fail "no image window"; return 1; }
    xdotool key alt+r
    sleep 2
    xdotool key b
    sleep 2
    xdotool key g
    sleep 1
    xdotool key g
    sleep 1
    shot menu
    xdotool key Return
    for i in $(seq 1 20); do
      [ "$(count_plugin)" -gt "$resident_count" ] && break
      dlg=$(find_window '^CUDA Gaussian Blur$' 1) && break
    done
    if [ -n "$dlg" ] || [ "$(count_plugin)" -gt "$resident_count" ]; then
      break
    fi
    xdotool key Escape Escape Escape
    sleep 2
  done
  [ -n "$dlg" ] || dlg=$(find_window '^CUDA Gaussian Blur$' 300) \
    || { fail "the menu entry opened no dialog"; shot nodialog; return 1; }
  pass "the dialog opened from Filters > Blur"
  sleep 2
}

# sigma 33 and the FIR filter in the dialog, then OK; waits until the
# image is blurred (its title shows the unsaved change).
apply_in_dialog () {
  xdotool windowfocus "$dlg" 2>/dev/null
  xdotool key --clearmodifiers ctrl+a
  xdotool type --delay 50 33
  xdotool key Tab
  sleep 0.5
  xdotool key alt+a Down
  sleep 1
  shot dialog
  xdotool key alt+o
  gone "$dlg" 120 || { fail "the dialog stayed open after OK"; return 1; }
  find_window '^\*\[coffee\]' 300 >/dev/null \
    || { fail "OK left the image unchanged"; return 1; }
  wait_idle "$resident_count"
  pass "OK blurred the image"
}

cancel_dialog () {
  xdotool windowfocus "$dlg" 2>/dev/null
  xdotool key Escape
  gone "$dlg" 120 || { fail "Escape left the dialog open"; return 1; }
  wait_idle "$resident_count"
}

quit_gimp () {
  focus_image || { fail "no image window to quit from"; return 1; }
  xdotool key ctrl+q
  # With unsaved changes GIMP asks; Ctrl+D discards them and quits.
  q=$(find_window '^Quit GIMP$' 20)
  if [ -n "$q" ]; then
    shot quit-dialog
    xdotool windowfocus "$q" 2>/dev/null
    sleep 0.3
    xdotool key ctrl+d
  fi
  for i in $(seq 1 180); do
    kill -0 "$gimp_pid" 2>/dev/null || break
    sleep 1
  done
  if kill -0 "$gimp_pid" 2>/dev/null; then
    fail "GIMP had not exited 180 s after Ctrl+Q"
    shot stuck
    kill -9 "$gimp_pid"
  fi
  wait "$gimp_pid"
  status=$?
  # A crashed GIMP leaves its crash reporter's window open.
  pkill -f "gimp-debug-tool.* $gimp_pid " 2>/dev/null
  crashes=$(ls "$crashdir" 2>/dev/null | wc -l)
  if [ "$status" -eq 0 ] && [ "$crashes" -eq 0 ] \
     && ! grep -qiE 'fatal error|segmentation fault|stack trace' "$glog"; then
    pass "GIMP quit cleanly"
  else
    fail "GIMP exited with status $status, $crashes crash logs; its output:"
    grep -iE 'fatal|segmentation|error' "$glog" | head -n 5 >>"$log"
  fi
}

rm -rf "$crashdir"
resident_count=1
[ -n "${CUDABLUR_NO_RESIDENT:-}" ] && resident_count=0
gimp --no-splash "$img" >"$glog" 2>&1 &
gimp_pid=$!
image_window >/dev/null || { fail "GIMP showed no image window"; shot start; kill -9 $gimp_pid; exit 1; }
xdotool mousemove 0 0
# GIMP starts the resident while it starts itself; wait for it.
for i in $(seq 1 120); do
  [ "$(count_plugin)" -ge "$resident_count" ] && break
  sleep 1
done
wait_idle "$resident_count"

case $case in
  ok|no-resident)
    open_from_menu && apply_in_dialog ;;
  cancel)
    open_from_menu && cancel_dialog && pass "Cancel closed the dialog" ;;
  repeat)
    # Filters > Repeat (Ctrl+F) runs again with the last values, then
    # Filters > Re-show (Shift+Ctrl+F) opens the dialog, cancelled.
    open_from_menu && apply_in_dialog && focus_image && {
      xdotool key ctrl+f
      sleep 2
      wait_idle "$resident_count"
      pass "Filters > Repeat ran"
      focus_image
      xdotool key shift+ctrl+f
      dlg=$(find_window '^CUDA Gaussian Blur$' 300) \
        || fail "Filters > Re-show opened no dialog"
      [ -n "$dlg" ] && pass "Filters > Re-show opened the dialog" \
        && cancel_dialog
    } ;;
  killed)
    # The resident dies after a menu call (GIMP removes its procedures
    # then, as at quit); Repeat still works, in a process of its own.
    open_from_menu && apply_in_dialog && {
      pids=$(plugin_pids)
      [ -n "$pids" ] && kill -9 $pids
      sleep 3
      if kill -0 "$gimp_pid" 2>/dev/null; then
        pass "GIMP survived the resident's death"
      else
        fail "GIMP died with the resident"
      fi
      resident_count=0
      focus_image && xdotool key ctrl+f
      sleep 2
      wait_idle 0
      pass "Filters > Repeat ran without the resident"
    } ;;
esac
shot before-quit
kill -0 "$gimp_pid" 2>/dev/null && quit_gimp
exit 0
