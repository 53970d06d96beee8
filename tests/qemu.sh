#!/bin/bash
# Boot a kernel + initramfs in QEMU under TCG (KVM guests hang on these
# machines) with a hard time limit.
#
#   qemu.sh KERNEL INITRD TIMEOUT_S CONSOLE_LOG RESULTS_LOG [kernel args...]
#
# ttyS0 (console) goes to CONSOLE_LOG, ttyS1 (test results) to RESULTS_LOG;
# CONSOLE_LOG "-" means the terminal; BENCH_DTB names a device tree to pass
# (ignored when the file does not exist). Exit status 124 means the time limit hit.
#
# BENCH_QEMU_ARCH=aarch64 boots an arm64 kernel on the virt machine instead.
# It has one UART, so the results go to the console too: the guest is told
# (bench.results=/dev/ttyAMA0) and RESULTS_LOG becomes a copy of CONSOLE_LOG.
#
# Opt-in, both off by default (no NIC, two serial ports):
#   BENCH_HOSTFWD=PORT  an e1000 NIC on QEMU user networking, host
#                       127.0.0.1:PORT forwarded to the guest's iiod port 30431
#                       (restrict=on: the guest reaches nothing outside)
#   BENCH_CTL=PATH      a third serial port (ttyS2) on the FIFOs PATH.in (host
#                       to guest) and PATH.out (guest to host)
set -euo pipefail

kernel=$1 initrd=$2 limit=$3 console=$4 results=$5
shift 5

# le32 N: N as 4 little-endian bytes
le32() {
	local i
	for i in 0 8 16 24; do
		# shellcheck disable=SC2059 # the format is the byte
		printf "\\x$(printf %02x $(($1 >> i & 255)))"
	done
}

dtb=()
if [ -f "${BENCH_DTB:-}" ]; then
	dtb=(-dtb "$BENCH_DTB")
	# QEMU puts the DTB after the kernel file, inside the memory the kernel
	# decompresses into (pref_address + init_size): 6.1 built by gcc 14
	# wrote over it ("OF: fdt: No valid device tree found"). A copy of the
	# kernel padded past that end keeps it clear.
	pref=$(od -An -t u8 -j $((0x258)) -N 8 "$kernel")
	init=$(od -An -t u4 -j $((0x260)) -N 4 "$kernel")
	cp "$kernel" "$results.bzImage"
	kernel=$results.bzImage
	size=$(( (pref + init - 0x100000) / 0x100000 * 0x100000 + 0x200000 ))
	[ "$(stat -c %s "$kernel")" -ge "$size" ] || truncate -s "$size" "$kernel"
	# QEMU 10 (Debian 13) points the boot header's setup_data list at the
	# end of the whole bzImage file, 16 KiB (the setup sectors) past where
	# it copies the DTB, so the kernel finds an empty entry there. The same
	# entry (next 0, SETUP_DTB, length, the DTB), loaded at that address,
	# makes either QEMU work: QEMU 7.2 points at its own copy and never
	# reads this one.
	blob=$results.setup_data
	{ printf '\0\0\0\0\0\0\0\0'; le32 2; le32 "$(stat -c %s "$BENCH_DTB")"; cat "$BENCH_DTB"; } >"$blob"
	dtb+=(-device "loader,file=$blob,addr=$((0x100000 + ($(stat -c %s "$kernel") + 15) / 16 * 16)),force-raw=on")
fi

extra=()
if [ -n "${BENCH_HOSTFWD:-}" ]; then
	extra+=(-nic "user,model=e1000,restrict=on,hostfwd=tcp:127.0.0.1:${BENCH_HOSTFWD}-:30431")
fi
[ -n "${BENCH_CTL:-}" ] && extra+=(-serial "pipe:$BENCH_CTL")

if [ "$console" = - ]; then
	con=(-serial stdio)
else
	con=(-serial "file:$console")
fi

# A TCG vCPU runs only when the host schedules QEMU, but the guest clock
# follows the host's, so on a loaded host any stretch of guest code without a
# schedule point looks long to the soft-lockup detector.
# watchdog_thresh=60: a soft lockup is reported after 120 s, not 20 s; a
# driver that really spins is still reported, and a hung suite still hits
# its own time limit.
# no_timer_check: x86's boot-time check that the IO-APIC timer ticks waits a
# few host-loaded milliseconds and panics ("IO-APIC + timer doesn't work"),
# seen once on Debian's stock 7.2 under a loaded host; other arches ignore it.
args="panic=-1 watchdog_thresh=60 no_timer_check"

if [ "${BENCH_QEMU_ARCH:-x86_64}" = aarch64 ]; then
	rc=0
	timeout --kill-after=10 "$limit" qemu-system-aarch64 \
		-M virt -cpu cortex-a57 -accel tcg -m 1024 -smp 1 -nodefaults -no-reboot -display none \
		-kernel "$kernel" -initrd "$initrd" "${con[@]}" \
		-append "console=ttyAMA0 $args bench.results=/dev/ttyAMA0 $*" || rc=$?
	[ "$console" = - ] || cp "$console" "$results"
	exit "$rc"
fi

# suspend.pm_test_delay=1: pm_test busy-waits this long with the CPU held.
exec timeout --kill-after=10 "$limit" qemu-system-x86_64 \
	-accel tcg -m 2048 -smp 1 -nodefaults -no-reboot -display none \
	-kernel "$kernel" -initrd "$initrd" \
	"${con[@]}" -serial "file:$results" "${extra[@]}" "${dtb[@]}" \
	-append "console=ttyS0 $args suspend.pm_test_delay=1 $*"
