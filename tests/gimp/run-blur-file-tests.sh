#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/blur-file.sh in real GIMP 2.10 (batch mode), with the plug-in in a
# private GIMP2_DIRECTORY:
#   - a PNG with transparency keeps its alpha, blurred;
#   - every option reaches the plug-in: the output equals plug-in-cudablur
#     called directly with the same values (pixel for pixel);
#   - several files in one GIMP start, a broken one among them: the others
#     are written, the exit status is 1 and the broken one is named;
#   - JPEG output (no alpha) is flattened and written;
#   - bad options exit 2 with a message.
# Called by `make check` (srcdir, builddir set).
set -u
: "${srcdir:=.}"
[ "${CUDABLUR_REPEAT_TESTS:-}" = skip ] \
  && { echo "same sources as a build tested before: skipped"; exit 77; }
for cmd in gimp convert identify compare; do
  command -v $cmd >/dev/null 2>&1 || { echo "$cmd not installed: skipped"; exit 77; }
done
gimp_env_name=blurfile
. "$srcdir/tests/gimp/gimp-env.sh"
blur=$(cd "$srcdir/tools" && pwd)/blur-file.sh
data=$(cd "$srcdir/tests/data" && pwd)
fail=0
pass () { echo "PASS: $*"; }
bad () { echo "FAIL: $*"; fail=1; }

# An RGBA photograph: astronaut with a transparent left half fading in.
convert "$data/astronaut.ppm" -resize 256x256 \
  \( -size 256x256 gradient:black-white -rotate 90 \) \
  -alpha off -compose copy_opacity -composite "$tmp/rgba.png" || exit 99
convert "$data/coffee.ppm" "$tmp/coffee.png" || exit 99
printf 'not an image' >"$tmp/broken.png"

# 1. Alpha kept, and blurred.
if sh "$blur" --sigma 6 "$tmp/rgba.png" "$tmp/rgba-out.png" >"$tmp/1.log" 2>&1; then
  ch=$(identify -format '%[channels]' "$tmp/rgba-out.png")
  range=$(convert "$tmp/rgba-out.png" -alpha extract -format '%[min] %[max]' info:)
  diff=$(compare -metric AE "$tmp/rgba.png" "$tmp/rgba-out.png" null: 2>&1)
  case $ch in
    *a*) # The gradient's transparency survives (a flattened image would be
         # opaque everywhere) and the pixels changed.
         if [ "${range%% *}" -lt $((${range##* } / 10)) ] \
            && [ "${diff%% *}" -gt 1000 ]; then
           pass "alpha kept ($ch, alpha from ${range% *} to ${range#* }), $diff pixels changed"
         else
           bad "alpha $ch from ${range% *} to ${range#* }, $diff pixels changed"
         fi ;;
    *) bad "alpha lost: channels $ch" ;;
  esac
else
  bad "blur-file on an RGBA PNG: $(cat "$tmp/1.log")"
fi

# 2. Every option reaches the plug-in.
opts="--sigma-x 3.5 --sigma-y 7 --algorithm edge-aware-partitioned
      --range-sigma 30 --iterations 3 --kappa 1.5 --device cpu"
sh "$blur" $opts "$tmp/coffee.png" "$tmp/opts.png" >"$tmp/2.log" 2>&1 \
  || bad "blur-file with every option: $(cat "$tmp/2.log")"
gimp -i -d -f --batch-interpreter=plug-in-script-fu-eval -b "
(let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"$tmp/coffee.png\" \"\")))
       (d (car (gimp-image-get-active-drawable img))))
  (plug-in-cudablur RUN-NONINTERACTIVE img d 6 3.5 7.0 30.0 3 1.5 2)
  (gimp-file-save RUN-NONINTERACTIVE img d \"$tmp/direct.png\" \"\"))" \
  -b "(gimp-quit 0)" >"$tmp/2d.log" 2>&1
ae=$(compare -metric AE "$tmp/opts.png" "$tmp/direct.png" null: 2>&1)
same=$(compare -metric AE "$tmp/coffee.png" "$tmp/opts.png" null: 2>&1)
if [ "$ae" = 0 ] && [ "${same%% *}" -gt 1000 ]; then
  pass "options: equal to the direct call ($same pixels blurred)"
else
  bad "options: $ae pixels differ from the direct call, $same changed"
fi

# 3. Many files in one start, one of them broken.
mkdir -p "$tmp/many"
cp "$tmp/coffee.png" "$tmp/a.png"
cp "$tmp/rgba.png" "$tmp/b.png"
sh "$blur" -s 4 -o "$tmp/many" "$tmp/a.png" "$tmp/broken.png" "$tmp/b.png" \
  >"$tmp/3.log" 2>&1
status=$?
starts=$(grep -c "^blurred on" "$tmp/3.log")
if [ $status = 1 ] && [ -s "$tmp/many/a.png" ] && [ -s "$tmp/many/b.png" ] \
   && [ ! -e "$tmp/many/broken.png" ] && [ "$starts" = 2 ] \
   && grep -q "broken.png" "$tmp/3.log"; then
  pass "three files, one broken: two written, status 1, the broken one named"
else
  bad "many files: status $status, $starts written: $(cat "$tmp/3.log")"
fi

# 4. JPEG output.
if sh "$blur" -s 2 "$tmp/rgba.png" "$tmp/out.jpg" >"$tmp/4.log" 2>&1 \
   && [ "$(identify -format '%m' "$tmp/out.jpg" 2>/dev/null)" = JPEG ]; then
  pass "JPEG written from an RGBA source"
else
  bad "JPEG: $(cat "$tmp/4.log")"
fi

# 5. Bad usage.
for args in "--sigma x a b" "--algorithm nine a b" "--device gpu a b" \
            "--frobnicate a b" "only-one"; do
  sh "$blur" $args >"$tmp/5.log" 2>&1
  status=$?
  if [ $status = 2 ] && [ -s "$tmp/5.log" ]; then
    pass "\"$args\": exit 2, $(head -n 1 "$tmp/5.log")"
  else
    bad "\"$args\": exit $status"
  fi
done
exit $fail
