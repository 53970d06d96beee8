#!/bin/bash
# make check: every test of the project, from a fresh Debian 12 machine.
#
#   check.sh                 everything
#   check.sh --guest-only    only the test-kernel guest run (for development)
#   GUEST_SUITES=a,b         only these guest suites (names of tests/guest/NN-*.sh)
#
# Each stage prints TAP lines ("ok - ..." / "not ok - ..."); this script
# collects them, prints one line per test and a final "N passed, N failed".
# Exits non-zero on any failure, kernel splat or timeout.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BENCH_BUILD:-$root/build}
guest_only=0
[ "${1:-}" = --guest-only ] && guest_only=1

mkdir -p "$build"
# One run at a time per build directory: concurrent runs would overwrite
# each other's modules and logs (and share two cores).
exec 8>"$build/.lock"
flock 8
tap=$build/results.tap
: > "$tap"
times=()

# stage NAME COMMAND...: run COMMAND, keep its TAP lines, time it. A stage
# that fails without reporting a failing test is itself a failed test.
stage() {
	local name=$1 start rc out
	shift
	echo "--- $name" >&2
	start=$(date +%s)
	out=$("$@")
	rc=$?
	grep -E '^(ok|not ok) ' <<< "$out" >> "$tap"
	if [ "$rc" != 0 ] && ! grep -q '^not ok ' <<< "$out"; then
		echo "not ok - $name: stage failed with status $rc" >> "$tap"
	fi
	times+=("$name $(( $(date +%s) - start ))s")
	return "$rc"
}

tap_result() {
	if [ "$2" = 0 ]; then echo "ok - $1"; else echo "not ok - $1 # ${3:-}"; fi
}

# build_modules KDIR OUT [make args]: the driver and the simulator, W=1, in
# a scratch copy so the work tree stays clean. Any warning fails.
build_modules() {
	local kdir=$1 out=$2 rc=0
	shift 2
	rm -rf "$out"
	mkdir -p "$out"
	cp -a "$root"/lps001wp.c "$root"/lps001wp.h "$root"/Kbuild "$root"/Kconfig "$root"/dkms.conf "$out/"
	mkdir -p "$out/tests"
	cp -a "$root/tests/kunit" "$root/tests/sim" "$out/tests/"
	make -C "$kdir" M="$out" W=1 "$@" modules > "$out/build.log" 2>&1 || rc=1
	if [ -f "$out/tests/sim/Kbuild" ]; then
		make -C "$kdir" M="$out/tests/sim" W=1 modules >> "$out/build.log" 2>&1 || rc=1
	fi
	if grep -q 'warning:' "$out/build.log"; then
		grep -B2 -A4 'warning:' "$out/build.log" >&2
		rc=1
	fi
	[ "$rc" = 0 ] || tail -n 30 "$out/build.log" >&2
	tap_result "build: modules against $(basename "$kdir") with W=1, no warnings" "$rc" "see $out/build.log"
	return "$rc"
}

# build_alt KDIR OUT SWITCH=VALUE: the driver (with KUnit) built with one
# of lps001wp.h's LPS001WP_ASSUME_* switches flipped, built in
# OUT/alt-SWITCH and copied to OUT/guest-files/alt-SWITCH.ko for the guest
# suite 86-switches. Same W=1 rule as build_modules.
build_alt() {
	local kdir=$1 out=$2 sw=$3 dir rc=0
	dir=$out/alt-${sw%%=*}
	rm -rf "$dir"
	mkdir -p "$dir/tests"
	cp -a "$root"/lps001wp.c "$root"/lps001wp.h "$root"/Kbuild "$root"/dkms.conf "$dir/"
	cp -a "$root/tests/kunit" "$dir/tests/"
	make -C "$kdir" M="$dir" W=1 LPS001WP_KUNIT=1 LPS001WP_ASSUME="$sw" modules > "$dir/build.log" 2>&1 || rc=1
	if grep -q 'warning:' "$dir/build.log"; then
		grep -B2 -A4 'warning:' "$dir/build.log" >&2
		rc=1
	fi
	[ "$rc" = 0 ] && cp "$dir/lps001wp.ko" "$out/guest-files/alt-${sw%%=*}.ko" || rc=1
	tap_result "build: driver with LPS001WP_ASSUME_$sw against $(basename "$kdir"), W=1, no warnings" "$rc" "see $dir/build.log"
	return "$rc"
}

# Patterns of a kernel splat in the guest console.
splat_re='WARNING:|usage count underflow|BUG:|KASAN|Oops|general protection|Call Trace:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU|DEBUG_LOCKS_WARN_ON|sleeping function called from invalid context|INFO: task .* blocked|unreferenced object|Kernel panic|UBSAN'

# guest_run KERNEL INITRD NAME [kernel args]: boot, collect TAP, check for
# splats and for the guest reaching its end.
guest_run() {
	local kernel=$1 initrd=$2 name=$3 rc=0 console results
	shift 3
	console=$build/$name-console.log
	results=$build/$name-results.log
	rm -f "$console" "$results"
	bash "$root/tests/qemu.sh" "$kernel" "$initrd" "${BENCH_TIMEOUT:-1500}" "$console" "$results" "$@" || rc=$?
	tr -d '\r' < "$results" | grep -E '^(ok|not ok) ' | sed -E "s/^(ok|not ok) - /\1 - $name\//"
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "not ok - $name: guest finished within ${BENCH_TIMEOUT:-1500}s # timeout"
	elif tr -d '\r' < "$results" | grep -q '^# BENCH-DONE'; then
		echo "ok - $name: guest ran to the end"
	else
		echo "not ok - $name: guest ran to the end # qemu status $rc, see $console"
	fi
	if grep -Eq "$splat_re" "$console"; then
		echo "not ok - $name: no kernel splat # $(grep -Em1 "$splat_re" "$console" | tr -d '\r')"
		grep -E -A30 "$splat_re" "$console" | head -n 80 >&2
	else
		echo "ok - $name: no kernel splat"
	fi
}

# build_dt: the simulated board's device tree (passed to QEMU with -dtb) and
# the test overlays (copied into the guest's /tests), all with dtc -@ so
# overlays can refer to the board's labels.
build_dt() {
	local f rc=0
	rm -rf "$build/guest-files"
	mkdir -p "$build/guest-files"
	for f in "$root"/tests/dt/*.dts; do
		[ -f "$f" ] || continue
		case "$f" in
		*-overlay.dts) dtc -q -@ -I dts -O dtb -o "$build/guest-files/$(basename "${f%.dts}").dtbo" "$f" || rc=1 ;;
		*) dtc -q -@ -I dts -O dtb -o "$build/guest-files/$(basename "${f%.dts}").dtb" "$f" || rc=1 ;;
		esac
	done
	tap_result "build: test device trees compile with dtc -@" "$rc"
	return "$rc"
}

# build_guest_tools: small static helpers for what busybox cannot do
# (tests/tools/*.c, e.g. reading IIO events), warnings as errors.
build_guest_tools() {
	local f rc=0
	for f in "$root"/tests/tools/*.c; do
		gcc -O2 -Wall -Wextra -Werror -static -o "$build/guest-files/$(basename "${f%.c}")" "$f" || rc=1
	done
	# make hwcheck in the guest (80-hwcheck), with the header it reads
	cp "$root/tools/lps001wp-hwcheck.sh" "$root/lps001wp.h" "$build/guest-files/" || rc=1
	tap_result "build: guest tools (tests/tools) with -Wall -Wextra -Werror" "$rc"
	return "$rc"
}

# tag SERIES COMMAND...: run COMMAND, naming the kernel series in its TAP
# lines ("ok - dkms: ..." becomes "ok - dkms-6.12: ...").
tag() {
	local series=$1
	shift
	"$@" | sed -E "s/^(ok|not ok) - ([a-z0-9]+):/\1 - \2-$series:/"
	return "${PIPESTATUS[0]}"
}

# test_kernel_pass SERIES: the bench's own debug kernel of that series, the
# driver with KUnit and the simulator, every guest suite in one boot.
test_kernel_pass() {
	local series=$1 kdir kver out=$build/$1
	kdir=$(bash "$root/tests/kernel/build.sh" "$series") || { echo "not ok - kernel-$series: test kernel builds"; return 1; }
	echo "ok - kernel-$series: test kernel builds"
	# The next series compiles while this one's guest runs (TCG keeps one
	# core; a cold run would otherwise spend ~20 min on it alone).
	if [ "$series" = 6.1 ] && [ "${BENCH_KERNELS:-6.1 6.12}" != 6.1 ]; then
		bash "$root/tests/kernel/build.sh" 6.12 > "$build/kernel-6.12.out" 2> "$build/kernel-6.12.log" &
	fi
	kver=$(make -s -C "$kdir" kernelrelease)
	mkdir -p "$out"
	tag "$series" build_modules "$kdir" "$out/test-modules" LPS001WP_KUNIT=1 || return 1
	# the guest's files, plus this kernel's builds with a switch flipped
	rm -rf "$out/guest-files"
	cp -a "$build/guest-files" "$out/guest-files"
	local sw
	for sw in DR_ST_TABLE=0 DELTA_IS_REF_MINUS_P=0 FIRST_SAMPLE_VALID=1; do
		tag "$series" build_alt "$kdir" "$out" "$sw" || return 1
	done
	rm -rf "$out/modroot"
	make -s -C "$kdir" INSTALL_MOD_PATH="$out/modroot" modules_install > /dev/null
	local kos=("$out/test-modules/lps001wp.ko")
	[ -f "$out/test-modules/tests/sim/lps001wp_sim.ko" ] && kos+=("$out/test-modules/tests/sim/lps001wp_sim.ko")
	BENCH_EXTRA_FILES="$out/guest-files" bash "$root/tests/initramfs.sh" "$out/initramfs-test.cpio.gz" \
		"$out/modroot" "$kver" "${kos[@]}" || return 1
	BENCH_DTB=$build/guest-files/board.dtb guest_run "$kdir/arch/x86/boot/bzImage" "$out/initramfs-test.cpio.gz" \
		"guest-$series" bench.mode=check "bench.suites=${GUEST_SUITES:-}"
}

# iiod_pass SERIES: iiod end to end in a boot of its own (tests/iiod.sh):
# libiio's network client on the host, iiod in the guest, 127.0.0.1 only.
iiod_pass() {
	local kdir
	kdir=$(bash "$root/tests/kernel/build.sh" "$1") || return 1
	tag "$1" env BENCH_SPLAT_RE="$splat_re" bash "$root/tests/iiod.sh" "$kdir/arch/x86/boot/bzImage" \
		"$build/$1/initramfs-test.cpio.gz" "$build/$1"
}

# stock_pass SERIES: Debian's own kernel of that series with i2c-stub.
stock_pass() {
	bash "$root/tests/stock.sh" "$build" "$1" || return 1
	guest_run "$(cat "$build/stock-$1.kernel")" "$build/stock-$1.cpio.gz" "stock-$1" \
		bench.mode=check bench.suites=15-stub
}

# package_pass: the Debian package installed, upgraded and purged in a
# chroot (tests/package.sh), then Debian's kernel with the module it built.
package_pass() {
	bash "$root/tests/package.sh" "$build" || return 1
	guest_run "$(cat "$build/package.kernel")" "$build/package.cpio.gz" package \
		bench.mode=check bench.suites=15-stub,udev-rule
}

# arm64_pass: Debian's stock arm64 6.12 kernel under qemu-system-aarch64.
arm64_pass() {
	bash "$root/tests/arm64.sh" "$build" || return 1
	BENCH_QEMU_ARCH=aarch64 guest_run "$(cat "$build/arm64.kernel")" "$build/arm64.cpio.gz" arm64 \
		bench.mode=check bench.suites=15-stub
}

# dkms_pass SERIES: the DKMS round trip against Debian's SERIES headers.
dkms_pass() {
	local kv
	kv=$(stock_kver "$1") || { echo "not ok - dkms-$1: headers installed # see tests/deps.sh"; return 1; }
	tag "$1" env DKMS_KVER="$kv" bash "$root/tests/dkms.sh"
}

# BENCH_KERNELS: the test-kernel series to run the guest suites on.
kernels=${BENCH_KERNELS:-6.1 6.12}

overall=0
stage deps bash "$root/tests/deps.sh" || overall=1
if [ "$guest_only" = 0 ]; then
	stage lint bash "$root/tests/lint.sh" || overall=1
fi
stage build-dt build_dt || overall=1
stage guest-tools build_guest_tools || overall=1
for series in $kernels; do
	stage "test-kernel-$series" test_kernel_pass "$series" || overall=1
	# with GUEST_SUITES (development runs) only the named suites
	if [ -z "${GUEST_SUITES:-}" ]; then
		stage "iiod-$series" iiod_pass "$series" || overall=1
	fi
done
if [ "$guest_only" = 0 ]; then
	for series in $kernels; do
		if kdir=$(bash "$root/tests/kernel/build.sh" "$series" 2>/dev/null); then
			stage "intree-$series" tag "$series" bash "$root/tests/intree.sh" "$kdir" || overall=1
		fi
	done
	# shellcheck source=tests/kvers.sh
	. "$root/tests/kvers.sh"
	for series in 6.1 6.12; do
		stage "install-$series" tag "$series" bash "$root/tests/install.sh" "$series" || overall=1
		stage "dkms-$series" dkms_pass "$series" || overall=1
	done
	for series in 6.1 6.12; do
		stage "stock-$series" stock_pass "$series" || overall=1
	done
	stage package package_pass || overall=1
	stage cross bash "$root/tests/cross.sh" "$build" || overall=1
	stage arm64 arm64_pass || overall=1
fi
wait

echo >&2
cat "$tap"
passed=$(grep -c '^ok ' "$tap")
failed=$(grep -c '^not ok ' "$tap")
printf '# time: %s\n' "${times[@]}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$overall" = 0 ]
