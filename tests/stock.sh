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
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}
# shellcheck source=tests/kvers.sh
. "$root/tests/kvers.sh"

kver=$(stock_kver "$series") || { echo "not ok - stock-$series: headers installed # see tests/deps.sh"; exit 1; }
headers=linux-headers-$kver
kdir=/lib/modules/$kver/build
image=linux-image-$kver-unsigned
version=$(dpkg-query -W -f '${Version}' "$headers")

stock=$cache/stock-$kver-$version
if [ ! -f "$stock/.extracted" ]; then
	echo "stock: fetching $image $version" >&2
	rm -rf "$stock"
	mkdir -p "$stock/deb"
	(cd "$stock/deb" && apt-get download -qq -o APT::Sandbox::User=root "$image=$version") >&2
	dpkg-deb -x "$stock"/deb/*.deb "$stock/root"
	depmod -b "$stock/root" "$kver"
	touch "$stock/.extracted"
fi

# The README's trigger advice rests on this: Debian's 6.12 ships the hrtimer
# and sysfs triggers, its 6.1 neither.
trig=$(find "$stock/root" -name 'iio-trig-hrtimer.ko*' -o -name 'iio-trig-sysfs.ko*' | wc -l)
case "$series:$trig" in
6.1:0) echo "ok - stock-$series: Debian's kernel has no hrtimer or sysfs trigger module" ;;
6.12:2) echo "ok - stock-$series: Debian's kernel ships iio-trig-hrtimer and iio-trig-sysfs" ;;
*) echo "not ok - stock-$series: trigger modules as the README says # found $trig of iio-trig-hrtimer/iio-trig-sysfs" ;;
esac

# Only the modules the suite needs, with their dependencies: the whole tree
# would make a 100 MB initramfs. 6.12's are .ko.xz, which busybox's modprobe
# cannot load: they go in decompressed.
modroot=$build/stock-$series-modroot
rm -rf "$modroot"
mkdir -p "$modroot/lib/modules/$kver"
src=$stock/root/lib/modules/$kver
cp "$src"/modules.order "$src"/modules.builtin* "$modroot/lib/modules/$kver/"
for m in i2c-stub i2c-dev industrialio industrialio-triggered-buffer kfifo_buf regmap-i2c; do
	modprobe -S "$kver" -d "$stock/root" --show-depends "$m" 2>/dev/null |
		awk '$1 == "insmod" {print $2}'
done | sort -u | while read -r ko; do
	rel=${ko#"$stock/root"}
	mkdir -p "$modroot$(dirname "$rel")"
	case $ko in
	*.ko.xz) xz -dc "$ko" > "$modroot${rel%.xz}" ;;
	*) cp "$ko" "$modroot$rel" ;;
	esac
done

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
echo "$stock/root/boot/vmlinuz-$kver" > "$build/stock-$series.kernel"
