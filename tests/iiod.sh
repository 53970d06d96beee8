#!/bin/bash
# iiod end to end, in a boot of its own: the test kernel with an e1000 NIC on
# QEMU user networking whose iiod port is forwarded to 127.0.0.1:PORT (the
# only address used on the host), the driver on the simulated chip, iiod in
# the guest (tests/guest/lib/iiod-guest.sh), and on the host libiio's network
# client as a user runs it: iio_info, iio_attr (read, write, a refused
# write), iio_readdev through the driver's own trigger, every scan checked
# against the simulator's ramp.
#
#   iiod.sh KERNEL INITRD OUTDIR
#
# Prints TAP lines ("ok - iiod: ..."); logs in OUTDIR/iiod-*. Handshake: the
# guest prints "# IIOD-READY iio:deviceN" on its results port once iiod
# listens; the host answers "done" on a third serial port (a FIFO pair) when
# it is finished, and the guest checks what the host left, cleans up and
# powers off. Every step has a time limit; QEMU is killed on exit.
set -uo pipefail

kernel=$1 initrd=$2 out=$3
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
# check.sh passes its own; this default covers a run by hand
splat_re=${BENCH_SPLAT_RE:-'WARNING:|BUG:|KASAN|Oops|Call Trace:|Kernel panic|unreferenced object'}
console=$out/iiod-console.log
results=$out/iiod-results.log
log=$out/iiod-host.log
work=$(mktemp -d)
qpid=
failed=0

cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# tap NAME STATUS [WHY]: NAME is the same in every run; a passing check
# carries WHY (its figures) after the '#'
tap() {
	if [ "$2" = 0 ]; then
		echo "ok - iiod: $1${3:+ # $3}"
	else
		echo "not ok - iiod: $1 # ${3:-see $log}"
		failed=$(( failed + 1 ))
	fi
}
check_eq() {
	if [ "$2" = "$3" ]; then tap "$1" 0; else tap "$1" 1 "expected '$2', got '$3'"; fi
}
# the host's checks below (the guest half's have their own plan): a run
# that stops early fails its plan too (check.sh)
plan iiod 20
qemu_alive() {
	kill -0 "$qpid" 2>/dev/null
}
guest_lines() {
	{ tr -d '\r' < "$results"; } 2>/dev/null
}
# run SECONDS CMD...: CMD with a time limit, its stderr to the host log
run() {
	local t=$1
	shift
	echo "\$ $*" >> "$log"
	timeout --kill-after=5 "$t" "$@" 2>> "$log"
}

if [ ! -f "$kernel" ] || [ ! -f "$initrd" ]; then
	tap "kernel and initramfs present" 1 "missing $kernel or $initrd"
	exit 1
fi
rm -f "$console" "$results"
: > "$log"

# A free port on 127.0.0.1: bound by the kernel's choice, then released for
# QEMU. Another process could take it in between: QEMU then fails to start
# and the readiness check below says so.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
uri=ip:127.0.0.1:$port
mkfifo "$work/ctl.in" "$work/ctl.out"

BENCH_HOSTFWD=$port BENCH_CTL=$work/ctl bash "$root/tests/qemu.sh" "$kernel" "$initrd" 600 \
	"$console" "$results" bench.mode=iiod kmemleak=off >> "$log" 2>&1 &
qpid=$!

# ---- readiness ----
ready=
for _ in $(seq 300); do
	ready=$(guest_lines | sed -n 's/^# IIOD-READY //p')
	[ -n "$ready" ] && break
	qemu_alive || break
	sleep 1
done
if [ -z "$ready" ]; then
	tap "guest reports iiod ready within 300 s" 1 "qemu $(qemu_alive && echo running || echo exited), see $console"
	guest_lines | grep -E '^(ok|not ok) ' | sed -E 's/^(ok|not ok) - /\1 - iiod\//'
	exit 1
fi
tap "guest reports iiod ready" 0 "$ready"
n=${ready##*iio:device}
trig=lps001wp-dev$n

# ---- iio_info ----
run 60 iio_info -u "$uri" > "$out/iiod-iio_info.txt"
tap "iio_info -u ip:127.0.0.1:PORT" "$?" "$uri"
check_eq "iio_info: the device is listed by id and name" "$ready: lps001wp" \
	"$(grep -o "$ready: lps001wp" "$out/iiod-iio_info.txt" | head -n 1)"
check_eq "iio_info: the driver's trigger is listed" "$trig" \
	"$(grep -o "trigger[0-9]*: $trig" "$out/iiod-iio_info.txt" | sed 's/.*: //' | head -n 1)"
check_eq "iio_info: scan elements pressure, temp, pressure1, timestamp" \
	"pressure temp pressure1 timestamp" \
	"$(sed -n "/$ready: lps001wp/,/^[[:space:]]*trigger[0-9]*:/p" "$out/iiod-iio_info.txt" |
		sed -n 's/^[[:space:]]*\([a-z0-9]*\): *.*(input, index: \([0-9]*\).*/\2 \1/p' |
		sort -n | awk '{ printf "%s%s", sep, $2; sep = " " }')"

# libiio's view is the same remotely as locally (75-libiio): the
# unindexed in_pressure_* files land on pressure1
check_eq "iio_info: pressure has no attributes, pressure1 two raw entries" "0 2" \
	"$(sed -n "/$ready: lps001wp/,/device-specific attributes found/p" "$out/iiod-iio_info.txt" |
		awk '/^[[:space:]]*[a-z0-9]+: *\(input/ { c = $1 } /attr +[0-9]+: raw / { n[c]++ }
			END { printf "%d %d", n["pressure:"], n["pressure1:"] }')"

# ---- iio_attr: a channel attribute, then sampling_frequency ----
t=$(run 30 iio_attr -u "$uri" -c "$ready" temp raw)
if [ -n "$t" ] && [ "$t" -ge 1600 ] 2>/dev/null && [ "$t" -le 11600 ]; then
	tap "iio_attr -u: temp raw on the ramp from 1600" 0 "$t"
else
	tap "iio_attr -u: temp raw on the ramp from 1600" 1 "got '$t'"
fi
freq() {
	run 30 iio_attr -u "$uri" -d "$ready" sampling_frequency
}
run 30 iio_attr -u "$uri" -d "$ready" sampling_frequency 7 > /dev/null
tap "iio_attr -u: write sampling_frequency 7" "$?"
check_eq "iio_attr -u: sampling_frequency reads back" 7.000000 "$(freq)"
run 30 iio_attr -u "$uri" -d "$ready" sampling_frequency 9 > "$work/bad" 2>&1
rc=$?
if [ "$rc" != 0 ] || grep -qi 'error\|invalid' "$work/bad"; then
	tap "iio_attr -u: sampling_frequency 9 refused" 0
else
	tap "iio_attr -u: sampling_frequency 9 refused" 1 "status 0: $(head -c 200 "$work/bad")"
fi
check_eq "iio_attr -u: refused write changed nothing" 7.000000 "$(freq)"
run 30 iio_attr -u "$uri" -d "$ready" sampling_frequency 12.5 > /dev/null
check_eq "iio_attr -u: sampling_frequency 12.5 reads back" 12.500000 "$(freq)"

# ---- iio_readdev: 100 scans through iiod ----
run 120 iio_readdev -u "$uri" -t "$trig" -T 20000 -b 16 -s 100 "$ready" pressure temp \
	> "$work/scans.bin"
tap "iio_readdev -u -t lps001wp-devN -T 20000 -b 16 -s 100 iio:deviceN pressure temp" "$?" "$trig $ready"
check_eq "iio_readdev -u: 100 scans of 4 bytes" 400 "$(stat -c %s "$work/scans.bin")"
# Each scan: u16 pressure, s16 temperature (LE). The ramp gives P = 16000 +
# 3k, T = 1600 + k for sample k; through the own trigger samples come in
# order and each one once, a missed one shows as a larger step. Every scan
# must lie on the ramp with its own pressure and temperature, and the
# stream must move forward.
verdict=$(od -An -v -tu2 -w4 "$work/scans.bin" | awk '
	{ p = $1; t = $2; n++ }
	(p - 16000) % 3 != 0 || p < 16000 || t < 1600 || (p - 16000) / 3 != t - 1600 {
		bad = bad " scan " n ": " p "/" t
	}
	n > 1 && p <= lp { bad = bad " scan " n " not after " lp }
	{ lp = p; if (n == 1) first = p }
	END {
		if (n == 0) print "no scans"
		else if (bad != "") print substr(bad, 1, 200)
		else printf "ok pressure %d..%d in %d scans", first, lp, n
	}')
case "$verdict" in
ok*) tap "iio_readdev -u: every scan on the ramp, in order" 0 "${verdict#ok }" ;;
*) tap "iio_readdev -u: every scan on the ramp, in order" 1 "$verdict" ;;
esac

# Left for the guest to check in sysfs. iio_readdev returns before iiod's
# reader thread has disabled the buffer (it may still wait out a block of
# 16 samples), and until then the driver refuses the write with -EBUSY:
# that refusal is the state polled, any other error fails at once.
# iio_attr prints "ERROR: Device or resource busy while writing" on stdout.
tries=0
while :; do
	tries=$(( tries + 1 ))
	run 30 iio_attr -u "$uri" -d "$ready" sampling_frequency 7 > "$work/busy"
	rc=$?
	cat "$work/busy" >> "$log"
	if [ "$rc" = 0 ] || [ "$tries" -ge 60 ] || ! grep -qi busy "$work/busy"; then
		break
	fi
	sleep 0.5
done
tap "iio_attr -u: write sampling_frequency 7 for the guest to see" "$rc" \
	"after $tries tries$([ "$rc" = 0 ] || echo ", see $log")"

# ---- tell the guest to finish; wait for it ----
# shellcheck disable=SC2016 # $1 is for the inner shell
timeout 10 sh -c 'echo done > "$1"' sh "$work/ctl.in"
tap "host's end-of-test line written to ttyS2" "$?"
for _ in $(seq 120); do
	qemu_alive || break
	sleep 1
done
if qemu_alive; then
	tap "guest powers off within 120 s of the host's line" 1 "killed"
	kill "$qpid"
else
	wait "$qpid"
	rc=$?
	tap "guest powers off within 120 s of the host's line" "$rc" "qemu status $rc"
fi
qpid=
guest_lines | grep -E '^(ok|not ok) ' | sed -E 's/^(ok|not ok) - /\1 - iiod\//'
guest_lines | grep -q '^not ok ' && failed=$(( failed + 1 ))
if guest_lines | grep -q '^# BENCH-DONE'; then
	tap "guest ran to the end" 0
else
	tap "guest ran to the end" 1 "see $console"
fi
if grep -Eq "$splat_re" "$console"; then
	tap "no kernel splat" 1 "$(grep -Em1 "$splat_re" "$console" | tr -d '\r')"
else
	tap "no kernel splat" 0
fi
[ "$failed" = 0 ]
