#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Set-up on Debian 12: installs what is missing, builds in _build/,
# installs the plug-in into your GIMP 2.10 plug-in folder (or
# $GIMP2_DIRECTORY/plug-ins when that is set) and runs the main job: a
# Gaussian blur of a real photograph through GIMP in batch mode.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
./tools/deps.sh
./autogen.sh >/dev/null
mkdir -p _build
cd _build
plugindir=${GIMP2_DIRECTORY:-$HOME/.config/GIMP/2.10}/plug-ins
../configure --prefix="$HOME/.local" --with-plugindir="$plugindir"
make -j"$(nproc)"
make install
echo "installed the plug-in into $plugindir/cudablur"

photo=/usr/lib/python3/dist-packages/skimage/data/astronaut.png
[ -f "$photo" ] || photo="$top/tests/data/astronaut.ppm"
"$top/tools/blur-file.sh" --sigma 8 "$photo" "$top/_build/astronaut-blurred.png"
echo "Open it in GIMP with Filters > Blur > CUDA Gaussian Blur..."
