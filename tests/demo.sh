#!/bin/bash
# make demo: boot Debian's own kernel in QEMU with the simulated chip and
# show live readings and one threshold event.
#
#   demo.sh           the demo (Debian 12 or 13 on x86_64, as root)
#   demo.sh --build   make check's demo stage, first half: fetch and build as
#                     the demo does, print TAP lines and write
#                     BUILD/demo.kernel and BUILD/demo.cpio.gz for check.sh
#                     to boot (the guest's checks: tests/guest/lib/demo-guest.sh)
#
# It installs what it needs (tests/deps.sh demo: a compiler, make, QEMU for
# x86, busybox and a few tools), fetches the release's own kernel with
# apt-get download (Debian 12: 6.1, Debian 13: 6.12: the image, its headers,
# the common headers and linux-kbuild) and unpacks them into the cache
# (/var/cache/lps001wp or $LPS001WP_CACHE) without installing them, builds
# only the driver and the simulator against those headers and boots that
# kernel with them. Debian's kernels have no IRQ_SIM; the simulator brings
# its own interrupt controller, so the stock kernel does. It prints how long
# each step took: the first reading within 3 minutes of a fresh machine's
# `make demo` on 2 cores, apt included, is the aim, 30 s on later runs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
# shellcheck source=tests/stock-lib.sh
. "$root/tests/stock-lib.sh"
build=${BENCH_BUILD:-$root/build}
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}
mode=demo
case ${1:-} in
--build) mode=build ;;
'') ;;
*) echo "usage: demo.sh [--build]" >&2; exit 2 ;;
esac

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
		$os on $arch. (The demo boots Debian's own x86_64 kernel in QEMU and
		builds the driver with Debian's tools.) Nothing was installed or changed.
		To use the driver here, see README.md, "Install".
	EOF
	exit 1
fi
if [ "$(id -u)" != 0 ] && ! { bash "$root/tests/deps.sh" demo 2>/dev/null && mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ]; }; then
	echo "make demo: needs root (sudo make demo): it installs Debian packages and unpacks Debian's kernel in $cache" >&2
	exit 1
fi

# What the demo makes in the build directory: the undo removes these and
# nothing else there (make deb's package, make check's stages stay).
demo_made=(demo-modules demo-files demo-modroot demo.cpio.gz demo-results.log demo-first)
build_was_there=
[ ! -d "$build" ] || build_was_there=1

# show_undo: the one command that removes what the demo left, printed at
# the end whether it finished or failed part way, with what is there now
# shellcheck disable=SC2317 # run by the EXIT trap
show_undo() {
	local left=() rm=() p sroot aptdir undo
	[ "$mode" = demo ] || return 0
	aptdir=$cache/apt-host-$(dpkg --print-architecture)
	if [ -n "${STOCK_ROOT:-}" ]; then
		sroot=$(dirname "$STOCK_ROOT")
		echo "demo: it left Debian's $kver unpacked in $sroot ($(du -sh "$sroot" | cut -f1)); nothing went to /boot or /lib/modules." >&2
		left+=("$sroot")
	fi
	if [ -d "$aptdir" ]; then
		echo "demo: apt's state for that fetch is in $aptdir ($(du -sh "$aptdir" | cut -f1))." >&2
		left+=("$aptdir")
	fi
	for p in "${demo_made[@]}"; do
		[ ! -e "$build/$p" ] || rm+=("$build/$p")
	done
	[ "${#rm[@]}" = 0 ] || echo "demo: in $build it made ${rm[*]##*/} ($(du -shc "${rm[@]}" | tail -n 1 | cut -f1)); nothing else there is touched." >&2
	left+=("${rm[@]}")
	[ ! -e "$cache/.aptfetch.lock" ] || left+=("$cache/.aptfetch.lock")
	undo=
	if [ -s "$cache/apt-installed.txt" ]; then
		echo "demo: it installed $(sort -u "$cache/apt-installed.txt" | wc -l) packages with what they depend on; $cache/apt-installed.txt lists them (with make check's, if it ran here)." >&2
		undo="sudo apt-get purge --autoremove \$(cat $cache/apt-installed.txt); "
		left+=("$cache/apt-installed.txt")
	fi
	[ "${#left[@]}" = 0 ] || undo="${undo}sudo rm -rf ${left[*]}; "
	# build/ and the cache directory go too when nothing else is in them
	[ -n "$build_was_there" ] || undo="${undo}sudo rmdir --ignore-fail-on-non-empty $build; "
	echo "demo: undo with: ${undo}sudo rmdir --ignore-fail-on-non-empty $cache" >&2
}
[ "$mode" = build ] || trap show_undo EXIT

# step NAME: the time since the last step, kept for the summary
times=() last=$SECONDS
step() {
	times+=("$1 $((SECONDS - last))s")
	last=$SECONDS
}
fail() {
	if [ "$mode" = build ]; then echo "not ok - demo: $1 # $2"; else echo "demo: $1 failed: $2" >&2; fi
	exit 1
}
ok() {
	[ "$mode" = demo ] || echo "ok - demo: $1${2:+ # $2}"
}
# the kernel fetched, the modules built (the boot is check.sh's)
[ "$mode" = demo ] || plan demo 2

mkdir -p "$build"
bash "$root/tests/deps.sh" demo
step apt

# The release's kernel: the one its linux-headers-amd64 points at. A
# machine whose package lists were removed (container images) gets them.
release_kernel() {
	apt-cache show --no-all-versions linux-headers-amd64 2>/dev/null |
		sed -n 's/^Depends: linux-headers-\([^ ,]*\) (= \([^)]*\)).*/\1 \2/p'
}
kernel=$(release_kernel || true)
if [ -z "$kernel" ] && [ "$(id -u)" = 0 ]; then
	apt-get update -qq >&2
	kernel=$(release_kernel || true)
fi
[ -n "$kernel" ] || fail "finding Debian's kernel" "apt-cache knows no linux-headers-amd64 (sudo apt-get update)"
read -r kver version <<< "$kernel"
echo "demo: Debian's kernel $kver ($version): fetching the image and headers into $cache (not installed)" >&2
if ! stock_kernel host "$kver" "$version"; then
	# the package lists may be older than the archive: once more after an update
	[ "$(id -u)" = 0 ] || fail "Debian's $kver fetched" "$STOCK_ERR (sudo apt-get update?)"
	echo "demo: $STOCK_ERR; apt-get update and once more" >&2
	apt-get update -qq >&2
	stock_kernel host "$kver" "$version" || fail "Debian's $kver fetched" "$STOCK_ERR"
fi
ok "Debian's kernel fetched and unpacked" "$kver $version"
step fetch

echo "demo: building the driver and the simulator against Debian's $kver headers" >&2
BENCH_INCREMENTAL=1 make_modules "$STOCK_HEADERS" "$build/demo-modules" -j"$(nproc)" || {
	tail -n 30 "$build/demo-modules/build.log" >&2 || true
	fail "driver and simulator build against Debian's headers" "see $build/demo-modules/build.log"
}
ok "driver and simulator build against Debian's headers"
files=$build/demo-files
mkdir -p "$files"
# lps001wp-read, the package's reader, is what the demo runs: static, as
# the guest has no C library
rm -f "$files/iio_event_wait"
gcc -O2 -Wall -Wextra -Werror -static -o "$files/lps001wp-read" "$root/tools/lps001wp-read.c" ||
	fail "lps001wp-read builds static" "gcc failed"
# Only the stock modules the guest loads (the IIO core, the kfifo buffer,
# the triggered buffer and what they need), uncompressed for busybox.
stock_modroot "$STOCK_ROOT" "$kver" "$build/demo-modroot"
BENCH_MINIMAL=1 BENCH_EXTRA_FILES=$files bash "$root/tests/initramfs.sh" "$build/demo.cpio.gz" \
	"$build/demo-modroot" "$kver" "$build/demo-modules/lps001wp.ko" \
	"$build/demo-modules/tests/sim/lps001wp_sim.ko" || fail "the guest's initramfs" "tests/initramfs.sh failed"
step build

# tsc=unstable: a TCG vCPU's TSC runs at the host's rate, but on a busy host
# the kernel's PIT calibration can come out ten times too low; time then
# runs ten times too fast on the TSC, and RCU reports a stall that is none.
# The HPET keeps QEMU's clock.
args=(bench.mode=demo tsc=unstable)
if [ "$mode" = build ]; then
	echo "$STOCK_VMLINUZ" > "$build/demo.kernel"
	echo "${args[*]}" > "$build/demo.args"
	exit 0
fi

echo "demo: booting Debian's $kver in QEMU (TCG, one CPU)" >&2
results=$build/demo-results.log first=$build/demo-first
rm -f "$results" "$first"
start=$SECONDS
rc=0
# The console goes to the terminal through a loop that times the first
# reading (lps001wp-read's). Its input is not the terminal: timeout (qemu.sh) runs
# QEMU in a process group of its own, which the terminal would stop
# (SIGTTOU) when QEMU set it to raw mode.
bash "$root/tests/qemu.sh" "$STOCK_VMLINUZ" "$build/demo.cpio.gz" 300 - "$results" \
	"${args[@]}" quiet loglevel=3 < /dev/null |
	while IFS= read -r line; do
		printf '%s\n' "$line"
		if [ ! -e "$first" ] && [[ $line == *"pressure "*" hPa, temperature "*" °C, DELTA "* ]]; then
			echo "$SECONDS" > "$first"
		fi
	done || rc=$?
if [ -s "$first" ]; then
	times+=("boot to the first reading $(($(cat "$first") - start))s" "the rest $((SECONDS - $(cat "$first")))s")
else
	times+=("boot $((SECONDS - start))s, no reading")
fi

# The guest's own checks (tests/guest/lib/demo-guest.sh), on the results port
touch "$results"
checks=$(tr -d '\r' < "$results" | grep -E '^(ok|not ok) ' || true)
echo >&2
if [ "$rc" != 0 ] || ! grep -q '^# BENCH-DONE' "$results" || grep -q '^not ok' <<< "$checks"; then
	echo "demo: something went wrong (QEMU status $rc). The guest's checks:" >&2
	echo "${checks:-  none: the guest did not get that far}" >&2
	rc=1
else
	echo "demo: the guest's $(grep -c '^ok' <<< "$checks") checks passed." >&2
fi
summary=
for t in "${times[@]}"; do summary=${summary:+$summary, }$t; done
echo "demo: times: $summary; the first reading $(cat "$first" 2>/dev/null || echo '?')s after make demo started, all ${SECONDS}s" >&2

# What it left, and the undo: show_undo, on the way out
exit "$rc"
