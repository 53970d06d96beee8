#!/bin/bash
# make check: every test of the project, from a fresh Debian machine.
#
#   check.sh                 everything
#   check.sh --guest-only    only the test kernels' guest runs
#   check.sh --suite         the inner loop (make check-suite): one kernel,
#                            SUITES only, kmemleak off, nothing rebuilt that
#                            did not change
#
# Environment:
#   BENCH_KERNELS="6.1 6.12 7.3"  the test kernels the guest suites run on
#   GUEST_SUITES=a,b              only these guest suites (tests/guest/NN-*.sh)
#   SUITES=a,b KERNEL=6.1         for --suite
#   CHECK_JOBS=N                  lanes run at once (default: cores + 1)
#   FAILNTH_FIRST=N               76-failnth's first allocation (default:
#                                 random, printed), to repeat a run
#
# Stages run side by side: each test kernel's lane (its build, the driver's,
# one boot with every suite), CHECK_JOBS at a time, and the host stages
# (lint, stock kernels, cross builds, ...) in one slot more. A TCG guest uses
# at most one core and idles while its suites wait on the chip's samples (60
# to 66 % of a core, measured), so one lane more than the cores keeps them
# busy. The host stages run at nice 19: they take the CPU time the guests
# leave, and a guest's wait for a sample is not stretched by a compiler. Each
# stage's TAP lines ("ok - ..." / "not ok - ...") are kept in
# build/stages/NAME.tap and printed in a fixed order at the end, with each
# stage's and each suite's duration, each stage's CPU time, the machine's
# busy and idle CPU time over the run and a final "N passed, N failed" (and
# ", N skipped" when a check said # SKIP).
# Exits non-zero on any failure, kernel splat or timeout.
set -uo pipefail
# Started as `make -C DIR check` (or with -j), the outer make's MAKEFLAGS
# (w: print the directory; a jobserver) would reach every make the stages
# run and change what they print; each stage gives its own flags.
unset MAKEFLAGS MFLAGS MAKELEVEL

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BENCH_BUILD:-$root/build}
mode=all
case ${1:-} in
--guest-only) mode=guest ;;
--suite) mode=suite ;;
'') ;;
*) echo "usage: check.sh [--guest-only|--suite]" >&2; exit 2 ;;
esac
case ${FAILNTH_FIRST:-1} in
'' | *[!0-9]* | 0*) echo "check.sh: FAILNTH_FIRST must be a number from 1 on, not '$FAILNTH_FIRST'" >&2; exit 2 ;;
esac

mkdir -p "$build"
# One run at a time per build directory: concurrent runs would overwrite
# each other's modules and logs.
exec 8>"$build/.lock"
flock 8
stages=$build/stages
rm -rf "$stages"
mkdir -p "$stages"

# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"

# Patterns of a kernel splat in the guest console.
splat_re='WARNING:|usage count underflow|BUG:|KASAN|Oops|general protection|Call Trace:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU|DEBUG_LOCKS_WARN_ON|sleeping function called from invalid context|INFO: task .* blocked|unreferenced object|Kernel panic|UBSAN'

# Suites that test the simulator or user-space tools rather than the driver
# on a kernel, and 86-switches, whose switches choose a rate table, a sign
# and whether a sample is dropped, none of it through a kernel interface:
# they run on one test kernel only (agnostic_kernel).
agnostic_suites="10-sim 80-hwcheck 81-hwcheck-faults 86-switches"

# ---- stage runner -------------------------------------------------------

order=()
jobs_max=${CHECK_JOBS:-$(( $(nproc) + 1 ))}

# plans_kept NAME OUT: for each "# plan PREFIX N" in stage NAME's output OUT
# (hostlib.sh's plan), one TAP line: N lines named "PREFIX: ..." came, so
# a check that stops running fails the run instead of lowering the total.
# A stage that declares no plan, or one this cannot read, fails: its
# checks could stop running and nothing would count them missing.
plans_kept() {
	local p n got bad
	bad=$(grep '^# plan' "$2" | grep -vE '^# plan [^ ]+ [0-9]+$' | head -n1)
	if [ -n "$bad" ]; then
		echo "not ok - $1: declares its plan (# plan PREFIX N) # unreadable: '$bad'"
	elif grep -qE '^# plan [^ ]+ [0-9]+$' "$2"; then
		echo "ok - $1: declares its plan (# plan PREFIX N)"
	else
		echo "not ok - $1: declares its plan (# plan PREFIX N) # none"
	fi
	while read -r _ _ p n; do
		got=$(awk -v p="$p: " 'index($0, "ok - " p) == 1 || index($0, "not ok - " p) == 1' "$2" | wc -l)
		if [ "$got" = "$n" ]; then
			echo "ok - $p: ran its $n declared checks"
		else
			echo "not ok - $p: ran its $n declared checks # ran $got"
		fi
	done < <(grep -E '^# plan [^ ]+ [0-9]+$' "$2")
}

# run_stage NAME COMMAND...: run COMMAND in the foreground, recording its TAP
# lines, stderr, duration and CPU time under $stages. A stage that fails without
# reporting a failing test is itself a failed test.
run_stage() {
	local name=$1 start rc TIMEFORMAT='%0U %0S'
	shift
	start=$(date +%s)
	echo "--- start $name" >&2
	{ time "$@" > "$stages/$name.out" 2> "$stages/$name.log"; } 2> "$stages/$name.cpu"
	rc=$?
	grep -E '^(ok|not ok) ' "$stages/$name.out" > "$stages/$name.tap"
	plans_kept "$name" "$stages/$name.out" >> "$stages/$name.tap"
	if [ "$rc" != 0 ] && ! grep -q '^not ok ' "$stages/$name.tap"; then
		echo "not ok - $name: stage failed with status $rc" >> "$stages/$name.tap"
	fi
	echo "$rc $(( $(date +%s) - start ))" > "$stages/$name.rc"
	echo "--- done $name: $(( $(date +%s) - start ))s, status $rc" >&2
	return "$rc"
}

# stage_now NAME COMMAND...: run_stage, waiting for it.
stage_now() {
	order+=("$1")
	run_stage "$@"
}

# running: the stages running in the background. The kernel builds' chain
# and the host stages' packages hold no slot.
running() {
	jobs -rp | grep -cvxF -e "${builds:-none}" -e "${deps_host:-none}"
}

# lane NAME COMMAND...: run_stage in the background once one of the
# CHECK_JOBS slots is free.
lane() {
	order+=("$1")
	while [ "$(running)" -ge "$jobs_max" ]; do
		wait -n
	done
	run_stage "$@" &
}

# stage NAME COMMAND...: run_stage at nice 19 in the background once the
# lanes and the host stages hold fewer than CHECK_JOBS + 1 slots.
stage() {
	order+=("$1")
	while [ "$(running)" -gt "$jobs_max" ]; do
		wait -n
	done
	(renice -n 19 -p "$BASHPID" > /dev/null && run_stage "$@") &
}

# ---- guest runs ---------------------------------------------------------

# guest_run KERNEL INITRD NAME [kernel args]: boot, print the TAP lines (the
# suite's names prefixed with NAME/) and the per-suite times, check for
# splats and for the guest reaching its end (NAME/boot: its own, so that the
# stage's host part keeps its plan).
guest_run() {
	local kernel=$1 initrd=$2 name=$3 rc=0 console results
	shift 3
	console=$build/$name-console.log
	results=$build/$name-results.log
	rm -f "$console" "$results"
	bash "$root/tests/qemu.sh" "$kernel" "$initrd" "${BENCH_TIMEOUT:-1500}" "$console" "$results" "$@" || rc=$?
	tr -d '\r' < "$results" | grep -E '^(ok|not ok) ' | sed -E "s/^(ok|not ok) - /\1 - $name\//"
	tr -d '\r' < "$results" | sed -n "s|^# time: suite |suite $name/|p" >> "$stages/times"
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "not ok - $name/boot: guest finished within ${BENCH_TIMEOUT:-1500}s # timeout"
	elif tr -d '\r' < "$results" | grep -q '^# BENCH-DONE'; then
		echo "ok - $name/boot: guest ran to the end"
	else
		echo "not ok - $name/boot: guest ran to the end # qemu status $rc, see $console"
	fi
	if grep -Eq "$splat_re" "$console"; then
		echo "not ok - $name/boot: no kernel splat # $(grep -Em1 "$splat_re" "$console" | tr -d '\r')"
		grep -E -A30 "$splat_re" "$console" | head -n 80 >&2
	else
		echo "ok - $name/boot: no kernel splat"
	fi
}

# build_dt: the simulated board's device tree (passed to QEMU with -dtb) and
# the test overlays (copied into the guest's /tests), all with dtc -@ so
# overlays can refer to the board's labels.
build_dt() {
	local f rc=0
	plan build-dt 1
	mkdir -p "$build/guest-files"
	for f in "$root"/tests/dt/*.dts; do
		[ -f "$f" ] || continue
		case "$f" in
		*-overlay.dts) dtc -q -@ -I dts -O dtb -o "$build/guest-files/$(basename "${f%.dts}").dtbo" "$f" || rc=1 ;;
		*) dtc -q -@ -I dts -O dtb -o "$build/guest-files/$(basename "${f%.dts}").dtb" "$f" || rc=1 ;;
		esac
	done
	tap_result "build-dt: test device trees compile with dtc -@" "$rc"
	return "$rc"
}

# build_guest_tools: small static helpers for what busybox cannot do
# (tests/tools/*.c, e.g. reading IIO events), and the reader the package
# ships (87-reader), warnings as errors.
build_guest_tools() {
	local f rc=0
	plan guest-tools 1
	for f in "$root"/tests/tools/*.c "$root"/tools/lps001wp-read.c; do
		gcc -O2 -Wall -Wextra -Werror -static -o "$build/guest-files/$(basename "${f%.c}")" "$f" || rc=1
	done
	# make hwcheck in the guest (80-hwcheck), with the header it reads
	cp "$root/tools/lps001wp-hwcheck.sh" "$root/lps001wp.h" "$build/guest-files/" || rc=1
	# the documents 35-abi-names compares with the names the driver creates
	cp "$root/Documentation/iio/lps001wp.rst" \
		"$root/Documentation/ABI/testing/sysfs-bus-iio-pressure-lps001wp" "$build/guest-files/" || rc=1
	tap_result "guest-tools: tests/tools build with -Wall -Wextra -Werror" "$rc"
	return "$rc"
}

# deps_stage NAME SET: tests/deps.sh SET, as one check named NAME.
deps_stage() {
	local rc=0
	plan "$1" 1
	bash "$root/tests/deps.sh" "$2" || rc=$?
	tap_result "$1: the Debian packages of deps.sh $2 are installed" "$rc" "see $stages/$1.log"
	return "$rc"
}

# agnostic_kernel SUITE: the one kernel a kernel-agnostic suite runs on.
# 80-hwcheck, the longest suite, goes to the second kernel: the first one's
# lane also runs iiod and the other agnostic suites, and would end last.
agnostic_kernel() {
	local rest=${kernels#* }
	if [ "$1" = 80-hwcheck ] && [ "$rest" != "$kernels" ]; then
		echo "${rest%% *}"
	else
		echo "$first_kernel"
	fi
}

# suites_for SERIES: the bench.suites= value for that kernel's boot.
suites_for() {
	local s list=
	if [ -n "${GUEST_SUITES:-}" ]; then
		echo "$GUEST_SUITES"
		return
	fi
	for s in "$root"/tests/guest/[0-9]*.sh; do
		s=$(basename "${s%.sh}")
		case " $agnostic_suites " in
		*" $s "*) [ "$1" = "$(agnostic_kernel "$s")" ] || continue ;;
		esac
		list=${list:+$list,}$s
	done
	echo "$list"
}

# kernel_lane SERIES: the bench's debug kernel of that series (built once and
# cached), the driver with KUnit and the simulator, the builds with a switch
# flipped, every guest suite in one boot; on 6.1, the one test kernel with a
# network stack (tests/kernel/config-6.1.fragment), also iiod.
kernel_lane() {
	local series=$1 kdir kver out=$build/$1 sw suites switches kmemleak
	suites=$(suites_for "$series")
	# 86-switches loads the driver built with each switch flipped
	switches=
	[[ ,$suites, != *,86-switches,* ]] || switches="DR_ST_TABLE=0 DELTA_IS_REF_MINUS_P=0 FIRST_SAMPLE_VALID=1"
	plan "kernel-$series" 1
	plan "build-$series" $((1 + $(wc -w <<< "$switches")))
	# With kmemleak on (every lane of make check), its scan after the
	# suites is a check like theirs: a guest that cannot scan fails it
	# (bench.kmemleak=1, guest/lib/init), one that never prints it fails
	# this plan.
	kmemleak=bench.kmemleak=1
	if [ -n "${BENCH_KMEMLEAK_OFF:-}" ]; then
		kmemleak=kmemleak=off
	else
		plan "guest-$series/kmemleak" 1
	fi
	kdir=$(bash "$root/tests/kernel/build.sh" "$series") ||
		{ echo "not ok - kernel-$series: test kernel builds"; return 1; }
	echo "ok - kernel-$series: test kernel builds"
	kver=$(make -s -C "$kdir" kernelrelease)
	mkdir -p "$out"
	tag "$series" build_modules "$kdir" "$out/test-modules" LPS001WP_KUNIT=1 || return 1
	rm -rf "$out/guest-files"
	cp -a "$build/guest-files" "$out/guest-files"
	for sw in $switches; do
		tag "$series" build_alt "$kdir" "$out" "$sw" || return 1
	done
	modroot_for "$kdir" "$out/modroot"
	BENCH_EXTRA_FILES="$out/guest-files" bash "$root/tests/initramfs.sh" "$out/initramfs-test.cpio.gz" \
		"$out/modroot" "$kver" "$out/test-modules/lps001wp.ko" "$out/test-modules/tests/sim/lps001wp_sim.ko" ||
		return 1
	BENCH_DTB=$build/guest-files/board.dtb guest_run "$kdir/arch/x86/boot/bzImage" "$out/initramfs-test.cpio.gz" \
		"guest-$series" bench.mode=check "bench.suites=$suites" "$kmemleak" \
		${FAILNTH_FIRST:+bench.failnth_first=$FAILNTH_FIRST}
	if [ "$series" = 6.1 ] && [ -z "${GUEST_SUITES:-}" ]; then
		# libiio's network client against iiod: kernel-agnostic, once
		tag "$series" env BENCH_SPLAT_RE="$splat_re" bash "$root/tests/iiod.sh" \
			"$kdir/arch/x86/boot/bzImage" "$out/initramfs-test.cpio.gz" "$out"
	fi
}

# ---- host stages --------------------------------------------------------

# stock_lane SERIES: Debian's own kernel of that series with i2c-stub.
stock_lane() {
	bash "$root/tests/stock.sh" "$build" "$1" || return 1
	guest_run "$(cat "$build/stock-$1.kernel")" "$build/stock-$1.cpio.gz" "stock-$1" \
		bench.mode=check bench.suites=15-stub
}

# package_lane: the Debian package installed, upgraded and purged in a
# chroot (tests/package.sh), then Debian's kernel with the module it built.
package_lane() {
	bash "$root/tests/package.sh" "$build" || return 1
	guest_run "$(cat "$build/package.kernel")" "$build/package.cpio.gz" package \
		bench.mode=check bench.suites=15-stub,setup-check,udev-rule
}

# arm64_lane: Debian's stock arm64 6.12 kernel under qemu-system-aarch64.
arm64_lane() {
	bash "$root/tests/arm64.sh" "$build" || return 1
	BENCH_QEMU_ARCH=aarch64 guest_run "$(cat "$build/arm64.kernel")" "$build/arm64.cpio.gz" arm64 \
		bench.mode=check bench.suites=15-stub
}

# demo_lane: make demo's path once (tests/demo.sh --build: the release's
# own kernel fetched, the driver and the simulator built against its
# headers), then its guest half, whose checks (readings through the
# data-ready trigger, one threshold event) fail the stage like a suite's.
demo_lane() {
	BENCH_BUILD=$build bash "$root/tests/demo.sh" --build || return 1
	# a demo that fails part way still prints its undo, which spares build/
	bash "$root/tests/demo-undo.sh"
	# shellcheck disable=SC2046 # the kernel arguments, one a word
	BENCH_TIMEOUT=300 guest_run "$(cat "$build/demo.kernel")" "$build/demo.cpio.gz" demo $(cat "$build/demo.args")
}

# install_stage SERIES / dkms_stage SERIES: `make install` and the DKMS
# round trip against Debian's SERIES headers: the host's where its release
# has them, otherwise in a cached chroot of the release that does
# (tests/debian-chroot.sh: 7.3 in trixie with backports, 6.1 in bookworm,
# 6.12 in trixie for a Debian 12 host, which does not install its 6.12
# headers: tests/deps.sh).
install_stage() {
	if stock_kver "$1" > /dev/null; then
		tag "$1" bash "$root/tests/install.sh" "$1"
	else
		tag "$1" bash "$root/tests/debian-chroot.sh" "$1" -- bash /src/tests/install.sh "$1"
	fi
}

dkms_stage() {
	local kv
	if kv=$(stock_kver "$1"); then
		tag "$1" bash "$root/tests/dkms.sh" "$kv"
	else
		# shellcheck disable=SC2016 # CHROOT_KVER is the chroot's
		tag "$1" bash "$root/tests/debian-chroot.sh" "$1" -- sh -c 'bash /src/tests/dkms.sh "$CHROOT_KVER"'
	fi
}

# intree_stage SERIES: the driver grafted into that test kernel's tree.
intree_stage() {
	local kdir
	kdir=$(bash "$root/tests/kernel/build.sh" "$1") ||
		{ echo "not ok - intree-$1: test kernel tree # see tests/kernel/build.sh"; return 1; }
	tag "$1" bash "$root/tests/intree.sh" "$kdir"
}

# upstream_lane SERIES: the st_pressure patch series (upstream/st_pressure/)
# applied to that test kernel's own st_sensors and st_pressure, checked and
# built as modules (tests/upstream.sh), then the guest suite st-series with
# them loaded in place of the kernel's own. make check runs it on the newest
# lane's kernel: the series is based on the newest Debian source.
upstream_lane() {
	local kdir
	kdir=$(bash "$root/tests/kernel/build.sh" "$1") ||
		{ echo "not ok - upstream-$1: test kernel tree # see tests/kernel/build.sh"; return 1; }
	tag "$1" bash "$root/tests/upstream.sh" "$kdir" "$build/upstream-$1" || return 1
	BENCH_DTB=$build/guest-files/board.dtb guest_run "$kdir/arch/x86/boot/bzImage" \
		"$build/upstream-$1/initramfs.cpio.gz" "upstream-$1" bench.mode=check bench.suites=st-series \
		${BENCH_KMEMLEAK_OFF:+kmemleak=off}
}

# ---- the run ------------------------------------------------------------

# cpu_ticks: the machine's busy and idle clock ticks since boot (/proc/stat).
cpu_ticks() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat
}

# cpu_use "BUSY IDLE": the machine's busy and idle CPU seconds since then, so
# a run's time can be told apart as work or waiting.
cpu_use() {
	local hz
	hz=$(getconf CLK_TCK)
	echo "$1 $(cpu_ticks)" | awk -v hz="$hz" -v n="$(nproc)" \
		'{ printf "busy %ds, idle %ds of %d cores", ($3 - $1) / hz, ($4 - $2) / hz, n }'
}

kernels=${BENCH_KERNELS:-6.1 6.12 7.3}
first_kernel=${kernels%% *}
newest_kernel=${kernels##* }
start_all=$(date +%s)
cpu_start=$(cpu_ticks)

# The lanes' packages first, the host stages' beside the lanes: on a fresh
# machine that is half of the installing, out of the way of the boots.
stage_now deps-guest deps_stage deps-guest guest
rm -rf "$build/guest-files"
stage_now build-dt build_dt
stage_now guest-tools build_guest_tools

case $mode in
suite)
	: "${SUITES:?make check-suite SUITES=a,b [KERNEL=6.1]}"
	kernel=${KERNEL:-$first_kernel}
	if [ "$SUITES" = st-series ]; then
		# its modules are the series', not the driver's (upstream_lane)
		BENCH_KMEMLEAK_OFF=1 stage_now "upstream-$kernel" upstream_lane "$kernel"
	else
		GUEST_SUITES=$SUITES BENCH_KMEMLEAK_OFF=1 BENCH_INCREMENTAL=1 stage_now "test-kernel-$kernel" kernel_lane "$kernel"
	fi
	;;
*)
	# On a cold cache the test kernels are the critical path: they build
	# one after another (build.sh's lock) from the start, the next one as
	# soon as the last is done rather than when a lane's slot frees. This
	# chain holds no slot; the lanes wait for their kernel in build.sh.
	(for series in $kernels; do bash "$root/tests/kernel/build.sh" "$series" > /dev/null || true; done) \
		2> "$stages/kernel-builds.log" &
	builds=$!
	if [ "$mode" = all ]; then
		order+=(deps-host)
		run_stage deps-host deps_stage deps-host check &
		deps_host=$!
	fi
	# The lanes first: they are the longest. The host stages after them,
	# longest first, so that the last to finish is a short one.
	for series in $kernels; do
		lane "test-kernel-$series" kernel_lane "$series"
	done
	if [ "$mode" = all ]; then
		# The in-tree builds need only the lanes' packages: with their
		# kernel cached they take the free slot while the rest installs.
		# Uncached, they would hold it waiting for the build, so they
		# stay at the end.
		late_intree=()
		for series in $kernels; do
			if BENCH_CACHED_ONLY=1 bash "$root/tests/kernel/build.sh" "$series" > /dev/null 2>&1; then
				stage "intree-$series" intree_stage "$series"
			else
				late_intree+=("$series")
			fi
		done
		wait "$deps_host"
		# the series on the newest lane's kernel (it needs deps-host's
		# dt-schema), placed as the in-tree builds are: first with its
		# kernel cached, else at the end
		late_upstream=1
		if BENCH_CACHED_ONLY=1 bash "$root/tests/kernel/build.sh" "$newest_kernel" > /dev/null 2>&1; then
			stage "upstream" upstream_lane "$newest_kernel"
			late_upstream=0
		fi
		# shellcheck source=tests/kvers.sh
		. "$root/tests/kvers.sh"
		# shellcheck disable=SC2086 # one series a word
		stage newest-kernel bash "$root/tests/newest-kernel.sh" $kernels
		stage cross bash "$root/tests/cross.sh" "$build"
		stage package package_lane
		stage lint bash "$root/tests/lint.sh"
		stage arm64 arm64_lane
		stage demo demo_lane
		for series in 7.3 6.12 6.1; do
			stage "stock-$series" stock_lane "$series"
			stage "install-$series" install_stage "$series"
			stage "dkms-$series" dkms_stage "$series"
		done
		stage overlay bash "$root/tests/overlay.sh"
		for series in "${late_intree[@]}"; do
			stage "intree-$series" intree_stage "$series"
		done
		[ "$late_upstream" = 0 ] || stage "upstream" upstream_lane "$newest_kernel"
	fi
	wait
	;;
esac

echo >&2
failed_stages=()
for name in "${order[@]}"; do
	[ -f "$stages/$name.tap" ] && cat "$stages/$name.tap"
	read -r rc secs < "$stages/$name.rc" 2>/dev/null || { rc=1 secs="?"; echo "not ok - $name: stage ran"; }
	read -r user sys < "$stages/$name.cpu" 2>/dev/null || user='?' sys='?'
	printf 'stage %s %ss (cpu: user %ss, system %ss)\n' "$name" "$secs" "$user" "$sys" >> "$stages/times"
	[ "$rc" = 0 ] || failed_stages+=("$name")
done > "$build/results.tap"
# A check's name is what comes before its '#'. Two checks of one name could
# not be told apart when two runs' names are compared; suites and stages
# carry their name, so this covers each of them.
dup_names=$(sed -E 's/^(ok|not ok) - //; s/ #( .*)?$//' "$build/results.tap" | sort | uniq -d)
if [ -z "$dup_names" ]; then
	echo "ok - check: no two checks share a name"
else
	echo "not ok - check: no two checks share a name # twice or more: $(echo "$dup_names" | paste -sd '|' | sed 's/|/ | /g')"
fi >> "$build/results.tap"
cat "$build/results.tap"
for name in "${failed_stages[@]}"; do
	echo "# --- $name failed; the end of its log ($stages/$name.log):" >&2
	tail -n 25 "$stages/$name.log" >&2
done
sed 's/^/# time: /' "$stages/times"
echo "# time: total $(( $(date +%s) - start_all ))s (cpu: $(cpu_use "$cpu_start"))"
# A skipped check passed nothing: it is counted apart.
skipped=$(grep -c '^ok .* # SKIP' "$build/results.tap")
passed=$(( $(grep -c '^ok ' "$build/results.tap") - skipped ))
failed=$(grep -c '^not ok ' "$build/results.tap")
if [ "$skipped" = 0 ]; then
	echo "$passed passed, $failed failed"
else
	echo "$passed passed, $failed failed, $skipped skipped"
fi
[ "$failed" = 0 ] && [ "${#failed_stages[@]}" = 0 ]
