#!/bin/sh
# Installs, on Debian 12, whatever the build, the plug-in and the tests need
# and is missing.  Runs apt-get only when something is missing.
set -e
PKGS="build-essential autoconf automake pkg-config gettext
      libgimp2.0-dev libgegl-dev libbabl-dev gimp
      xvfb xauth xdotool x11-apps imagemagick python3-skimage python3-pil"
missing=
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
    || missing="$missing $p"
done
if [ -z "$missing" ]; then
  echo "deps: everything is installed"
  exit 0
fi
echo "deps: installing$missing"
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends $missing
