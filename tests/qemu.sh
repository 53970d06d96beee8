#!/bin/bash
# Boot a kernel + initramfs in QEMU under TCG (KVM guests hang on these
# machines) with a hard time limit.
#
#   qemu.sh KERNEL INITRD TIMEOUT_S CONSOLE_LOG RESULTS_LOG [kernel args...]
#
# ttyS0 (console) goes to CONSOLE_LOG, ttyS1 (test results) to RESULTS_LOG;
# CONSOLE_LOG "-" means the terminal; BENCH_DTB names a device tree to pass
# (ignored when the file does not exist). Exit status 124 means the time limit hit.
set -euo pipefail

kernel=$1 initrd=$2 limit=$3 console=$4 results=$5
shift 5

dtb=()
[ -f "${BENCH_DTB:-}" ] && dtb=(-dtb "$BENCH_DTB")

if [ "$console" = - ]; then
	con=(-serial stdio)
else
	con=(-serial "file:$console")
fi

exec timeout --kill-after=10 "$limit" qemu-system-x86_64 \
	-accel tcg -m 2048 -smp 1 -nodefaults -no-reboot -display none \
	-kernel "$kernel" -initrd "$initrd" \
	"${con[@]}" -serial "file:$results" "${dtb[@]}" \
	-append "console=ttyS0 panic=-1 $*"
