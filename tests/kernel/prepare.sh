#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A kernel tree prepared for out-of-tree module builds (`modules_prepare`),
# for another architecture or for a Debian kernel whose headers package the
# host cannot install, cached outside the work tree.
#
#   prepare.sh SERIES ARCH CONFIG [RELEASE]
#     SERIES   6.1, 6.12 or 7.3 (Debian's linux-source-SERIES, from
#              tests/kernel/source.sh: the host's package or a fetched one)
#     ARCH     arm64 or arm (cross compiler aarch64-linux-gnu- /
#              arm-linux-gnueabihf-), or x86_64 (the host's gcc)
#     CONFIG   a defconfig target (defconfig, multi_v7_defconfig) or the path
#              of a full .config (e.g. Debian's boot/config-<release>)
#     RELEASE  the kernel release string the tree must report (to build a
#              module a distribution kernel will load: vermagic)
#
# The pristine source is extracted once per series and package version; each
# prepared tree is an O= output directory keyed by series, source version,
# arch, config, release, compiler and this script. Prints the output directory on stdout; logs go to stderr.
# A prepared tree has no Module.symvers: modpost needs KBUILD_MODPOST_WARN=1
# (or a Module.symvers copied in, as tests/arm64.sh does).
set -euo pipefail

series=$1 arch=$2 config=$3 release=${4:-}
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}
here=$(cd "$(dirname "$0")" && pwd)
case $arch in
arm64) cross=aarch64-linux-gnu- ;;
arm) cross=arm-linux-gnueabihf- ;;
x86_64) cross='' arch=x86 ;;
*) echo "prepare.sh: unknown arch $arch" >&2; exit 2 ;;
esac
command -v "${cross}gcc" >/dev/null || { echo "prepare.sh: ${cross}gcc missing (tests/deps.sh installs it)" >&2; exit 1; }
read -r tarball pkgver < <(bash "$here/source.sh" "$series") ||
	{ echo "prepare.sh: no linux-source-$series (see tests/kernel/source.sh)" >&2; exit 1; }

# (source.sh keeps a fetched package in src-SERIES-VERSION: the extracted
# tree has a name of its own.)
src=$cache/tree-$series-$pkgver
key=$( {
	echo "$series $arch $config $release $pkgver"
	[ -f "$config" ] && cat "$config"
	cat "$0"
	"${cross}gcc" --version | head -n1
} | sha256sum | cut -c1-16)
out=$cache/prep-$series-$arch-$key

mkdir -p "$cache"
exec 9>"$cache/.prepare.lock"
flock 9

if [ ! -f "$src/.extracted" ]; then
	echo "prepare: extracting $tarball" >&2
	rm -rf "$src"
	mkdir -p "$src"
	tar -xf "$tarball" -C "$src" --strip-components=1
	touch "$src/.extracted"
fi

if [ -f "$out/.prepared" ]; then
	echo "prepare: cached $out" >&2
	echo "$out"
	exit 0
fi

rm -rf "$out"
mkdir -p "$out"
start=$(date +%s)
kmake() {
	make -s -C "$src" O="$out" ARCH="$arch" CROSS_COMPILE="$cross" "$@" >> "$out/prepare.log" 2>&1
}
if [ -f "$config" ]; then
	cp "$config" "$out/.config"
else
	kmake "$config"
	# What the driver needs, as modules, the way distribution kernels have
	# it; defconfigs leave IIO out.
	"$src/scripts/config" --file "$out/.config" --enable I2C --module IIO \
		--enable IIO_BUFFER --module IIO_KFIFO_BUF --module IIO_TRIGGERED_BUFFER \
		--enable IIO_TRIGGER
fi
relvar=()
if [ -n "$release" ]; then
	version=$(make -s -C "$src" kernelversion)
	case $release in
	"$version"*)
		# 6.12 on: the tree's version plus a local version
		# (6.12.118 + "+deb12-arm64").
		"$src/scripts/config" --file "$out/.config" --set-str LOCALVERSION "${release#"$version"}" \
			--disable LOCALVERSION_AUTO
		;;
	*)
		# 6.1: an ABI name unrelated to the version (6.1.192 is
		# 6.1.0-57-amd64), given to kbuild as KERNELRELEASE.
		"$src/scripts/config" --file "$out/.config" --set-str LOCALVERSION "" --disable LOCALVERSION_AUTO
		relvar=(KERNELRELEASE="$release")
		;;
	esac
fi
kmake olddefconfig
kmake "${relvar[@]}" modules_prepare || { tail -n 30 "$out/prepare.log" >&2; echo "prepare: modules_prepare failed" >&2; exit 1; }
# What modules built here carry in their vermagic.
got=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$out/include/generated/utsrelease.h")
if [ -n "$release" ] && [ "$got" != "$release" ]; then
	echo "prepare: tree reports release $got, wanted $release" >&2
	exit 1
fi
echo "prepare: $series $arch $config prepared in $(( $(date +%s) - start ))s ($got)" >&2
touch "$out/.prepared"
echo "$out"
