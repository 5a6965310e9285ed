#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a command with its memory limited to LIMIT, as on a machine with
# that much memory, for that command alone:
#
#   tools/memory-limit.sh LIMIT COMMAND [ARG...]     (LIMIT: 16G, 8192M)
#
# As root, in a control group of its own (cgroup v2's memory.max, or v1's
# memory.limit_in_bytes; page cache counts too, and the kernel reclaims it
# at the limit); the group's peak and how often it reached the limit are
# printed after.  Otherwise, or with MEMORY_LIMIT_ULIMIT=1, under
# `ulimit -v` (the address space, which counts what is reserved as well
# as what is used).  Exits with the command's status; a command killed for
# memory exits 137.
#
# The blur of a 40000x30000 layer on a 16 GB machine, with GEGL's tile
# cache at GIMP's default for it (half the memory):
#   GEGL_CACHE_SIZE=8192 BENCH_PEERS=0 tools/memory-limit.sh 16G \
#     _build/tests/gegl/bench_memory 40000x30000
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 LIMIT COMMAND [ARG...]" >&2
  exit 2
fi
limit=$1
shift
bytes=$(numfmt --from=iec "$limit" 2>/dev/null) || {
  echo "$0: $limit is no size (16G, 8192M)" >&2
  exit 2
}

ulimited () {
  echo "memory-limit: ulimit -v $((bytes / 1024)) KB" >&2
  ulimit -v $((bytes / 1024)) && exec "$@"
}

if [ "${MEMORY_LIMIT_ULIMIT:-0}" = 1 ] || [ "$(id -u)" != 0 ]; then
  ulimited "$@"
fi

# The group: under the caller's own, in whichever hierarchy has memory.
v2=$(sed -n 's/^0:://p' /proc/self/cgroup)
v1=$(sed -n 's/^[0-9]*:memory://p' /proc/self/cgroup)
if [ -n "$v1" ] && [ -d "/sys/fs/cgroup/memory$v1" ]; then
  group=/sys/fs/cgroup/memory$v1/memory-limit-$$
  max=memory.limit_in_bytes peak=memory.max_usage_in_bytes
  hits=memory.failcnt
elif [ -n "$v2" ] && [ -f "/sys/fs/cgroup$v2/cgroup.controllers" ]; then
  group=/sys/fs/cgroup$v2/memory-limit-$$
  max=memory.max peak=memory.peak hits=memory.events
else
  ulimited "$@"
fi
if ! mkdir "$group" 2>/dev/null || ! echo "$bytes" > "$group/$max"; then
  rmdir "$group" 2>/dev/null
  ulimited "$@"
fi
echo "memory-limit: $group/$max = $bytes" >&2
# The command in the group; this shell stays outside to read and remove
# it.
sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$group" "$@"
status=$?
echo "memory-limit: status $status; the group's peak $(numfmt --to=iec \
  "$(cat "$group/$peak" 2>/dev/null || echo 0)") (page cache included)," \
  "limit reached: $(tr '\n' ' ' < "$group/$hits")" >&2
rmdir "$group" 2>/dev/null
exit $status
