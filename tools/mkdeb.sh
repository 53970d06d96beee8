#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make deb: build lps001wp-dkms_<version>_<arch>.deb from a staged copy of the
# module's sources and debian/ (the work tree is left as it was), with
# debian/changelog generated for the version of tools/version.sh.
#
#   mkdeb.sh OUTDIR     writes OUTDIR/lps001wp-dkms_<version>_<arch>.deb (in
#                       place of any other version there) and prints its path
#
# LPS001WP_VERSION overrides the version; DEBFULLNAME and DEBEMAIL name the
# maintainer (default: the author of the last commit).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)

for t in dpkg-buildpackage dh dh_dkms dtc gcc; do
	command -v "$t" >/dev/null ||
		{ echo "mkdeb: $t missing: sudo apt install build-essential debhelper dh-dkms device-tree-compiler" >&2; exit 1; }
done

version=${LPS001WP_VERSION:-$(sh "$root/tools/version.sh" "$root")}
case $version in
[0-9]*) ;;
*) echo "mkdeb: bad version '$version'" >&2; exit 1 ;;
esac
# Read-only git calls, also in a clone another user owns (sudo -i, su)
rgit() {
	git -c safe.directory="$(cd "$root" && pwd -P)" -C "$root" "$@"
}
if [ -n "${DEBEMAIL:-}" ]; then
	maintainer="${DEBFULLNAME:-lps001wp maintainers} <$DEBEMAIL>"
else
	maintainer=$(rgit log -1 --format='%an <%ae>' 2>/dev/null || true)
fi
[ -n "$maintainer" ] || { echo "mkdeb: set DEBEMAIL (and DEBFULLNAME): no git history to take the maintainer from" >&2; exit 1; }
# The changelog's date: the last commit's, so the same commit gives the
# same package.
date=$(rgit log -1 --format=%cD 2>/dev/null || date -R)

work=$(mktemp -d "$out/.deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
src=$work/lps001wp-$version
LPS001WP_VERSION=$version sh "$root/tools/lps001wp-dkms.sh" stage "$src"
cp -a "$root/debian" "$src/debian"
# What the package brings beside the module's sources (debian/rules)
for f in README.md Documentation/iio/lps001wp.rst Documentation/devicetree/overlays/lps001wp-overlay.dts \
	Documentation/devicetree/overlays/README tools/lps001wp-setup.sh tools/lps001wp-hwcheck.sh \
	tools/lps001wp-read.c tools/lps001wp-read.1 tools/60-lps001wp-plugdev.rules; do
	mkdir -p "$(dirname "$src/$f")"
	cp "$root/$f" "$src/$f"
done
sed -i "s|@MAINTAINER@|$maintainer|" "$src/debian/control"
cat > "$src/debian/changelog" <<CHANGELOG
lps001wp ($version) unstable; urgency=medium

  * Built from $(rgit describe --always --dirty 2>/dev/null || echo "a tree without git").

 -- $maintainer  $date
CHANGELOG

# The overlay and lps001wp-read are compiled here, for this machine's
# architecture (the tools that are needed, the compiler among them, are
# checked above). No debug symbols package: mkdeb delivers one .deb.
(cd "$src" && DEB_BUILD_OPTIONS="noddebs ${DEB_BUILD_OPTIONS:-}" \
	dpkg-buildpackage --build=binary --no-sign --no-check-builddeps) > "$work/build.log" 2>&1 ||
	{ tail -n 40 "$work/build.log" >&2; echo "mkdeb: dpkg-buildpackage failed" >&2; exit 1; }
deb=lps001wp-dkms_${version}_$(dpkg-architecture -qDEB_HOST_ARCH).deb
# One package in OUTDIR, so `apt install ./build/lps001wp-dkms_*.deb`
# names the newest build (_all.deb: what make deb built before it had
# lps001wp-read).
rm -f "$out"/lps001wp-dkms_*.deb
mv "$work/$deb" "$out/$deb"
echo "$out/$deb"
