#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes a minimal Debian root with debootstrap, for tools/gimp3-root.sh and
# the package tests (tools/test-deb.sh):
#   tools/debian-root.sh RELEASE ROOT [MIRROR]
# A release newer than this debootstrap knows (Debian 12's has no forky)
# is made with the script of sid, which any Debian release since 12 has.
# A testing release's Release file is valid for a week and mirrors or
# snapshots can serve one past that date; apt in such a root is told not to
# check it (and says so here), so that the root can still be made and
# updated.  debootstrap runs once per release and day: its bare root is
# kept in _debootstrap/RELEASE in the tree and copied for the next root
# of that release (the GIMP 3 root, then the package tests' fresh one),
# unless MIRROR differs or the copy is a day old.  Needs root.
set -eu
release=${1:?usage: debian-root.sh RELEASE ROOT [MIRROR]}
root=${2:?usage: debian-root.sh RELEASE ROOT [MIRROR]}
mirror=${3:-http://deb.debian.org/debian}
command -v debootstrap >/dev/null 2>&1 || {
  apt-get update -q && apt-get install -y -q debootstrap; }
top=$(cd "$(dirname "$0")/.." && pwd)
base=$top/_debootstrap/$release
rm -rf "$root"
if [ -f "$base/.cudablur-base" ] && [ "$(cat "$base/.cudablur-base")" = "$mirror" ] \
   && [ -n "$(find "$base/.cudablur-base" -mmin -1440)" ]; then
  echo "debian-root: $root: a copy of $release's bare root of $(date -r "$base/.cudablur-base" '+%Y-%m-%d %H:%M') ($base)"
  cp -a "$base" "$root"
  rm -f "$root/.cudablur-base"
else
  scripts=/usr/share/debootstrap/scripts
  script=
  [ -e "$scripts/$release" ] || script=$scripts/sid
  debootstrap --variant=minbase "$release" "$root" "$mirror" $script
  # Kept before anything is bound into or installed in the root.
  rm -rf "$base" "$base.new"
  mkdir -p "$(dirname "$base")"
  cp -a "$root" "$base.new" && echo "$mirror" >"$base.new/.cudablur-base" \
    && mv "$base.new" "$base"
fi
# The Release file debootstrap checked: its Valid-Until, if it has one.
until=$(sed -n 's/^Valid-Until: //p' "$root"/var/lib/apt/lists/*_Release 2>/dev/null | head -n 1)
if [ -n "$until" ] && [ "$(date -d "$until" +%s)" -lt "$(date +%s)" ]; then
  echo "debian-root: $mirror serves $release's Release valid until $until only: apt in $root will not check that date"
  echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99valid-until"
fi
