#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The dialog in real GIMP 2.10 under Xvfb, driven with xdotool
# (dialog-driver.sh):
#   ok         - change sigma to 12 and the algorithm to FIR, press OK: the
#                result equals the engine's FIR blur with those values;
#                then Ctrl+Z in the image window restores the original;
#   cancel     - Escape leaves the image unchanged;
#   de, fr, es - the dialog opens with its translated title;
#   help       - F1 opens the plug-in's own help page (a stand-in browser
#                records it);
#   presets    - a preset in the profile, chosen, sets every value and OK
#                blurs with them; Save adds the current values under a
#                name;
#   preview    - every algorithm at fit and two zoom levels in, on a
#                600x400 photograph, a 3000x2000 image and the photograph
#                with an elliptical selection: each preview within 35 dB
#                PSNR of the final result at its scale;
#   fits       - German, a 440 x 440 selection on a 1024 x 768 screen:
#                the dialog fits;
#   responsive - during a long 1:1 preview a typed digit reaches the sigma
#                field within 0.3 s, and Cancel stops the render.
# Every case also checks that the dialog's mnemonics are all different.
# Screenshots go to $CUDABLUR_ARTEFACTS (default tests/artefacts in the
# build tree).  Called by `make check` (srcdir, builddir set).
set -u
: "${srcdir:=.}"
# tools/test.sh runs the GUI suites once, in its first build.
[ "${CUDABLUR_GUI_TESTS:-}" = skip ] && { echo "GUI tests skipped here"; exit 77; }
for cmd in gimp xvfb-run xdotool xclip import; do
  command -v $cmd >/dev/null 2>&1 || { echo "$cmd not installed: skipped"; exit 77; }
done
gimp_env_name=dialog
. "$srcdir/tests/gimp/gimp-env.sh"
export CUDABLUR_TEST_LOG="$tmp/results.log"
export CUDABLUR_ARTEFACTS="${CUDABLUR_ARTEFACTS:-$top_build/tests/artefacts}"
mkdir -p "$CUDABLUR_ARTEFACTS"
export CB_TMP="$tmp"
export CB_DATA=$(cd "$srcdir/tests/data" && pwd)
driver=$(cd "$srcdir/tests/gimp" && pwd)/dialog-driver.sh
: > "$CUDABLUR_TEST_LOG"

fail=0
for case in ${CUDABLUR_DIALOG_CASES:-ok cancel de fr es help presets preview fits responsive}; do
  echo "--- case $case"
  screen=1280x1024x24
  [ "$case" = fits ] && screen=1024x768x24
  if ! timeout 1500 xvfb-run -a -s "-screen 0 $screen" \
         sh "$driver" "$case" >"$tmp/$case.out" 2>&1; then
    echo "FAIL: case $case did not finish"
    fail=1
  fi
done
echo "--- results"
cat "$CUDABLUR_TEST_LOG"
for want in "PASS: dialog OK" "PASS: undo" "PASS: cancel" \
            "PASS: help: Help opened" "PASS: preset applied" \
            "PASS: presets: the preset" "PASS: preview fidelity coffee" \
            "PASS: preview fidelity plasma" \
            "PASS: preview fidelity coffee in an elliptical selection" \
            "PASS: responsive: a digit" "PASS: fits: the dialog is"; do
  case " ${CUDABLUR_DIALOG_CASES:-all} " in
    *" all "*) ;;
    *) continue ;;   # a subset of the cases was asked for
  esac
  grep -q "^$want" "$CUDABLUR_TEST_LOG" || { echo "FAIL: missing \"$want\""; fail=1; }
done
grep -q "^FAIL" "$CUDABLUR_TEST_LOG" && fail=1
[ $fail -eq 0 ] || for f in "$tmp"/*.out; do echo "--- $f"; cat "$f"; done
echo "screenshots in $CUDABLUR_ARTEFACTS"
exit $fail
