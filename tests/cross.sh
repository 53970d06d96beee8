#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Cross builds for the boards' architectures (part of `make check`): the
# driver against 6.1, 6.12 and 7.3 trees prepared for arm64 (defconfig, 64-bit
# Raspberry Pi OS and Debian arm64) and 32-bit ARM (multi_v7_defconfig, the
# older Pis), W=1, no warnings, and the .ko's ELF machine checked.
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
exit "$rc"
