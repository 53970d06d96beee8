# shellcheck shell=sh
# Helpers for guest suites (busybox sh). The runner (tests/guest/lib/init) sets
# SUITE and sources this file before each suite.
#
# Every check prints exactly one TAP line to $RESULTS:
#   ok - <suite>: <what> [# <figures>]
#   not ok - <suite>: <what> # <why>
# <what> is the same in every run (figures go after the '#'), so two runs'
# names compare. The host counts those lines; the runner reports a suite
# that exits non-zero or runs another number of checks than its plan.
#
# Sections, in the order a suite uses them: TAP, waiting and sysfs, the
# simulator, PM, faults, buffers, events, clients, variants.
#
# Naming: busybox sh has no local variables, so a helper's own variables
# start with its function's initials and an underscore (wait_for: wf_n,
# i2c_bus_of: ibo_a); a variable in capitals is what the helper sets for its
# caller, and its header names it. The lint gate `helpers` (tests/lint/
# text.sh) refuses any other assignment in a helper: a suite's own `n` or `d`
# must survive a call.

RESULTS=${RESULTS:-/dev/ttyS1}
export SIM=/sys/kernel/debug/lps001wp-sim

# ---------------------------------------------------------------- TAP

# tap LINE: one TAP line to $RESULTS, counted for the runner's comparison
# with the suite's plan. The console gets a copy unless the results already
# go there (bench.results= on a one-UART machine, see tests/guest/lib/init).
tap() {
	echo "$1" >> "$RESULTS"
	[ "${RESULTS_ON_CONSOLE:-0}" = 1 ] || echo "$1"
	echo . >> "/tmp/ran.$SUITE"
}

# plan N: the number of checks the suite runs, declared at its top (N may
# be computed, as long as it does not depend on what the checks measure).
# The runner fails the suite when it ran another number.
plan() {
	echo "$1" > "/tmp/plan.$SUITE"
}

# note TEXT: figures (measured values, seeds) for the next check's line,
# after its '#' (kept in CHECK_NOTE): a check's name never changes from one
# run to the next.
note() {
	CHECK_NOTE=$*
}

# pass WHAT [COMMENT]: an ok line; COMMENT, or the note (CHECK_NOTE, used
# up), after its '#'
pass() {
	p_c=${2:-${CHECK_NOTE:-}}
	CHECK_NOTE=
	tap "ok - $SUITE: $1${p_c:+ # $p_c}"
}

# fail WHAT WHY: a not ok line, the note (CHECK_NOTE, used up) after WHY.
# WHY on one line (a failed command's arguments, e.g. a list of timestamps,
# may hold newlines, which would cut the TAP line)
fail() {
	f_c=${CHECK_NOTE:-}
	CHECK_NOTE=
	f_w=$(printf '%s' "$2" | tr '\n' ' ')
	tap "not ok - $SUITE: $1 # $f_w${f_c:+; $f_c}"
}

# check_eq WHAT EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected '$2', got '$3'"; fi
}

# check_true WHAT COMMAND...   (passes when COMMAND succeeds)
check_true() {
	ct_w=$1; shift
	if "$@" >/tmp/check.out 2>&1; then pass "$ct_w"; else fail "$ct_w" "'$*' failed: $(head -c 200 /tmp/check.out)"; fi
}

# check_false WHAT COMMAND...  (passes when COMMAND fails)
check_false() {
	cf_w=$1; shift
	if "$@" >/tmp/check.out 2>&1; then fail "$cf_w" "'$*' succeeded"; else pass "$cf_w"; fi
}

# ---------------------------------------------------------------- waiting and sysfs

# nap SECONDS: sleeps without a fork (sleep is no builtin of busybox sh):
# a read with a timeout on a FIFO that nobody writes. Fractions work.
nap() {
	[ -p /tmp/nap ] || mkfifo /tmp/nap
	# shellcheck disable=SC3045 # busybox sh has read -t
	read -r -t "$1" _ <> /tmp/nap
	return 0
}

# wait_for SECONDS COMMAND...: polls COMMAND every 0.1 s; fails on timeout.
# COMMAND must not call wait_for itself: the two would share wf_n.
wait_for() {
	wf_n=$(( $1 * 10 )); shift
	while [ "$wf_n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		nap 0.1
		wf_n=$(( wf_n - 1 ))
	done
	return 1
}

# field FILE KEY: sets FIELD to the second word of FILE's line whose first
# word is KEY; fails when there is none. Shell builtins only: in a TCG guest
# with the debug kernel a fork and exec cost more than the read they serve,
# and polling loops (wait_for) call this ten times a second.
field() {
	FIELD=
	while read -r f_k f_v _; do
		[ "$f_k" = "$2" ] && { FIELD=$f_v; return 0; }
	done < "$1"
	return 1
}

# read_errno FILE: one read(2) of FILE; the content, or ERR:<message> when it
# fails. Uses dd: busybox cat retries with read() after a failed sendfile(),
# so a one-shot error would look like success.
read_errno() {
	if re_o=$(dd if="$1" bs=4096 count=1 2>/tmp/read.err); then echo "$re_o"; else
		echo "ERR:$(tail -n1 /tmp/read.err)"
	fi
}

# write_errno FILE VALUE: writes VALUE and a newline (echo: busybox's printf
# reports no error text); prints 0, the errno name, or ERR:<text>, and sets
# WERR to it: a loop that calls it without $(...) forks nothing.
write_errno() {
	if { echo "$2" > "$1"; } 2> /tmp/write.err; then WERR=0; else
		we_t=
		while read -r we_l; do we_t="$we_t$we_l"; done < /tmp/write.err
		case "$we_t" in
		*"Invalid argument"*) WERR=EINVAL ;;
		*"busy"*) WERR=EBUSY ;;
		*"Input/output error"*) WERR=EIO ;;
		*"No such device or address"*) WERR=ENXIO ;;
		*"No such device"*) WERR=ENODEV ;;
		*"No such file"*) WERR=ENOENT ;;
		*"timed out"*) WERR=ETIMEDOUT ;;
		*) WERR="ERR:$we_t" ;;
		esac
	fi
	echo "$WERR"
}

# iio_dev NAME: the sysfs directory of the first IIO device called NAME.
iio_dev() {
	for id_d in /sys/bus/iio/devices/iio:device*; do
		[ -f "$id_d/name" ] && [ "$(cat "$id_d/name")" = "$1" ] && { echo "$id_d"; return 0; }
	done
	return 1
}

# iio_trigger NAME: the sysfs directory of the trigger called NAME.
iio_trigger() {
	for it_d in /sys/bus/iio/devices/trigger*; do
		[ -f "$it_d/name" ] && [ "$(cat "$it_d/name")" = "$1" ] && { echo "$it_d"; return 0; }
	done
	return 1
}

# i2c_bus_of NAME: the bus number of the adapter whose name is NAME.
i2c_bus_of() {
	for ibo_a in /sys/bus/i2c/devices/i2c-*; do
		[ -f "$ibo_a/name" ] && [ "$(cat "$ibo_a/name")" = "$1" ] && { echo "${ibo_a##*/i2c-}"; return 0; }
	done
	return 1
}

# ---------------------------------------------------------------- the simulator

# regval CHIP REG: a register of the simulated chip (CHIP = 5c, of-5d, ...),
# read from its debugfs dump, which has no side effects.
regval() {
	field "$SIM/$1/regs" "$2" && echo "$FIELD"
}

# reg_is CHIP REG VALUE: that register holds VALUE, as regs prints it (no fork).
reg_is() {
	field "$SIM/$1/regs" "$2" && [ "$FIELD" = "$3" ]
}

# counter CHIP NAME: one of the simulated chip's counters.
counter() {
	field "$SIM/$1/counters" "$2" && echo "$FIELD"
}

# counter_reached CHIP NAME N: that counter is at N or more (no fork).
counter_reached() {
	field "$SIM/$1/counters" "$2" && [ "$FIELD" -ge "$3" ]
}

# counters_snapshot CHIP: one read of CHIP's counters, kept in COUNTERS for
# counter_in: several counters from one read, where a slow guest between two
# reads would count samples or transfers on one side only. No fork.
counters_snapshot() {
	COUNTERS=" "
	while read -r cs_k cs_v _; do COUNTERS="$COUNTERS$cs_k=$cs_v "; done < "$SIM/$1/counters"
}

# counter_in NAME: counter NAME in the last counters_snapshot; 0 for one the
# file leaves out (read_0xNN and write_0xNN appear once nonzero).
counter_in() {
	case $COUNTERS in
	*" $1="*)
		ci_v=${COUNTERS#*" $1="}
		echo "${ci_v%% *}" ;;
	*) echo 0 ;;
	esac
}

# wait_samples N [CHIP]: waits (up to 5 s) until the chip has taken N more
# samples from now: a sample of what was just set has reached the outputs
wait_samples() {
	ws_until=$(( $(counter "${2:-5c}" samples) + $1 ))
	wait_for 5 counter_reached "${2:-5c}" samples "$ws_until"
}

# sampled_or_down CHIP N: CHIP's samples counter is at N or more, or the
# chip is powered down (no fork).
sampled_or_down() {
	counter_reached "$1" samples "$2" || powered_down "$1"
}

# settled [CHIP]: waits (up to 5 s) until the next read returns the
# stimulus just written: the chip (default 5c) has taken a sample since, or
# it is powered down, where a read waits for a new one.
settled() {
	field "$SIM/${1:-5c}/counters" samples
	wait_for 5 sampled_or_down "${1:-5c}" $(( FIELD + 1 ))
}

# periods_pass N [DR]: waits (up to 10 s) until chip 5d, powered at DR
# (CTRL_REG1 bits 5:4, default 0: 7 Hz), has taken N samples, then powers
# it down again: the observer of an absence on chip 5c ("no sample while
# powered down"), where nothing of 5c shows that enough time passed. Uses
# 5d's registers and counters: for suites that leave 5d alone.
periods_pass() {
	echo 0 > "$SIM"/5d/counters
	echo "0x20 $(( 0x40 | (${2:-0} << 4) ))" > "$SIM"/5d/regs
	wait_for 10 counter_reached 5d samples "$1"
	pp_rc=$?
	echo "0x20 0x00" > "$SIM"/5d/regs
	return $pp_rc
}

# rate_matches PERIOD_MS TOLERANCE: the samples counted since the chip's
# counters were reset match its powered time at PERIOD_MS per sample
# within TOLERANCE samples, and there are at least two (note: the figures).
# Both from one snapshot: a slow guest between two reads would add time
# without samples.
rate_matches() {
	counters_snapshot 5c
	rm_n=$(counter_in samples)
	rm_ms=$(counter_in powered_ms)
	note "$rm_n samples in $rm_ms ms powered (period $1 ms)"
	rm_d=$(( rm_n - rm_ms / $1 ))
	[ "$rm_n" -ge 2 ] && [ "$rm_d" -le "$2" ] && [ "$rm_d" -ge "-$2" ]
}

# ---------------------------------------------------------------- PM

# powered_down [CHIP]: CTRL_REG1 PD clear (default chip 5c).
powered_down() {
	field "$SIM/${1:-5c}/regs" 0x20 && [ $(( FIELD & 0x40 )) = 0 ]
}

# hold_on / let_go: runtime PM of the device whose power directory is $PWR.
# hold_on sets a delay no guest is slow enough to reach, for checks of what
# is true "right after" a read (a loaded host stretches guest time between
# two shell lines beyond the driver's short default), and keeps the default
# in AUTOSUSPEND_DEFAULT_MS; let_go restores it, whose expiry the checks
# then wait for.
hold_on() {
	[ -n "${AUTOSUSPEND_DEFAULT_MS:-}" ] ||
		AUTOSUSPEND_DEFAULT_MS=$(cat "$PWR"/autosuspend_delay_ms)
	echo 60000 > "$PWR"/autosuspend_delay_ms
}
let_go() {
	echo "$AUTOSUSPEND_DEFAULT_MS" > "$PWR"/autosuspend_delay_ms
}

# cold ATTR: a one-shot read of device $D's ATTR with chip 5c powered down
# before it (read_errno's output, or a line that says it was not).
cold() {
	wait_for 4 powered_down || { echo "not powered down before the read"; return; }
	read_errno "$D/$1"
}

# ---------------------------------------------------------------- faults

# fault_fired [CHIP] [N]: what was last armed in CHIP's fault file (default
# 5c) has failed N (default 1) transfers or more: its "fired" count, which
# every write of the file restarts, "clear" too (ask before clearing).
fault_fired() {
	field "$SIM/${1:-5c}/fault" fired && [ "$FIELD" -ge "${2:-1}" ]
}

# fault_hit_reg CHIP REG: the first transfer a fault failed since it was
# armed addressed REG (0xNN, as the fault file prints it).
fault_hit_reg() {
	field "$SIM/$1/fault" fired_reg && [ "$FIELD" = "$2" ]
}

# supply_loss [CHIP]: every register the driver writes back at its reset
# value (0x00), as a supply dropping while the chip was powered down leaves
# them; the outputs and the driver are untouched.
supply_loss() {
	for sl_r in 0x20 0x21 0x22 0x30 0x31 0x32 0x33 0x34; do
		echo "$sl_r 0x00" > "$SIM/${1:-5c}/regs"
	done
}

# ---------------------------------------------------------------- buffers

# enable_scan CHANNELS...: exactly these scan elements of device $D.
enable_scan() {
	# room for 128 scans: the default kfifo (2) drops samples before dd runs
	echo 128 > "$D/buffer/length"
	for es_f in "$D"/scan_elements/*_en; do echo 0 > "$es_f"; done
	for es_c in "$@"; do echo 1 > "$D/scan_elements/in_${es_c}_en"; done
}

# scans N BYTES: N scans of BYTES bytes from device $D's character device,
# one per line, as unsigned 16-bit words (od).
scans() {
	timeout 15 dd if="/dev/${D##*/}" bs="$2" count="$1" 2>/dev/null | od -An -v -tu2 -w"$2"
}

# scans_queued N: device $D's buffer holds N scans or more (no fork)
scans_queued() {
	read -r sq_n < "$D/buffer/data_available" && [ "$sq_n" -ge "$1" ]
}

# SCAN_TIME_AWK: an awk function, scan_time(W): the timestamp in ns of a
# line of scans (16-bit words, see scans) whose four little-endian words
# start at field W. For awk programs that need the line's other words too.
# shellcheck disable=SC2016 # awk's fields, not the shell's
SCAN_TIME_AWK='function scan_time(w) { return $(w + 3) * 281474976710656 + $(w + 2) * 4294967296 + $(w + 1) * 65536 + $w }'

# scan_times [WORD]: per line of scans (stdin), the timestamp in ns whose
# four 16-bit words start at WORD (default 5: after 8 bytes of channels)
scan_times() {
	awk -v w="${1:-5}" "$SCAN_TIME_AWK"' { printf "%.0f\n", scan_time(w) }'
}

# assert_increasing VALUES [COUNT]: VALUES (words, any white space between)
# are two or more integers, each greater than the one before, and COUNT of
# them if given: for check_true (an empty list proves nothing, so fails).
assert_increasing() {
	echo "$1" | awk -v n="${2:-}" '
		{ for (i = 1; i <= NF; i++) { c++; if ($i !~ /^-?[0-9]+$/ || (c > 1 && $i + 0 <= p)) bad = 1; p = $i + 0 } }
		END { exit bad || c < 2 || (n != "" && c != n + 0) }'
}

# dup_miss VALUES: numbered samples (the first word of each line, from a
# counter stimulus) checked for their steps: DUPS = lines that did not
# advance, MISSED = the numbers skipped, STEPS = where a step was not +1
# ("#line:before->after ...").
dup_miss() {
	# shellcheck disable=SC2046 # three words, split on purpose
	set -- $(echo "$1" | awk '
		NR > 1 && $1 <= p { d++ }
		NR > 1 && $1 > p + 1 { m += $1 - p - 1 }
		NR > 1 && $1 != p + 1 { w = w sprintf("#%d:%d->%d,", NR, p, $1) }
		{ p = $1 }
		END { print d + 0, m + 0, (w == "" ? "-" : w) }')
	# shellcheck disable=SC2034 # for the suites
	DUPS=$1 MISSED=$2 STEPS=$3
	[ "$STEPS" = - ] && STEPS=
	return 0
}

# ---------------------------------------------------------------- events

# arm_rising THS: the rising threshold event of device $D on: stimulus at
# the reference (16212, DELTA 0), threshold THS; E is its events directory
arm_rising() {
	E=$D/events
	echo "const 16212 1600" > "$SIM"/5c/stimulus
	echo 16212 > "$D/in_pressure1_reference_raw"
	echo "$1" > "$E/in_pressure1_thresh_either_value"
	echo 1 > "$E/in_pressure1_thresh_rising_en"
}

# listen NAME TIMEOUT_MS [COUNT]: iio_event_wait on device $D in the
# background, once its fd is open; its output goes to /tmp/ev.NAME, its pid
# to LISTENER; LISTEN_UP is 1 once it listens (heard checks it).
listen() {
	/tests/iio_event_wait "/dev/${D##*/}" "$2" "${3:-1}" > "/tmp/ev.$1" 2>&1 &
	# shellcheck disable=SC2034 # the suites wait for it
	LISTENER=$!
	LISTEN_UP=0
	wait_for 2 grep -q listening "/tmp/ev.$1" && LISTEN_UP=1
	[ "$LISTEN_UP" = 1 ]
}

# heard NAME: waits for the listener the last listen (NAME) started. EVENTS:
# its event lines, " | " between two; HEARD_WHY: what went wrong, if
# anything. Status: iio_event_wait's (0 events, 1 none before its timeout,
# 2 an error), 3 when it never listened, 127 when it was already reaped
# (a plain `wait` before this one): "no event" only from a listener that
# listened and timed out.
heard() {
	wait "$LISTENER"
	h_rc=$?
	EVENTS=
	HEARD_WHY=
	while read -r h_l; do
		case $h_l in
		type=*) EVENTS="${EVENTS:+$EVENTS | }$h_l" ;;
		listening) ;;
		*) HEARD_WHY="${HEARD_WHY:+$HEARD_WHY; }$h_l" ;;
		esac
	done < "/tmp/ev.$1"
	if [ "${LISTEN_UP:-0}" != 1 ]; then
		HEARD_WHY="the listener never listened${HEARD_WHY:+: $HEARD_WHY}"
		h_rc=3
	elif [ "$h_rc" -ge 2 ]; then
		HEARD_WHY="iio_event_wait exited $h_rc${HEARD_WHY:+: $HEARD_WHY}"
	fi
	return "$h_rc"
}

# expect_event WHAT NAME EVENTS: a check; the listener of listen NAME
# listened and heard exactly EVENTS (heard's format).
expect_event() {
	if heard "$2"; then
		check_eq "$1" "$3" "$EVENTS"
	else
		fail "$1" "expected '$3', got status $h_rc${HEARD_WHY:+: $HEARD_WHY}"
	fi
}

# expect_no_event WHAT NAME: a check; the listener of listen NAME listened
# and timed out without an event.
expect_no_event() {
	heard "$2"
	if [ "$h_rc" = 1 ]; then
		pass "$1"
	else
		fail "$1" "status $h_rc: ${HEARD_WHY:-$EVENTS}"
	fi
}

# expect_no_event_after WHAT NAME [WHY]: expect_no_event, for a listener
# whose window must cover something: called once it has happened, and the
# listener must still be listening then. WHY, when given, says what did not
# happen, and the check fails with it.
expect_no_event_after() {
	enea_w=${3:-}
	if [ -z "$enea_w" ] && kill -0 "$LISTENER" 2>/dev/null; then
		expect_no_event "$1" "$2"
		return
	fi
	heard "$2"
	[ -z "$EVENTS" ] || enea_w="heard $EVENTS${enea_w:+; $enea_w}"
	[ -n "$enea_w" ] || enea_w="the listener's window closed before what it was to cover had happened"
	fail "$1" "$enea_w"
}

# ---------------------------------------------------------------- clients

# the simulated device's address
A=0x5c

# load_modules [-c] [DRIVER]: the simulator, then DRIVER (default lps001wp;
# "none" where the suite loads a build of its own, st_pressure_i2c for
# mainline's). -c makes each modprobe a check, where loading is what the
# suite tests. BUS is the simulator's adapter, PWR the runtime PM directory
# of a client at $A on it.
# shellcheck disable=SC2120 # the suites pass the arguments
load_modules() {
	lm_check=0
	[ "${1:-}" = -c ] && { lm_check=1; shift; }
	lm_driver=${1:-lps001wp}
	[ "$lm_driver" = none ] && lm_driver=
	for lm_m in lps001wp_sim $lm_driver; do
		if [ "$lm_check" = 1 ]; then
			check_true "modprobe $lm_m" modprobe "$lm_m"
		else
			modprobe "$lm_m"
		fi
	done
	BUS=$(i2c_bus_of lps001wp-sim)
	PWR=/sys/bus/i2c/devices/$BUS-005c/power
	export PWR
}

# new_client [OPTIONS]: a client at $A (new_device OPTIONS, e.g.
# "irq=rising"); D is its IIO device
new_client() {
	echo "$A${1:+ $1}" > "$SIM"/new_device
	D=$(iio_dev lps001wp)
}

# setup_device [OPTIONS]: the preamble of a suite on one simulated chip:
# load_modules, new_client, and a check that the device is there (1 check)
setup_device() {
	load_modules
	new_client "${1:-}"
	check_true "device present" test -n "$D" -a -c "/dev/${D##*/}"
}

# stub_preload BUS ADDR [WHO_AM_I]: an i2c-stub chip at ADDR on BUS made an
# LPS001WP reading 16212 (1013.25 mbar), 1600 (25 degC) and DELTA -64, with
# P_DA | T_DA set so a data-ready poll ends. i2c-stub ignores the
# auto-increment bit: each register is set at REG and REG | 0x80 (in hex:
# busybox's i2cset reads bare numbers as hex). WHO_AM_I defaults to 0xba.
stub_preload() {
	for sp_r in "0x0f:${3:-0xba}" 0x27:0x03 0x28:0x54 0x29:0x3f 0x2a:0x40 0x2b:0x06 0x2c:0xc0 0x2d:0xff; do
		i2cset -f -y "$1" "$2" "${sp_r%:*}" "${sp_r#*:}" b &&
			i2cset -f -y "$1" "$2" "$(printf '0x%02x' $(( ${sp_r%:*} | 0x80 )))" "${sp_r#*:}" b ||
			return 1
	done
}

# ---------------------------------------------------------------- variants

# bind VARIANT [OPTIONS]: a fresh client at $A (new_device OPTIONS, default
# irq=rising) on chip 5c switched to VARIANT first (an irq= switch applies
# when the line's type is set). V names the case in check lines: VARIANT
# after BIND_PREFIX (a suite's own words, e.g. the build). Fails when no IIO
# device came.
bind() {
	# shellcheck disable=SC2034 # the suites' check names
	V=${BIND_PREFIX:-}$1
	echo "default $1" > "$SIM"/5c/variant
	new_client "${2:-irq=rising}"
	[ -n "$D" ]
}

# unbind: the client gone, the chip's variant back to the default.
unbind() {
	echo $A > "$SIM"/delete_device
	echo default > "$SIM"/5c/variant
}
