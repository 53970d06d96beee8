# shellcheck shell=sh
# Helpers for guest suites (busybox sh). The runner (tests/guest/init) sets
# SUITE and sources this file before each suite.
#
# Every check prints exactly one TAP line to $RESULTS:
#   ok - <suite>: <what>
#   not ok - <suite>: <what> # <why>
# The host counts those lines; a suite that exits non-zero without printing
# is reported as a failure by the runner.

RESULTS=${RESULTS:-/dev/ttyS1}
export SIM=/sys/kernel/debug/lps001wp-sim

# The console gets a copy unless the results already go there
# (bench.results= on a one-UART machine, see tests/guest/init).
pass() {
	echo "ok - $SUITE: $1" >> "$RESULTS"
	[ "${RESULTS_ON_CONSOLE:-0}" = 1 ] || echo "ok - $SUITE: $1"
}

fail() {
	echo "not ok - $SUITE: $1 # $2" >> "$RESULTS"
	[ "${RESULTS_ON_CONSOLE:-0}" = 1 ] || echo "not ok - $SUITE: $1 # $2"
}

# check_eq WHAT EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected '$2', got '$3'"; fi
}

# check_true WHAT COMMAND...   (passes when COMMAND succeeds)
check_true() {
	what=$1; shift
	if "$@" >/tmp/check.out 2>&1; then pass "$what"; else fail "$what" "'$*' failed: $(head -c 200 /tmp/check.out)"; fi
}

# check_false WHAT COMMAND...  (passes when COMMAND fails)
check_false() {
	what=$1; shift
	if "$@" >/tmp/check.out 2>&1; then fail "$what" "'$*' succeeded"; else pass "$what"; fi
}

# write_errno FILE VALUE: writes VALUE and a newline (echo: busybox's printf
# reports no error text); prints 0, the errno name, or ERR:<text>.
write_errno() {
	if err=$( { echo "$2" > "$1"; } 2>&1 ); then echo 0; else
		case "$err" in
		*"Invalid argument"*) echo EINVAL ;;
		*"busy"*) echo EBUSY ;;
		*"Input/output error"*) echo EIO ;;
		*"No such device or address"*) echo ENXIO ;;
		*"No such device"*) echo ENODEV ;;
		*"No such file"*) echo ENOENT ;;
		*"timed out"*) echo ETIMEDOUT ;;
		*) echo "ERR:$err" ;;
		esac
	fi
}

# read_errno FILE: one read(2) of FILE; the content, or ERR:<message> when it
# fails. Uses dd: busybox cat retries with read() after a failed sendfile(),
# so a one-shot error would look like success.
read_errno() {
	if out=$(dd if="$1" bs=4096 count=1 2>/tmp/read.err); then echo "$out"; else
		echo "ERR:$(tail -n1 /tmp/read.err)"
	fi
}

# regval CHIP REG: a register of the simulated chip (CHIP = 5c, of-5d, ...),
# read from its debugfs dump, which has no side effects.
regval() {
	awk -v r="$2" '$1 == r { print $2 }' "$SIM/$1/regs"
}

# counter CHIP NAME: one of the simulated chip's counters.
counter() {
	awk -v k="$2" '$1 == k { print $2 }' "$SIM/$1/counters"
}

# hold_on / let_go: runtime PM of the device whose power directory is $PWR.
# hold_on sets a delay no guest is slow enough to reach, for checks of what
# is true "right after" a read (a loaded host stretches guest time between
# two shell lines beyond the driver's short default); let_go restores the
# default, whose expiry the checks then wait for.
hold_on() {
	[ -n "${AUTOSUSPEND_DEFAULT_MS:-}" ] ||
		AUTOSUSPEND_DEFAULT_MS=$(cat "$PWR"/autosuspend_delay_ms)
	echo 60000 > "$PWR"/autosuspend_delay_ms
}
let_go() {
	echo "$AUTOSUSPEND_DEFAULT_MS" > "$PWR"/autosuspend_delay_ms
}

# powered_down [CHIP]: CTRL_REG1 PD clear (default chip 5c).
powered_down() {
	[ $(( $(regval "${1:-5c}" 0x20) & 0x40 )) = 0 ]
}

# scans N BYTES: N scans of BYTES bytes from device $D's character device,
# one per line, as unsigned 16-bit words (od).
scans() {
	timeout 15 dd if="/dev/${D##*/}" bs="$2" count="$1" 2>/dev/null | od -An -v -tu2 -w"$2"
}

# enable_scan CHANNELS...: exactly these scan elements of device $D.
enable_scan() {
	# room for 128 scans: the default kfifo (2) drops samples before dd runs
	echo 128 > "$D/buffer/length"
	for f in "$D"/scan_elements/*_en; do echo 0 > "$f"; done
	for c in "$@"; do echo 1 > "$D/scan_elements/in_${c}_en"; done
}

# iio_dev NAME: the sysfs directory of the first IIO device called NAME.
iio_dev() {
	for d in /sys/bus/iio/devices/iio:device*; do
		[ -f "$d/name" ] && [ "$(cat "$d/name")" = "$1" ] && { echo "$d"; return 0; }
	done
	return 1
}

# iio_trigger NAME: the sysfs directory of the trigger called NAME.
iio_trigger() {
	for d in /sys/bus/iio/devices/trigger*; do
		[ -f "$d/name" ] && [ "$(cat "$d/name")" = "$1" ] && { echo "$d"; return 0; }
	done
	return 1
}

# listen NAME TIMEOUT_MS [COUNT]: iio_event_wait on device $D in the
# background, once its fd is open; its output goes to /tmp/ev.NAME, its pid
# to LISTENER.
listen() {
	/tests/iio_event_wait "/dev/${D##*/}" "$2" "${3:-1}" > "/tmp/ev.$1" 2>&1 &
	# shellcheck disable=SC2034 # the suites wait for it
	LISTENER=$!
	wait_for 2 grep -q listening "/tmp/ev.$1"
}

# wait_for SECONDS COMMAND...: polls COMMAND every 0.1 s; fails on timeout.
wait_for() {
	n=$(( $1 * 10 )); shift
	while [ "$n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		n=$(( n - 1 ))
	done
	return 1
}

# i2c_bus_of NAME: the bus number of the adapter whose name is NAME.
i2c_bus_of() {
	for a in /sys/bus/i2c/devices/i2c-*; do
		[ -f "$a/name" ] && [ "$(cat "$a/name")" = "$1" ] && { echo "${a##*/i2c-}"; return 0; }
	done
	return 1
}
