# SPDX-License-Identifier: GPL-3.0-or-later
# Turns a bench-gimp log into a Markdown table: one row per (image, call,
# algorithm, sigma, device), the median of its calls, the ratio to GIMP's
# own filter at the same image and sigma, and the medians of the stages
# that CUDABLUR_TIMING printed before each of our calls.
function kv(line, out,    n, i, t, p) {
  delete out
  n = split(line, t, " ")
  for (i = 1; i <= n; i++)
    if ((p = index(t[i], "=")) > 0)
      out[substr(t[i], 1, p - 1)] = substr(t[i], p + 1)
}
function median(list,    n, a, i, j, x) {
  n = split(list, a, " ")
  for (i = 2; i <= n; i++) {          # insertion sort, numeric
    x = a[i] + 0
    for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]
    a[j + 1] = x
  }
  return n ? (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) : ""
}
BEGIN {
  nstages = split("process gegl_init cuda_startup read decode upload kernels download encode write flush merge run outside peak_rss_mb", stage, " ")
}
/cudablur-timing:/ { sub(/.*cudablur-timing: /, ""); pending = $0; next }
/bench-row:/ {
  sub(/.*bench-row: /, "")
  kv($0, f)
  key = f["image"] SUBSEP f["call"] SUBSEP f["algorithm"] SUBSEP f["sigma"] SUBSEP f["device"]
  if (!(key in seen)) { seen[key] = ++ngroups; order[ngroups] = key }
  g = seen[key]
  secs[g] = secs[g] " " f["seconds"]
  used[g] = f["used"]
  if (f["call"] == "ours" && pending != "") {
    kv(pending, t)
    t["outside"] = f["seconds"] - t["run"] - t["process"]
    for (i = 1; i <= nstages; i++) st[g, i] = st[g, i] " " t[stage[i]]
    backend[g] = t["backend"]; alg[g] = t["algorithm"]; fmt[g] = t["format"]
  }
  pending = ""
  next
}
END {
  for (g = 1; g <= ngroups; g++) {
    split(order[g], k, SUBSEP)
    med[g] = median(secs[g])
    if (k[2] == "gimp-gauss") ref[k[1], k[4]] = med[g]
    if (k[2] == "gimp-sel-gauss") selref[k[1]] = med[g]
  }
  printf "| image | call | algorithm | sigma | device | ran on | median s | x GIMP |"
  for (i = 1; i <= nstages; i++) printf " %s |", stage[i]
  printf "\n|---|---|---|---|---|---|---|---|"
  for (i = 1; i <= nstages; i++) printf "---|"
  printf "\n"
  for (g = 1; g <= ngroups; g++) {
    split(order[g], k, SUBSEP)
    ratio = "n/a"
    if (k[2] == "ours") {
      r = (k[3] ~ /^edge/ && (k[1] in selref)) ? selref[k[1]] : ref[k[1], k[4]]
      if (r > 0) ratio = sprintf("%.2f", med[g] / r)
    }
    where = k[2] == "ours" ? (backend[g] "/" alg[g]) : "gimp"
    printf "| %s | %s | %s | %s | %s | %s | %.3f | %s |", k[1], k[2], k[3], k[4], k[5], where, med[g], ratio
    for (i = 1; i <= nstages; i++) {
      v = k[2] == "ours" ? median(st[g, i]) : ""
      if (v == "") printf " |"
      else if (stage[i] == "peak_rss_mb") printf " %d |", v
      else printf " %.3f |", v
    }
    printf "\n"
  }
}
