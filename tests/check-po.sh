#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The translations are complete and valid: msgfmt -c accepts each catalogue
# with every message translated (none fuzzy or missing), and each covers
# every message the sources have now (msgcmp against a fresh template).
set -u
: "${srcdir:=.}"
command -v msgfmt >/dev/null 2>&1 || { echo "msgfmt not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$srcdir" && xgettext --from-code=UTF-8 --keyword=_ --keyword=N_ \
   --keyword=GB_N_ -f po/POTFILES.in -o "$tmp/fresh.pot") || exit 99
fail=0
for lang in $(sed -e 's/#.*//' "$srcdir/po/LINGUAS"); do
  po="$srcdir/po/$lang.po"
  stats=$(LC_ALL=C msgfmt -c --statistics -o /dev/null "$po" 2>&1) \
    || { echo "FAIL: msgfmt -c rejects $lang.po: $stats"; fail=1; continue; }
  case $stats in
    *fuzzy*|*untranslated*) echo "FAIL: $lang.po incomplete: $stats"; fail=1 ;;
    *) echo "PASS: $lang.po: $stats" ;;
  esac
  msgcmp "$po" "$tmp/fresh.pot" 2>"$tmp/cmp" \
    || { echo "FAIL: $lang.po lacks messages:"; cat "$tmp/cmp"; fail=1; }
done
exit $fail
