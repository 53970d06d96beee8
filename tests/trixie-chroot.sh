#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Debian 13 (trixie) environment with Linux 7.2's headers installed, for
# what needs installed headers of a kernel the host cannot have (`make
# install`, DKMS on 7.2): headers, dkms and build-essential come from trixie
# and trixie-backports, set in the chroot's own sources. The host's sources,
# packages and /lib/modules are neither changed nor seen.
#
#   trixie-chroot.sh                  prepare (or reuse) it; print its key
#   trixie-chroot.sh -- CMD [ARG...]  run CMD in a throw-away copy of it, the
#                                     project's tree read-only at /src
#
# The prepared chroot is cached as a tarball (and its unpacked tree) under
# the cache, keyed by the versions of the packages installed in it and by
# the recipe below; each run gets an overlay on it, discarded afterwards, so
# runs never see each other's dkms state. Needs root (debootstrap, mounts).
# Inside, CHROOT_KVER names the kernel release whose headers are installed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}
# Bump when the steps below change what is installed.
recipe=2
suites="trixie trixie-updates trixie-security trixie-backports"

die() { echo "trixie-chroot: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, mount)"
command -v debootstrap >/dev/null || die "debootstrap missing (apt-get install debootstrap)"
aptfetch() { bash "$root/tests/aptfetch.sh" "$suites" "$@"; }
# shellcheck source=tests/kvers.sh
. "$root/tests/kvers.sh"

# The 7.2 headers of the version of linux-source-7.2 the bench uses, so the
# chroot's headers and the stock 7.2 pass (tests/stock.sh) are one kernel.
read -r _ version < <(bash "$root/tests/kernel/source.sh" 7.2) || die "no linux-source-7.2 (tests/kernel/source.sh)"
hre=$(stock_headers_re 7.2)
avail=$(aptfetch list "(${hre%\$}|^build-essential|^dkms|^kmod|^openssl|^gcc-14)\$")
headers=$(awk -v v="$version" '$2 == v {print $1}' <<< "$avail" | grep -E "$hre" | tail -n1 || true)
[ -n "$headers" ] || die "no $hre of version $version in $suites"
kver=${headers#linux-headers-}
# The kernel's modules too, as on a machine running it: dkms runs depmod only
# where the kernel's modules.dep exists, and compresses as the kernel's
# modules are.
pkgs=("$headers=$version" "linux-modules-$kver=$version" build-essential dkms kmod openssl)
vers=()
for p in "${pkgs[@]:2}" gcc-14; do
	v=$(awk -v p="$p" '$1 == p {print $2}' <<< "$avail" | sort -V | tail -n1)
	[ -n "$v" ] || die "$p not found in $suites"
	vers+=("$p=$v")
done
key=$(printf '%s\n' "recipe $recipe" "${pkgs[@]:0:2}" "${vers[@]}" | sha256sum | cut -c1-16)
base=$cache/chroot-trixie-$key

mkdir -p "$cache"
exec 6>"$cache/.chroot.lock"
flock 6
if [ ! -f "$base.tar.zst" ]; then
	start=$(date +%s)
	mirror=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
		awk '/^URIs:/ {print $2} /^deb / {print $2}' | grep '/debian/\?$' | head -n1 || true)
	mirror=${mirror:-http://deb.debian.org/debian}
	tmp=$base.tmp
	rm -rf "$tmp"
	echo "trixie-chroot: debootstrap trixie (log: $tmp.log)" >&2
	debootstrap --variant=minbase trixie "$tmp" "$mirror" > "$tmp.log" 2>&1 ||
		{ tail -n 20 "$tmp.log" >&2; die "debootstrap failed"; }
	rm -f "$tmp"/etc/apt/sources.list
	cat > "$tmp/etc/apt/sources.list.d/debian.sources" <<-EOF
	Types: deb
	URIs: $mirror
	Suites: trixie trixie-updates trixie-backports
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

	Types: deb
	URIs: http://deb.debian.org/debian-security
	Suites: trixie-security
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	echo "trixie-chroot: installing ${pkgs[*]}" >&2
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m --propagation private bash -c '
		set -e
		mount -t proc proc "$1/proc"
		shift
		chroot "$@"' _ "$tmp" "$tmp" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive sh -c "apt-get update -qq &&
			apt-get install -y -qq --no-install-recommends ${pkgs[*]} &&
			apt-get clean && rm -rf /var/lib/apt/lists/*" >> "$tmp.log" 2>&1 ||
		{ tail -n 20 "$tmp.log" >&2; die "apt-get install in the chroot failed (log: $tmp.log)"; }
	if [ ! -d "$tmp/lib/modules/$kver/build" ] || [ ! -f "$tmp/lib/modules/$kver/modules.dep" ]; then
		die "no headers or no modules.dep for $kver in the chroot"
	fi
	echo "$kver" > "$tmp/etc/lps001wp-kver"
	tar -C "$tmp" --zstd -cf "$base.tar.zst.tmp" .
	mv "$base.tar.zst.tmp" "$base.tar.zst"
	rm -rf "$base"
	mv "$tmp" "$base"
	touch "$base/.ready"
	rm -f "$tmp.log"
	echo "trixie-chroot: prepared in $(( $(date +%s) - start ))s: $base.tar.zst ($(du -h "$base.tar.zst" | cut -f1))" >&2
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
unshare -m --propagation private bash -c '
	set -e
	base=$1 work=$2 src=$3
	shift 3
	mount -t overlay overlay -o "lowerdir=$base,upperdir=$work/upper,workdir=$work/ovl" "$work/root"
	mount -t proc proc "$work/root/proc"
	mkdir -p "$work/root/src"
	mount --bind "$src" "$work/root/src"
	mount -o remount,bind,ro "$work/root/src"
	exec chroot "$work/root" "$@"' _ "$base" "$work" "$root" \
	/usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
	CHROOT_KVER="$kver" "$@"
