#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# GIMP 2.10's GUI under Xvfb, used as a user uses it (quit-driver.sh): the
# filter from Filters > Blur, then Ctrl+Q.  Fails when GIMP crashes or
# hangs on the way out.  Cases, each a fresh GIMP on one profile:
#   ok           - OK with sigma 33 and the FIR filter; then a new batch
#                  session repeats the last values, which must be those;
#   cancel       - the dialog cancelled;
#   repeat       - OK, then Filters > Repeat and Filters > Re-show;
#   killed       - OK, then the resident process is killed (GIMP removes
#                  its procedures then, as at quit), then Repeat;
#   no-resident  - OK with CUDABLUR_NO_RESIDENT set.
# Screenshots go to $CUDABLUR_ARTEFACTS.  Called by `make check`.
set -u
: "${srcdir:=.}"
# tools/test.sh runs the GUI suites once, in its first build.
[ "${CUDABLUR_GUI_TESTS:-}" = skip ] && { echo "GUI tests skipped here"; exit 77; }
for cmd in gimp xvfb-run xdotool import pgrep; do
  command -v $cmd >/dev/null 2>&1 || { echo "$cmd not installed: skipped"; exit 77; }
done
gimp_env_name=quit
. "$srcdir/tests/gimp/gimp-env.sh"
export CUDABLUR_TEST_LOG="$tmp/results.log"
export CUDABLUR_ARTEFACTS="${CUDABLUR_ARTEFACTS:-$top_build/tests/artefacts}"
mkdir -p "$CUDABLUR_ARTEFACTS"
export CB_TMP="$tmp"
export CB_DATA=$(cd "$srcdir/tests/data" && pwd)
# The menu is driven by its English mnemonics and window titles.
export LANGUAGE=en LC_ALL=C.UTF-8 LANG=C.UTF-8
driver=$(cd "$srcdir/tests/gimp" && pwd)/quit-driver.sh
: > "$CUDABLUR_TEST_LOG"

run_case () { # case [env...]
  c=$1
  shift
  echo "--- case $c"
  if ! env "$@" timeout 900 xvfb-run -a -s "-screen 0 1280x1024x24" \
         sh "$driver" "$c" >"$tmp/$c.out" 2>&1; then
    echo "FAIL: quit $c: the case did not finish" >>"$CUDABLUR_TEST_LOG"
  fi
}

run_case ok
# The values set in the dialog were saved when GIMP quit: a new session
# repeats them (RUN-WITH-LAST-VALS) on the photograph.
gimp -i -d -f --batch-interpreter=plug-in-script-fu-eval -b "
(let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"$CB_DATA/coffee.ppm\" \"\")))
       (d (car (gimp-image-get-active-drawable img))))
  (plug-in-cudablur-test-snapshot RUN-NONINTERACTIVE img d \"$tmp/restart.snap\")
  (plug-in-cudablur RUN-WITH-LAST-VALS img d 0 0 0 0 0 0 0)
  (let ((r (plug-in-cudablur-test-verify RUN-NONINTERACTIVE img d
              \"$tmp/restart.snap\" 0 33.0 33.0 1 \"last values\")))
    (gimp-message (string-append \"restart: \"
                                 (if (= (car r) 1) \"passed \" \"failed \")
                                 (cadr r)))))" \
  -b "(gimp-quit 0)" >"$tmp/restart.log" 2>&1
line=$(grep "restart: " "$tmp/restart.log" | sed 's/.*restart: //')
case $line in
  passed*) echo "PASS: quit ok: the dialog's values survived the restart: $line" ;;
  *) echo "FAIL: quit ok: the dialog's values after the restart: ${line:-no result}"
     cat "$tmp/restart.log" ;;
esac >>"$CUDABLUR_TEST_LOG"
run_case cancel
run_case repeat
run_case killed
run_case no-resident CUDABLUR_NO_RESIDENT=1

echo "--- results"
cat "$CUDABLUR_TEST_LOG"
fail=0
for want in "quit ok: GIMP quit cleanly" "quit ok: the dialog's values survived" \
            "quit cancel: GIMP quit cleanly" "quit repeat: Filters > Re-show opened" \
            "quit repeat: GIMP quit cleanly" "quit killed: GIMP survived" \
            "quit killed: GIMP quit cleanly" "quit no-resident: GIMP quit cleanly"; do
  grep -q "^PASS: $want" "$CUDABLUR_TEST_LOG" || { echo "FAIL: missing \"$want\""; fail=1; }
done
grep -q "^FAIL" "$CUDABLUR_TEST_LOG" && fail=1
[ $fail -eq 0 ] || for f in "$tmp"/*.out "$tmp"/gimp-quit-*.log; do
  [ -f "$f" ] && { echo "--- $f"; grep -v 'Gtk-WARNING\|^$' "$f" | tail -n 40; }
done
echo "screenshots in $CUDABLUR_ARTEFACTS"
exit $fail
