#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes (or reuses) a Debian 13 root with GIMP 3 and what building and
# testing the GIMP 3 front end and building its Debian package need, for
# the GIMP 3 tests and tools/build-deb.sh on a Debian 12 host:  tools/gimp3-root.sh [ROOT]   (default: _gimp3-root in the tree).
# Needs root and debootstrap.  /proc and /dev are bound into the root by
# tools/gimp3-chroot.sh while a command runs there.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$top/_gimp3-root}
pkgs="gimp libgimp-3.0-dev libgegl-dev libbabl-dev build-essential
      pkg-config autoconf automake gettext xvfb xauth xdotool imagemagick
      python3-skimage python3-gi gir1.2-gimp-3.0 procps debhelper dbus
      locales"
stamp="$root/.cudablur-root"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$pkgs" ]; then
  echo "gimp3-root: $root is ready"
  exit 0
fi
command -v debootstrap >/dev/null 2>&1 || {
  apt-get update -q && apt-get install -y -q debootstrap; }
if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "gimp3-root: debootstrap trixie into $root"
  rm -rf "$root"
  debootstrap --variant=minbase trixie "$root" http://deb.debian.org/debian >"$top/_gimp3-root.log" 2>&1 \
    || { tail -n 20 "$top/_gimp3-root.log"; exit 1; }
fi
echo "gimp3-root: installing GIMP 3 and the build tools"
# And the locales the GIMP 3 tests show GIMP 3 in (German, French,
# Spanish).
"$top/tools/gimp3-chroot.sh" "$root" sh -c "
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q && apt-get install -y -q --no-install-recommends $(echo $pkgs) &&
  printf '%s.UTF-8 UTF-8\\n' de_DE fr_FR es_ES >>/etc/locale.gen && locale-gen" \
  >>"$top/_gimp3-root.log" 2>&1 || { tail -n 20 "$top/_gimp3-root.log"; exit 1; }
echo "$pkgs" >"$stamp"
echo "gimp3-root: $root is ready"
