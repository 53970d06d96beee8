#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The driver on the Pi's architecture, loaded and read (part of `make
# check`): Debian's stock arm64 6.12 kernel under qemu-system-aarch64 (TCG,
# virt), the driver built for it in linux-source-6.12 configured with the
# image's own config, release string and Module.symvers (so vermagic and the
# symbol CRCs match and the kernel loads it), and the i2c-stub suite.
#
#   arm64.sh BUILD_DIR    prints TAP lines; writes BUILD_DIR/arm64.{kernel,cpio.gz}
#
# Debian's arm64 packages are fetched with tests/aptfetch.sh (apt's lists and
# archives kept in the cache, not in the host's apt state): the host's dpkg
# architectures and package lists stay as they were.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
build=$(mkdir -p "$1" && cd "$1" && pwd)

fail() {
	echo "not ok - arm64: $1 # $2"
	exit 1
}

aptfetch() { APTFETCH_ARCH=arm64 bash "$root/tests/aptfetch.sh" "$@"; }
# fetched, build, vermagic, i2c-stub (the boot is check.sh's)
plan arm64 4

# The symbol CRCs come from the source: the image is the one built from the
# linux-source-6.12 the bench has, taken from the release that carries that
# source (Debian 12: bookworm-security's +deb12; Debian 13: trixie's +deb13).
read -r _ src_version < <(bash "$root/tests/kernel/source.sh" 6.12) ||
	fail "linux-source-6.12" "none on the host or fetchable (see tests/kernel/source.sh)"
suites=$(bash "$root/tests/kernel/source.sh" --suites 6.12)
headers=$(aptfetch "$suites" find '^linux-headers-6[.]12[.][0-9]+([+]deb[0-9]+([.][0-9]+)?)?-arm64$' "$src_version" | tail -n1) ||
	fail "Debian arm64 image" "apt lookup in '$suites' (arm64) failed"
[ -n "$headers" ] || fail "Debian arm64 image of linux-source-6.12 $src_version" "none in '$suites' (arm64)"
release=${headers#linux-headers-}
version=$src_version
bb=$(aptfetch "$suites" versions busybox-static | head -n1)
[ -n "$bb" ] || fail "busybox-static (arm64)" "not in '$suites'"
root_arm64=$(aptfetch "$suites" fetch "linux-image-$release-unsigned=$version" "$headers=$version" \
	"busybox-static=$bb") || fail "Debian's arm64 $release fetched" "see the log above"
pkgs=${root_arm64%/root}
# Debian 13's packages put the modules under /usr/lib/modules; the depmod
# and modprobe -d of Debian 12 look in ROOT/lib/modules only.
[ -e "$pkgs/root/lib" ] || ln -s usr/lib "$pkgs/root/lib"
moddir=$pkgs/root/lib/modules/$release
[ -f "$moddir/modules.dep" ] || depmod -b "$pkgs/root" "$release"
vmlinuz=$pkgs/root/boot/vmlinuz-$release config=$pkgs/root/boot/config-$release
[ -f "$vmlinuz" ] || vmlinuz=$moddir/vmlinuz
[ -f "$config" ] || config=$moddir/config
[ -f "$vmlinuz" ] || fail "Debian arm64 image" "no vmlinuz in $pkgs/root"
echo "ok - arm64: Debian's arm64 kernel $release fetched without touching the host's apt state"

kdir=$(bash "$root/tests/kernel/prepare.sh" 6.12 arm64 "$config" "$release") ||
	fail "tree prepared with Debian's arm64 config" "tests/kernel/prepare.sh failed"
cp "$pkgs/root/usr/src/linux-headers-$release/Module.symvers" "$kdir/Module.symvers"

out=$build/arm64-module
rm -rf "$out"
copy_driver "$out"
if make -C "$kdir" M="$out" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- W=1 modules > "$out/build.log" 2>&1 &&
	! grep -q 'warning:' "$out/build.log"; then
	echo "ok - arm64: module builds for $release with W=1, no warnings, every symbol resolved"
else
	grep -B2 -A4 'warning:\|error:\|ERROR' "$out/build.log" | head -n 40 >&2 || true
	fail "module builds for $release with W=1, no warnings, every symbol resolved" "see $out/build.log"
fi
vermagic=$(modinfo -F vermagic "$out/lps001wp.ko")
case "$vermagic" in
"$release "*aarch64*) echo "ok - arm64: vermagic $vermagic" ;;
*) fail "vermagic $release ... aarch64" "modinfo says '$vermagic'" ;;
esac

# Debian's arm64 kernel has no i2c-stub (CONFIG_I2C_STUB is not set): build
# it from the same source against the same tree, so that kernel loads it.
stub=$build/arm64-i2c-stub
rm -rf "$stub"
mkdir -p "$stub"
cp "$kdir/source/drivers/i2c/i2c-stub.c" "$stub/"
echo 'obj-m := i2c-stub.o' > "$stub/Kbuild"
make -C "$kdir" M="$stub" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- modules > "$stub/build.log" 2>&1 ||
	{ tail -n 20 "$stub/build.log" >&2; fail "i2c-stub builds for $release" "see $stub/build.log"; }
echo "ok - arm64: i2c-stub (not in Debian's arm64 config) builds for $release from the same source"

# The stub suite's modules, decompressed (busybox's modprobe wants .ko).
modroot=$build/arm64-modroot
rm -rf "$modroot"
mkdir -p "$modroot/lib/modules/$release"
cp "$moddir"/modules.order "$moddir"/modules.builtin* "$modroot/lib/modules/$release/"
for m in i2c-dev industrialio industrialio-triggered-buffer kfifo_buf regmap-i2c; do
	modprobe -S "$release" -d "$pkgs/root" --show-depends "$m" 2>/dev/null |
		awk '$1 == "insmod" {print $2}'
done | sort -u | while read -r ko; do
	rel=lib/modules/$release/${ko#"$moddir"/}
	mkdir -p "$modroot/$(dirname "$rel")"
	case $ko in
	*.ko.xz) xz -dc "$ko" > "$modroot/${rel%.xz}" ;;
	*) cp "$ko" "$modroot/$rel" ;;
	esac
done
[ -n "$(find "$modroot" -name 'industrialio.ko')" ] || fail "IIO core in Debian's arm64 modules" "not found under $moddir"

# Debian 13's busybox-static installs to /usr/bin.
busybox=$pkgs/root/bin/busybox
[ -f "$busybox" ] || busybox=$pkgs/root/usr/bin/busybox
BENCH_BUSYBOX=$busybox BENCH_MINIMAL=1 \
	bash "$root/tests/initramfs.sh" "$build/arm64.cpio.gz" "$modroot" "$release" "$out/lps001wp.ko" "$stub/i2c-stub.ko"
echo "$vmlinuz" > "$build/arm64.kernel"
