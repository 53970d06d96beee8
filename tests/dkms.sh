#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS packaging test (part of `make check`; needs root): dkms add, build and
# install this tree against Debian's linux-headers-amd64, check the installed
# .ko and its version, then dkms remove --all and check it is gone. Prints
# TAP lines "ok - dkms: <step>" / "not ok - dkms: <step> # <reason>" and
# exits non-zero on failure. Always removes what it added (trap).
#
#   dkms.sh [KERNELRELEASE]
#
# KERNELRELEASE (or DKMS_KVER): the kernel to build for (default: the version
# linux-headers-amd64 depends on, e.g. 6.1.0-57-amd64); its headers are
# installed when missing. 7.2's need Debian 13 with backports: the bench runs
# this in tests/debian-chroot.sh.
set -euo pipefail

DKMS_KVER=${1:-${DKMS_KVER:-}}
DKMS_PACKAGES="dkms linux-headers-${DKMS_KVER:-amd64} build-essential"

root=$(cd "$(dirname "$0")/.." && pwd)
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$root/dkms.conf")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$root/dkms.conf")
module=$(sed -n 's/^BUILT_MODULE_NAME\[0\]="\(.*\)"/\1/p' "$root/dkms.conf")

log() { echo "dkms.sh: $*" >&2; }
ok() { echo "ok - dkms: $1"; }
fail() {
	echo "not ok - dkms: $1 # $2"
	[ -n "${3:-}" ] && [ -f "$3" ] && tail -n 40 "$3" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || fail setup "needs root"
if [ -z "$name" ] || [ -z "$ver" ] || [ -z "$module" ]; then
	fail setup "dkms.conf lacks PACKAGE_NAME, PACKAGE_VERSION or BUILT_MODULE_NAME[0]"
fi

missing=()
for p in $DKMS_PACKAGES; do
	if [ "$(dpkg-query -W -f '${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
		missing+=("$p")
	fi
done
if [ "${#missing[@]}" -gt 0 ]; then
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
		{ apt-get update >&2 && apt-get install -y --no-install-recommends "${missing[@]}" >&2; }
fi

kver=${DKMS_KVER:-$(dpkg-query -W -f '${Depends}' linux-headers-amd64 |
	sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p')}
[ -d "/lib/modules/$kver/build" ] || fail setup "no headers at /lib/modules/$kver/build"

# One DKMS round trip at a time on a machine: every run adds and removes the
# same module/version in the one /var/lib/dkms (make check's stages for two
# kernels run side by side).
lockdir=${LPS001WP_CACHE:-/var/cache/lps001wp}
mkdir -p "$lockdir"
exec 7>"$lockdir/.dkms.lock"
flock 7

work=$(mktemp -d /tmp/lps001wp-dkms.XXXXXX)
src=$work/$name-$ver

# Remove every trace of $name/$ver from dkms and /usr/src. Used before the
# test (a leftover from an earlier run or a real install would make
# `dkms add` fail) and on exit.
purge() {
	if [ -n "$(dkms status -m "$name" -v "$ver" 2>/dev/null)" ]; then
		dkms remove -m "$name" -v "$ver" --all >&2 || true
	fi
	rm -rf "/var/lib/dkms/$name/$ver" "/usr/src/$name-$ver"
	rmdir "/var/lib/dkms/$name" 2>/dev/null || true
}
trap 'purge; rm -rf "$work"' EXIT
purge

# What a user's clone holds, minus git metadata and build products.
mkdir -p "$src"
tar -C "$root" --exclude=./.git --exclude='*.o' --exclude='*.ko' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' \
	--exclude='*.a' --exclude=modules.order --exclude=Module.symvers \
	-cf - . | tar -C "$src" -xf -

if dkms add "$src" >"$work/add.log" 2>&1; then
	ok "add $name/$ver"
else
	fail "add $name/$ver" "dkms add failed" "$work/add.log"
fi

if dkms build -m "$name" -v "$ver" -k "$kver" >"$work/build.log" 2>&1; then
	ok "build for $kver"
else
	cp "/var/lib/dkms/$name/$ver/build/make.log" "$work/make.log" 2>/dev/null || true
	fail "build for $kver" "dkms build failed" "$work/make.log"
fi

if dkms install -m "$name" -v "$ver" -k "$kver" >"$work/install.log" 2>&1; then
	ok "install for $kver"
else
	fail "install for $kver" "dkms install failed" "$work/install.log"
fi

status=$(dkms status -m "$name" -v "$ver" -k "$kver" 2>&1)
case "$status" in
*": installed"*) ok "status says installed" ;;
*) fail "status says installed" "dkms status: $status" ;;
esac

# depmod ran: modinfo -k finds the module by name.
ko=$(modinfo -k "$kver" -F filename "$module" 2>/dev/null || true)
case "$ko" in
"/lib/modules/$kver/updates/dkms/$module.ko"* | "/lib/modules/$kver/kernel/drivers/iio/pressure/$module.ko"*)
	[ -f "$ko" ] || fail "installed .ko" "$ko missing"
	ok "installed .ko: $ko"
	;;
"") fail "installed .ko" "modinfo -k $kver $module finds nothing" ;;
*) fail "installed .ko" "unexpected location $ko" ;;
esac

modver=$(modinfo -F version "$ko")
if [ "$modver" = "$ver" ]; then
	ok "modinfo version = $ver"
else
	fail "modinfo version = $ver" "modinfo says '$modver'"
fi

vermagic=$(modinfo -F vermagic "$ko")
case "$vermagic" in
"$kver "*) ok "vermagic $kver" ;;
*) fail "vermagic $kver" "vermagic is '$vermagic'" ;;
esac

# dkms 3.0.10 signs with its MOK key (/var/lib/dkms/mok.key, made on first
# use) when the kernel has CONFIG_MODULE_SIG: check the signature is there.
if grep -qx 'CONFIG_MODULE_SIG=y' "/lib/modules/$kver/build/.config" 2>/dev/null; then
	signer=$(modinfo -F signer "$ko")
	if [ -n "$signer" ]; then
		ok "signed (signer: $signer)"
	else
		fail "signed" "no module signature"
	fi
fi

if dkms remove -m "$name" -v "$ver" --all >"$work/remove.log" 2>&1; then
	ok "remove --all"
else
	fail "remove --all" "dkms remove failed" "$work/remove.log"
fi

if [ -e "$ko" ]; then
	fail "gone after remove" "$ko still exists"
elif modinfo -k "$kver" "$module" >/dev/null 2>&1; then
	fail "gone after remove" "modinfo -k $kver still finds $module"
elif [ -n "$(dkms status -m "$name" -v "$ver" 2>/dev/null)" ]; then
	fail "gone after remove" "dkms status still lists $name/$ver"
else
	ok "gone after remove"
fi
