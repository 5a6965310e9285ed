#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Prints the path of the GIMP 3 program NAME-3.N that is first on PATH
# (the newest one of the first folder that has any: GIMP 3.2 installs
# gimp-console-3.2, GIMP 3.0 gimp-console-3.0), or exits 1 if none is:
#   tools/gimp3-program.sh [gimp-console|gimp]    (default gimp-console)
# Its version is the name's end: ${path##*-} (3.2), which is also the
# name of GIMP's profile folder, ~/.config/GIMP/3.2.
name=${1:-gimp-console}
IFS=:
for dir in $PATH; do
  newest=$(ls -d "${dir:-.}/$name"-3.[0-9]* 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$newest" ] && [ -x "$newest" ]; then
    echo "$newest"
    exit 0
  fi
done
exit 1
