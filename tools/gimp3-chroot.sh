#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a command in the Debian 13 root (tools/gimp3-root.sh) with /proc,
# /dev and the source tree (as /src) bound into it; unbinds them after.
#   tools/gimp3-chroot.sh ROOT COMMAND...
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
root=$1
shift
mkdir -p "$root/proc" "$root/dev" "$root/src"
cleanup () {
  for m in "$root/src" "$root/dev/pts" "$root/dev" "$root/proc"; do
    mountpoint -q "$m" && umount -l "$m"
  done
  return 0
}
trap cleanup EXIT INT TERM
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
mountpoint -q "$root/dev" || mount --bind /dev "$root/dev"
mountpoint -q "$root/dev/pts" || mount --bind /dev/pts "$root/dev/pts"
mountpoint -q "$root/src" || mount --bind "$top" "$root/src"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
chroot "$root" "$@"
