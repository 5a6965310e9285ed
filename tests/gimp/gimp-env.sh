# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the GIMP test scripts: a private GIMP2_DIRECTORY in a fresh
# temporary folder $tmp (removed on exit) holding the plug-in (in its own
# folder, $plugin_dir) and the test helper plug-in from the build tree
# $top_build.  $gimp_env_name names the
# folder (set it before sourcing: sh passes no arguments to ".").
: "${srcdir:=.}"
: "${builddir:=.}"
top_build=$(cd "$builddir" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudablur-${gimp_env_name:-test}.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
export GIMP2_DIRECTORY="$tmp/gimp"
mkdir -p "$GIMP2_DIRECTORY/plug-ins"
for d in brushes dynamics fonts gradients palettes patterns tool-presets; do
  mkdir -p "$GIMP2_DIRECTORY/$d"
done
# The plug-in as a user copies it by hand: its folder, with the
# catalogues and help pages beside the executable.
plugin_dir="$GIMP2_DIRECTORY/plug-ins/cudablur"
mkdir -p "$plugin_dir/help/en" || exit 99
cp "$top_build/gimp2/cudablur" "$plugin_dir/" || exit 99
cp "$srcdir/help/en/index.html" "$srcdir/help/en/gimp-help.xml" \
   "$plugin_dir/help/en/" || exit 99
for lang in $(sed -e 's/#.*//' "$srcdir/po/LINGUAS"); do
  mkdir -p "$plugin_dir/locale/$lang/LC_MESSAGES" || exit 99
  cp "$top_build/po/$lang/LC_MESSAGES/gimp-cudablur.mo" \
     "$plugin_dir/locale/$lang/LC_MESSAGES/" || exit 99
done
cp "$top_build/tests/gimp/cudablur-test" "$GIMP2_DIRECTORY/plug-ins/" \
  || exit 99
