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
# updated.  Needs root.
set -eu
release=${1:?usage: debian-root.sh RELEASE ROOT [MIRROR]}
root=${2:?usage: debian-root.sh RELEASE ROOT [MIRROR]}
mirror=${3:-http://deb.debian.org/debian}
command -v debootstrap >/dev/null 2>&1 || {
  apt-get update -q && apt-get install -y -q debootstrap; }
scripts=/usr/share/debootstrap/scripts
script=
[ -e "$scripts/$release" ] || script=$scripts/sid
rm -rf "$root"
debootstrap --variant=minbase "$release" "$root" "$mirror" $script
# The Release file debootstrap checked: its Valid-Until, if it has one.
until=$(sed -n 's/^Valid-Until: //p' "$root"/var/lib/apt/lists/*_Release 2>/dev/null | head -n 1)
if [ -n "$until" ] && [ "$(date -d "$until" +%s)" -lt "$(date +%s)" ]; then
  echo "debian-root: $mirror serves $release's Release valid until $until only: apt in $root will not check that date"
  echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99valid-until"
fi
