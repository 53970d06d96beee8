#!/bin/bash
# make demo: boot the simulated board in QEMU and show live readings.
# Sets itself up like make check (packages, cached test kernel, modules).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BENCH_BUILD:-$root/build}
mkdir -p "$build"

bash "$root/tests/deps.sh"
kdir=$(bash "$root/tests/kernel/build.sh")
kver=$(make -s -C "$kdir" kernelrelease)

rm -rf "$build/demo-modules" "$build/modroot"
mkdir -p "$build/demo-modules/tests"
cp -a "$root"/lps001wp.c "$root"/lps001wp.h "$root"/Kbuild "$root"/Kconfig "$root"/dkms.conf "$build/demo-modules/"
cp -a "$root/tests/kunit" "$root/tests/sim" "$build/demo-modules/tests/"
echo "demo: building the driver and the simulator" >&2
make -s -C "$kdir" M="$build/demo-modules" modules >&2
make -s -C "$kdir" M="$build/demo-modules/tests/sim" modules >&2
make -s -C "$kdir" INSTALL_MOD_PATH="$build/modroot" modules_install >/dev/null
bash "$root/tests/initramfs.sh" "$build/initramfs-demo.cpio.gz" "$build/modroot" "$kver" \
	"$build/demo-modules/lps001wp.ko" "$build/demo-modules/tests/sim/lps001wp_sim.ko"

echo "demo: booting QEMU (TCG, ~30 s to a shell on 2 cores)" >&2
bash "$root/tests/qemu.sh" "$kdir/arch/x86/boot/bzImage" "$build/initramfs-demo.cpio.gz" 600 - /dev/null \
	bench.mode=demo quiet loglevel=3 kmemleak=off
