#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the Script-Fu tests of plug-in-cudablur in real GIMP 2.10 (batch
# mode, no display) with the plug-in and the test helper installed into a
# private GIMP2_DIRECTORY.  Called by `make check` (srcdir, builddir set).
set -u
: "${srcdir:=.}"
command -v gimp >/dev/null 2>&1 || { echo "gimp not installed: skipped"; exit 77; }
gimp_env_name=batch
. "$srcdir/tests/gimp/gimp-env.sh"

expected=2
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  expected=0   # a GPU: either device is right
fi
data=$(cd "$srcdir/tests/data" && pwd)
scm=$(cd "$srcdir/tests/gimp" && pwd)/plugin-tests.scm

# No display: RUN-INTERACTIVE must fall back to the last values.
env -u DISPLAY -u WAYLAND_DISPLAY gimp -i -d -f \
  --batch-interpreter=plug-in-script-fu-eval \
  -b "(begin (load \"$scm\") (cudablur-run-tests \"$tmp\" \"$data\" $expected))" \
  -b "(gimp-quit 0)" >"$tmp/log" 2>&1
status=$?
grep -E "PASS:|FAIL:|cudablur:|Calling error|rror" "$tmp/log" \
  | grep -v "Failed to parse tag cache" > "$tmp/summary"
cat "$tmp/summary"

fail=0
[ $status -eq 0 ] || { echo "gimp exited with $status"; fail=1; }
grep -q "FAIL:" "$tmp/summary" && fail=1
grep -Eq "cudablur: [0-9]+ passed, 0 failed" "$tmp/summary" \
  || { echo "the test run did not finish cleanly"; fail=1; }
# Each refused argument is named in the error message GIMP reports.
for arg in "algorithm: 7" "algorithm: -1" "std-dev-x: -1" "std-dev-x: 1501" \
           "std-dev-y: -0.5" "range-sigma: 0" "iterations: 0" \
           "iterations: 11" "kappa: -1" "kappa: 10.5" "device: 3" \
           "device: -1" "drawable: does not belong" "drawable: indexed" \
           "edge-mode: 4" "edge-mode: -1" "blur-space: 2" "blur-space: -1" \
           "because it is a group item" "because its contents are locked" \
           "has not been added to an image" "Not enough memory: blurring"; do
  grep -q "$arg" "$tmp/log" \
    || { echo "FAIL: no calling error naming \"$arg\""; fail=1; }
done

# Last values across sessions: one GIMP session blurs with distinctive
# values and quits; the next, started afresh on the same profile, repeats
# the last values (RUN-WITH-LAST-VALS) on a photograph, which must come out
# as the engine's blur with those values.
gimp -i -d -f --batch-interpreter=plug-in-script-fu-eval -b "
(let* ((img (car (gimp-image-new 64 64 RGB)))
       (l (car (gimp-layer-new img 64 64 RGB-IMAGE \"l\" 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer img l 0 0)
  (plug-in-cudablur RUN-NONINTERACTIVE img l 4 7.25 3.5 50.0 2 2.0 2))" \
  -b "(gimp-quit 0)" >"$tmp/session1.log" 2>&1
gimp -i -d -f --batch-interpreter=plug-in-script-fu-eval -b "
(let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"$data/coffee.ppm\" \"\")))
       (d (car (gimp-image-get-active-drawable img))))
  (plug-in-cudablur-test-snapshot RUN-NONINTERACTIVE img d \"$tmp/restart.snap\")
  (plug-in-cudablur RUN-WITH-LAST-VALS img d 0 0 0 0 0 0 0)
  (let ((r (plug-in-cudablur-test-verify RUN-NONINTERACTIVE img d
              \"$tmp/restart.snap\" 0 7.25 3.5 4 \"last values\")))
    (gimp-message (string-append \"restart: \"
                                 (if (= (car r) 1) \"passed \" \"failed \")
                                 (cadr r)))))" \
  -b "(gimp-quit 0)" >"$tmp/session2.log" 2>&1
line=$(grep "restart: " "$tmp/session2.log" | sed 's/.*restart: //')
case $line in
  passed*) echo "PASS: last values after a restart (deriche 7.25 x 3.5): $line" ;;
  *) echo "FAIL: last values after a restart: ${line:-no result}"
     cat "$tmp/session1.log" "$tmp/session2.log"; fail=1 ;;
esac

[ $fail -eq 0 ] || { echo "--- full GIMP log:"; cat "$tmp/log"; }
exit $fail
