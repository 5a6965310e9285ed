#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a command in a Debian root (tools/gimp3-root.sh's, or a package
# test's) with /proc, /dev and the source tree (as /src) bound into it;
# unbinds them after.  With CUDABLUR_ROOT_CUDA=1, /usr/local/cuda too
# (nvcc, for building the CUDA backend there).
#   tools/gimp3-chroot.sh ROOT|RELEASE COMMAND...
# RELEASE (trixie, forky) names tools/gimp3-root.sh's root of that release.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
case $1 in
  trixie) root=$top/_gimp3-root ;;
  forky) root=$top/_gimp3-root-$1 ;;
  *) root=$1 ;;
esac
shift
[ -x "$root/bin/sh" ] || { echo "gimp3-chroot: $root is not a Debian root" >&2; exit 2; }
mkdir -p "$root/proc" "$root/dev" "$root/src"
cleanup () {
  for m in "$root/usr/local/cuda" "$root/src" "$root/dev/pts" "$root/dev" "$root/proc"; do
    mountpoint -q "$m" && umount -l "$m"
  done
  return 0
}
trap cleanup EXIT INT TERM
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
mountpoint -q "$root/dev" || mount --bind /dev "$root/dev"
mountpoint -q "$root/dev/pts" || mount --bind /dev/pts "$root/dev/pts"
mountpoint -q "$root/src" || mount --bind "$top" "$root/src"
if [ "${CUDABLUR_ROOT_CUDA:-0}" = 1 ] && [ -d /usr/local/cuda/bin ]; then
  mkdir -p "$root/usr/local/cuda"
  mountpoint -q "$root/usr/local/cuda" \
    || mount --bind -o ro "$(readlink -f /usr/local/cuda)" "$root/usr/local/cuda"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
chroot "$root" "$@"
