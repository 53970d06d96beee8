#!/bin/bash
# Second pass on Debian's stock 6.1 kernel: build the driver against
# linux-headers-amd64, boot Debian's own vmlinuz with its own modules (taken
# from linux-image-*-unsigned with dpkg-deb -x; nothing is installed to
# /boot), load the driver with i2c-stub and read the channels.
#
#   stock.sh BUILD_DIR      prints TAP lines; the caller boots and collects
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}

headers=$(dpkg-query -W -f '${Depends}' linux-headers-amd64 | sed -n 's/^\(linux-headers-[^ ,]*\).*/\1/p')
kver=${headers#linux-headers-}
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

# Only the modules the suite needs, with their dependencies: the whole tree
# would make a 100 MB initramfs.
modroot=$build/stock-modroot
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
	cp "$ko" "$modroot$rel"
done

rm -rf "$build/stock-module"
mkdir -p "$build/stock-module"
cp -a "$root"/lps001wp.c "$root"/lps001wp.h "$root"/Kbuild "$root"/Kconfig "$root"/dkms.conf "$build/stock-module/"
mkdir -p "$build/stock-module/tests" && cp -a "$root/tests/kunit" "$build/stock-module/tests/"
rc=0
make -C "$kdir" M="$build/stock-module" W=1 modules > "$build/stock-module/build.log" 2>&1 || rc=1
grep -q 'warning:' "$build/stock-module/build.log" && rc=1
if [ "$rc" = 0 ]; then
	echo "ok - stock: module builds against $headers with W=1, no warnings"
else
	tail -n 30 "$build/stock-module/build.log" >&2
	echo "not ok - stock: module builds against $headers with W=1, no warnings"
	exit 1
fi

bash "$root/tests/initramfs.sh" "$build/initramfs-stock.cpio.gz" "$modroot" "$kver" "$build/stock-module/lps001wp.ko"
echo "$stock/root/boot/vmlinuz-$kver" > "$build/stock-kernel"
