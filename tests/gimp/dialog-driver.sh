#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One dialog case inside Xvfb (see run-dialog-tests.sh): starts GIMP with a
# Script-Fu batch command that opens the dialog, then presses keys.
# Results go to $CUDABLUR_TEST_LOG as PASS/FAIL lines (the helper plug-in
# writes its own there too).
set -u
case=$1
log=$CUDABLUR_TEST_LOG
art=$CUDABLUR_ARTEFACTS
img="$CB_DATA/coffee.ppm"
snap="$CB_TMP/snapshot-$case"
dump="$CB_TMP/dump-$case"
mkdir -p "$dump"
export CUDABLUR_PREVIEW_DUMP="$dump"
export CUDABLUR_DIALOG_DUMP="$CB_TMP/mnemonics-$case.txt"

pass () { echo "PASS: $case: $*" >>"$log"; }
fail () { echo "FAIL: $case: $*" >>"$log"; }
shot () { import -window root "$art/dialog-$case-$1.png" 2>/dev/null; }
now () { date +%s.%N; }
# a - b, and whether a <= b, in seconds (awk: bc may be missing).
minus () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
at_most () { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }

load="(img (car (gimp-file-load RUN-NONINTERACTIVE \"$img\" \"coffee.ppm\")))
      (d (car (gimp-image-get-active-drawable img)))"
snapshot="(plug-in-cudablur-test-snapshot RUN-NONINTERACTIVE img d \"$snap\")"
verify() { # mode sx sy algorithm label
  echo "(plug-in-cudablur-test-verify RUN-NONINTERACTIVE img d \"$snap\" $1 $2 $3 $4 \"$5\")"
}
dialog="(plug-in-cudablur RUN-INTERACTIVE img d 0 5.0 5.0 50.0 2 2.0 0)"
# A 3000x2000 image with detail at every scale (plasma from a fixed seed).
plasma="(big (car (gimp-image-new 3000 2000 RGB)))
        (layer (car (gimp-layer-new big 3000 2000 RGB-IMAGE \"plasma\" 100
                                    LAYER-MODE-NORMAL)))"
plasma_fill="(gimp-image-insert-layer big layer 0 0)
             (plug-in-plasma RUN-NONINTERACTIVE big layer 20261122 2.5)
             (gimp-display-new big)"
fidelity() { # image label
  echo "(plug-in-cudablur-test-preview-fidelity RUN-NONINTERACTIVE $1 \"$dump\" 35.0 \"$2\")"
}

title="CUDA Gaussian Blur"
case $case in
  ok) script="(let* ($load) (gimp-display-new img) $snapshot $dialog
                 $(verify 0 12.0 12.0 1 "dialog OK")
                 (plug-in-cudablur-test-wait-file RUN-NONINTERACTIVE \"$CB_TMP/undone\" 300)
                 $(verify 1 0 0 0 undo) (gimp-quit 1))" ;;
  cancel) script="(let* ($load) (gimp-display-new img) $snapshot $dialog
                     $(verify 1 0 0 0 cancel) (gimp-quit 1))" ;;
  de|fr|es)
    export LANGUAGE=$case LANG=${case}_$(echo "$case" | tr a-z A-Z).UTF-8
    export LC_ALL=$LANG
    case $case in
      de) title="CUDA-Gaußscher Weichzeichner" ;;
      fr) title="Flou gaussien CUDA" ;;
      es) title="Desenfoque gaussiano CUDA" ;;
    esac
    script="(let* ($load) (gimp-display-new img) $dialog (gimp-quit 1))" ;;
  help)
    # A stand-in web browser: GIMP's help opens pages through GIO's
    # default handler for text/html, which records what it was given.
    xdg="$CB_TMP/xdg"
    mkdir -p "$xdg/data/applications" "$xdg/config"
    cat >"$CB_TMP/browser.sh" <<EOF
#!/bin/sh
echo "\$@" >>"$CB_TMP/browser.log"
EOF
    chmod +x "$CB_TMP/browser.sh"
    cat >"$xdg/data/applications/cudablur-test-browser.desktop" <<EOF
[Desktop Entry]
Type=Application
Name=Test browser
Exec=$CB_TMP/browser.sh %u
MimeType=text/html;x-scheme-handler/http;x-scheme-handler/https;
NoDisplay=true
EOF
    printf '[Default Applications]\ntext/html=cudablur-test-browser.desktop\n' \
      >"$xdg/config/mimeapps.list"
    export XDG_DATA_HOME="$xdg/data" XDG_CONFIG_HOME="$xdg/config"
    script="(let* ($load) (gimp-display-new img) $dialog (gimp-quit 1))" ;;
  preview)
    script="(let* ($load) (gimp-display-new img)
              (plug-in-cudablur RUN-INTERACTIVE img d 0 8.0 8.0 50.0 2 2.0 2)
              $(fidelity img "coffee 600x400")
              (let* ($plasma) $plasma_fill
                (plug-in-cudablur RUN-INTERACTIVE big layer 0 8.0 8.0 50.0 2 2.0 2)
                $(fidelity big "plasma 3000x2000"))
              (gimp-image-select-ellipse img CHANNEL-OP-REPLACE 150 100 300 200)
              (plug-in-cudablur RUN-INTERACTIVE img d 0 8.0 8.0 50.0 2 2.0 2)
              $(fidelity img "coffee in an elliptical selection")
              (gimp-quit 1))" ;;
  presets)
    # A preset kept in the profile: choosing it sets every value, OK blurs
    # with them; saving the current values adds a group to the file.
    cat >"$GIMP2_DIRECTORY/cudablur-presets" <<EOF
[Soft portrait]
algorithm=4
std-dev-x=9.5
std-dev-y=9.5
edge-mode=2
blur-space=1
EOF
    script="(let* ($load) (gimp-display-new img) $snapshot $dialog
              (plug-in-cudablur-test-verify-full RUN-NONINTERACTIVE img d
                \"$snap\" 0 9.5 9.5 4 \"preset applied\" 2 1)
              (gimp-quit 1))" ;;
  fits)
    # A 440 x 440 selection on a 1024 x 768 screen, in German (the longest
    # labels): the dialog must fit the screen.
    export LANGUAGE=de LANG=de_DE.UTF-8 LC_ALL=de_DE.UTF-8
    title="CUDA-Gaußscher Weichzeichner"
    script="(let* ((sq (car (gimp-image-new 1000 1000 RGB)))
                   (layer (car (gimp-layer-new sq 1000 1000 RGB-IMAGE \"plasma\" 100
                                               LAYER-MODE-NORMAL))))
              (gimp-image-insert-layer sq layer 0 0)
              (plug-in-plasma RUN-NONINTERACTIVE sq layer 20261127 2.5)
              (gimp-image-select-rectangle sq CHANNEL-OP-REPLACE 100 100 440 440)
              (gimp-display-new sq)
              (plug-in-cudablur RUN-INTERACTIVE sq layer 0 5.0 5.0 50.0 2 2.0 0)
              (gimp-quit 1))" ;;
  responsive)
    # Edge-aware, sigma 200, 10 iterations, on the CPU: at 1:1 the preview
    # blurs about 2000 x 1900 pixels for seconds.  The dialog opens with
    # the last values: a call on a small scratch image stores these.
    script="(let* ($plasma
                   (scratch (car (gimp-image-new 64 64 RGB)))
                   (sl (car (gimp-layer-new scratch 64 64 RGB-IMAGE \"s\" 100
                                            LAYER-MODE-NORMAL))))
              (gimp-image-insert-layer scratch sl 0 0)
              (plug-in-cudablur RUN-NONINTERACTIVE scratch sl 5 200.0 200.0 50.0 10 2.0 2)
              (gimp-image-delete scratch)
              $plasma_fill
              (plug-in-cudablur RUN-INTERACTIVE big layer 5 200.0 200.0 50.0 10 2.0 2)
              (gimp-quit 1))" ;;
esac

gimp --no-splash -d -f -b "$script" >"$CB_TMP/gimp-$case.log" 2>&1 &
gimp_pid=$!

# Generous limits: CI runs on two busy cores, where GIMP has taken over a
# minute to show the dialog; every wait ends as soon as its condition holds.
wait_window () { # title
  win=
  for i in $(seq 1 300); do
    win=$(xdotool search --name "^$1\$" 2>/dev/null | head -n 1)
    [ -n "$win" ] && return 0
    sleep 1
  done
  return 1
}
wait_gone () { # window id
  for i in $(seq 1 300); do
    xdotool getwindowname "$1" >/dev/null 2>&1 || return 0
    sleep 0.2
  done
  return 1
}
# grep -c prints 0 and fails where nothing matches: one number either way.
shown () {
  n=$(grep -c '^shown' "$dump/render.log" 2>/dev/null)
  echo "${n:-0}"
}
wait_shown () { # more than n
  for i in $(seq 1 1500); do
    [ "$(shown)" -gt "$1" ] && return 0
    sleep 0.2
  done
  return 1
}
# Keys, then the next preview.
step () {
  n=$(shown)
  xdotool key --clearmodifiers "$@"
  wait_shown "$n" || fail "no preview after $*"
}

if ! wait_window "$title"; then
  fail "no window titled \"$title\" appeared"
  shot missing
  kill $gimp_pid 2>/dev/null
  exit 1
fi
pass "the dialog \"$title\" opened"
xdotool mousemove 0 0   # no hover highlight in the screenshots
wait_shown 0 || fail "no first preview"
shot opened

case $case in
  ok)
    # Focus starts in the X standard deviation; the chain makes Y follow.
    xdotool key --clearmodifiers ctrl+a
    xdotool type --delay 50 12
    xdotool key Tab
    step alt+a Down   # Algorithm: Automatic -> FIR
    shot changed
    import -window "$win" "$art/dialog-window.png" 2>/dev/null   # the README's
    xdotool key alt+o
    for i in $(seq 1 300); do
      grep -q "dialog OK" "$log" && break
      sleep 1
    done
    sleep 1
    imgwin=$(xdotool search --name "coffee" 2>/dev/null | head -n 1)
    [ -n "$imgwin" ] && xdotool windowfocus "$imgwin"
    sleep 1
    xdotool key ctrl+z
    sleep 2
    shot undone
    touch "$CB_TMP/undone" ;;
  presets)
    step alt+p Down
    shot chosen
    # Another sigma, then the same preset again: it applies again.
    xdotool key --clearmodifiers alt+x ctrl+a
    xdotool type --delay 50 3
    xdotool key Tab
    sleep 1
    step alt+p Down
    shot chosen-again
    # Save: the button after the list, then a name in GIMP's query box
    # (no window manager here: focus goes where it is sent).
    main=$win
    xdotool key Tab space
    if wait_window "Save Preset"; then
      xdotool windowfocus --sync "$win" 2>/dev/null
      xdotool key --clearmodifiers ctrl+a
      xdotool type --delay 30 "Mine"
      shot naming
      xdotool key Return
      for i in $(seq 1 50); do
        grep -q '^\[Mine\]' "$GIMP2_DIRECTORY/cudablur-presets" && break
        sleep 0.2
      done
      if grep -q '^\[Mine\]' "$GIMP2_DIRECTORY/cudablur-presets" \
         && grep -q '^std-dev-x=9.5' "$GIMP2_DIRECTORY/cudablur-presets"; then
        pass "the preset \"Mine\" was saved with the chosen values"
      else
        fail "saving a preset: $(cat "$GIMP2_DIRECTORY/cudablur-presets")"
      fi
    else
      fail "no \"Save Preset\" window"
    fi
    win=$main
    xdotool windowfocus --sync "$win" 2>/dev/null
    xdotool key alt+o
    for i in $(seq 1 300); do
      grep -q "preset applied" "$log" && break
      sleep 1
    done ;;
  help)
    xdotool key F1
    for i in $(seq 1 120); do
      [ -s "$CB_TMP/browser.log" ] && break
      sleep 0.5
    done
    page=$(head -n 1 "$CB_TMP/browser.log" 2>/dev/null)
    page=${page#file://}
    case $page in
      */cudablur/help/en/index.html)
        if [ -f "$page" ]; then pass "Help opened $page"
        else fail "Help opened $page, which does not exist"; fi ;;
      *) fail "Help opened \"$page\", not the plug-in's page" ;;
    esac
    xdotool key Escape ;;
  preview)
    # Every algorithm at fit and two zoom levels in, on each image.
    # The second dialog may get the first one's window id (X reuses a
    # closed client's ids): wait for the first to go, then for a dialog.
    for image in coffee plasma selection; do
      if [ $image != coffee ]; then
        wait_gone "$win" || fail "the first dialog did not close"
        wait_window "$title" || { fail "no second dialog"; shot missing; break; }
      fi
      # RUN-INTERACTIVE opens with the last values (the fidelity check's
      # final renders stored theirs): Reset starts from Automatic.
      step alt+r
      for a in 0 1 2 3 4 5 6; do
        [ $a -gt 0 ] && step alt+a Down
        step ctrl+0
        step ctrl+plus
        step ctrl+plus
      done
      # The edge modes (none, black, white) and the perceptual blur space,
      # back at fit with Automatic.
      step alt+r
      step ctrl+0
      for e in none black white; do
        step alt+e Down
      done
      step alt+b Down
      xdotool key --clearmodifiers alt+s   # split view
      sleep 1
      shot split-$image
      xdotool key Escape
    done ;;
  responsive)
    # 1:1: wait until the long render is handed to the worker (its pixels
    # were read), not until it is shown.
    submits=$(grep -c '^submit' "$dump/render.log")
    xdotool key --clearmodifiers ctrl+1
    for i in $(seq 1 600); do
      [ "$(grep -c '^submit' "$dump/render.log")" -gt "$submits" ] \
        && grep '^submit' "$dump/render.log" | tail -n 1 | grep -q "scale 1 " \
        && break
      sleep 0.1
    done
    # The 1:1 render now runs on the worker; the main loop must still take
    # keys.  The best of three tries, each: type a digit into the sigma
    # field (selected), copy it, read the clipboard back.
    xdotool key --clearmodifiers alt+x
    best=
    for digit in 7 8 9; do
      t0=$(now)
      xdotool key --clearmodifiers ctrl+a
      xdotool type "$digit"
      xdotool key --clearmodifiers ctrl+a ctrl+c
      got=$(timeout 30 xclip -o -selection clipboard 2>/dev/null)
      t1=$(now)
      busy=$(awk '/^submit/ { last = $2 } /^shown/ { done[$2] = 1 }
                  END { print (last in done) ? 0 : 1 }' "$dump/render.log")
      dt=$(minus "$t1" "$t0")
      echo "try $digit: read \"$got\" after $dt s, render running: $busy"
      if [ "$got" = "$digit" ] && [ "$busy" = 1 ]; then
        if [ -z "$best" ] || at_most "$dt" "$best"; then
          best=$dt
        fi
      fi
    done
    shot typing
    if [ -n "$best" ] && at_most "$best" 0.3; then
      pass "a digit typed during a long preview was in the field after $best s"
    else
      fail "typing during a long preview: best ${best:-none} s (at most 0.3)"
    fi
    # GIMP's spin buttons take the first Escape to undo the edit in
    # progress; the next one cancels the dialog.
    xdotool key Escape
    sleep 0.5
    t0=$(now)
    xdotool key Escape
    if wait_gone "$win"; then
      dt=$(minus "$(now)" "$t0")
      if at_most "$dt" 5; then
        pass "Cancel during a long preview closed the dialog in $dt s"
      else
        fail "Cancel during a long preview took $dt s (at most 5)"
      fi
    else
      fail "the dialog did not close during a long preview"
    fi ;;
  fits)
    sleep 2
    eval "$(xdotool getwindowgeometry --shell "$win")"
    screen=$(xdpyinfo 2>/dev/null | awk '/dimensions:/ { print $2 }')
    shot fits
    if [ "$WIDTH" -le 1024 ] && [ "$HEIGHT" -le 740 ]; then
      pass "the dialog is ${WIDTH}x${HEIGHT} on a ${screen:-1024x768} screen"
    else
      fail "the dialog is ${WIDTH}x${HEIGHT}, larger than a ${screen:-1024x768} screen allows"
    fi
    xdotool key Escape ;;
  *)
    xdotool key Escape ;;
esac

for i in $(seq 1 600); do
  kill -0 $gimp_pid 2>/dev/null || break
  sleep 1
done
kill $gimp_pid 2>/dev/null
if [ -s "$CUDABLUR_DIALOG_DUMP" ]; then
  dups=$(cut -f1 "$CUDABLUR_DIALOG_DUMP" | sort | uniq -d)
  if [ -z "$dups" ]; then
    pass "$(wc -l <"$CUDABLUR_DIALOG_DUMP") mnemonics, all different"
  else
    for k in $dups; do
      fail "mnemonic used twice: $(awk -F'\t' -v k="$k" '$1 == k { printf "%s ", $2 }' "$CUDABLUR_DIALOG_DUMP")"
    done
  fi
fi
if grep -q "not available" "$CB_TMP/gimp-$case.log"; then
  fail "GIMP said: $(grep "not available" "$CB_TMP/gimp-$case.log" | head -n 1)"
fi
grep -v -e "theme engine" -e "^$" -e "dbus-launch" "$CB_TMP/gimp-$case.log" >&2
exit 0
