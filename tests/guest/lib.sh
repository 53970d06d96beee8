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

pass() {
	echo "ok - $SUITE: $1" >> "$RESULTS"
	echo "ok - $SUITE: $1"
}

fail() {
	echo "not ok - $SUITE: $1 # $2" >> "$RESULTS"
	echo "not ok - $SUITE: $1 # $2"
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

# write_errno FILE VALUE: writes VALUE to FILE, prints "0" on success or the
# errno name (EINVAL, ...). Uses echo: busybox's printf reports no error text.
write_errno() {
	if err=$( { echo "$2" > "$1"; } 2>&1 ); then echo 0; else
		case "$err" in
		*"Invalid argument"*) echo EINVAL ;;
		*"Device or resource busy"*) echo EBUSY ;;
		*"Input/output error"*) echo EIO ;;
		*"No such device"*) echo ENODEV ;;
		*) echo "$err" ;;
		esac
	fi
}

# read_errno FILE: prints the content, or ERR:<text> when the read fails.
# Uses dd: busybox cat retries with read() after a failed sendfile(), so a
# one-shot error would look like success.
read_errno() {
	if out=$(dd if="$1" bs=4096 count=1 2>/tmp/read.err); then echo "$out"; else echo "ERR:$(cat /tmp/read.err)"; fi
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
