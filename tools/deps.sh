#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs, on Debian 12 (GIMP 2.10) or Debian 13 and later (GIMP 3),
# whatever the build, the front ends, the tests and the packages need and
# is missing.  Runs apt-get only when something is missing.
set -e
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
# The GIMP this system has, or else the one apt offers (a testing release
# has no VERSION_ID to go by): GIMP 3's development files for 2.99 and
# later, GIMP 2.10's before.
gimp_version () {
  dpkg-query -W -f='${Status} ${Version}\n' gimp 2>/dev/null \
    | sed -n 's/^install ok installed //p'
}
candidate () {
  apt-cache policy gimp 2>/dev/null | sed -n 's/^ *Candidate: //p' | grep -v none
}
version=$(gimp_version)
[ -n "$version" ] || version=$(candidate) \
  || { $SUDO apt-get update -q >/dev/null; version=$(candidate); } \
  || { echo "deps: apt offers no gimp package" >&2; exit 1; }
if dpkg --compare-versions "$version" ge 2.99; then
  # Script-Fu reaches GIMP's procedures through introspection; the filter
  # tool's test runs GIMP's GUI in a D-Bus session.
  GIMP_PKGS="libgimp-3.0-dev gimp gir1.2-gimp-3.0 dbus"
else
  GIMP_PKGS="libgimp2.0-dev gimp"
fi
PKGS="build-essential autoconf automake pkg-config gettext
      $GIMP_PKGS libgegl-dev libbabl-dev gegl
      xvfb xauth xdotool xclip x11-apps x11-utils procps imagemagick
      python3-skimage python3-pil
      locales
      debhelper lintian debootstrap"
missing=
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
    || missing="$missing $p"
done
if [ -z "$missing" ]; then
  echo "deps: every package is installed"
else
  echo "deps: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends $missing
fi
# The dialog tests open the dialog in German, French and Spanish.
for loc in de_DE fr_FR es_ES; do
  if ! locale -a 2>/dev/null | grep -qi "^$loc\.utf-\{0,1\}8\$"; then
    echo "deps: generating the $loc.UTF-8 locale"
    echo "$loc.UTF-8 UTF-8" | $SUDO tee -a /etc/locale.gen >/dev/null
    generate=1
  fi
done
[ -z "${generate:-}" ] || $SUDO locale-gen >/dev/null
