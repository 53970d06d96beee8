#!/bin/bash
# Build a guest initramfs: busybox, i2c-tools, libiio-utils and iiod (with the
# shared libraries they load), the kernel's modules plus ours, and the guest suites.
#
#   initramfs.sh OUT.cpio.gz MODULES_ROOT KERNELRELEASE [extra.ko ...]
#
# MODULES_ROOT holds lib/modules/KERNELRELEASE (from modules_install, or
# extracted from a Debian linux-image package).
#
# For another architecture's guest, BENCH_BUSYBOX names that architecture's
# static busybox (it has i2cget/i2cset/i2ctransfer built in). BENCH_MINIMAL=1
# leaves out the host's i2c-tools and libiio binaries: for such a guest, and
# for the demo's and the package stage's, which need busybox only.
set -euo pipefail

out=$1 modroot=$2 kver=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,etc,lib64,tests}
cp "${BENCH_BUSYBOX:-/bin/busybox}" "$stage/bin/busybox"

copy_with_libs() {
	local bin=$1 lib
	mkdir -p "$stage$(dirname "$bin")"
	cp -L "$bin" "$stage$bin"
	for lib in $(ldd "$bin" | awk '/=> \//{print $3} /^[[:space:]]*\/lib/{print $1}'); do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

if [ "${BENCH_MINIMAL:-0}" != 1 ]; then
	for b in /usr/sbin/i2cdetect /usr/sbin/i2cget /usr/sbin/i2cset /usr/sbin/i2cdump \
		/usr/sbin/i2ctransfer /usr/bin/iio_info /usr/bin/iio_attr /usr/bin/iio_readdev \
		/usr/sbin/iiod; do
		copy_with_libs "$b"
	done
fi

mkdir -p "$stage/lib/modules"
cp -a "$modroot/lib/modules/$kver" "$stage/lib/modules/"
rm -f "$stage/lib/modules/$kver/build" "$stage/lib/modules/$kver/source"
if [ "$#" -gt 0 ]; then
	mkdir -p "$stage/lib/modules/$kver/extra"
	cp "$@" "$stage/lib/modules/$kver/extra/"
fi
depmod -b "$stage" "$kver"

# the suites (tests/guest/*.sh; by default the guest runs the NN-*.sh ones)
# and what runs them (tests/guest/lib/),
# side by side in the guest's /tests
install -m 755 "$here/guest/lib/init" "$stage/init"
cp "$here"/guest/*.sh "$here"/guest/lib/*.sh "$stage/tests/"
# BENCH_EXTRA_FILES: a directory whose files the suites need (e.g. overlays).
if [ -d "${BENCH_EXTRA_FILES:-}" ]; then
	cp -a "$BENCH_EXTRA_FILES"/. "$stage/tests/"
fi

(cd "$stage" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out"
echo "initramfs: $out $(du -h "$out" | cut -f1)" >&2
