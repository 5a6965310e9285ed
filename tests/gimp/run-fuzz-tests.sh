#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Fuzzes plug-in-cudablur through the PDB in real GIMP 2.10 (batch mode,
# no display): tests/gimp/fuzz.scm, CUDABLUR_FUZZ_CALLS random calls
# (default 400) from the seed CUDABLUR_FUZZ_SEED (default fixed, printed
# either way; set it to repeat a run).  Called by `make check`.
set -u
: "${srcdir:=.}"
[ "${CUDABLUR_REPEAT_TESTS:-}" = skip ] \
  && { echo "same sources as a build tested before: skipped"; exit 77; }
command -v gimp >/dev/null 2>&1 || { echo "gimp not installed: skipped"; exit 77; }
gimp_env_name=fuzz
. "$srcdir/tests/gimp/gimp-env.sh"
seed=${CUDABLUR_FUZZ_SEED:-20261122}
calls=${CUDABLUR_FUZZ_CALLS:-400}
echo "fuzz: seed $seed (CUDABLUR_FUZZ_SEED), $calls calls"
data=$(cd "$srcdir/tests/data" && pwd)
dir=$(cd "$srcdir/tests/gimp" && pwd)
env -u DISPLAY -u WAYLAND_DISPLAY gimp -i -d -f \
  --batch-interpreter=plug-in-script-fu-eval \
  -b "(begin (load \"$dir/plugin-tests.scm\") (load \"$dir/fuzz.scm\")
             (cudablur-fuzz \"$tmp\" \"$data\" $seed $calls))" \
  -b "(gimp-quit 0)" >"$tmp/log" 2>&1
status=$?
fail=0
[ $status -eq 0 ] || { echo "gimp exited with $status"; fail=1; }
grep "FAIL:" "$tmp/log" && fail=1
grep -Eq "fuzz: [0-9]+ passed, 0 failed" "$tmp/log" \
  || { echo "the fuzz run did not finish cleanly"; fail=1; }
if grep -Eiq "crashed|terminated|segmentation|AddressSanitizer" "$tmp/log"; then
  echo "a process crashed:"; grep -Ei "crashed|terminated|segmentation" "$tmp/log"
  fail=1
fi
grep -E "fuzz:" "$tmp/log"
[ $fail -eq 0 ] || { echo "--- GIMP log (tail)"; tail -60 "$tmp/log"; }
exit $fail
