#!/bin/bash
# A pass on a Debian stock kernel (6.1, 6.12 or 7.3): build the driver for it,
# boot Debian's own vmlinuz with its own modules (fetched with
# tests/aptfetch.sh and unpacked with dpkg-deb -x; nothing is installed to
# /boot or /lib/modules), load the driver with i2c-stub and read the channels.
#
#   stock.sh BUILD_DIR SERIES   prints TAP lines; writes BUILD_DIR/stock-SERIES.{kernel,cpio.gz}
#                               for the caller to boot and collect
#
# The driver is built against the kernel's installed headers where the host
# has them (tests/kvers.sh). Where it cannot install them (Debian 12: 7.3,
# whose kbuild needs a newer libc and gcc-14; Debian 13: 6.1, gone from the
# release), it is built in a tree prepared from linux-source-SERIES with the
# image's own config, release string and Module.symvers, so vermagic (and,
# with MODVERSIONS, the symbol CRCs) match and the stock kernel loads it. The
# image then is the one of the source's version, from the release that
# carries that source. STOCK_PREPARED=1 takes that path even where headers
# are installed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd) series=$2
# shellcheck source=tests/kvers.sh
. "$root/tests/kvers.sh"
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
# shellcheck source=tests/stock-lib.sh
. "$root/tests/stock-lib.sh"

fail() {
	echo "not ok - stock-$series: $1 # $2"
	exit 1
}
aptfetch() { bash "$root/tests/aptfetch.sh" "$@"; }
# fetched, trigger modules, build, vermagic (the boot is check.sh's)
plan "stock-$series" 4

if [ "${STOCK_PREPARED:-0}" != 1 ] && kver=$(stock_kver "$series"); then
	how=headers
	suites=host
	version=$(dpkg-query -W -f '${Version}' "linux-headers-$kver")
else
	how=prepared
	read -r _ version < <(bash "$root/tests/kernel/source.sh" "$series") ||
		fail "linux-source-$series" "neither its headers nor its source can be had (see tests/kernel/source.sh)"
	suites=$(bash "$root/tests/kernel/source.sh" --suites "$series")
	kver=$(aptfetch "$suites" find "$(stock_headers_re "$series")" "$version" | tail -n1) ||
		fail "Debian kernel of linux-source-$series $version" "apt lookup in '$suites' failed"
	kver=${kver#linux-headers-}
	[ -n "$kver" ] ||
		fail "Debian kernel of linux-source-$series $version" "no amd64 headers of that version in '$suites'"
fi

# The image and the headers (tests/stock-lib.sh)
stock_kernel "$suites" "$kver" "$version" || fail "Debian's $kver packages fetched" "$STOCK_ERR"
stock=$STOCK_ROOT moddir=$STOCK_MODDIR vmlinuz=$STOCK_VMLINUZ config=$STOCK_CONFIG
echo "ok - stock-$series: Debian's $kver ($version) fetched without touching the host's apt state"

# The README's trigger advice rests on this: Debian's 6.12 and 7.3 ship the
# hrtimer and sysfs triggers, its 6.1 neither.
trig=$(find "$moddir/" -name 'iio-trig-hrtimer.ko*' -o -name 'iio-trig-sysfs.ko*' | wc -l)
case "$series:$trig" in
6.1:0) echo "ok - stock-$series: Debian's kernel has no hrtimer or sysfs trigger module" ;;
6.12:2 | 7.3:2) echo "ok - stock-$series: Debian's kernel ships iio-trig-hrtimer and iio-trig-sysfs" ;;
*) echo "not ok - stock-$series: trigger modules as the README says # found $trig of iio-trig-hrtimer/iio-trig-sysfs" ;;
esac

if [ "$how" = headers ]; then
	kdir=/lib/modules/$kver/build
	what="linux-headers-$kver"
else
	kdir=$(bash "$root/tests/kernel/prepare.sh" "$series" x86_64 "$config" "$kver") ||
		fail "tree prepared from linux-source-$series with Debian's $kver config" "tests/kernel/prepare.sh failed"
	cp "$stock/usr/src/linux-headers-$kver/Module.symvers" "$kdir/Module.symvers" ||
		fail "Debian's Module.symvers" "not in linux-headers-$kver"
	what="linux-source-$series prepared as $kver"
fi

# Only the modules the suite needs, with their dependencies: the whole tree
# would make a 100 MB initramfs. 6.12's and 7.3's are .ko.xz, which busybox's
# modprobe cannot load: they go in decompressed.
modroot=$build/stock-$series-modroot
stock_modroot "$stock" "$kver" "$modroot"
[ -n "$(find "$modroot" -name 'i2c-stub.ko')" ] || fail "i2c-stub in Debian's $kver modules" "not found under $moddir"

mod=$build/stock-$series-module
rm -rf "$mod"
copy_driver "$mod" kunit
rc=0
make -C "$kdir" M="$mod" W=1 modules > "$mod/build.log" 2>&1 || rc=1
grep -q 'warning:' "$mod/build.log" && rc=1
if [ "$rc" = 0 ]; then
	echo "ok - stock-$series: module builds against $what with W=1, no warnings"
else
	grep -B2 -A4 'warning:\|error:\|ERROR' "$mod/build.log" | head -n 40 >&2 || true
	fail "module builds against $what with W=1, no warnings" "see $mod/build.log"
fi
vermagic=$(modinfo -F vermagic "$mod/lps001wp.ko")
case "$vermagic" in
"$kver "*) echo "ok - stock-$series: vermagic $vermagic" ;;
*) fail "vermagic $kver ..." "modinfo says '$vermagic'" ;;
esac

bash "$root/tests/initramfs.sh" "$build/stock-$series.cpio.gz" "$modroot" "$kver" "$mod/lps001wp.ko"
echo "$vmlinuz" > "$build/stock-$series.kernel"
