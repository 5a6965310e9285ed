#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# GIMP 3's batch tests (tests.scm): the procedures and the operation in
# real GIMP 3, with the plug-in and the GEGL module from the build tree in
# a private profile; each saved result is then checked by check_blur
# against the engine and a double-precision convolution.  Also: every bad
# argument is refused with a calling error naming it.  Called by `make
# check` where GIMP 3 is (Debian 13 or later, or tools/gimp3-root.sh's
# roots through tools/test.sh), with the GIMP 3.N first on PATH.
set -u
: "${srcdir:=.}"
: "${builddir:=.}"
gimp=$("$srcdir/tools/gimp3-program.sh" gimp-console) \
  || { echo "no gimp-console-3.N installed: skipped"; exit 77; }
echo "GIMP 3: $gimp ($("$gimp" --version | awk '{ print $NF }'))"
top_build=$(cd "$builddir" && pwd)
data=$(cd "$srcdir/tests/data" && pwd)
scm=$(cd "$srcdir/tests/gimp3" && pwd)/tests.scm
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudablur-gimp3.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
export GIMP3_DIRECTORY="$tmp/profile" XDG_DATA_HOME="$tmp/share"
export HOME="$tmp/home" LC_ALL=C.UTF-8 LANGUAGE=en
mkdir -p "$GIMP3_DIRECTORY/plug-ins/cudablur" "$XDG_DATA_HOME/gegl-0.4/plug-ins" \
  "$HOME" "$tmp/out" || exit 99
cp "$top_build/gimp3/cudablur" "$GIMP3_DIRECTORY/plug-ins/cudablur/" || exit 99
cp "$top_build/gegl/cudablur.so" "$XDG_DATA_HOME/gegl-0.4/plug-ins/" || exit 99

timeout 1200 "$gimp" -i --quit --batch-interpreter=plug-in-script-fu-eval \
  -b "(begin (load \"$scm\") (cudablur3-run-tests \"$tmp/out\" \"$data\"))" \
  -b "(gimp-quit 0)" >"$tmp/log" 2>&1
status=$?
fail=0
[ $status -eq 0 ] || { echo "FAIL: $gimp exited with $status"; fail=1; }
grep -q "cudablur3: cases written" "$tmp/log" \
  || { echo "FAIL: the GIMP 3 script did not finish"; fail=1; }
passed=0
failed=0
while read -r name rest; do
  "$top_build/tests/gegl/check_blur" "$name" $rest >"$tmp/check"
  status=$?
  tee -a "$tmp/checks" <"$tmp/check"
  if [ $status -eq 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
done <"$tmp/out/manifest.txt"
[ $((passed + failed)) -ge 26 ] \
  || { echo "FAIL: only $((passed + failed)) of 26 cases were saved"; fail=1; }
[ "$failed" -eq 0 ] || fail=1
if grep -q "xcf: filters after opening: 1" "$tmp/log"; then
  echo "PASS: gimp3 xcf: the filter was still on the layer after saving and opening the .xcf"
else
  echo "FAIL: gimp3 xcf: $(grep 'xcf: filters' "$tmp/log")"; fail=1
fi
# Each refused argument is named in the calling error GIMP reports.
for arg in "algorithm: 9" "std-dev-x: -1" "std-dev-y: 1501" "range-sigma: 0" \
           "iterations: 11" "kappa: 10.5" "device: 3" "edge-mode: 4" \
           "blur-space: 2"; do
  if grep -q "refused: .*$arg" "$tmp/log"; then
    echo "PASS: gimp3 calling error names \"$arg\""
  else
    echo "FAIL: gimp3 no calling error naming \"$arg\""; fail=1
  fi
done
# Every call of ours is named but case-positional's; what GIMP says of
# that one (3.0.4, 3.2: the form is deprecated), and nothing of the others.
positional=$(grep -c "Please use named arguments: (plug-in-cudablur" "$tmp/log")
if [ "$positional" -le 1 ] && grep -q "PASS: positional" "$tmp/checks"; then
  echo "PASS: gimp3 positional arguments still run; GIMP says:" \
    "$(grep -B1 "Please use named arguments: (plug-in-cudablur" "$tmp/log" \
       | head -n 1 | sed 's/^.*WARNING \*\*: [0-9:.]*: //')"
else
  echo "FAIL: gimp3 positional arguments: $positional warnings, $(grep ': positional' "$tmp/checks")"
  fail=1
fi
# tools/blur-file.sh through GIMP 3: two files in one start, each equal to
# the engine's blur with the options given; a broken file is named and
# makes the exit status 1.
blur=$(cd "$srcdir/tools" && pwd)/blur-file.sh
printf 'not an image' >"$tmp/broken.png"
sh "$blur" --gimp 3 --sigma 5 --algorithm deriche --device cpu \
  --out-dir "$tmp/bf" "$data/coffee.ppm" "$data/astronaut.ppm" \
  "$tmp/broken.png" >"$tmp/bf.log" 2>&1
bf_status=$?
for f in coffee astronaut; do
  if grep -q "blurred on the CPU: .*/$f.ppm" "$tmp/bf.log" \
     && "$top_build/tests/gegl/check_blur" "blur-file-$f" "$data/$f.ppm" \
          "$tmp/bf/$f.ppm" 4 5 5 50 2 2 0 0 -; then
    passed=$((passed + 1))
  else
    echo "FAIL: blur-file $f: $(cat "$tmp/bf.log")"; fail=1
  fi
done
if [ $bf_status -eq 1 ] && grep -q "1 of 3 files were not blurred" "$tmp/bf.log" \
   && grep -q "cudablur-failed .*broken.png" "$tmp/bf.log"; then
  echo "PASS: gimp3 blur-file names the broken file and exits 1"
else
  echo "FAIL: gimp3 blur-file with a broken file: status $bf_status"; fail=1
fi

# A blur that cannot be done (GB_HOST_FAULT=alloc: the engine's work image
# is not allocated): plug-in-cudablur fails with the reason, GIMP shows
# the operation's message, and both drawables are left as they were.
mkdir -p "$tmp/fail" || exit 99
fscm=$(cd "$srcdir/tests/gimp3" && pwd)/failure.scm
GB_HOST_FAULT=alloc timeout 600 "$gimp" -i --quit \
  --batch-interpreter=plug-in-script-fu-eval \
  -b "(begin (load \"$scm\") (load \"$fscm\")
             (cudablur3-run-failure \"$tmp/fail\" \"$data\"))" \
  -b "(begin (load \"$scm\") (load \"$fscm\")
             (cudablur3-fail-uncaught \"$data\"))" \
  -b "(gimp-quit 0)" >"$tmp/fail.log" 2>&1
while read -r name rest; do
  if "$top_build/tests/gegl/check_blur" "$name" $rest; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); fail=1
  fi
done <"$tmp/fail/manifest.txt"
why="could not be done: out of memory. The drawable is left as it was"
if grep -q "failure: plug-in-cudablur-full failed" "$tmp/fail.log" \
   && grep -q "$why" "$tmp/fail.log"; then
  echo "PASS: gimp3 failure: plug-in-cudablur-full failed: $(grep -o "The blur[^.]*$why" "$tmp/fail.log" | head -n 1)"
else
  echo "FAIL: gimp3 failure: plug-in-cudablur-full did not fail with the reason"
  fail=1
fi
# GIMP 3.0 prints the message as a warning, 3.2 as a message.
shown="GEGL-\(WARNING\|Message\): CUDA Gaussian Blur could not blur the image: out of memory"
if grep -q "failure: the merge returned" "$tmp/fail.log" \
   && grep -qi "$shown" "$tmp/fail.log"; then
  echo "PASS: gimp3 failure: a plain merge left the drawable and GIMP showed: $(grep -i "$shown" "$tmp/fail.log" | head -n 1)"
else
  echo "FAIL: gimp3 failure: no message from the operation in GIMP's log"
  fail=1
fi

# Warnings of ours (the plug-in's process, the operation in GIMP's) or a
# crash of GIMP.  Not counted: GIMP 3.0.4's own PNG exporter's criticals
# on 16-bit images, and libgimp's complaint when GIMP has closed the pipe
# of a plug-in that returned a calling error.
ours='^\(cudablur:[0-9]+\)|cudablur:gaussian-blur:|fatal error|[Ss]egmentation'
reported=$(grep -E "$ours" "$tmp/log" | grep -v "gimp_flush(): error: Broken pipe")
if [ -n "$reported" ]; then
  echo "FAIL: GIMP 3 reported:"
  echo "$reported" | head -n 5
  fail=1
fi
cp "$tmp/log" "$top_build/tests/gimp3/gimp3-batch.log" 2>/dev/null
cp "$tmp/fail.log" "$top_build/tests/gimp3/gimp3-failure.log" 2>/dev/null
[ $fail -eq 0 ] || { echo "--- GIMP 3's log"; grep -v "Gtk-WARNING\|^$" "$tmp/log" | tail -n 60; }
echo "gimp3: $passed cases passed, $failed failed"
exit $fail
