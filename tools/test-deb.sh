#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Tests a package of tools/build-deb.sh as a user meets it:
#   tools/test-deb.sh PACKAGE.deb[:RELEASE]...
# Each package goes into a minimal root (debootstrap, tools/debian-root.sh)
# of RELEASE, by default its own (+deb12 bookworm, +deb13 trixie, +deb14
# forky); another release is what a user who upgrades gets (the Debian 13
# package in forky).  The root is _deb/RELEASE/root, made fresh for the
# first package of each release; a package given right after another for
# the same release is installed over it, as an upgrade.  There:
#   1. apt-get install ./PACKAGE.deb, without recommended packages (the
#      first package's own dependencies must bring GIMP);
#   2. the main job: a photograph blurred through that GIMP in batch mode
#      with tools/blur-file.sh; the device it reports is printed, and the
#      result must equal the engine's own blur of the photograph
#      (check_blur, from the build tree _build/);
#   3. a copy of the plug-in in the user's own plug-in folder (that GIMP's
#      profile: ~/.config/GIMP/2.10, 3.0, 3.2) runs instead of the
#      system's, and the blur still comes out right; for GIMP 3 a copy of
#      the GEGL module in the user's module folder as well, and it is that
#      copy that registers the operation;
#   4. after the last package of a root, apt-get purge leaves none of the
#      files of the packages installed there behind.
# Needs root (debootstrap, chroot) and the network (apt).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ $# -ge 1 ] || { sed -n '3,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }

photo=/usr/lib/python3/dist-packages/skimage/data/astronaut.png
[ -f "$photo" ] || photo=$top/tests/data/astronaut.ppm
check_blur=$top/_build/tests/gegl/check_blur
[ -x "$check_blur" ] || {
  echo "test-deb: no $check_blur (configure and make check in _build first)" >&2; exit 2; }
fail=0
pass () { echo "PASS: $what: $*"; }
bad () { echo "FAIL: $what: $*"; fail=1; }
# The release a package's own version names, and the one it is tested
# in: ARG's :RELEASE, or its own.
own_release () {
  case $1 in
    *+deb12_*) echo bookworm ;;
    *+deb13_*) echo trixie ;;
    *+deb14_*) echo forky ;;
    *) echo "test-deb: $1 is not a package of tools/build-deb.sh" >&2; exit 2 ;;
  esac
}
release_of () {
  case $1 in *.deb:*) echo "${1##*:}" ;; *) own_release "$1" ;; esac
}
for arg in "$@"; do release_of "$arg" >/dev/null || exit 2; done
made=
index=0
for arg in "$@"; do
  index=$((index + 1))
  # The next package's release, if it shares this root.
  next=$(eval "echo \${$((index + 1)):-}")
  deb=${arg%.deb*}.deb
  deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
  own=$(own_release "$deb")
  gimp=3
  [ "$own" != bookworm ] || gimp=2
  case $deb in
    "$top"/*) ;;
    *) echo "test-deb: $deb must lie inside $top (bound into the root)" >&2; exit 2 ;;
  esac
  release=$(release_of "$arg")
  what=$release
  [ "$release" = "$own" ] || what="$release, the $own package"
  dir=$top/_deb/$release
  root=$dir/root
  logs=$dir/test-$(basename "$deb" .deb)
  log=$logs/apt.log
  rm -rf "$logs"
  mkdir -p "$logs"
  in_root () { "$top/tools/gimp3-chroot.sh" "$root" "$@"; }
  over=
  if [ "$made" != "$release" ]; then
    echo "test-deb: $release: a fresh root in $root"
    "$top/tools/debian-root.sh" "$release" "$root" >"$dir/debootstrap.log" 2>&1 \
      || { tail -n 20 "$dir/debootstrap.log"; exit 1; }
    sed -n 's/^debian-root: /test-deb: /p' "$dir/debootstrap.log"
    made=$release
    : >"$dir/all-files.txt"
  else
    over=" over $(in_root dpkg-query -W -f '${Version}' gimp-cudablur)"
  fi

  # 1. Install as a user does.
  if in_root sh -c "export DEBIAN_FRONTEND=noninteractive
      apt-get update -q && apt-get install -y -q --no-install-recommends /src/${deb#$top/}" \
      >>"$log" 2>&1; then
    gimp_deb=$(in_root dpkg-query -W -f '${Version}' gimp)
    pass "apt-get install ./$(basename "$deb")$over (with GIMP: $gimp_deb)"
  else
    tail -n 20 "$log"; bad "apt-get install failed"; continue
  fi
  in_root dpkg -L gimp-cudablur >"$logs/files.txt"
  cat "$logs/files.txt" >>"$dir/all-files.txt"

  # 2. The main job.
  job=$root/tmp/job
  rm -rf "$job"
  mkdir -p "$job"
  cp "$top/tools/blur-file.sh" "$job/"
  cp "$photo" "$job/photo.${photo##*.}"
  if in_root sh /tmp/job/blur-file.sh --gimp $gimp --sigma 8 \
       "/tmp/job/photo.${photo##*.}" /tmp/job/blurred.png >"$logs/job.log" 2>&1; then
    pass "main job: $(cat "$logs/job.log")"
  else
    bad "main job failed: $(tail -n 5 "$logs/job.log")"
  fi
  check () { # name: blurred.png against the engine's blur of the photo
    "$check_blur" "$release-$1" "$job/photo.${photo##*.}" "$job/blurred.png" \
      0 8 8 50 2 2 0 0 -
  }
  check "main-job" || fail=1

  # 3. The user's own copy wins: a plug-in there that records its start
  # and runs the system's; for GIMP 3 the module copied there as well.
  # GIMP's profile is named by its version without the last part.
  rm -f "$job/blurred.png" "$job/user-copy-ran" "$job"/ld.*
  system_bin=$(grep '/plug-ins/cudablur/cudablur$' "$logs/files.txt")
  profile=$(echo "$gimp_deb" | sed 's/^[0-9]*://' | cut -d. -f1,2)
  user_dir=$root/root/.config/GIMP/$profile/plug-ins/cudablur
  if [ "$gimp" = 3 ]; then
    system_module=$(grep '/gegl-0.4/cudablur.so$' "$logs/files.txt")
    mkdir -p "$root/root/.local/share/gegl-0.4/plug-ins"
    cp "$root$system_module" "$root/root/.local/share/gegl-0.4/plug-ins/"
  fi
  mkdir -p "$user_dir"
  printf '#!/bin/sh\necho "$$" >>/tmp/job/user-copy-ran\nexec %s "$@"\n' \
    "$system_bin" >"$user_dir/cudablur"
  chmod +x "$user_dir/cudablur"
  in_root env LD_DEBUG=files LD_DEBUG_OUTPUT=/tmp/job/ld sh /tmp/job/blur-file.sh --gimp $gimp --sigma 8 \
    "/tmp/job/photo.${photo##*.}" /tmp/job/blurred.png >"$logs/user-copy.log" 2>&1 || :
  if [ -s "$job/user-copy-ran" ] && check "user-copy"; then
    pass "the plug-in in the user's folder (GIMP/$profile) ran instead of the system's"
  else
    bad "with a copy in the user's folder GIMP/$profile: $(tail -n 5 "$logs/user-copy.log")"
  fi
  grep -i 'duplicate\|skipping' "$logs/user-copy.log" | head -n 3 \
    | sed 's/^/  GIMP says: /'
  if [ "$gimp" = 3 ]; then
    # The order in which GEGL opened the two modules (its own folder
    # first), for the log.
    order=$(cat "$job"/ld.* | grep -o 'calling init: [^ ]*cudablur.so' \
              | sed 's/calling init: //' | awk '!seen[$0]++' | tr '\n' ' ')
    echo "  GEGL loaded, in this order: $order"
    # Which copy registered the operation, as GEGL reports it (GObject
    # introspection, installed for this check only).
    in_root sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        --no-install-recommends python3-gi gir1.2-gegl-0.4" >>"$log" 2>&1
    from=$(in_root python3 -c "
import gi
gi.require_version('Gegl', '0.4')
from gi.repository import Gegl
Gegl.init([])
print(Gegl.Operation.get_key('cudablur:gaussian-blur', 'cudablur:module-file'))" 2>>"$log")
    if [ "$from" = /root/.local/share/gegl-0.4/plug-ins/cudablur.so ]; then
      pass "the GEGL module in the user's folder registered the operation"
    else
      bad "the operation came from \"$from\", not the user's copy"
    fi
  fi
  rm -rf "$root/root/.config/GIMP" "$root/root/.local/share/gegl-0.4/plug-ins/cudablur.so"

  # The next package of this release goes in over this one.
  [ -z "$next" ] || [ "$(release_of "$next")" != "$release" ] || continue

  # 4. Purge: every file of the packages installed here is gone, and
  # nothing of them is left anywhere on the system.
  in_root sh -c "DEBIAN_FRONTEND=noninteractive apt-get purge -y -q gimp-cudablur" \
    >>"$log" 2>&1 || bad "apt-get purge failed"
  left=
  for f in $(sort -u "$dir/all-files.txt"); do
    [ -f "$root$f" ] && left="$left $f"
  done
  stray=$(find "$root" -xdev -name '*cudablur*' -not -path "$root/tmp/*" \
            -not -path "$root/src/*" 2>/dev/null)
  if [ -z "$left" ] && [ -z "$stray" ] \
     && ! in_root dpkg-query -W gimp-cudablur >/dev/null 2>&1; then
    pass "apt-get purge left none of its $(sort -u "$dir/all-files.txt" | wc -l) paths"
  else
    bad "after purge: files$left, found:$(echo $stray)"
  fi
done
[ $fail -eq 0 ] && echo "test-deb: all passed" || echo "test-deb: failures above"
exit $fail
