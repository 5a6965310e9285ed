#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Blurs image files through GIMP in batch mode with plug-in-cudablur, all
# of them in one GIMP start.
#
#   tools/blur-file.sh [OPTIONS] IN OUT
#   tools/blur-file.sh [OPTIONS] --out-dir DIR IN...
#
# Options (defaults in brackets):
#   -s, --sigma S          both standard deviations, in pixels [8]
#       --sigma-x S        horizontal standard deviation
#       --sigma-y S        vertical standard deviation
#   -a, --algorithm A      auto, fir, yvrg, yvrg-two-way, deriche,
#                          edge-aware, edge-aware-partitioned, or 0-6 [auto]
#       --range-sigma R    edge-aware range sigma, 0-255 scale [50]
#       --iterations N     edge-aware iterations [2]
#       --kappa K          edge-aware partitioned block overlap [2]
#   -d, --device D         auto, cuda or cpu, or 0-2 [auto]
#   -o, --out-dir DIR      write each IN as DIR/its file name
#       --gimp V           2.10 or 3: which GIMP runs the blur [3 where
#                          a GIMP 3 is installed (gimp-console-3.N, the
#                          newest of the first folder on PATH that has
#                          one), else 2.10]
#   -h, --help
#
# The file's active layer (GIMP 3: its selected layers) is blurred, within
# a saved selection if the file has one.  Transparency is kept where the
# output format has it (PNG, TIFF, WebP, XCF...); formats without alpha
# (JPEG, BMP, PNM) get the image flattened onto the background colour
# first.  The format follows OUT's extension.  The plug-in must be
# installed where GIMP finds it (tools/setup.sh does that).  Prints one
# line per file with the device that ran its blur; exits 1 if any file
# failed, 2 on bad usage.
set -eu

usage () {
  sed -n '2,/^set -eu/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  exit "${1:-2}"
}

die () { echo "blur-file: $*" >&2; exit 2; }

number () { # name value: a plain decimal number or die
  case $2 in
    ''|*[!0-9.eE+-]*) die "$1: \"$2\" is not a number" ;;
  esac
  printf '%s' "$2"
}

sx=8 sy=8 algo=0 range=50 iterations=2 kappa=2 device=0 outdir=
gimp_version=
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage 0 ;;
    -s|--sigma) sx=$(number sigma "${2-}"); sy=$sx; shift ;;
    --sigma-x) sx=$(number sigma-x "${2-}"); shift ;;
    --sigma-y) sy=$(number sigma-y "${2-}"); shift ;;
    -a|--algorithm)
      case ${2-} in
        auto|0) algo=0 ;; fir|1) algo=1 ;; yvrg|2) algo=2 ;;
        yvrg-two-way|3) algo=3 ;; deriche|4) algo=4 ;;
        edge-aware|5) algo=5 ;; edge-aware-partitioned|6) algo=6 ;;
        *) die "algorithm: \"${2-}\" is not one of auto, fir, yvrg, yvrg-two-way, deriche, edge-aware, edge-aware-partitioned" ;;
      esac; shift ;;
    --range-sigma) range=$(number range-sigma "${2-}"); shift ;;
    --iterations) iterations=$(number iterations "${2-}"); shift ;;
    --kappa) kappa=$(number kappa "${2-}"); shift ;;
    -d|--device)
      case ${2-} in
        auto|0) device=0 ;; cuda|1) device=1 ;; cpu|2) device=2 ;;
        *) die "device: \"${2-}\" is not one of auto, cuda, cpu" ;;
      esac; shift ;;
    --gimp)
      case ${2-} in
        2|2.10|3|3.*) gimp_version=${2%%.*} ;;
        *) die "gimp: \"${2-}\" is not 2.10 or 3" ;;
      esac; shift ;;
    -o|--out-dir) outdir=${2-}; [ -n "$outdir" ] || die "--out-dir needs a folder"; shift ;;
    --) shift; break ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) break ;;
  esac
  shift
done

# A path made absolute and quoted for Scheme.
scheme_path () {
  p=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  printf '"%s"' "$(printf '%s' "$p" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}

jobs=
count=0
if [ -n "$outdir" ]; then
  [ $# -ge 1 ] || usage
  mkdir -p "$outdir"
  for in in "$@"; do
    [ -f "$in" ] || die "no such file: $in"
    jobs="$jobs ($(scheme_path "$in") $(scheme_path "$outdir/$(basename "$in")"))"
    count=$((count + 1))
  done
else
  [ $# -eq 2 ] || usage
  [ -f "$1" ] || die "no such file: $1"
  jobs="($(scheme_path "$1") $(scheme_path "$2"))"
  count=1
fi

# GIMP 3.N's console, first on PATH: GIMP 3.0 has gimp-console-3.0, 3.2
# gimp-console-3.2.
gimp3=$(IFS=:
  for dir in $PATH; do
    newest=$(ls -d "${dir:-.}"/gimp-console-3.[0-9]* 2>/dev/null | sort -V | tail -n 1)
    [ -n "$newest" ] && [ -x "$newest" ] && { echo "$newest"; break; }
  done
  :)
if [ -z "$gimp_version" ]; then
  if [ -n "$gimp3" ]; then gimp_version=3; else gimp_version=2; fi
fi
case $gimp_version in
  3) [ -n "$gimp3" ] || die "GIMP 3 (gimp-console-3.N) is not installed" ;;
  *) command -v gimp >/dev/null 2>&1 || die "GIMP 2.10 (gimp) is not installed" ;;
esac

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# One GIMP start for every file; a file that fails is reported and the
# others go on (catch).  Formats without alpha get the image flattened.
common="
(define (string-suffix? s n)
  (and (>= (string-length n) (string-length s))
       (string=? s (substring n (- (string-length n) (string-length s))
                              (string-length n)))))
(define (cudablur-no-alpha? name)
  (let ((n (string-downcase name)))
    (or (string-suffix? \".jpg\" n) (string-suffix? \".jpeg\" n)
        (string-suffix? \".bmp\" n) (string-suffix? \".ppm\" n)
        (string-suffix? \".pgm\" n) (string-suffix? \".pnm\" n))))
(define (cudablur-done dev out)
  (gimp-message (string-append \"cudablur-done \" (number->string dev)
                               \" \" out)))"
loop="
(for-each
  (lambda (job)
    (if (not (catch #f (begin (cudablur-one (car job) (cadr job)) #t)))
        (gimp-message (string-append \"cudablur-failed \" (car job)))))
  '($jobs))"
if [ "$gimp_version" = 3 ]; then
  "$gimp3" -i -d -f --quit --batch-interpreter=plug-in-script-fu-eval -b "
$common
(define (cudablur-one in out)
  (let* ((img (car (gimp-file-load RUN-NONINTERACTIVE in)))
         (dev (car (plug-in-cudablur
                     #:run-mode RUN-NONINTERACTIVE #:image img
                     #:drawables (car (gimp-image-get-selected-drawables img))
                     #:algorithm $algo #:std-dev-x $sx #:std-dev-y $sy
                     #:range-sigma $range #:iterations $iterations
                     #:kappa $kappa #:device $device))))
    (if (cudablur-no-alpha? out)
        (gimp-image-flatten img)
        (if (> (vector-length (car (gimp-image-get-layers img))) 1)
            (gimp-image-merge-visible-layers img CLIP-TO-IMAGE)))
    (gimp-file-save RUN-NONINTERACTIVE img out)
    (gimp-image-delete img)
    (cudablur-done dev out)))
$loop" >"$log" 2>&1 || true
else
  gimp -i -d -f --batch-interpreter=plug-in-script-fu-eval -b "
$common
(define (cudablur-one in out)
  (let* ((img (car (gimp-file-load RUN-NONINTERACTIVE in in)))
         (d (car (gimp-image-get-active-drawable img)))
         (dev (car (plug-in-cudablur RUN-NONINTERACTIVE img d $algo
                                     $sx $sy $range $iterations $kappa
                                     $device))))
    (if (cudablur-no-alpha? out)
        (gimp-image-flatten img)
        (if (> (car (gimp-image-get-layers img)) 1)
            (gimp-image-merge-visible-layers img CLIP-TO-IMAGE)))
    (gimp-file-save RUN-NONINTERACTIVE img
                    (car (gimp-image-get-active-drawable img)) out out)
    (gimp-image-delete img)
    (cudablur-done dev out)))
$loop" \
    -b "(gimp-quit 0)" >"$log" 2>&1 || true
fi

done=$(grep -c "cudablur-done" "$log" || true)
grep "cudablur-done" "$log" | sed 's/.*cudablur-done \([0-9]\) \(.*\)$/\1 \2/' |
  while read -r dev out; do
    case $dev in 1) where="the GPU (CUDA)" ;; *) where="the CPU" ;; esac
    echo "blurred on $where: $out"
  done
if [ "$done" -ne "$count" ]; then
  grep -v -e "cudablur-done" -e "theme engine" "$log" >&2 || true
  echo "blur-file: $((count - done)) of $count files were not blurred" >&2
  exit 1
fi
