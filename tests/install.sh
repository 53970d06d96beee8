#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make` + `make install` as the README tells users, against Debian's stock
# kernel headers of one series, installed into a scratch root
# (INSTALL_MOD_PATH) instead of /lib/modules: where the module lands, its
# suffix (6.12 and 7.3 compress modules with xz), and that depmod indexed it;
# then `make uninstall` takes it out again, and `make install` refuses a
# kernel that has DKMS's copy.
#
#   install.sh SERIES [KERNELRELEASE]   prints "ok - install: ..." lines
#
# KERNELRELEASE defaults to the newest installed headers of SERIES. 7.3's
# headers install only on Debian 13 with backports: the bench runs this in
# tests/debian-chroot.sh.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
series=$1 kver=${2:-}
# shellcheck source=tests/kvers.sh
. "$root/tests/kvers.sh"

fail() {
	echo "not ok - install: $1 # $2"
	exit 1
}
# five checks; one that fails ends the run (check.sh counts them)
plan install 5

[ -n "$kver" ] || kver=$(stock_kver "$series") || fail "headers installed" "see tests/deps.sh"
work=$(mktemp -d /tmp/lps001wp-install.XXXXXX)
trap 'rm -rf "$work"' EXIT
tar -C "$root" --exclude=./.git --exclude=./build -cf - . | tar -C "$work" -xf -
mkdir -p "$work/root"

make -C "$work" KERNELRELEASE="$kver" > "$work/build.log" 2>&1 ||
	{ tail -n 20 "$work/build.log" >&2; fail "make for $kver" "see the log above"; }
make -C "$work" KERNELRELEASE="$kver" INSTALL_MOD_PATH="$work/root" install > "$work/install.log" 2>&1 ||
	{ tail -n 20 "$work/install.log" >&2; fail "make install for $kver" "see the log above"; }
ko=$(cd "$work/root" && find . -name 'lps001wp.ko*' | sed 's|^\./|/|')
echo "ok - install: make install puts the module at $ko"
# INSTALL_MOD_DIR defaults to extra/ in 6.1's kbuild, updates/ in 6.12's and
# 7.3's (scripts/Makefile.modinst); Debian's 6.12 and 7.3 configs compress
# every module with xz (MODULE_COMPRESS_XZ, MODULE_COMPRESS_ALL), 6.1's none.
case $series in
6.1) want=/lib/modules/$kver/extra/lps001wp.ko ;;
6.12 | 7.3) want=/lib/modules/$kver/updates/lps001wp.ko.xz ;;
*) fail "the README's path" "no expectation for series $series" ;;
esac
[ "$ko" = "$want" ] || fail "the README's path $want" "found '$ko'"
echo "ok - install: the README's path $want"
grep -q "^${want#/lib/modules/"$kver"/}:" "$work/root/lib/modules/$kver/modules.dep" ||
	fail "depmod indexed it" "not in modules.dep"
echo "ok - install: depmod indexed it"

make -C "$work" KERNELRELEASE="$kver" INSTALL_MOD_PATH="$work/root" uninstall > "$work/uninstall.log" 2>&1 ||
	{ tail -n 20 "$work/uninstall.log" >&2; fail "make uninstall for $kver" "see the log above"; }
# depmod's own indexes (modules.dep, ...) are what may stay behind.
left=$(cd "$work/root" && find . ! -type d ! -path "./lib/modules/$kver/modules.*" | sed 's|^\./|/|')
[ -z "$left" ] || fail "make uninstall leaves only depmod's indexes" "left: $left"
[ ! -d "$work/root$(dirname "$want")" ] || fail "make uninstall leaves only depmod's indexes" "$(dirname "$want") is still there"
grep -q lps001wp "$work/root/lib/modules/$kver/modules.dep" &&
	fail "make uninstall leaves only depmod's indexes" "modules.dep still lists lps001wp"
echo "ok - install: make uninstall removes it and depmod forgets it"

mkdir -p "$work/root/lib/modules/$kver/updates/dkms"
: > "$work/root/lib/modules/$kver/updates/dkms/lps001wp.ko"
if make -C "$work" KERNELRELEASE="$kver" INSTALL_MOD_PATH="$work/root" install > "$work/mixed.log" 2>&1; then
	fail "make install refuses a kernel with DKMS's lps001wp" "it installed"
fi
grep -q 'DKMS installs lps001wp' "$work/mixed.log" ||
	{ tail -n 5 "$work/mixed.log" >&2; fail "make install refuses a kernel with DKMS's lps001wp" "not for that reason"; }
[ -z "$(cd "$work/root" && find . -name 'lps001wp.ko*' ! -path '*/updates/dkms/*')" ] ||
	fail "make install refuses a kernel with DKMS's lps001wp" "it copied the module anyway"
echo "ok - install: make install refuses a kernel with DKMS's lps001wp"
