# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by tests/stock.sh, tests/package.sh and tests/demo.sh: Debian's
# own kernel image, unpacked in the cache (nothing goes to /boot), and the
# few of its modules a stock boot with i2c-stub or the simulator needs.
#
#   stock_kernel SUITES KVER VERSION
#       Debian's KVER packages of VERSION from SUITES (tests/aptfetch.sh):
#       the image (linux-image-KVER-unsigned; from 7.2 on linux-binary,
#       linux-modules and linux-base) and the headers with the common
#       headers and linux-kbuild they depend on, unpacked into one root in
#       the cache. Sets STOCK_ROOT, STOCK_VMLINUZ, STOCK_CONFIG, STOCK_MODDIR
#       and STOCK_HEADERS (a tree to build modules against: make -C it
#       M=...); on failure returns 1 with STOCK_ERR saying what failed
#   stock_fetch KVER VERSION [CHROOT]
#       prints the unpacked root of linux-image-KVER-unsigned=VERSION
#       (kept in $cache/stock-KVER-VERSION), downloaded with the host's apt
#       or, given CHROOT, with that Debian's apt
#   stock_modroot STOCKROOT KVER OUT [MODULE...]
#       OUT/lib/modules/KVER with i2c-stub, i2c-dev, the IIO core, the
#       kfifo and regmap-i2c modules, the MODULEs a guest needs besides
#       (the package's: st_pressure_i2c), and their dependencies,
#       uncompressed (busybox's modprobe cannot read .ko.xz)
: "${root:?stock-lib.sh needs root, the work tree}"
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

# shellcheck disable=SC2034 # the STOCK_ variables are for the caller
stock_kernel() {
	local suites=$1 kver=$2 version=$3 k abi pkgs mk
	k=$(stock_re_escape "$kver")
	abi=$(stock_re_escape "${kver%-*}")
	STOCK_ERR="apt lookup of Debian's $kver packages in '$suites' failed"
	pkgs=$(bash "$root/tests/aptfetch.sh" "$suites" find \
		"^linux-(image-$k-unsigned|binary-unsigned-$k|modules-$k|base-$k|headers-$k|headers-$abi-common|kbuild-[0-9][^ ]*)\$" \
		"$version") || return 1
	STOCK_ERR="no image of Debian's $kver of version $version in '$suites'"
	grep -qE '^linux-(image|binary)' <<< "$pkgs" || return 1
	mapfile -t pkgs <<< "$pkgs"
	STOCK_ERR="fetching Debian's $kver packages failed (see the log above)"
	STOCK_ROOT=$(bash "$root/tests/aptfetch.sh" "$suites" fetch "${pkgs[@]/%/=$version}") || return 1
	STOCK_HEADERS=$STOCK_ROOT/usr/src/linux-headers-$kver
	mk=$STOCK_HEADERS/Makefile
	# Once per root, one stage at a time (make check's demo and stock
	# stages share it).
	STOCK_ERR="preparing $STOCK_ROOT failed"
	# (set -e would be ignored here: the caller tests the function's status)
	(
		flock 9 || exit 1
		# 7.2's and 7.3's packages put everything under /usr/lib/modules/RELEASE
		# (vmlinuz, config, modules); older ones use /boot and /lib/modules.
		# The depmod and modprobe -d of Debian 12 look in ROOT/lib/modules only.
		[ -e "$STOCK_ROOT/lib" ] || ln -s usr/lib "$STOCK_ROOT/lib" || exit 1
		[ -f "$STOCK_ROOT/lib/modules/$kver/modules.dep" ] || depmod -b "$STOCK_ROOT" "$kver" || exit 1
		# The headers' Makefile includes the common headers' by absolute
		# path (/usr/src/linux-headers-ABI-common): here they are in the
		# cache (wherever it is now).
		if [ -f "$mk" ] && ! grep -qF "include $STOCK_ROOT/usr/src/" "$mk"; then
			sed -i "s|^include .*/usr/src/\(linux-headers-[^/]*/Makefile\)\$|include $STOCK_ROOT/usr/src/\1|" "$mk" || exit 1
		fi
	) 9> "$STOCK_ROOT.lock" || return 1
	STOCK_MODDIR=$STOCK_ROOT/lib/modules/$kver
	STOCK_VMLINUZ=$STOCK_ROOT/boot/vmlinuz-$kver STOCK_CONFIG=$STOCK_ROOT/boot/config-$kver
	[ -f "$STOCK_VMLINUZ" ] || STOCK_VMLINUZ=$STOCK_MODDIR/vmlinuz
	[ -f "$STOCK_VMLINUZ" ] || STOCK_VMLINUZ=$STOCK_MODDIR/vmlinuz.unsigned
	[ -f "$STOCK_CONFIG" ] || STOCK_CONFIG=$STOCK_MODDIR/config
	STOCK_ERR="no vmlinuz or config in $STOCK_ROOT"
	[ -f "$STOCK_VMLINUZ" ] && [ -f "$STOCK_CONFIG" ]
}

# stock_re_escape STRING: STRING as an extended regex matching itself
# (a kernel release has dots and, on Debian 13, a plus)
stock_re_escape() {
	local r=${1//./\\.}
	echo "${r//+/\\+}"
}

stock_modroot() {
	local sroot=$1 kver=$2 out=$3 src ko rel m
	shift 3
	src=$sroot/lib/modules/$kver
	for m in "$@"; do
		modprobe -S "$kver" -d "$sroot" --show-depends "$m" > /dev/null 2>&1 ||
			{ echo "stock_modroot: Debian's $kver has no module $m" >&2; return 1; }
	done
	rm -rf "$out"
	mkdir -p "$out/lib/modules/$kver"
	cp "$src"/modules.order "$src"/modules.builtin* "$out/lib/modules/$kver/"
	for m in i2c-stub i2c-dev industrialio industrialio-triggered-buffer kfifo_buf regmap-i2c "$@"; do
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
