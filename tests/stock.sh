#!/bin/bash
# A pass on a Debian stock kernel (6.1 or 6.12): build the driver against its
# headers, boot Debian's own vmlinuz with its own modules (taken from
# linux-image-*-unsigned with dpkg-deb -x; nothing is installed to /boot),
# load the driver with i2c-stub and read the channels.
#
#   stock.sh BUILD_DIR SERIES   prints TAP lines; writes BUILD_DIR/stock-SERIES.{kernel,cpio.gz}
#                               for the caller to boot and collect
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(mkdir -p "$1" && cd "$1" && pwd) series=$2
# shellcheck source=tests/kvers.sh
. "$root/tests/kvers.sh"
# shellcheck source=tests/stock-lib.sh
. "$root/tests/stock-lib.sh"

kver=$(stock_kver "$series") || { echo "not ok - stock-$series: headers installed # see tests/deps.sh"; exit 1; }
headers=linux-headers-$kver
kdir=/lib/modules/$kver/build
version=$(dpkg-query -W -f '${Version}' "$headers")

stock=$(stock_fetch "$kver" "$version")

# The README's trigger advice rests on this: Debian's 6.12 ships the hrtimer
# and sysfs triggers, its 6.1 neither.
trig=$(find "$stock" -name 'iio-trig-hrtimer.ko*' -o -name 'iio-trig-sysfs.ko*' | wc -l)
case "$series:$trig" in
6.1:0) echo "ok - stock-$series: Debian's kernel has no hrtimer or sysfs trigger module" ;;
6.12:2) echo "ok - stock-$series: Debian's kernel ships iio-trig-hrtimer and iio-trig-sysfs" ;;
*) echo "not ok - stock-$series: trigger modules as the README says # found $trig of iio-trig-hrtimer/iio-trig-sysfs" ;;
esac

# Only the modules the suite needs, with their dependencies: the whole tree
# would make a 100 MB initramfs.
modroot=$build/stock-$series-modroot
stock_modroot "$stock" "$kver" "$modroot"

mod=$build/stock-$series-module
rm -rf "$mod"
mkdir -p "$mod"
cp -a "$root"/lps001wp.c "$root"/lps001wp.h "$root"/Kbuild "$root"/Kconfig "$root"/dkms.conf "$mod/"
mkdir -p "$mod/tests" && cp -a "$root/tests/kunit" "$mod/tests/"
rc=0
make -C "$kdir" M="$mod" W=1 modules > "$mod/build.log" 2>&1 || rc=1
grep -q 'warning:' "$mod/build.log" && rc=1
if [ "$rc" = 0 ]; then
	echo "ok - stock-$series: module builds against $headers with W=1, no warnings"
else
	tail -n 30 "$mod/build.log" >&2
	echo "not ok - stock-$series: module builds against $headers with W=1, no warnings"
	exit 1
fi

bash "$root/tests/initramfs.sh" "$build/stock-$series.cpio.gz" "$modroot" "$kver" "$mod/lps001wp.ko"
echo "$stock/boot/vmlinuz-$kver" > "$build/stock-$series.kernel"
