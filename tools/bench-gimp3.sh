#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# GIMP 3's whole-call benchmark: in a GIMP 3 session (the gimp-console-3.N
# first on PATH: a GIMP 3 installed, or a relocatable one whose bin/ is put
# first), ours -- the operation through gimp-drawable-merge-new-filter, on
# the default device and on the CPU, and plug-in-cudablur -- against GIMP
# 3's own gegl:gaussian-blur at the same sigma and against the floor of any
# filter, the merge of a trivial point operation (gegl:invert-gamma), on
# 3840x2160 and 6000x4000 RGB 8-bit photographs (coffee, scaled), the
# median of 3 calls each.  RUNS sessions (default 3) one after another;
# prints the table of the README: each cell the range over the runs.
#   [BUILD=DIR] [RUNS=N] [PHOTO=FILE] tools/bench-gimp3.sh [SIGMAS...]
# SIGMAS default to 10 50.  BUILD: a build tree whose gegl/cudablur.so and
# gimp3/cudablur run, from a private profile (default: _build-gimp3 where
# it exists); without one, the operation and the procedures that GIMP has
# already (a package's, or a relocatable GIMP's own).  RAW=FILE keeps each
# run's medians ("bench3 SIZE CALL SIGMA SECONDS" lines, after "run N").
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sigmas=${*:-10 50}
runs=${RUNS:-3}
gimp=$("$top/tools/gimp3-program.sh" gimp-console) \
  || { echo "bench-gimp3: no gimp-console-3.N on PATH" >&2; exit 1; }
build=${BUILD:-}
[ -n "$build" ] || [ ! -f "$top/_build-gimp3/gegl/cudablur.so" ] \
  || build=$top/_build-gimp3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudablur-bench3.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export GIMP3_DIRECTORY="$tmp/profile" XDG_DATA_HOME="$tmp/share" HOME="$tmp/home"
mkdir -p "$GIMP3_DIRECTORY/plug-ins" "$XDG_DATA_HOME/gegl-0.4/plug-ins" "$HOME"
if [ -n "$build" ]; then
  build=$(cd "$build" && pwd)
  mkdir -p "$GIMP3_DIRECTORY/plug-ins/cudablur"
  cp "$build/gimp3/cudablur" "$GIMP3_DIRECTORY/plug-ins/cudablur/"
  cp "$build/gegl/cudablur.so" "$XDG_DATA_HOME/gegl-0.4/plug-ins/"
  # A GEGL module path of the environment (a relocated GIMP) still gets ours.
  [ -z "${GEGL_PATH:-}" ] || export GEGL_PATH="$GEGL_PATH:$XDG_DATA_HOME/gegl-0.4/plug-ins"
fi
photo=${PHOTO:-$top/tests/data/coffee.ppm}
: >"$tmp/rows"
run=1
while [ "$run" -le "$runs" ]; do
  echo "bench-gimp3: run $run of $runs ($(basename "$gimp"))" >&2
  "$gimp" -i --quit --batch-interpreter=plug-in-script-fu-eval \
    -b "(begin (load \"$top/tests/gimp3/bench.scm\")
               (bench3 \"$photo\" '((3840 2160) (6000 4000)) '($sigmas) 3))" \
    -b "(gimp-quit 0)" >"$tmp/log" 2>&1 || { tail -n 30 "$tmp/log"; exit 1; }
  grep -q "bench3 .*ours-plug-in" "$tmp/log" || { tail -n 30 "$tmp/log"; exit 1; }
  echo "run $run" >>"$tmp/rows"
  grep -o "bench3 .*" "$tmp/log" >>"$tmp/rows"
  run=$((run + 1))
done
[ -z "${RAW:-}" ] || cp "$tmp/rows" "$RAW"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
echo "GIMP $("$gimp" --version | awk '{print $NF}'), ${gpu:-no GPU}, $(nproc) cores, $(date +%Y-%m-%d): $runs runs, each cell the range over them of the median of 3 calls"
echo
echo "| image | σ | ours | GIMP's blur | ours / GIMP's | ours on the CPU / GIMP's | \`plug-in-cudablur\` / GIMP's | floor | ours / floor |"
echo "|---|---|---|---|---|---|---|---|---|"
awk '
  function add(k, v) {
    if (!(k in lo) || v < lo[k]) lo[k] = v
    if (!(k in hi) || v > hi[k]) hi[k] = v
  }
  function range(k, f,   a, b) {
    a = sprintf(f, lo[k]); b = sprintf(f, hi[k])
    return a == b ? a : a "–" b
  }
  $1 == "run" { n = $2; next }
  { t[n, $2, $4, $3] = $5; cell[$2 " " $4] = 1; runs[n] = 1 }
  END {
    for (r in runs) for (c in cell) {
      split(c, p, " ")
      g = t[r, p[1], p[2], "gimp-gaussian-blur"]; f = t[r, p[1], p[2], "floor-invert-gamma"]
      o = t[r, p[1], p[2], "ours-op"]
      add(c " ours", o); add(c " gimp", g); add(c " floor", f)
      add(c " ours/g", o / g); add(c " cpu/g", t[r, p[1], p[2], "ours-op-cpu"] / g)
      add(c " plug-in/g", t[r, p[1], p[2], "ours-plug-in"] / g); add(c " ours/f", o / f)
    }
    for (c in cell) {
      split(c, p, " "); sub("x", "×", p[1])
      printf "| %s | %s | %s s | %s s | %s | %s | %s | %s s | %s |\n", p[1], p[2],
        range(c " ours", "%.3f"), range(c " gimp", "%.2f"), range(c " ours/g", "%.2f"),
        range(c " cpu/g", "%.2f"), range(c " plug-in/g", "%.2f"),
        range(c " floor", "%.2f"), range(c " ours/f", "%.2f")
    }
  }' "$tmp/rows" | sort -t'|' -k2,2 -k3,3n
