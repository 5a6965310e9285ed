#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# GIMP 2.10's procedures expose exactly the parameter table: the test
# plug-in tests/gimp/table-check.c, run in real GIMP 2.10 (batch mode, a
# private profile), compares what GIMP says the procedures take with the
# table and calls them at each end of every row's range.  Called by
# `make check`.
set -u
: "${srcdir:=.}"
[ "${CUDABLUR_REPEAT_TESTS:-}" = skip ] \
  && { echo "same sources as a build tested before: skipped"; exit 77; }
command -v gimp >/dev/null 2>&1 || { echo "gimp not installed: skipped"; exit 77; }
gimp_env_name=table
. "$srcdir/tests/gimp/gimp-env.sh"
mkdir -p "$GIMP2_DIRECTORY/plug-ins/cudablur-table-check" || exit 99
cp "$top_build/tests/gimp/cudablur-table-check" \
  "$GIMP2_DIRECTORY/plug-ins/cudablur-table-check/" || exit 99
export LANGUAGE=C LC_ALL=C
env -u DISPLAY -u WAYLAND_DISPLAY gimp -i -d -f \
  --batch-interpreter=plug-in-script-fu-eval \
  -b "(plug-in-cudablur-table-check RUN-NONINTERACTIVE \"$tmp/report\")" \
  -b "(gimp-quit 0)" >"$tmp/log" 2>&1
status=$?
fail=0
[ $status -eq 0 ] || { echo "gimp exited with $status"; fail=1; }
if [ -f "$tmp/report" ]; then
  grep "FAIL:" "$tmp/report" && fail=1
  grep -Eq "table-check: [0-9]+ passed, 0 failed" "$tmp/report" \
    || { echo "the table check did not finish cleanly"; fail=1; }
  tail -n 1 "$tmp/report"
else
  echo "no report from the table check"; fail=1
fi
[ $fail -eq 0 ] || { echo "--- GIMP log"; tail -40 "$tmp/log"; }
exit $fail
