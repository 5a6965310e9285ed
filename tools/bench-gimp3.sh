#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# GIMP 3's whole-call benchmark: in one GIMP 3 session (gimp-console-3.0 on
# PATH), ours -- the operation through gimp-drawable-merge-new-filter, on
# the default device and on the CPU, and plug-in-cudablur -- against GIMP
# 3's own gegl:gaussian-blur at the same sigma and against the floor of
# any filter, the merge of a trivial point operation (gegl:invert-gamma),
# on 3840x2160 and 6000x4000 RGB 8-bit photographs (coffee, scaled), the
# median of 3 calls each; prints a table with the ratios.
#   BUILD=DIR [PHOTO=FILE] tools/bench-gimp3.sh [SIGMAS...]   (default 10 50)
# DIR holds gegl/cudablur.so and gimp3/cudablur (a build tree).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${BUILD:-$top/_build-gimp3}" && pwd)
sigmas=${*:-10 50}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudablur-bench3.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export GIMP3_DIRECTORY="$tmp/profile" XDG_DATA_HOME="$tmp/share" HOME="$tmp/home"
mkdir -p "$GIMP3_DIRECTORY/plug-ins/cudablur" "$XDG_DATA_HOME/gegl-0.4/plug-ins" "$HOME"
cp "$build/gimp3/cudablur" "$GIMP3_DIRECTORY/plug-ins/cudablur/"
cp "$build/gegl/cudablur.so" "$XDG_DATA_HOME/gegl-0.4/plug-ins/"
# A GEGL module path of the environment (a relocated GIMP) still gets ours.
[ -n "${GEGL_PATH:-}" ] && export GEGL_PATH="$GEGL_PATH:$XDG_DATA_HOME/gegl-0.4/plug-ins"
photo=${PHOTO:-$top/tests/data/coffee.ppm}
gimp-console-3.0 -i --quit --batch-interpreter=plug-in-script-fu-eval \
  -b "(begin (load \"$top/tests/gimp3/bench.scm\")
             (bench3 \"$photo\" '((3840 2160) (6000 4000)) '($sigmas) 3))" \
  -b "(gimp-quit 0)" >"$tmp/log" 2>&1 || { tail -n 30 "$tmp/log"; exit 1; }
grep -o "bench3 .*" "$tmp/log" >"$tmp/rows" || { tail -n 30 "$tmp/log"; exit 1; }
echo "GIMP 3 $(gimp-console-3.0 --version | awk '{print $NF}'), $(nproc) cores$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 | sed 's/^/, /'), $(date +%Y-%m-%d)"
echo "| image | sigma | call | s | / gegl:gaussian-blur | / invert-gamma floor |"
echo "|---|---|---|---|---|---|"
awk '
  { t[$2 " " $4 " " $3] = $5; key[$2 " " $4] = 1; calls[$3] = 1 }
  END {
    n = split("ours-op ours-op-cpu ours-plug-in gimp-gaussian-blur floor-invert-gamma", order, " ")
    for (k in key) {
      g = t[k " gimp-gaussian-blur"]; f = t[k " floor-invert-gamma"]
      split(k, p, " ")
      for (i = 1; i <= n; i++) {
        c = order[i]; v = t[k " " c]
        if (v == "") continue
        printf "| %s | %s | %s | %.3f | %.2f | %.2f |\n", p[1], p[2], c, v, v / g, v / f
      }
    }
  }' "$tmp/rows" | sort -t'|' -k2,2 -k3,3n
