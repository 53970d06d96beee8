#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-tree build test (part of `make check`): graft the driver into
# drivers/iio/pressure of a kernel tree (its Kconfig sourced from
# drivers/iio/pressure/Kconfig, an obj-$(CONFIG_LPS001WP) line in the
# Makefile), enable CONFIG_LPS001WP=m and build only that module with W=1.
# Any warning fails. Prints "ok - intree: <step>" / "not ok - intree: <step>
# # <reason>" and exits non-zero on failure.
#
#   tests/intree.sh [KDIR]     KDIR (or $KDIR): a configured, built kernel
#                              tree; default: the bench's cached test kernel
#                              (tests/kernel/build.sh prints its path).
#
# The tree is never modified: the build runs in an overlayfs (the tree as the
# read-only lower layer, a scratch upper layer under /tmp), or, where
# overlayfs cannot be mounted, in a full copy of the tree.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)

# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
# grafted, Kconfig, the build
plan intree 3
ok() { echo "ok - intree: $1"; }
fail() {
	echo "not ok - intree: $1 # $2"
	[ -n "${3:-}" ] && [ -f "$3" ] && tail -n 40 "$3" >&2
	exit 1
}

kdir=${1:-${KDIR:-}}
if [ -z "$kdir" ]; then
	kdir=$(bash "$root/tests/kernel/build.sh") || fail "kernel tree" "tests/kernel/build.sh failed"
fi
kdir=$(cd "$kdir" && pwd)
if [ ! -f "$kdir/.config" ] || [ ! -f "$kdir/Module.symvers" ]; then
	fail "kernel tree" "$kdir is not a configured, built kernel tree"
fi
[ -f "$kdir/drivers/iio/pressure/Kconfig" ] || fail "kernel tree" "$kdir has no drivers/iio/pressure"
for f in lps001wp.c Kconfig; do
	[ -f "$root/$f" ] || fail "driver sources" "$f missing"
done

work=$(mktemp -d /tmp/lps001wp-intree.XXXXXX)
log=/tmp/lps001wp-intree.log
tree=$work/tree
mounted=
trap 'cd /; [ -z "$mounted" ] || umount "$tree"; rm -rf "$work"' EXIT

mkdir -p "$work/upper" "$work/ovl" "$tree"
if mount -t overlay overlay -o "lowerdir=$kdir,upperdir=$work/upper,workdir=$work/ovl" "$tree" 2>/dev/null; then
	mounted=1
else
	echo "intree.sh: overlayfs unavailable, copying $kdir" >&2
	rmdir "$tree"
	cp -a "$kdir" "$tree"
fi
cd "$tree"

# Graft. Files are replaced (rm first), never written through, so a copy made
# with hard links could not reach the cached tree either.
pdir=drivers/iio/pressure
(
	cd "$root"
	shopt -s nullglob
	for f in ./*.c ./*.h; do
		rm -f "$tree/$pdir/${f#./}"
		cp "$f" "$tree/$pdir/"
	done
)
rm -f "$pdir/Kconfig.lps001wp"
cp "$root/Kconfig" "$pdir/Kconfig.lps001wp"
for f in Kconfig Makefile; do
	cp "$pdir/$f" "$work/$f"
	rm -f "$pdir/$f"
done
# Source the driver's Kconfig inside the "Pressure sensors" menu.
awk '
	{ lines[NR] = $0; if ($0 ~ /^endmenu/) last = NR }
	END {
		for (i = 1; i <= NR; i++) {
			if (i == last)
				print "source \"drivers/iio/pressure/Kconfig.lps001wp\"\n"
			print lines[i]
		}
	}' "$work/Kconfig" >"$pdir/Kconfig"
{
	cat "$work/Makefile"
	echo "obj-\$(CONFIG_LPS001WP) += lps001wp.o"
} >"$pdir/Makefile"
ok "grafted into $pdir"

rm -f .config
cp "$kdir/.config" .config
scripts/config --file .config --module LPS001WP
if ! make -s olddefconfig >"$work/config.log" 2>&1; then
	fail "Kconfig" "make olddefconfig failed" "$work/config.log"
fi
if grep -i 'warning\|error' "$work/config.log" >&2; then
	fail "Kconfig" "Kconfig warnings"
fi
grep -qx 'CONFIG_LPS001WP=m' .config ||
	fail "Kconfig" "CONFIG_LPS001WP=m did not survive olddefconfig (unmet dependencies?)"
ok "CONFIG_LPS001WP=m"

# Build the directory as kbuild's M= does, so modpost resolves symbols of
# other modules (regmap-i2c, industrialio-triggered-buffer) from the tree's
# Module.symvers; an in-tree single-.ko build does not. The neighbours
# (st_pressure) are rebuilt with W=1 too; they build without warnings, so
# any warning fails.
if ! make -s syncconfig >>"$work/config.log" 2>&1; then
	fail "Kconfig" "make syncconfig failed" "$work/config.log"
fi
if ! make -j"$jobs" W=1 M="$pdir" modules >"$work/build.log" 2>&1; then
	fail "W=1 build" "build failed" "$work/build.log"
fi
cp "$work/build.log" "$log"
if grep -iE 'warning:|error:' "$work/build.log" >&2; then
	fail "W=1 build" "$(grep -ciE 'warning:|error:' "$work/build.log") warnings (log: $log)"
fi
[ -f "$pdir/lps001wp.ko" ] || fail "W=1 build" "no lps001wp.ko"
ok "W=1 build of $pdir/lps001wp.ko, no warnings"
