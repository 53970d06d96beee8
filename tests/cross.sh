#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Cross builds for the boards' architectures (part of `make check`): the
# driver against 6.1, 6.12 and 7.3 trees prepared for arm64 (defconfig, 64-bit
# Raspberry Pi OS and Debian arm64) and 32-bit ARM (multi_v7_defconfig, the
# older Pis), W=1, no warnings, and the .ko's ELF machine checked; and
# lps001wp.h's #error for kernels before 6.1.
# Prints "ok - cross: ..." / "not ok - cross: ..." lines.
#
#   cross.sh [BUILD_DIR]     CROSS_SERIES="6.1 6.12 7.3" (default) picks the series
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
build=$(mkdir -p "${1:-$root/build}" && cd "${1:-$root/build}" && pwd)
rc=0
targets=("arm64 defconfig aarch64-linux-gnu- AArch64" "arm multi_v7_defconfig arm-linux-gnueabihf- ARM")
# per series and target: the build, the ELF machine
plan cross $(($(wc -w <<< "${CROSS_SERIES:-6.1 6.12 7.3}") * ${#targets[@]} * 2))

for series in ${CROSS_SERIES:-6.1 6.12 7.3}; do
	for target in "${targets[@]}"; do
		read -r arch config cross machine <<< "$target"
		name="$series $arch ($config)"
		if ! kdir=$(bash "$root/tests/kernel/prepare.sh" "$series" "$arch" "$config"); then
			echo "not ok - cross: $name tree prepared # see the log above"
			rc=1
			continue
		fi
		out=$build/cross-$series-$arch
		rm -rf "$out"
		copy_driver "$out"
		if make -C "$kdir" M="$out" ARCH="$arch" CROSS_COMPILE="$cross" W=1 \
			KBUILD_MODPOST_WARN=1 modules > "$out/build.log" 2>&1 &&
			! grep -q 'warning:' "$out/build.log"; then
			echo "ok - cross: $name builds with W=1, no warnings"
		else
			grep -B2 -A4 'warning:\|error:' "$out/build.log" | head -n 40 >&2
			echo "not ok - cross: $name builds with W=1, no warnings # see $out/build.log"
			rc=1
			continue
		fi
		got=$(readelf -h "$out/lps001wp.ko" | sed -n 's/^ *Machine: *//p')
		if [ "$got" = "$machine" ]; then
			echo "ok - cross: $name lps001wp.ko is ELF machine $machine"
		else
			echo "not ok - cross: $name lps001wp.ko is ELF machine $machine # readelf says '$got'"
			rc=1
		fi
	done
done

# lps001wp.h's floor: the version.h of the 6.1 tree prepared above with
# LINUX_VERSION_CODE set to 5.15 (Ubuntu 22.04's first kernel) or 6.0
# stops the preprocessor at its #error, which says what to do; as the tree
# has it, and 6.1.0 itself, it passes.
plan kernel-floor 1
floor=$build/kernel-floor
name="kernel-floor: lps001wp.h stops 5.15 and 6.0 at its #error, passes 6.1.0 and the tree's 6.1"
if kdir=$(bash "$root/tests/kernel/prepare.sh" 6.1 arm64 defconfig 2> /dev/null) &&
	version_h=$kdir/include/generated/uapi/linux/version.h && [ -f "$version_h" ]; then
	rm -rf "$floor"
	mkdir -p "$floor/tree/linux" "$floor/include/linux"
	: > "$floor/include/linux/bits.h"
	why=
	for v in "5 15 0 error" "6 0 19 error" "6 1 0 ok" "tree ok"; do
		read -r a b c want <<< "$v"
		if [ "$a" = tree ]; then
			cp "$version_h" "$floor/include/linux/version.h"
			want=$b
		else
			sed "s/^#define LINUX_VERSION_CODE .*/#define LINUX_VERSION_CODE $(((a << 16) + (b << 8) + c))/" \
				"$version_h" > "$floor/include/linux/version.h"
		fi
		got=ok
		gcc -E -P -I "$floor/include" "$root/lps001wp.h" -o /dev/null 2> "$floor/cpp.log" || got=error
		if [ "$got" = error ] && ! grep -q '#error "lps001wp needs Linux 6.1 or later' "$floor/cpp.log"; then
			got="another error: $(grep -m1 'error' "$floor/cpp.log")"
		fi
		[ "$got" = "$want" ] || why="${why:+$why; }$a.$b.$c: $got, not $want"
	done
	if [ -z "$why" ]; then
		echo "ok - $name"
	else
		echo "not ok - $name # $why"
		rc=1
	fi
else
	echo "not ok - $name # no 6.1 arm64 tree's version.h"
	rc=1
fi
exit "$rc"
