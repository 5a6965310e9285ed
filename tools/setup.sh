#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Set-up on Debian 12 (GIMP 2.10) or Debian 13 and later (GIMP 3.0, 3.2):
# installs what is missing, builds in _build/, installs into your own
# folders (GIMP 2.10's plug-in folder; the plug-in folder of the GIMP 3.N
# that is installed and GEGL's module folder) and runs the main job: a
# Gaussian blur of a real photograph through GIMP in batch mode.
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
# Where make install put each front end, as configure chose.
installed () { sed -n "s/^$1 = //p" "$top/_build/Makefile"; }
gimp3=$("$top/tools/gimp3-program.sh" gimp-console) || gimp3=
if [ -n "$gimp3" ] && [ -n "$(installed gimp3plugindir)" ]; then
  echo "installed for GIMP ${gimp3##*-}: the operation in" \
    "$(installed geglmoduledir), the procedures in $(installed gimp3plugindir)"
  "$gimp3" -i --quit --batch-interpreter=plug-in-script-fu-eval -b "
    (let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"$photo\")))
           (d (vector-ref (car (gimp-image-get-selected-drawables img)) 0))
           (device (car (plug-in-cudablur #:run-mode RUN-NONINTERACTIVE
                                          #:image img #:drawables (vector d)
                                          #:std-dev-x 8.0 #:std-dev-y 8.0))))
      (gimp-file-save RUN-NONINTERACTIVE img \"$out\")
      (gimp-message (string-append \"cudablur-setup: blurred on the \"
                                   (if (= device 1) \"GPU\" \"CPU\"))))" \
    >"$top/_build/setup-gimp3.log" 2>&1
  grep -o "cudablur-setup: .*" "$top/_build/setup-gimp3.log" \
    || { tail -n 20 "$top/_build/setup-gimp3.log"; exit 1; }
  [ -s "$out" ] || { echo "GIMP 3 wrote no $out"; exit 1; }
  echo "wrote $out"
  echo "Open an image in GIMP ${gimp3##*-}: Filters > Blur > CUDA Gaussian Blur..."
elif [ -n "$(installed plugindir)" ]; then
  echo "installed for GIMP 2.10: the plug-in in $(installed plugindir)"
  "$top/tools/blur-file.sh" --gimp 2.10 --sigma 8 "$photo" "$out"
  echo "Open it in GIMP with Filters > Blur > CUDA Gaussian Blur..."
else
  echo "setup: built no front end for an installed GIMP (see _build/config.log)" >&2
  exit 1
fi
