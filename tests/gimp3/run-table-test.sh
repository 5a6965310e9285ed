#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# GIMP 3's procedures expose exactly the parameter table: the test plug-in
# tests/gimp3/table-check.c, run in real GIMP 3 (batch mode, a private
# profile with the build's plug-in and GEGL module), compares what the PDB
# says the procedures take with the table and calls them at each end of
# every row's range.  Called by `make check` where GIMP 3 is.
set -u
: "${srcdir:=.}"
: "${builddir:=.}"
gimp=$("$srcdir/tools/gimp3-program.sh" gimp-console) \
  || { echo "GIMP 3 (gimp-console-3.N) not installed: skipped"; exit 77; }
echo "GIMP 3: $gimp"
top_build=$(cd "$builddir" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudablur-table3.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
export GIMP3_DIRECTORY="$tmp/profile" XDG_DATA_HOME="$tmp/share"
export HOME="$tmp/home" LC_ALL=C.UTF-8 LANGUAGE=C
plugins="$GIMP3_DIRECTORY/plug-ins"
mkdir -p "$plugins/cudablur" "$plugins/cudablur-table-check" \
  "$XDG_DATA_HOME/gegl-0.4/plug-ins" "$HOME" || exit 99
cp "$top_build/gimp3/cudablur" "$plugins/cudablur/" || exit 99
cp "$top_build/tests/gimp3/cudablur-table-check" \
  "$plugins/cudablur-table-check/" || exit 99
cp "$top_build/gegl/cudablur.so" "$XDG_DATA_HOME/gegl-0.4/plug-ins/" || exit 99
timeout 600 "$gimp" -i --quit \
  --batch-interpreter=plug-in-script-fu-eval \
  -b "(plug-in-cudablur-table-check \"$tmp/report\")" >"$tmp/log" 2>&1
status=$?
fail=0
[ $status -eq 0 ] || { echo "$(basename "$gimp") exited with $status"; fail=1; }
if [ -f "$tmp/report" ]; then
  grep "FAIL:" "$tmp/report" && fail=1
  grep -Eq "table-check: [0-9]+ passed, 0 failed" "$tmp/report" \
    || { echo "the table check did not finish cleanly"; fail=1; }
  tail -n 1 "$tmp/report"
else
  echo "no report from the table check"; fail=1
fi
[ $fail -eq 0 ] || { echo "--- GIMP 3's log"; tail -40 "$tmp/log"; }
exit $fail
