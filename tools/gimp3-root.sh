#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes (or reuses) a Debian root with GIMP 3 and what building and testing
# the GIMP 3 front end and building its Debian package need, for the GIMP 3
# tests and tools/build-deb.sh on a host that has another GIMP:
#   tools/gimp3-root.sh [RELEASE] [ROOT]
# RELEASE: trixie (Debian 13, GIMP 3.0; the default) or forky (Debian
# testing, GIMP 3.2).  ROOT: by default _gimp3-root in the tree for trixie,
# _gimp3-root-RELEASE for another.  Needs root and debootstrap.  /proc and
# /dev are bound into the root by tools/gimp3-chroot.sh while a command
# runs there.  tools/debian-root.sh makes the bare root.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
release=${1:-trixie}
case $release in
  trixie) root=${2:-$top/_gimp3-root} ;;
  forky) root=${2:-$top/_gimp3-root-$release} ;;
  *) echo "gimp3-root: unknown release $release (trixie, forky)" >&2; exit 2 ;;
esac
pkgs="gimp libgimp-3.0-dev libgegl-dev libbabl-dev build-essential
      pkg-config autoconf automake gettext xvfb xauth xdotool imagemagick
      python3-skimage python3-gi gir1.2-gimp-3.0 procps debhelper dbus gegl
      locales"
stamp="$root/.cudablur-root"
log="$root.log"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$pkgs" ]; then
  echo "gimp3-root: $root ($release) is ready"
  exit 0
fi
if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "gimp3-root: debootstrap $release into $root"
  "$top/tools/debian-root.sh" "$release" "$root" >"$log" 2>&1 \
    || { tail -n 20 "$log"; exit 1; }
  sed -n 's/^debian-root: /gimp3-root: /p' "$log"
fi
echo "gimp3-root: installing GIMP 3 and the build tools"
# And the locales the GIMP 3 tests show GIMP 3 in (German, French,
# Spanish).
"$top/tools/gimp3-chroot.sh" "$root" sh -c "
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q && apt-get install -y -q --no-install-recommends $(echo $pkgs) &&
  printf '%s.UTF-8 UTF-8\\n' de_DE fr_FR es_ES >>/etc/locale.gen && locale-gen" \
  >>"$log" 2>&1 || { tail -n 20 "$log"; exit 1; }
echo "$pkgs" >"$stamp"
version=$("$top/tools/gimp3-chroot.sh" "$root" dpkg-query -W -f '${Version}' gimp)
echo "gimp3-root: $root ($release) is ready: GIMP $version"
