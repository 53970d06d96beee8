#!/bin/bash
# make demo: boot the simulated board in QEMU and show live readings.
#
# Runs on Debian 12 or 13 on x86_64, as root: it installs what it needs
# (tests/deps.sh demo: 110 packages, ~520 MB on a fresh Debian 12), fetches
# Debian's linux-source-6.1 into the cache and builds the 6.1 test kernel
# there on the first run (~8 min on 2 cores, ~2 GB in /var/cache/lps001wp,
# shared with make check), then builds the driver and the simulator against
# it and boots it. The simulator needs IRQ_SIM, which Debian's own kernels
# lack, hence a kernel of our own.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
build=${BENCH_BUILD:-$root/build}
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}

# Stop before changing anything on a machine the demo cannot serve.
os=unknown id='' ver=''
if [ -r /etc/os-release ]; then
	# shellcheck disable=SC1091
	os=$(. /etc/os-release && echo "${PRETTY_NAME:-$ID}")
	# shellcheck disable=SC1091
	id=$(. /etc/os-release && echo "${ID:-}")
	# shellcheck disable=SC1091
	ver=$(. /etc/os-release && echo "${VERSION_ID:-}")
fi
arch=$(uname -m)
if [ "$arch" != x86_64 ] || [ "$id" != debian ] || { [ "$ver" != 12 ] && [ "$ver" != 13 ]; }; then
	cat >&2 <<-EOF
		make demo: runs on Debian 12 or 13 on x86_64 only; this machine is
		$os on $arch. (The demo builds an x86_64 test kernel with Debian's
		tools and boots it in QEMU.) Nothing was installed or changed.
		To use the driver here, see README.md, "Install".
	EOF
	exit 1
fi
if [ "$(id -u)" != 0 ] && ! { bash "$root/tests/deps.sh" demo 2>/dev/null && mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ]; }; then
	echo "make demo: needs root (sudo make demo): it installs Debian packages and builds in $cache" >&2
	exit 1
fi

mkdir -p "$build"
bash "$root/tests/deps.sh" demo

echo "demo: the 6.1 test kernel (built on the first run: ~8 min on 2 cores; reused afterwards)" >&2
kdir=$(bash "$root/tests/kernel/build.sh" 6.1)
kver=$(make -s -C "$kdir" kernelrelease)

echo "demo: building the driver and the simulator" >&2
make_modules "$kdir" "$build/demo-modules" || {
	echo "demo: the build failed; the end of $build/demo-modules/build.log:" >&2
	tail -n 30 "$build/demo-modules/build.log" >&2
	exit 1
}
modroot_for "$kdir" "$build/modroot"
BENCH_TOOLS="/usr/bin/iio_info /usr/bin/iio_readdev" \
	bash "$root/tests/initramfs.sh" "$build/initramfs-demo.cpio.gz" "$build/modroot" "$kver" \
	"$build/demo-modules/lps001wp.ko" "$build/demo-modules/tests/sim/lps001wp_sim.ko"

echo "demo: booting the test kernel in QEMU (TCG: ~30 s to the first readings on 2 cores)" >&2
bash "$root/tests/qemu.sh" "$kdir/arch/x86/boot/bzImage" "$build/initramfs-demo.cpio.gz" 600 - /dev/null \
	bench.mode=demo quiet loglevel=3 kmemleak=off

echo "demo: it left $cache ($(du -sh "$cache" 2>/dev/null | cut -f1), the test kernel, which make check reuses) and $build." >&2
if [ -s "$cache/apt-installed.txt" ]; then
	echo "demo: undo with: sudo apt-get purge --autoremove \$(cat $cache/apt-installed.txt); sudo rm -rf $cache $build" >&2
else
	echo "demo: undo with: sudo rm -rf $cache $build" >&2
fi
