#!/bin/sh
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
           "because it is a group item" "because its contents are locked" \
           "has not been added to an image" "Not enough memory: blurring"; do
  grep -q "$arg" "$tmp/log" \
    || { echo "FAIL: no calling error naming \"$arg\""; fail=1; }
done
[ $fail -eq 0 ] || { echo "--- full GIMP log:"; cat "$tmp/log"; }
exit $fail
