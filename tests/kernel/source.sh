#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's linux-source-SERIES tarball, from the host when its package is
# installed, otherwise fetched from the release that carries it with an apt
# state kept in the cache (the host's sources and lists stay as they were).
#
#   source.sh SERIES          prints "TARBALL VERSION" on stdout; logs to stderr
#   source.sh --suites SERIES prints where that source comes from: "host" or
#                             the suites below (tests/aptfetch.sh takes either),
#                             to fetch binary packages of the same version
#
# Where each series comes from when the host lacks it:
#   6.1    bookworm (Debian 12's own kernel; Debian 13 has no 6.1)
#   6.12   trixie (Debian 13's own kernel; Debian 12 has it in bookworm-security)
#   7.2    trixie-backports (neither release has it in its main archive)
set -euo pipefail

where=0
[ "${1:-}" = --suites ] && { where=1; shift; }
series=${1:?usage: source.sh [--suites] SERIES}
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}
pkg=linux-source-$series

if [ -f "/usr/src/$pkg.tar.xz" ] && ver=$(dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null) && [ -n "$ver" ]; then
	[ "$where" = 1 ] && { echo host; exit 0; }
	echo "/usr/src/$pkg.tar.xz $ver"
	exit 0
fi

case $series in
6.1) suites="bookworm bookworm-updates" ;;
6.12) suites="trixie trixie-updates" ;;
7.2) suites="trixie-backports" ;;
*) echo "source.sh: no known Debian release carries linux-source-$series" >&2; exit 2 ;;
esac
[ "$where" = 1 ] && { echo "$suites"; exit 0; }

# The host's main mirror (deb.debian.org when none is configured).
mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
	awk '/^URIs:/ {print $2} /^deb / {print $2}' | grep -v -- -security | head -n1 || true)
mirror=${mirror:-http://deb.debian.org/debian}

aptdir=$cache/apt-src-${suites%% *}
mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" "$aptdir/etc"
printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
	"$mirror" "$suites" > "$aptdir/etc/src.sources"
apt_src() {
	apt-get -qq -o Dir::State::Lists="$aptdir/lists" -o Dir::Cache="$aptdir/cache" \
		-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$aptdir/etc" \
		-o Dir::State::status=/dev/null -o APT::Sandbox::User=root "$@"
}

exec 7>"$cache/.source.lock"
flock 7
# Reuse the last fetch for a day; a new point release then replaces it.
if [ -z "$(find "$aptdir/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -n1)" ]; then
	apt_src update >&2 || { echo "source.sh: apt-get update for $suites failed (network? keyring?)" >&2; exit 1; }
fi
ver=$(apt-cache -o Dir::State::Lists="$aptdir/lists" -o Dir::Cache="$aptdir/cache" \
	-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$aptdir/etc" \
	-o Dir::State::status=/dev/null show "$pkg" 2>/dev/null |
	sed -n 's/^Version: //p' | sort -V | tail -n1)
[ -n "$ver" ] || { echo "source.sh: $pkg not found in $suites" >&2; exit 1; }
dir=$cache/src-$series-$ver
if [ ! -f "$dir/.extracted" ]; then
	echo "source.sh: fetching $pkg $ver from $suites" >&2
	rm -rf "$dir"
	mkdir -p "$dir/deb"
	(cd "$dir/deb" && apt_src download "$pkg=$ver") >&2
	dpkg-deb -x "$dir"/deb/*.deb "$dir/root"
	rm -rf "$dir/deb"
	touch "$dir/.extracted"
fi
tarball=$dir/root/usr/src/$pkg.tar.xz
[ -f "$tarball" ] || { echo "source.sh: $tarball missing from the package" >&2; exit 1; }
echo "$tarball $ver"
