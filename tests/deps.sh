#!/bin/bash
# Install the Debian packages a command needs; skip what is present.
#
#   deps.sh [check]   everything `make check` runs (Debian 12 or 13)
#   deps.sh guest     what its test kernels' lanes run: the demo's set, the
#                     tools to build the test kernels from the 6.1 and 6.12
#                     sources, i2c-tools, libiio's tools, iiod and dtc (make
#                     check installs the rest beside the lanes)
#   deps.sh demo      only what `make demo` runs (Debian 12 or 13): a
#                     compiler and make for modules against Debian's headers
#                     (which it unpacks in the cache, with linux-kbuild's
#                     prebuilt tools), QEMU for x86, busybox for the guest.
#                     No kernel source, headers or image, no cross compilers,
#                     no lint tools.
#
# A fresh machine (Debian with make and git) needs nothing else. What this
# script installs is appended to $LPS001WP_CACHE/apt-installed.txt
# (default /var/cache/lps001wp), so that it can be removed again:
#   apt-get purge --autoremove $(cat /var/cache/lps001wp/apt-installed.txt)
#
# Notes on the less obvious ones:
#   gcc make libc6-dev  the demo's compiler (libc6-dev: its static
#                 iio_event_wait); make check takes build-essential
#   libelf1 (Debian 13: libelf1t64) kmod cpio
#                 the demo's: linux-kbuild's objtool links libelf (it comes
#                 unpacked, not installed, so its libraries are not pulled
#                 in), depmod and modprobe, the initramfs; on Debian 13 also
#                 pahole, which linux-kbuild-6.12 depends on (its headers
#                 ship vmlinux, so modules get BTF), and xz-utils: 6.12's
#                 modules are .ko.xz, 6.1's plain .ko
#   bc bison flex libelf-dev patch xz-utils
#                 the test kernels' build (objtool needs libelf; they sign
#                 nothing, so no libssl-dev), their Kconfig patch, the
#                 stock stages' .ko.xz
#   pahole        the stock headers pull it in, and a test kernel records
#                 its version: Kbuild warns about a module built with
#                 another, so it is there before any test kernel builds
#   ocaml-nox     spatch runs the OCaml-scripted coccicheck rules only when an
#                 OCaml compiler is present; without one coccicheck fails
#   libpython3-dev  and the Python-scripted ones only when it can dlopen
#                 libpython3.11.so (the unversioned name is in the -dev package)
#   openssl       dkms signs modules (and makes its MOK key) only with it
#   debhelper dh-dkms lintian udev
#                 tests/package.sh's (it installs what is missing itself,
#                 but in its stage's time rather than beside the lanes)
#   linux-headers-amd64
#                 the release's own kernel: 6.1 on Debian 12, 6.12 on 13.
#                 Debian 12's 6.12 headers (bookworm-security) are not
#                 installed: they depend on the 6.12 image, which would
#                 build an initramfs and become the machine's default boot
#                 entry. Its stages take the paths a series without
#                 installed headers takes (tests/stock.sh, debian-chroot.sh).
set -euo pipefail

set=${1:-check}
demo=(
	gcc make libc6-dev kmod cpio qemu-system-x86 busybox-static
)
# Debian 12 carries linux-source-6.1 (bookworm-security has the newest):
# installed, it is the source make check's 6.1 kernel is built from. Debian
# 13 has no 6.1: tests/kernel/source.sh fetches it into the cache.
# shellcheck disable=SC1091
release=$(. /etc/os-release 2>/dev/null && echo "${ID:-}-${VERSION_ID:-}")
case $release in
debian-12) demo+=(libelf1) source61=(linux-source-6.1) ;;
debian-13) demo+=(libelf1t64 pahole xz-utils) source61=() ;;
*)
	echo "deps: this bench sets itself up on Debian 12 or 13; this machine is '$release' (/etc/os-release)" >&2
	exit 1
	;;
esac
# The source packages are here so that a test kernel's cache key, which
# holds their version, is the same before and after the rest is installed.
guest=(
	"${demo[@]}"
	bc bison flex libelf-dev patch pahole xz-utils libiio-utils
	"${source61[@]}" linux-source-6.12 build-essential libssl-dev python3 openssl
	i2c-tools iiod device-tree-compiler
)
case $set in
demo)
	packages=("${demo[@]}")
	;;
guest)
	packages=("${guest[@]}")
	;;
check)
	packages=(
		"${guest[@]}"
		linux-headers-amd64 qemu-system-arm
		gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf
		sparse coccinelle ocaml-nox libpython3-dev dkms
		debootstrap zstd debhelper dh-dkms lintian udev
		codespell shellcheck yamllint
	)
	;;
*)
	echo "usage: deps.sh [check|guest|demo]" >&2
	exit 2
	;;
esac

# dt-schema (the binding and overlay checks): Debian 13 has it only in
# trixie-backports, whose .deb is fetched with an apt state in the cache
# (tests/aptfetch.sh) and installed as a local file, its dependencies from
# trixie itself; the host's sources stay as they were.
local_debs=()
if [ "$set" = check ]; then
	if [ "$release" = debian-12 ]; then
		packages+=(dt-schema)
	elif ! dpkg-query -W -f '${Status}' dt-schema 2>/dev/null | grep -q 'install ok installed'; then
		v=$(bash "$(dirname "$0")/aptfetch.sh" trixie-backports versions dt-schema | head -n1)
		[ -n "$v" ] || { echo "deps: no dt-schema in trixie-backports" >&2; exit 1; }
		mapfile -t local_debs < <(bash "$(dirname "$0")/aptfetch.sh" trixie-backports debs "dt-schema=$v")
	fi
fi

# once each (the demo's set and the guests' share a few on Debian 13)
mapfile -t packages < <(printf '%s\n' "${packages[@]}" | awk '!seen[$0]++')

installed() {
	dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=()
for p in "${packages[@]}"; do
	installed "$p" || missing+=("$p")
done
missing+=("${local_debs[@]}")
if [ "${#missing[@]}" -eq 0 ]; then
	echo "deps: all ${#packages[@]} packages for $set present" >&2
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to install: ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
trap 'echo "deps: installing the $set packages failed (above: what apt said). Needed: ${missing[*]}" >&2' ERR
apt-get update -qq >&2
echo "deps: installing ${missing[*]}" >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}
mkdir -p "$cache"
printf '%s\n' "${missing[@]}" | sed 's|^.*/\([^_/]*\)_[^/]*\.deb$|\1|' >> "$cache/apt-installed.txt"
