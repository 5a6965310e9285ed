#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Set-up on Debian 12 (GIMP 2.10) or Debian 13 (GIMP 3): installs what is
# missing, builds in _build/, installs into your own folders (GIMP 2.10's
# plug-in folder; GIMP 3's plug-in folder and GEGL's module folder) and
# runs the main job: a Gaussian blur of a real photograph through GIMP in
# batch mode.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
./tools/deps.sh
./autogen.sh >/dev/null
mkdir -p _build
cd _build
# Everything into your own folders: GIMP 2.10's plug-in folder, GIMP 3's
# and GEGL's per-user ones.
../configure --prefix="$HOME/.local" --with-plugindir=user \
  --with-gegl-moduledir=user --with-gimp3-plugindir=user
make -j"$(nproc)"
make install

photo=/usr/lib/python3/dist-packages/skimage/data/astronaut.png
[ -f "$photo" ] || photo="$top/tests/data/astronaut.ppm"
out="$top/_build/astronaut-blurred.png"
if command -v gimp-console-3.0 >/dev/null 2>&1; then
  echo "installed for GIMP 3: the operation in" \
    "${XDG_DATA_HOME:-$HOME/.local/share}/gegl-0.4/plug-ins," \
    "the procedures in ${GIMP3_DIRECTORY:-$HOME/.config/GIMP/3.0}/plug-ins/cudablur"
  gimp-console-3.0 -i --quit --batch-interpreter=plug-in-script-fu-eval -b "
    (let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"$photo\")))
           (d (vector-ref (car (gimp-image-get-selected-drawables img)) 0))
           (device (car (plug-in-cudablur RUN-NONINTERACTIVE img (vector d)
                                          0 8.0 8.0 50.0 2 2.0 0))))
      (gimp-file-save RUN-NONINTERACTIVE img \"$out\")
      (gimp-message (string-append \"cudablur-setup: blurred on the \"
                                   (if (= device 1) \"GPU\" \"CPU\"))))" \
    >"$top/_build/setup-gimp3.log" 2>&1
  grep -o "cudablur-setup: .*" "$top/_build/setup-gimp3.log" \
    || { tail -n 20 "$top/_build/setup-gimp3.log"; exit 1; }
  [ -s "$out" ] || { echo "GIMP 3 wrote no $out"; exit 1; }
  echo "wrote $out"
  echo "Open an image in GIMP 3: Filters > Blur > CUDA Gaussian Blur..."
else
  echo "installed the plug-in into ${GIMP2_DIRECTORY:-$HOME/.config/GIMP/2.10}/plug-ins/cudablur"
  "$top/tools/blur-file.sh" --sigma 8 "$photo" "$out"
  echo "Open it in GIMP with Filters > Blur > CUDA Gaussian Blur..."
fi
