#!/bin/sh
# Blurs one image file through GIMP in batch mode with plug-in-cudablur:
#   tools/blur-file.sh IN OUT [SIGMA [ALGORITHM [DEVICE]]]
# SIGMA in pixels (default 8), ALGORITHM 0-6 (default 0, auto), DEVICE 0 auto,
# 1 cuda, 2 cpu (default 0).  The plug-in must be installed where GIMP finds
# it (tools/setup.sh does that).  Prints the device that ran the blur.
set -eu
if [ $# -lt 2 ]; then
  sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
in=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
sigma=${3:-8}
algo=${4:-0}
device=${5:-0}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
gimp -i -d -f --batch-interpreter=plug-in-script-fu-eval -b "
(let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"$in\" \"$in\")))
       (d (car (gimp-image-get-active-drawable img)))
       (dev (car (plug-in-cudablur RUN-NONINTERACTIVE img d $algo
                                   $sigma $sigma 50.0 2 2.0 $device))))
  (gimp-image-flatten img)
  (gimp-file-save RUN-NONINTERACTIVE img
                  (car (gimp-image-get-active-drawable img))
                  \"$out\" \"$out\")
  (gimp-image-delete img)
  (gimp-message (string-append \"cudablur device-used \"
                               (number->string dev))))" \
  -b "(gimp-quit 0)" >"$log" 2>&1 || true
if ! grep -q "cudablur device-used" "$log" || [ ! -s "$out" ]; then
  cat "$log" >&2
  echo "blur-file: GIMP did not blur $in" >&2
  exit 1
fi
dev=$(sed -n 's/.*cudablur device-used \([0-9]\).*/\1/p' "$log" | head -n 1)
case $dev in 1) where="the GPU (CUDA)";; *) where="the CPU";; esac
echo "blurred $in with sigma $sigma on $where: $out"
