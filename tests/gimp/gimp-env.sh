# Sourced by the GIMP test scripts: a private GIMP2_DIRECTORY in a fresh
# temporary folder $tmp (removed on exit) holding the plug-in and the test
# helper plug-in from the build tree $top_build.  $gimp_env_name names the
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
cp "$top_build/plugin/cudablur" "$top_build/tests/gimp/cudablur-test" \
   "$GIMP2_DIRECTORY/plug-ins/" || exit 99
