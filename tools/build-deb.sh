#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian packages from this tree into _deb/RELEASE/:
#   tools/build-deb.sh [bookworm|trixie|forky]...
# bookworm (Debian 12, +deb12): the GIMP 2.10 plug-in; trixie (Debian 13,
# +deb13, GIMP 3.0) and forky (Debian testing, to be Debian 14: +deb14,
# GIMP 3.2): GIMP 3's procedures and the GEGL operation.  Without
# arguments, the release of this system and, on Debian 12, trixie and
# forky too.  A release other than this system's is built in its root of
# tools/gimp3-root.sh.  The CUDA backend is built in when nvcc is found (on
# the PATH or in /usr/local/cuda/bin, which is bound into the root unless
# CUDABLUR_ROOT_CUDA=0), for CUDA_ARCHS (default "75 80 86 89 90").  DIST=TARBALL builds from that
# tarball of `make dist` (as a release is) instead of the tree.  Each
# package is checked with lintian: an error fails the build.  Needs root
# for the roots.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. /etc/os-release
here=${VERSION_CODENAME:-bookworm}
[ $# -gt 0 ] || { set -- "$here"; [ "$here" != bookworm ] || set -- bookworm trixie forky; }
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
ac_version=$(sed -n 's/^AC_INIT(\[gimp-cudablur\], \[\([^]]*\)\].*/\1/p' configure.ac)
[ "$version" = "$ac_version" ] || {
  echo "build-deb: debian/changelog says $version, configure.ac $ac_version" >&2
  exit 1; }

# $DIST's files, or the tree as git knows it (or this unpacked tarball),
# without build trees.
dist=
[ -z "${DIST:-}" ] || dist=$(cd "$(dirname "$DIST")" && pwd)/$(basename "$DIST")
copy_tree () {
  rm -rf "$1" && mkdir -p "$1"
  if [ -n "$dist" ]; then
    tar -xzf "$dist" -C "$1" --strip-components=1
  elif git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard \
      | tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$1"
  else
    tar -cf - --exclude='./_*' --exclude='./debian/gimp-cudablur' . \
      | tar -xf - -C "$1"
  fi
}

for release in "$@"; do
  case $release in
    bookworm) suffix=deb12 ;;
    trixie) suffix=deb13 ;;
    forky) suffix=deb14 ;;
    *) echo "build-deb: unknown release $release (bookworm, trixie, forky)" >&2; exit 2 ;;
  esac
  out=$top/_deb/$release
  src=$out/gimp-cudablur-$version
  echo "build-deb: $release, gimp-cudablur $version+$suffix, in $out${dist:+, from $(basename "$dist")}"
  rm -rf "$out"
  copy_tree "$src"
  # The release's own version, so the two packages never share one.
  { printf 'gimp-cudablur (%s+%s) %s; urgency=medium\n\n' "$version" "$suffix" "$release"
    printf '  * Built for %s.\n\n' "$release"
    printf ' -- %s  %s\n\n' "$(dpkg-parsechangelog -l debian/changelog -S Maintainer)" \
      "$(date -R)"
    cat debian/changelog; } >"$src/debian/changelog"
  build="cd '${src#$top/}' && DEB_BUILD_OPTIONS=nocheck${CUDA_ARCHS:+ CUDA_ARCHS='$CUDA_ARCHS'} dpkg-buildpackage -b -us -uc"
  if [ "$release" = "$here" ]; then
    (cd "$top" && sh -c "$build") >"$out/build.log" 2>&1
  elif [ "$release" != bookworm ]; then
    ./tools/gimp3-root.sh "$release" >"$out/root.log" \
      || { cat "$out/root.log"; exit 1; }
    CUDABLUR_ROOT_CUDA=${CUDABLUR_ROOT_CUDA:-1} ./tools/gimp3-chroot.sh "$release" sh -c "cd /src && $build" \
      >"$out/build.log" 2>&1
  else
    echo "build-deb: $release can be built on $release only" >&2; exit 2
  fi || { tail -n 40 "$out/build.log"; exit 1; }
  deb=$(ls "$out"/gimp-cudablur_*.deb)
  lintian --fail-on error "$deb" \
    >"$out/lintian.log" 2>&1 || { cat "$out/lintian.log"; exit 1; }
  echo "build-deb: wrote $deb ($(grep -c '^[EWIPX]:' "$out/lintian.log" || :) lintian notes, no error)"
  sed -n 's/^cudablur:Backend=/  /p' "$src/debian/gimp-cudablur.substvars" \
    | sed 's/\${Newline}/ /g'
done
