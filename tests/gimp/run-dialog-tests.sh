#!/bin/sh
# The dialog in real GIMP 2.10 under Xvfb, driven with xdotool:
#   ok     - change sigma to 12 and the algorithm to FIR, press OK: the
#            result equals the engine's FIR blur with those values; then
#            Ctrl+Z in the image window restores the original exactly;
#   cancel - Escape leaves the image unchanged;
#   de     - with LANGUAGE=de the dialog opens with its German title.
# Screenshots go to $CUDABLUR_ARTEFACTS (default tests/artefacts in the
# build tree).  Called by `make check` (srcdir, builddir set).
set -u
: "${srcdir:=.}"
for cmd in gimp xvfb-run xdotool import; do
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
for case in ok cancel de; do
  echo "--- case $case"
  if ! timeout 900 xvfb-run -a -s "-screen 0 1280x1024x24" \
         sh "$driver" "$case" >"$tmp/$case.out" 2>&1; then
    echo "FAIL: case $case did not finish"
    fail=1
  fi
  grep -E "^(PASS|FAIL)" "$tmp/$case.out"
done
echo "--- checks from the helper plug-in"
cat "$CUDABLUR_TEST_LOG"
for want in "PASS: dialog OK" "PASS: undo" "PASS: cancel"; do
  grep -q "^$want" "$CUDABLUR_TEST_LOG" || { echo "FAIL: missing \"$want\""; fail=1; }
done
grep -q "^FAIL" "$CUDABLUR_TEST_LOG" "$tmp"/*.out && fail=1
[ $fail -eq 0 ] || for f in "$tmp"/*.out; do echo "--- $f"; cat "$f"; done
echo "screenshots in $CUDABLUR_ARTEFACTS"
exit $fail
