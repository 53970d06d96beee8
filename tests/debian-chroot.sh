#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Debian environment with one stock kernel series' headers and modules
# installed, for what needs installed headers of a kernel the host cannot
# have (`make install`, DKMS): 7.3 in Debian 13 (trixie) with
# trixie-backports, 6.1 in Debian 12 (bookworm, for a Debian 13 host, which
# has no 6.1), 6.12 in Debian 13 (for a Debian 12 host, whose 6.12 headers
# would install their kernel image beside the running one). Everything
# comes from the chroot's own sources; the host's sources, packages and
# /lib/modules are neither changed nor seen.
#
#   debian-chroot.sh SERIES                  prepare (or reuse) it; print its key
#   debian-chroot.sh SERIES -- CMD [ARG...]  run CMD in a throw-away copy of
#                                            it, the project's tree read-only at /src
#
# The prepared chroot is cached as a tarball (and its unpacked tree) under
# the cache, keyed by the versions of the packages installed in it
# (compiler included) and by the recipe below; each run gets an overlay on
# it, discarded afterwards, so runs never see each other's dkms state. Needs
# root (debootstrap, mounts). Inside, CHROOT_KVER names the kernel release
# whose headers are installed. CHROOT_APT_ARCHIVES=DIR keeps apt's
# downloads in DIR across runs (bound at /var/cache/apt/archives).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}
# Bump when the steps below change what is installed.
recipe=3
series=${1:?usage: debian-chroot.sh SERIES [-- CMD...]}
shift
case $series in
7.3) release=trixie backports=trixie-backports ;;
6.1) release=bookworm backports= ;;
6.12) release=trixie backports= ;;
*) echo "debian-chroot: no Debian release for series $series" >&2; exit 2 ;;
esac
suites="$release $release-updates $release-security${backports:+ $backports}"

die() { echo "debian-chroot: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, mount)"
command -v debootstrap >/dev/null || die "debootstrap missing (apt-get install debootstrap)"
# The mounts below live in a private mount namespace. Inside a chroot whose
# root is not a mount point (a build chroot, fresh-check), / cannot be made
# private: util-linux 2.41 (Debian 13) refuses, 2.38 went on. There the
# mounts stay in the new namespace unless the enclosing mount is shared.
propagation=private
unshare -m --propagation private true 2>/dev/null || propagation=unchanged
[ -f "/usr/share/debootstrap/scripts/$release" ] || die "this debootstrap does not know $release (upgrade debootstrap)"
aptfetch() { bash "$root/tests/aptfetch.sh" "$suites" "$@"; }
# shellcheck source=tests/kvers.sh
. "$root/tests/kvers.sh"

# The headers of the version of linux-source-SERIES the bench uses where
# the release has it (the stock pass, tests/stock.sh, then tests the same
# kernel), else the release's newest.
read -r _ srcver < <(bash "$root/tests/kernel/source.sh" "$series" 2>/dev/null) || srcver=
hre=$(stock_headers_re "$series")
kre="^linux-(headers|modules|image)-${hre#^linux-headers-}"
avail=$(aptfetch list "(${kre%\$}|^build-essential|^dkms|^kmod|^openssl|^gcc-[0-9]+)\$")
hlist=$(re=$hre awk '$1 ~ ENVIRON["re"]' <<< "$avail" | sort -V)
read -r headers version < <(awk -v v="$srcver" '$2 == v' <<< "$hlist" | tail -n1) ||
	read -r headers version < <(tail -n1 <<< "$hlist") || true
[ -n "$headers" ] || die "no $hre in $suites"
kver=${headers#linux-headers-}
# The kernel's modules too, as on a machine running it: dkms runs depmod only
# where the kernel's modules.dep exists, and compresses as the kernel's
# modules are. From 7.2 on (7.3 included) they are a package of their own.
if grep -qx "linux-modules-$kver $version" <<< "$avail"; then
	modpkg=linux-modules-$kver
else
	modpkg=linux-image-$kver
fi
pkgs=("$headers=$version" "$modpkg=$version" build-essential dkms kmod openssl)
vers=()
for p in "${pkgs[@]:2}"; do
	v=$(awk -v p="$p" '$1 == p {print $2}' <<< "$avail" | sort -V | tail -n1)
	[ -n "$v" ] || die "$p not found in $suites"
	vers+=("$p=$v")
done
key=$( {
	printf '%s\n' "recipe $recipe $release" "${pkgs[@]:0:2}" "${vers[@]}"
	grep '^gcc-[0-9]* ' <<< "$avail" | sort
} | sha256sum | cut -c1-16)
base=$cache/chroot-$release-$key

mkdir -p "$cache"
exec 6>"$cache/.chroot-$release.lock"
flock 6
if [ ! -f "$base.tar.zst" ]; then
	start=$(date +%s)
	mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
		awk '/^URIs:/ {print $2} /^deb / {print $2}' | grep '/debian/\?$' | head -n1 || true)
	mirror=${mirror:-http://deb.debian.org/debian}
	tmp=$base.tmp
	rm -rf "$tmp"
	echo "debian-chroot: debootstrap $release (log: $tmp.log)" >&2
	debootstrap --variant=minbase "$release" "$tmp" "$mirror" > "$tmp.log" 2>&1 ||
		{ tail -n 20 "$tmp.log" >&2; die "debootstrap failed"; }
	rm -f "$tmp"/etc/apt/sources.list
	cat > "$tmp/etc/apt/sources.list.d/debian.sources" <<-EOF
	Types: deb
	URIs: $mirror
	Suites: $release $release-updates${backports:+ $backports}
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

	Types: deb
	URIs: http://deb.debian.org/debian-security
	Suites: $release-security
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	echo "debian-chroot: installing ${pkgs[*]}" >&2
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m --propagation "$propagation" bash -c '
		set -e
		mount -t proc proc "$1/proc"
		shift
		chroot "$@"' _ "$tmp" "$tmp" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive INITRD=No sh -c "apt-get update -qq &&
			apt-get install -y -qq --no-install-recommends ${pkgs[*]} &&
			apt-get clean && rm -rf /var/lib/apt/lists/*" >> "$tmp.log" 2>&1 ||
		{ tail -n 20 "$tmp.log" >&2; die "apt-get install in the chroot failed (log: $tmp.log)"; }
	# build links to /usr/src: an absolute link, to follow inside the chroot
	if ! chroot "$tmp" test -f "/lib/modules/$kver/build/Makefile" ||
		[ ! -f "$tmp/lib/modules/$kver/modules.dep" ]; then
		die "no headers or no modules.dep for $kver in the chroot"
	fi
	echo "$kver" > "$tmp/etc/lps001wp-kver"
	tar -C "$tmp" --zstd -cf "$base.tar.zst.tmp" .
	mv "$base.tar.zst.tmp" "$base.tar.zst"
	rm -rf "$base"
	mv "$tmp" "$base"
	touch "$base/.ready"
	rm -f "$tmp.log"
	echo "debian-chroot: prepared in $(( $(date +%s) - start ))s: $base.tar.zst ($(du -h "$base.tar.zst" | cut -f1))" >&2
elif [ ! -f "$base/.ready" ]; then
	rm -rf "$base"
	mkdir -p "$base"
	tar -C "$base" --zstd -xf "$base.tar.zst"
	touch "$base/.ready"
fi
flock -u 6

if [ "${1:-}" != -- ]; then
	echo "$key"
	exit 0
fi
shift

work=$(mktemp -d /tmp/lps001wp-chroot.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/upper" "$work/ovl" "$work/root"
# A private mount namespace: every mount goes away with the command.
# shellcheck disable=SC2016 # expanded by the inner shell
unshare -m --propagation "$propagation" bash -c '
	set -e
	base=$1 work=$2 src=$3
	shift 3
	mount -t overlay overlay -o "lowerdir=$base,upperdir=$work/upper,workdir=$work/ovl" "$work/root"
	mount -t proc proc "$work/root/proc"
	mkdir -p "$work/root/src"
	mount --bind "$src" "$work/root/src"
	mount -o remount,bind,ro "$work/root/src"
	if [ -n "${CHROOT_APT_ARCHIVES:-}" ]; then
		mkdir -p "$CHROOT_APT_ARCHIVES/partial"
		mount --bind "$CHROOT_APT_ARCHIVES" "$work/root/var/cache/apt/archives"
	fi
	exec chroot "$work/root" "$@"' _ "$base" "$work" "$root" \
	/usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
	CHROOT_KVER="$kver" "$@"
