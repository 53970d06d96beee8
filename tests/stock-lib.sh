# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by tests/stock.sh and tests/package.sh: Debian's own kernel
# image, unpacked in the cache (nothing goes to /boot), and the few of its
# modules a stock boot with i2c-stub needs.
#
#   stock_fetch KVER VERSION [CHROOT]
#       prints the unpacked root of linux-image-KVER-unsigned=VERSION
#       (kept in $cache/stock-KVER-VERSION), downloaded with the host's apt
#       or, given CHROOT, with that Debian's apt
#   stock_modroot STOCKROOT KVER OUT
#       OUT/lib/modules/KVER with i2c-stub, i2c-dev, the IIO core, the
#       kfifo and regmap-i2c modules and their dependencies, uncompressed
#       (busybox's modprobe cannot read .ko.xz)
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}

stock_fetch() {
	local kver=$1 version=$2 chroot=${3:-} image dir dl
	image=linux-image-$kver-unsigned
	dir=$cache/stock-$kver-$version
	mkdir -p "$cache"
	(
		set -e
		flock 9
		[ -f "$dir/.extracted" ] && exit 0
		echo "stock: fetching $image $version" >&2
		rm -rf "$dir"
		mkdir -p "$dir/deb"
		if [ -n "$chroot" ]; then
			dl=$(mktemp -d "$chroot/tmp/stock.XXXXXX")
			chroot "$chroot" /bin/sh -c "cd /tmp/${dl##*/} && apt-get download -qq -o APT::Sandbox::User=root $image=$version" >&2
			mv "$dl"/*.deb "$dir/deb/"
			rmdir "$dl"
		else
			(cd "$dir/deb" && apt-get download -qq -o APT::Sandbox::User=root "$image=$version") >&2
		fi
		dpkg-deb -x "$dir"/deb/*.deb "$dir/root"
		# Debian 13's packages ship /usr/lib/modules (merged /usr)
		[ -e "$dir/root/lib" ] || ln -s usr/lib "$dir/root/lib"
		depmod -b "$dir/root" "$kver"
		touch "$dir/.extracted"
	) 9> "$dir.lock" || return 1
	echo "$dir/root"
}

stock_modroot() {
	local sroot=$1 kver=$2 out=$3 src ko rel m
	src=$sroot/lib/modules/$kver
	rm -rf "$out"
	mkdir -p "$out/lib/modules/$kver"
	cp "$src"/modules.order "$src"/modules.builtin* "$out/lib/modules/$kver/"
	for m in i2c-stub i2c-dev industrialio industrialio-triggered-buffer kfifo_buf regmap-i2c; do
		modprobe -S "$kver" -d "$sroot" --show-depends "$m" 2>/dev/null |
			awk '$1 == "insmod" {print $2}'
	done | sort -u | while read -r ko; do
		rel=${ko#"$sroot"}
		mkdir -p "$out$(dirname "$rel")"
		case $ko in
		*.ko.xz) xz -dc "$ko" > "$out${rel%.xz}" ;;
		*.ko.zst) zstd -qdc "$ko" > "$out${rel%.zst}" ;;
		*) cp "$ko" "$out$rel" ;;
		esac
	done
}
