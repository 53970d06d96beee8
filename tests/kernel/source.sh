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
#   6.1    bookworm and its security archive (Debian 13 has no 6.1)
#   6.12   trixie and its security archive (Debian 12 has it in bookworm-security)
#   7.3    trixie-backports (neither release has it in its main archive)
set -euo pipefail

where=0
[ "${1:-}" = --suites ] && { where=1; shift; }
series=${1:?usage: source.sh [--suites] SERIES}
pkg=linux-source-$series

if [ -f "/usr/src/$pkg.tar.xz" ] && ver=$(dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null) && [ -n "$ver" ]; then
	[ "$where" = 1 ] && { echo host; exit 0; }
	echo "/usr/src/$pkg.tar.xz $ver"
	exit 0
fi

case $series in
6.1) suites="bookworm bookworm-updates bookworm-security" ;;
6.12) suites="trixie trixie-updates trixie-security" ;;
7.3) suites="trixie-backports" ;;
*) echo "source.sh: no known Debian release carries linux-source-$series" >&2; exit 2 ;;
esac
[ "$where" = 1 ] && { echo "$suites"; exit 0; }

aptfetch=$(dirname "$0")/../aptfetch.sh
ver=$(bash "$aptfetch" "$suites" versions "$pkg" | head -n1)
[ -n "$ver" ] || { echo "source.sh: $pkg not found in $suites" >&2; exit 1; }
dir=$(bash "$aptfetch" "$suites" fetch "$pkg=$ver")
tarball=$dir/usr/src/$pkg.tar.xz
[ -f "$tarball" ] || { echo "source.sh: $tarball missing from the package" >&2; exit 1; }
echo "$tarball $ver"
