#!/bin/bash
# Build (or reuse) a bench test kernel from Debian's linux-source-<series>.
#
#   build.sh [SERIES]      SERIES is 6.1 (default), 6.12 or 7.3
#
# The config is tinyconfig + config.fragment + config-SERIES.fragment (when it
# exists). The tree is cached outside the work tree, keyed by the fragments,
# the Kconfig patch, the recipe below, the linux-source package version and
# the compiler, so a second run reuses it and a tree built by one compiler is
# never used with another. The source comes from tests/kernel/source.sh. Prints the tree's path on stdout;
# everything else goes to stderr.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
series=${1:-6.1}
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}
jobs=${JOBS:-$(nproc)}
# Bump when the steps below change what is built (not for comments or logs).
recipe=2

read -r tarball srcver < <(bash "$here/source.sh" "$series") ||
	{ echo "build.sh: no linux-source-$series (see tests/kernel/source.sh)" >&2; exit 1; }

fragments=("$here/config.fragment")
[ -f "$here/config-$series.fragment" ] && fragments+=("$here/config-$series.fragment")

key=$( {
	cat "${fragments[@]}" "$here/of-early-flattree.patch"
	echo "recipe $recipe source $srcver"
	gcc --version | head -n1
} | sha256sum | cut -c1-16)
dir=$cache/kernel-$series-$key

cached() {
	[ -f "$dir/.built" ] || return 1
	echo "test kernel: cached $dir" >&2
	echo "$dir"
}
# A cached tree needs no lock: it is only ever renamed into place whole.
cached && exit 0
# BENCH_CACHED_ONLY=1: only say whether the tree is cached, never build it.
[ -z "${BENCH_CACHED_ONLY:-}" ] || exit 1
mkdir -p "$cache"
exec 9>"$cache/.kernel.lock"
flock 9
cached && exit 0

tmp=$dir.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
echo "test kernel: extracting $tarball" >&2
tar -xf "$tarball" -C "$tmp" --strip-components=1
cd "$tmp"
# Newer trees take the one-line Kconfig patch with an offset or fuzz; check
# that the select really landed in config X86_64.
patch -p1 --forward --quiet < "$here/of-early-flattree.patch" >&2
sed -n '/^config X86_64$/,/^config /p' arch/x86/Kconfig | grep -q 'select OF_EARLY_FLATTREE if OF' ||
	{ echo "test kernel: Kconfig patch did not land in config X86_64" >&2; exit 1; }

make -s tinyconfig >&2
KCONFIG_CONFIG=.config scripts/kconfig/merge_config.sh -m .config "${fragments[@]}" >/dev/null
make -s olddefconfig >&2

# A fragment line that did not survive olddefconfig is a silent test gap.
missing=0
while IFS= read -r line; do
	case "$line" in ''|'# CONFIG_'*' is not set') ;; '#'*) continue ;; esac
	[ -n "$line" ] || continue
	if ! grep -qxF "$line" .config; then
		echo "test kernel: config lost $line" >&2
		missing=1
	fi
done < <(cat "${fragments[@]}")
grep -qx 'CONFIG_IRQ_SIM=y' .config || { echo "test kernel: IRQ_SIM not selected" >&2; missing=1; }
grep -qx 'CONFIG_OF_EARLY_FLATTREE=y' .config || { echo "test kernel: OF_EARLY_FLATTREE not selected" >&2; missing=1; }
[ "$missing" = 0 ] || exit 1

echo "test kernel: building with -j$jobs (log: $tmp/build.log)" >&2
start=$(date +%s)
# At nice 10: below the guests, so that a boot beside a cold build is not
# preempted in the middle of what it times (the guest's clock runs on while
# QEMU waits for a core), and above the host stages (nice 19), so that the
# build stays the cold run's critical path.
nice -n 10 make -j"$jobs" bzImage modules > build.log 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	sleep 30
	kill -0 "$pid" 2>/dev/null || break
	echo "test kernel: $(find . -name '*.o' -newer .config | wc -l) objects, $(( $(date +%s) - start ))s" >&2
done
if ! wait "$pid"; then
	tail -n 40 build.log >&2
	echo "test kernel: build failed" >&2
	exit 1
fi
echo "test kernel: built in $(( $(date +%s) - start ))s" >&2

cd /
rm -rf "$dir"
mv "$tmp" "$dir"
touch "$dir/.built"
echo "$dir"
