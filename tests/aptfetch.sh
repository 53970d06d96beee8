#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian packages from a release the host does not use (or for another
# architecture), read with an apt state kept in the cache: the host's
# sources, lists, dpkg status and architectures stay as they were.
#
#   aptfetch.sh SUITES versions PKG      every version of PKG, newest first
#   aptfetch.sh SUITES names PREFIX      package names starting with PREFIX
#   aptfetch.sh SUITES find REGEX VER    names matching the extended REGEX whose
#                                        version VER is available
#   aptfetch.sh SUITES list REGEX        "NAME VERSION" of every available version
#                                        of the names matching REGEX
#   aptfetch.sh SUITES fetch PKG=VER...  download and dpkg-deb -x them into one
#                                        root; prints its path
#   aptfetch.sh SUITES debs PKG=VER...   download them; prints the .deb files
#
# SUITES: Debian suites on the host's mirror, e.g. "trixie-backports" or
# "bookworm bookworm-updates bookworm-security" (-security suites go to the
# security mirror), or "host" for the host's own sources and, for the host's
# architecture, its own package lists (read only, never updated here).
# APTFETCH_ARCH=arm64 reads another architecture's index. An extracted root
# is cached by architecture and the exact PKG=VER list; package lists are
# refreshed once a day. Logs go to stderr; every failure says what and why.
set -euo pipefail

[ "$#" -ge 3 ] || { echo "usage: aptfetch.sh SUITES versions|names|find|list|fetch ARG..." >&2; exit 2; }
suites=$1 cmd=$2
shift 2
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}
arch=${APTFETCH_ARCH:-$(dpkg --print-architecture)}

# The host's mirrors (deb.debian.org when none is configured).
uris() {
	cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
		awk '/^URIs:/ {print $2} /^deb / {print $2}' | grep -i "$1" | head -n1 || true
}

aptdir=$cache/apt-$(echo "$suites" | tr ' ' '+')-$arch
mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" "$aptdir/etc"
opts=(-o Dir::Cache="$aptdir/cache" -o Dir::State::status=/dev/null -o APT::Sandbox::User=root
	-o APT::Architecture="$arch" -o APT::Architectures::="$arch")
own_lists=1
if [ "$suites" = host ] && [ "$arch" = "$(dpkg --print-architecture)" ]; then
	own_lists=0
else
	opts+=(-o Dir::State::Lists="$aptdir/lists")
fi
if [ "$suites" != host ]; then
	main=$(uris '/debian/\?$' | grep -v security || true)
	sec=$(uris 'security')
	main=${main:-http://deb.debian.org/debian}
	sec=${sec:-http://deb.debian.org/debian-security}
	: > "$aptdir/etc/src.sources"
	for s in $suites; do
		case $s in *-security) u=$sec ;; *) u=$main ;; esac
		printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n' \
			"$u" "$s" >> "$aptdir/etc/src.sources"
	done
	opts+=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$aptdir/etc")
fi

mkdir -p "$cache"
exec 7>"$cache/.aptfetch.lock"
flock 7
if [ "$own_lists" = 1 ] &&
	[ -z "$(find "$aptdir/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -n1)" ]; then
	echo "aptfetch: apt-get update for '$suites' ($arch)" >&2
	apt-get -qq "${opts[@]}" update >&2 ||
		{ echo "aptfetch: apt-get update for '$suites' ($arch) failed (network? keyring?)" >&2; exit 1; }
fi

case $cmd in
versions)
	apt-cache "${opts[@]}" show "$1" 2>/dev/null | sed -n 's/^Version: //p' | sort -urV
	;;
names)
	apt-cache "${opts[@]}" pkgnames "$1" 2>/dev/null | sort -V
	;;
find)
	apt-cache "${opts[@]}" dumpavail 2>/dev/null |
		awk -v re="$1" -v ver="$2" '/^Package:/ {p = $2} /^Version:/ && $2 == ver && p ~ re {print p}' | sort -u
	;;
list)
	apt-cache "${opts[@]}" dumpavail 2>/dev/null |
		awk -v re="$1" '/^Package:/ {p = $2} /^Version:/ && p ~ re {print p, $2}' | sort -u
	;;
fetch)
	key=$(printf '%s\n' "$arch" "$@" | sort | sha256sum | cut -c1-12)
	first=${1%%=*}
	dir=$cache/debs-$first-$arch-$key
	if [ ! -f "$dir/.extracted" ]; then
		echo "aptfetch: fetching $* ($arch) from '$suites'" >&2
		rm -rf "$dir"
		mkdir -p "$dir/deb"
		(cd "$dir/deb" && apt-get -qq "${opts[@]}" download "$@") >&2 ||
			{ echo "aptfetch: apt-get download $* from '$suites' failed" >&2; exit 1; }
		for d in "$dir"/deb/*.deb; do dpkg-deb -x "$d" "$dir/root"; done
		rm -rf "$dir/deb"
		printf '%s\n' "$@" > "$dir/packages"
		touch "$dir/.extracted"
	fi
	echo "$dir/root"
	;;
debs)
	# the .deb files themselves, to install as local files
	key=$(printf '%s\n' "$arch" "$@" | sort | sha256sum | cut -c1-12)
	dir=$cache/debfiles-${1%%=*}-$arch-$key
	if [ ! -f "$dir/.done" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		(cd "$dir" && apt-get -qq "${opts[@]}" download "$@") >&2 ||
			{ echo "aptfetch: apt-get download $* from '$suites' failed" >&2; exit 1; }
		touch "$dir/.done"
	fi
	ls "$dir"/*.deb
	;;
*) echo "aptfetch.sh: unknown command $cmd" >&2; exit 2 ;;
esac
