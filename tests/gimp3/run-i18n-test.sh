#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# GIMP 3 in German with the procedures and the operation as make install
# puts them (into a DESTDIR, as the Debian package is made; copied from
# there into a private profile's and user's folders with what lies beside
# them), in batch mode: each has its catalogue beside it, plug-in-cudablur
# blurs a layer and refuses a bad standard deviation with the catalogue's
# German calling error, and no start of the procedures makes libgimp
# refuse our catalogue ("The catalog directory set by set_i18n() is not
# relative", "Localization disabled").  Called by `make check` where GIMP
# 3 is.
set -u
: "${srcdir:=.}"
: "${builddir:=.}"
console=$("$srcdir/tools/gimp3-program.sh" gimp-console) \
  || { echo "no gimp-console-3.N installed: skipped"; exit 77; }
top_build=$(cd "$builddir" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudablur-i18n3.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
export GIMP3_DIRECTORY="$tmp/profile" XDG_DATA_HOME="$tmp/share"
export HOME="$tmp/home" LANGUAGE=de LANG=de_DE.UTF-8 LC_ALL=de_DE.UTF-8
locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\{0,1\}8$' \
  || { echo "FAIL: no de_DE.UTF-8 locale (tools/gimp3-root.sh makes it)"; exit 1; }
plugin="$GIMP3_DIRECTORY/plug-ins/cudablur"
modules="$XDG_DATA_HOME/gegl-0.4/plug-ins"
mkdir -p "$plugin" "$modules" "$HOME" || exit 99
${MAKE:-make} -C "$top_build" install DESTDIR="$tmp/dest" >"$tmp/install.log" 2>&1 \
  || { echo "FAIL: make install"; tail -n 20 "$tmp/install.log"; exit 1; }
so=$(find "$tmp/dest" -path '*/gegl-0.4/cudablur.so' | head -n 1)
exe=$(find "$tmp/dest" -path '*/3.0/plug-ins/cudablur/cudablur' | head -n 1)
[ -n "$so" ] && [ -n "$exe" ] \
  || { echo "FAIL: make install put no module or no procedures"; exit 1; }
fail=0
for lang in $(sed -e 's/#.*//' "$srcdir/po/LINGUAS"); do
  for mo in "$(dirname "$so")/cudablur/locale/$lang/LC_MESSAGES/gimp-cudablur.mo" \
            "$(dirname "$exe")/locale/$lang/LC_MESSAGES/gimp-cudablur.mo"; do
    [ -f "$mo" ] || { echo "FAIL: make install put no ${mo#$tmp/dest}"; fail=1; }
  done
done
[ $fail -eq 0 ] && echo "PASS: make install put the catalogues beside the module and the procedures"
cp "$so" "$modules/" && cp -R "$(dirname "$so")/cudablur" "$modules/" \
  && cp -R "$(dirname "$exe")/." "$plugin/" || exit 99

image='(img (car (gimp-image-new 64 48 RGB)))
       (layer (car (gimp-layer-new img "l" 64 48 RGB-IMAGE 100 LAYER-MODE-NORMAL)))'
call () {
  echo "(let* ($image) (gimp-image-insert-layer img layer 0 0)
          (gimp-drawable-fill layer FILL-WHITE)
          (plug-in-cudablur #:run-mode RUN-NONINTERACTIVE #:image img
                            #:drawables (vector layer) #:std-dev-x $1)
          (gimp-message (string-append \"cudablur-i18n: \" \"$1\" \" blurred\")))"
}
# The refused call last: it fails its batch command (GIMP prints why) and
# GIMP stops there, with a failure status.
timeout 300 "$console" -i --quit --batch-interpreter=plug-in-script-fu-eval \
  -b "$(call 4.0)" -b "$(call -3.0)" >"$tmp/log" 2>&1
status=$?
[ $status -lt 124 ] \
  || { echo "FAIL: $console ended with $status"; fail=1; }
if grep -q "cudablur-i18n: 4.0 blurred" "$tmp/log" \
   && ! grep -q "cudablur-i18n: -3.0 blurred" "$tmp/log"; then
  echo "PASS: plug-in-cudablur blurred in German, and refused -3"
else
  echo "FAIL: plug-in-cudablur did not blur, or took -3"; fail=1
fi
# The catalogue's message, independently of the plug-in.
format=$(TEXTDOMAINDIR="$top_build/po" gettext gimp-cudablur '%s: %g is not from %g to %g')
want=$(printf "$format" std-dev-x -3 0 1500)
if [ "$format" = '%s: %g is not from %g to %g' ]; then
  echo "FAIL: the catalogue has no German for the calling error"; fail=1
elif grep -qF "$want" "$tmp/log"; then
  echo "PASS: the calling error in German: $want"
else
  echo "FAIL: no calling error \"$want\""; fail=1
fi
if grep -E "set_i18n|Localization disabled|catalog directory" "$tmp/log"; then
  echo "FAIL: libgimp refused the procedures' catalogue"; fail=1
else
  echo "PASS: libgimp took the procedures' catalogue"
fi
[ $fail -eq 0 ] || { echo "--- GIMP 3's log"; tail -n 30 "$tmp/log"; }
exit $fail
