#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lps001wp-hwcheck.sh: measure, on a board with an LPS001WP and the lps001wp
# driver, the chip facts our register spec can only guess ([S]/[U] in the
# spec), and print a report to paste into a bug report.
#
#   sudo make hwcheck [BUS=1] [ADDR=0x5c]
#   sudo sh tools/lps001wp-hwcheck.sh [-b BUS] [-a ADDR] [-q] [-H HEADER] [-E]
#
#   -b BUS      I2C bus number (default: the bus of the device the driver
#               is bound to, or of the only lps001wp client)
#   -a ADDR     7-bit address, 0x5c or 0x5d (default: as for -b)
#   -q          quick: short measuring windows (a few samples per rate, no
#               noise figures worth the name); about 20 s instead of ~3 min
#   -H HEADER   the driver's lps001wp.h, whose LPS001WP_ASSUME_* markers
#               give the expected answers (default: ../lps001wp.h beside
#               this script, else the built-in table)
#   -E          print the expected answers (fact, value, macro) and exit
#
# What it does: unbinds the driver (if bound), saves CTRL_REG1..3, REF_P,
# THS_P and INT_CFG, drives the registers itself with i2c-tools (i2cget,
# i2cset, i2ctransfer), then writes the saved registers back and binds the
# driver again, also on Ctrl-C or when a step fails. Needs root, i2c-dev
# and i2c-tools (or busybox with its i2c applets). POSIX sh (busybox ash,
# dash, bash).
#
# Output: one line per fact (measured, what the driver assumes, verdict:
# matches / DIFFERS / could not tell), then a key=value block between
# "--- hwcheck begin ---" and "--- hwcheck end ---". Exit status: 0 when
# every step ran (whatever the verdicts), 1 when a step failed, 2 for bad
# usage or no device, 130 on Ctrl-C.

HWCHECK_VERSION=1
DRV=lps001wp

# ---- the driver's assumptions: the one table ----
# fact|macro in lps001wp.h|expected while the macro is defined (and not 0)|otherwise
# A macro "-": the driver has no switch there, the expectation is what it
# was written for. An expectation "-": it makes no assumption there and
# works either way (value reported only).
assumptions() {
	cat <<'EOF'
who_am_i|LPS001WP_WHO_AM_I_VALUE|0xba|0xba
autoinc_read|LPS001WP_I2C_AUTO_INCREMENT|yes|yes
autoinc_write|LPS001WP_I2C_AUTO_INCREMENT|yes|yes
dr00|LPS001WP_ASSUME_DR_ST_TABLE|7/1|7/1
dr01|LPS001WP_ASSUME_DR_ST_TABLE|7/7|1/1
dr10|LPS001WP_ASSUME_DR_ST_TABLE|-|7/7
dr11|LPS001WP_ASSUME_DR_ST_TABLE|12.5/12.5|12.5/12.5
da_clear|-|out_h|out_h
bdu|-|pair|pair
first_sample|LPS001WP_ASSUME_FIRST_SAMPLE_VALID|valid|-
delta|LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P|ref-p|p-ref
ths|LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P|strict|strict
lir|-|latch|latch
int_ack_clears|-|yes|yes
lpow|-|-|-
irq_type|-|-|-
EOF
}

# ---- small helpers ----
say() { printf '%s\n' "$*"; }
err() { printf 'hwcheck: %s\n' "$*" >&2; }
# usage [STATUS]: the usage, naming the command as it was run: the
# package's lps001wp-hwcheck, or the script in a clone; on stdout for
# --help (STATUS 0), on stderr for a bad option (2)
usage_text() {
	case ${0##*/} in
	*.sh) u_cmd="sudo sh $0" ;;
	*) u_cmd="sudo ${0##*/}" ;;
	esac
	echo "Usage: $u_cmd [-b BUS] [-a ADDR] [-q] [-H HEADER] [-E]"
	echo "       $u_cmd -h|--help"
	echo
	sed -n '/^#   -b BUS/,/^#   -E/p' "$0" | sed 's/^#//'
	echo
	echo "From a clone, also: sudo make hwcheck [BUS=1] [ADDR=0x5c]"
}
usage() {
	if [ "${1:-2}" = 0 ]; then usage_text; else usage_text >&2; fi
	exit "${1:-2}"
}

BUS=${BUS:-}
ADDR=${ADDR:-}
QUICK=0
HEADER=
SHOW_EXPECTED=0
# getopts has no long options: --help by hand, any other one refused
for a in "$@"; do
	case $a in
	--) break ;;
	--help) usage 0 ;;
	--*) err "unknown option '$a'"; usage ;;
	esac
done
while getopts b:a:qH:Eh opt; do
	case $opt in
	E) SHOW_EXPECTED=1 ;;
	b) BUS=$OPTARG ;;
	a) ADDR=$OPTARG ;;
	q) QUICK=1 ;;
	H) HEADER=$OPTARG ;;
	h) usage 0 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || { err "unexpected argument '$1'"; usage; }

# expected FACT: what the driver assumes, from lps001wp.h when we have it
header_has() {
	[ -n "$HEADER" ] && [ -r "$HEADER" ] || return 0
	# defined, and not defined to 0
	grep -Eq "^#define[[:space:]]+$1([[:space:]]|\$)" "$HEADER" &&
		! grep -Eq "^#define[[:space:]]+$1[[:space:]]+0[[:space:]]*\$" "$HEADER"
}
expected() {
	line=$(assumptions | grep "^$1|")
	macro=$(echo "$line" | cut -d'|' -f2)
	if [ "$macro" = - ] || header_has "$macro"; then
		echo "$line" | cut -d'|' -f3
	else
		echo "$line" | cut -d'|' -f4
	fi
}
macro_of() {
	assumptions | grep "^$1|" | cut -d'|' -f2
}

# now: NOW = centiseconds since boot (no subshell: polling must be cheap)
now() {
	read -r up _ < /proc/uptime
	frac=${up#*.}
	frac=${frac#0}
	NOW=$(( ${up%.*} * 100 + frac ))
}

# ---- bus access (die on failure: the trap restores and re-binds) ----
# die may run in a command substitution, whose exit ends only that
# subshell: it leaves the reason in a file and signals the script ($$ is
# the script's PID in subshells too).
FAILED=
FAILFILE=$(mktemp "${TMPDIR:-/tmp}/hwcheck.XXXXXX") || exit 2
die() {
	echo "$*" > "$FAILFILE"
	err "ERROR: $*"
	kill -USR1 $$ 2>/dev/null
	exit 1
}
hex() { printf '0x%02x' "$1"; }
# reg REG: REG as 0xNN, without a subshell when it already is (busybox's
# i2cset reads bare numbers as hex, so decimal must be converted)
reg() {
	case $1 in
	0x??) R_=$1 ;;
	*) R_=$(hex "$1") ;;
	esac
}
rd() {
	reg "$1"
	v=$(i2cget -y "$BUS" "$ADDR" "$R_" 2>&1) || die "i2cget of register $R_ failed: $v"
	case $v in 0x*) echo $(( v )) ;; *) die "i2cget of register $R_: unexpected '$v'" ;; esac
}
wr() {
	reg "$1"; r1=$R_
	reg "$2"
	out=$(i2cset -y "$BUS" "$ADDR" "$r1" "$R_" 2>&1) ||
		die "i2cset of register $r1 to $R_ failed: $out"
}
# burst SUB N: N bytes read from SUB (set bit 7 for auto-increment), decimal
burst() {
	v=$(i2ctransfer -y "$BUS" "w1@$ADDR" "$(hex "$1")" "r$2" 2>&1) ||
		die "i2ctransfer read of $2 bytes at $(hex "$1") failed: $v"
	r=
	for b in $v; do r="$r $(( b ))"; done
	echo "${r# }"
}
# xfer I2CTRANSFER-MESSAGES...: one transfer, the bytes read in decimal
xfer() {
	v=$(i2ctransfer -y "$BUS" "$@" 2>&1) || die "i2ctransfer $* failed: $v"
	r=
	for b in $v; do r="$r $(( b ))"; done
	echo "${r# }"
}
# wburst SUB BYTES...: one write transfer
wburst() {
	sub=$1; shift
	args=
	for b in "$@"; do args="$args $(hex "$b")"; done
	# shellcheck disable=SC2086 # one argument per byte
	out=$(i2ctransfer -y "$BUS" "w$(( $# + 1 ))@$ADDR" "$(hex "$sub")" $args 2>&1) ||
		die "i2ctransfer write of $# bytes at $(hex "$sub") failed: $out"
}
s16() { v=$1; [ "$v" -ge 32768 ] && v=$(( v - 65536 )); echo "$v"; }

# ---- find the device ----
find_device() {
	for d in /sys/bus/i2c/drivers/"$DRV"/[0-9]*-00?? /sys/bus/i2c/devices/[0-9]*-00??; do
		[ -e "$d" ] || continue
		[ "$(cat "$d/name" 2>/dev/null)" = $DRV ] || continue
		b=${d##*/}; a=0x${b#*-00}; b=${b%-*}
		[ -n "$BUS" ] && [ "$BUS" != "$b" ] && continue
		[ -n "$ADDR" ] && [ $(( ADDR )) != $(( a )) ] && continue
		BUS=$b; ADDR=$a
		return 0
	done
	[ -n "$BUS" ] && [ -n "$ADDR" ]
}

# ---- unbind, save, restore, re-bind ----
DEV=
WAS_BOUND=0
SAVED=
RESTORED=
rebound=no
SAVE_REGS="0x21 0x22 0x30 0x31 0x32 0x33 0x34 0x20"

try() {	# try N CMD...: retried (a flaky bus must not leave the board broken)
	n=$1; shift
	while [ "$n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		n=$(( n - 1 ))
		sleep 0.1
	done
	return 1
}
restore() {
	[ -n "$RESTORED" ] && return
	RESTORED=1
	trap '' INT TERM HUP USR1
	[ -z "$FAILED" ] && [ -s "$FAILFILE" ] && FAILED=$(cat "$FAILFILE")
	rm -f "$FAILFILE"
	regs_ok=yes
	if [ -n "$SAVED" ]; then
		try 5 i2cset -y "$BUS" "$ADDR" 0x20 0x00 || regs_ok=no
		# shellcheck disable=SC2086 # "reg value" pairs
		set -- $SAVED
		while [ $# -ge 2 ]; do
			try 5 i2cset -y "$BUS" "$ADDR" "$1" "$(hex "$2")" || regs_ok=no
			shift 2
		done
	else
		regs_ok="not saved"
	fi
	if [ "$WAS_BOUND" = 1 ]; then
		n=5
		while [ $n -gt 0 ] && [ ! -e "/sys/bus/i2c/devices/$DEV/driver" ]; do
			echo "$DEV" > /sys/bus/i2c/drivers/$DRV/bind 2>/dev/null
			n=$(( n - 1 ))
			[ -e "/sys/bus/i2c/devices/$DEV/driver" ] || sleep 0.2
		done
		[ -e "/sys/bus/i2c/devices/$DEV/driver" ] && rebound=yes || rebound=FAILED
	else
		rebound="was not bound"
	fi
	if [ -n "$FAILED" ]; then
		err "the check stopped: $FAILED"
		err "registers restored: $regs_ok; driver bound again: $rebound"
	elif [ "$regs_ok" != yes ] || [ "$rebound" = FAILED ]; then
		err "registers restored: $regs_ok; driver bound again: $rebound"
	fi
}
trap restore EXIT
trap 'FAILED=$(cat "$FAILFILE"); exit 1' USR1
trap 'FAILED="interrupted"; exit 130' INT
trap 'FAILED="terminated"; exit 143' TERM HUP

# ---- measurements ----
# Timing constants (centiseconds, sample counts)
if [ "$QUICK" = 1 ]; then
	RATE_WIN=260; RATE_CAP=2600; RATE_N=20; TRIALS=3; THS_TRIES=12
else
	RATE_WIN=3000; RATE_CAP=6000; RATE_N=200; TRIALS=5; THS_TRIES=40
fi

CTRL_PD=64; CTRL_BDU=4; CTRL_DIFF=8; CTRL_LPOW=128

# poll: one transfer reads STATUS, then PRESS_OUT and TEMP_OUT (which
# clears the data-ready bits whichever read does it): sets ST, P, T. One
# process per poll, so that it keeps up with 12.5 Hz on a slow machine.
poll() {
	v=$(i2ctransfer -y "$BUS" "w1@$A" 0x27 r1 "w1@$A" 0xa8 r4 2>&1) ||
		die "i2ctransfer of STATUS and the outputs failed: $v"
	# shellcheck disable=SC2086 # one parameter per byte
	set -- $v
	ST=$(( $1 )); P=$(( $3 * 256 + $2 )); T=$(( $5 * 256 + $4 ))
	[ "$T" -ge 32768 ] && T=$(( T - 65536 ))
}
# wait_sample: polls until a new pressure sample (ST, P, T); fails after 3 s
wait_sample() {
	now; dl=$(( NOW + 300 ))
	while [ "$NOW" -lt "$dl" ]; do
		poll
		[ $(( ST & 2 )) -ne 0 ] && return 0
		now
	done
	die "no data-ready (STATUS P_DA) within 3 s with CTRL_REG1=$(hex "$(rd 0x20)"): STATUS reads $(hex "$ST")"
}
# power_down: PD = 0, and the data-ready bits of old samples cleared (they
# survive power-down and would pass for new ones)
power_down() {
	wr 0x20 0
	poll
}
# power_up CTRL1: from power-down, settled (two samples dropped, as mainline)
power_up() {
	power_down
	wr 0x20 $(( $1 | CTRL_PD ))
	wait_sample
	wait_sample
}

# stats VALUES...: "mean sd n" (square root by hand: busybox awk may lack
# math functions)
stats() {
	echo "$@" | awk '{ for (i = 1; i <= NF; i++) { s += $i; q += $i * $i } n = NF }
		END { if (n < 2) { print "- - " n; exit } m = s / n; v = (q - n * m * m) / (n - 1)
		r = v; if (v <= 0) r = 0; else for (i = 0; i < 100; i++) r = (r + v / r) / 2
		printf "%.1f %.2f %d\n", m, r, n }'
}
# sd_in UNIT VALUES...: standard deviation in UNIT per LSB, or -
sd_in() {
	u=$1; shift
	stats "$@" | awk -v u="$u" '{ if ($2 == "-") print "-"; else printf "%.1f\n", $2 * u }'
}

# likely_rate OBS...: which of 1, 7 and 12.5 Hz (the rates of every
# candidate table) best explains the polls. Each observation is
# "B0:A0:B1:A1:C": the uptimes (centiseconds) before and after two
# consecutive polls, and C the new samples the second one saw: 0, 1, or 2
# for two or more (the OR bit). Each transfer happened somewhere inside its
# poll's bracket (and /proc/uptime truncates, so up to A+1), however long
# the shell waited for a core, so the interval DT between them is averaged
# over both brackets. With a period p and a random phase, x = DT/p: C=0 has
# probability 1-x (x<1), C=1 x (x<1) or 2-x (1<=x<2), C=2 x-1 (1<=x<2) or
# 1 (x>=2).
# Each rate is weighed against each other one (likelihood ratios; busybox
# awk may have no log()). A C=2 whose polls lie two periods of the slower
# rate or more apart does not count between the two: both rates explain it,
# and only the averaging over the brackets would tell them apart, which on
# a loaded machine (wide brackets, every poll a C=2) leans towards the
# faster rate. So slow polls leave a rate undecided, never wrong. Prints
# the rate that is 9 times likelier than each other one, else -.
# (A tab after "function" below: lintian reads the awk program as shell,
# and "function NAME(" with a space as a bashism.)
likely_rate() {
	echo "$@" | tr ' ' '\n' | awk -F: '
	function	pr(c, x) {
		if (c == 0) return x < 1 ? 1 - x : 0
		if (c == 1) return x < 1 ? x : (x < 2 ? 2 - x : 0)
		return x < 1 ? 0 : (x < 2 ? x - 1 : 1)
	}
	BEGIN { hz[1] = 1; hz[2] = 7; hz[3] = 12.5
		for (k = 1; k <= 3; k++) for (l = k + 1; l <= 3; l++) r[k, l] = 1 }
	NF == 5 {
		n++; mid = ($3 + $4 - $1 - $2) / 2
		for (k = 1; k <= 3; k++) {
			p[k] = 0.05
			for (i = 0; i <= 4; i++) for (j = 0; j <= 4; j++) {
				t0 = $1 + ($2 + 1 - $1) * i / 4; t1 = $3 + ($4 + 1 - $3) * j / 4
				x = (t1 - t0) * hz[k] / 100; p[k] += pr($5, x < 0 ? 0 : x) / 25
			}
		}
		# r[k, l]: how much likelier the slower rate k is than l (bounded:
		# thousands of polls would overflow it)
		for (k = 1; k <= 3; k++) for (l = k + 1; l <= 3; l++) {
			if ($5 == 2 && mid * hz[k] >= 200) continue
			r[k, l] *= p[k] / p[l]
			if (r[k, l] > 1e20) r[k, l] = 1e20
			if (r[k, l] < 1e-20) r[k, l] = 1e-20
		}
	}
	END {
		res = "-"
		for (k = 1; k <= 3 && n >= 3; k++) {
			ok = 1
			for (l = 1; l <= 3; l++)
				if (l < k && r[l, k] > 1 / 9 || l > k && r[k, l] < 9) ok = 0
			if (ok) res = hz[k]
		}
		print res
	}'
}

# nearest HZ: 1, 7 or 12.5, whichever is nearest on a log scale
nearest() {
	awk -v r="$1" 'BEGIN { if (r < 0.3) x = "-"; else if (r < 2.6) x = 1; else if (r < 9.35) x = 7; else x = 12.5; print x }'
}

# measure_dr CODE [EXTRA_CTRL1]: real P and T rates and noise at a DR code.
# Every poll clears the data-ready bits, so a poll that finds P_DA saw at
# least one new sample since the last poll, with P_OR as well at least two.
# Polls until it has RATE_N samples of each or RATE_WIN has passed, then on
# until both rates are decided or RATE_CAP has passed (a loaded machine
# polls slowly, and slow polls tell less), looking every eighth poll. Sets
# M_P (1, 7, 12.5 or -), M_T, M_P_HZ and M_T_HZ (plain count over time, low
# when the polls are slower than two periods), M_P_SD (Pa), M_T_SD
# (mdegC), M_NP, M_NT, M_POLL_MS.
measure_dr() {
	power_down
	wr 0x20 $(( CTRL_PD | CTRL_BDU | ($1 << 4) | ${2:-0} ))
	now; start=$NOW; lb=; la=; slow=0
	np=0; nt=0; npolls=0; pv=; tv=; po=; to=
	while :; do
		now; b=$NOW
		if { [ $(( b - start )) -ge "$RATE_WIN" ] ||
			{ [ "$np" -ge "$RATE_N" ] && [ "$nt" -ge "$RATE_N" ]; }; } &&
			[ $(( npolls % 8 )) -eq 0 ]; then
			# shellcheck disable=SC2086 # one argument per observation
			M_P=$(likely_rate $po)
			# shellcheck disable=SC2086
			M_T=$(likely_rate $to)
			[ $(( b - start )) -ge "$RATE_CAP" ] && break
			[ "$M_P" != - ] && [ "$M_T" != - ] && break
		fi
		poll
		now; a=$NOW
		npolls=$(( npolls + 1 ))
		cp=0; ct=0
		if [ $(( ST & 2 )) -ne 0 ]; then
			cp=$(( 1 + (ST >> 5 & 1) ))
			pv="$pv $P"
		fi
		if [ $(( ST & 1 )) -ne 0 ]; then
			ct=$(( 1 + (ST >> 4 & 1) ))
			tv="$tv $T"
		fi
		np=$(( np + cp )); nt=$(( nt + ct ))
		# two periods of the fastest candidate: more may hide behind OR
		[ $(( a + 1 - ${lb:-$start} )) -ge 16 ] && slow=1
		# the first poll's interval starts at power-up: not a period
		[ -n "$lb" ] && { po="$po $lb:$la:$b:$a:$cp"; to="$to $lb:$la:$b:$a:$ct"; }
		lb=$b; la=$a
	done
	now
	power_down
	# every DR code of every candidate table samples at 1 Hz or faster
	[ "$np" -gt 0 ] || die "no data-ready (STATUS P_DA) in $(( (NOW - start) / 100 )) s at DR=$1"
	el=$(( NOW - start ))
	M_NP=$np; M_NT=$nt
	M_POLL_MS=$(( el * 10 / npolls ))
	M_P_HZ=$(awk -v n="$np" -v t="$el" 'BEGIN { printf "%.1f", n * 100 / t }')
	M_T_HZ=$(awk -v n="$nt" -v t="$el" 'BEGIN { printf "%.1f", n * 100 / t }')
	# undecided: the count, but only where it is exact (no poll more than
	# two periods after the one before); else - (a wrong rate is worse)
	[ "$M_P" = - ] && [ "$slow" = 0 ] && M_P=$(nearest "$M_P_HZ")
	[ "$M_T" = - ] && [ "$slow" = 0 ] && M_T=$(nearest "$M_T_HZ")
	# noise without the first sample (may be unsettled): LSB -> Pa, mdegC
	# shellcheck disable=SC2086
	set -- $pv; [ $# -gt 0 ] && shift
	M_P_SD=$(sd_in 6.25 "$@")
	# shellcheck disable=SC2086
	set -- $tv; [ $# -gt 0 ] && shift
	M_T_SD=$(sd_in 15.625 "$@")
}

R=		# key=value lines of the report
put() {	# put KEY VALUE: each key once
	R="$R$1=$2
"
}
get() { printf '%s' "$R" | sed -n "s/^$1=//p" | tail -n 1; }

check_identity() {
	put who_am_i "$(hex "$(rd 0x0f)")"
	put address "$(hex $(( ADDR )))"
	# auto-increment on writes: REF_P/THS_P in one transfer, read back singly
	wburst 0xb0 0x5a 0xa5 0x3c 0xc3
	got="$(rd 0x30) $(rd 0x31) $(rd 0x32) $(rd 0x33)"
	if [ "$got" = "90 165 60 195" ]; then put autoinc_write yes
	elif [ "$(rd 0x30)" = 195 ]; then put autoinc_write no
	else put autoinc_write "?"; fi
	got=$(burst 0xb0 4)
	if [ "$got" = "90 165 60 195" ]; then put autoinc_read yes
	elif [ "$got" = "90 90 90 90" ]; then put autoinc_read no
	else put autoinc_read "?"; fi
	wburst 0xb0 0 0 0 0
}

check_rates() {
	for code in 0 1 2 3; do
		k=dr$(( code >> 1 ))$(( code & 1 ))
		measure_dr "$code"
		if [ "$M_P" = - ] || [ "$M_T" = - ]; then put "$k" "?"; else put "$k" "$M_P/$M_T"; fi
		put "${k}_p_hz" "$M_P_HZ"; put "${k}_t_hz" "$M_T_HZ"
		put "${k}_samples" "$M_NP/$M_NT"; put "${k}_poll_ms" "$M_POLL_MS"
		put "noise_${k}_p_pa" "$M_P_SD"; put "noise_${k}_t_mdegc" "$M_T_SD"
	done
	# CTRL_REG1 bit 7 (LPOW, disputed): rate and noise at DR=11 with it set
	measure_dr 3 "$CTRL_LPOW"
	put lpow_p_hz "$M_P_HZ"; put noise_lpow_p_pa "$M_P_SD"
	put noise_lpow_t_mdegc "$M_T_SD"
	if [ "$M_P" = - ]; then put lpow "?"
	elif [ "$M_P" != 12.5 ]; then put lpow "rate $M_P Hz"
	else
		put lpow "$(awk -v a="$M_P_SD" -v b="$(get noise_dr11_p_pa)" 'BEGIN {
			if (a == "-" || b == "-") print "no rate change"
			else if (a > 1.5 * b + 1) print "noisier"
			else if (b > 1.5 * a + 1) print "quieter"
			else print "no visible effect" }')"
	fi
}

# Which read clears P_DA: STATUS itself, or PRESS_OUT_H. Each question is
# one transfer, so no new sample lands between its reads. DR=00: pressure
# at 7 Hz whatever DR=01 turns out to be.
check_da_clear() {
	s=0; o=0; n=0
	power_up 0
	while [ $n -lt "$TRIALS" ]; do
		n=$(( n + 1 ))
		# a sample pending and unread: wait past one period, read nothing
		sleep 0.35
		# shellcheck disable=SC2046
		set -- $(xfer "w1@$A" 0x27 r1 "w1@$A" 0x27 r1)
		[ $(( $1 & 2 )) -ne 0 ] || continue
		if [ $(( $2 & 2 )) -eq 0 ]; then s=$(( s + 1 )); continue; fi
		# shellcheck disable=SC2046
		set -- $(xfer "w1@$A" 0x29 r1 "w1@$A" 0x27 r1)
		[ $(( $2 & 2 )) -eq 0 ] && o=$(( o + 1 ))
		rd 0x28 > /dev/null
	done
	wr 0x20 0
	put da_clear_votes "status:$s out_h:$o of:$n"
	if [ $s -gt $(( n / 2 )) ]; then put da_clear status
	elif [ $o -gt $(( n / 2 )) ]; then put da_clear out_h
	else put da_clear "?"; fi
}

# bdu_trial HOLD_L HOLD_H OTHER: holds one pair by reading its low byte,
# reads the other pair before and after a few periods, releases the held
# pair and reads the other again. Per pair: the other pair moves while
# the first is held. Whole block: it moves only at the release. Sets V to
# pair, block or nothing (the values did not change: cannot tell).
bdu_trial() {
	hold_l=$1 hold_h=$2 other=$3
	wait_sample
	# shellcheck disable=SC2046
	set -- $(xfer "w1@$A" "$other" r2 "w1@$A" "$hold_l" r1)
	ta="$1 $2"
	sleep 0.35				# several periods at any rate
	# before and after the release, with no sample in between
	# shellcheck disable=SC2046
	set -- $(xfer "w1@$A" "$other" r2 "w1@$A" "$hold_h" r1 "w1@$A" "$other" r2)
	tb="$1 $2"
	tc="$4 $5"
	V=
	if [ "$tb" = "$ta" ] && [ "$tc" != "$ta" ]; then V=block
	elif [ "$tb" != "$ta" ] && [ "$tc" = "$tb" ]; then V=pair; fi
}
# BDU scope: does a held PRESS pair also hold TEMP (and the reverse)?
check_bdu() {
	pair=0; block=0; n=0
	power_up $(( 0x30 | CTRL_BDU ))
	while [ $n -lt "$TRIALS" ]; do
		n=$(( n + 1 ))
		bdu_trial 0x28 0x29 0xaa
		[ -n "$V" ] || bdu_trial 0x2a 0x2b 0xa8
		case $V in
		pair) pair=$(( pair + 1 )) ;;
		block) block=$(( block + 1 )) ;;
		esac
	done
	wr 0x20 0
	put bdu_votes "pair:$pair block:$block of:$n"
	if [ $pair -gt $(( n / 2 )) ]; then put bdu pair
	elif [ $block -gt $(( n / 2 )) ]; then put bdu block
	else put bdu "?"; fi
}

# median VALUES...
median() {
	echo "$@" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
# The first sample after PD 0->1 against those after it, at DR=00 (P every
# 143 ms in every table, T every 1 s): the first P against the median of
# the following P, the first T against the second. A try whose first
# pressure sample was overwritten before it was read (P_OR) is repeated.
check_first_sample() {
	p0=; n=0
	while [ $n -lt 5 ] && [ -z "$p0" ]; do
		n=$(( n + 1 ))
		power_down
		sleep 0.1
		wr 0x20 $(( CTRL_PD | CTRL_BDU ))
		wait_sample
		[ $(( ST & 0x20 )) -eq 0 ] && p0=$P
	done
	if [ -z "$p0" ]; then
		power_down
		put first_sample "? (first sample overwritten before it was read, $n tries)"
		return
	fi
	ps=; t0=; t1=
	[ $(( ST & 1 )) -ne 0 ] && t0=$T
	now; dl=$(( NOW + 350 ))
	while [ -z "$t1" ] && [ "$NOW" -lt "$dl" ]; do
		poll
		[ $(( ST & 2 )) -ne 0 ] && ps="$ps $P"
		if [ $(( ST & 1 )) -ne 0 ]; then
			if [ -z "$t0" ]; then t0=$T; else t1=$T; fi
		fi
		now
	done
	power_down
	[ -n "$t1" ] || die "fewer than two temperature samples in 3.5 s at DR=00"
	# shellcheck disable=SC2086 # one argument per value
	pm=$(median $ps)
	# shellcheck disable=SC2086
	psd=$(stats $ps | cut -d' ' -f2)
	put first_sample_p "$p0 (then $pm)"
	put first_sample_t "$t0 (then $t1)"
	# off by more than 2 mbar and 4 sigma of what follows, or by 1 degC
	bad=$(awk -v a="$p0" -v m="$pm" -v s="$psd" -v b="$t0" -v c="$t1" 'BEGIN {
		d = a - m; if (d < 0) d = -d; e = b - c; if (e < 0) e = -e
		bad = (d > 32 && d > 4 * s) || e > 64; print bad ? 1 : 0 }')
	if [ "$bad" = 1 ]; then put first_sample garbage; else put first_sample valid; fi
}

set_ref() {	# set_ref VALUE (clamped to 0..65535)
	v=$1; [ "$v" -lt 0 ] && v=0; [ "$v" -gt 65535 ] && v=65535
	wburst 0xb0 $(( v & 255 )) $(( v >> 8 ))
}
check_delta() {
	power_up $(( 0x30 | CTRL_BDU | CTRL_DIFF ))
	p=$P
	set_ref $(( p + 800 ))			# 50 mbar above
	wait_sample; wait_sample
	# shellcheck disable=SC2046
	set -- $(burst 0xac 2); d1=$(s16 $(( $2 * 256 + $1 )))
	set_ref $(( p - 800 ))
	wait_sample; wait_sample
	# shellcheck disable=SC2046
	set -- $(burst 0xac 2); d2=$(s16 $(( $2 * 256 + $1 )))
	wr 0x20 0
	put delta_ref_above "$d1"; put delta_ref_below "$d2"
	if [ "$d1" -gt 400 ] && [ "$d2" -lt -400 ]; then put delta ref-p
	elif [ "$d1" -lt -400 ] && [ "$d2" -gt 400 ]; then put delta p-ref
	else put delta "?"; fi
}

# Strict or inclusive: THS_P = 0 and a sample exactly at REF_P sets neither
# PH nor PL if strict, both if inclusive. DELTA = 0 marks such a sample.
check_ths() {
	power_up $(( 0x30 | CTRL_BDU | CTRL_DIFF ))
	wburst 0xb2 0 0				# THS_P = 0
	wr 0x34 3				# PH_E | PL_E, no latch
	ths="?"
	n=0
	while [ $n -lt "$THS_TRIES" ]; do
		n=$(( n + 1 ))
		wait_sample
		set_ref "$P"
		wait_sample
		# DELTA .. INT_SRC in one transfer: one sample's view
		# shellcheck disable=SC2046
		set -- $(burst 0xac 10)
		if [ "$1" != 0 ] || [ "$2" != 0 ]; then continue; fi
		case $(( ${10} & 3 )) in
		0) ths=strict ;;
		3) ths=inclusive ;;
		*) ths="? (INT_SRC $(hex "${10}") at DELTA 0)" ;;
		esac
		break
	done
	put ths "$ths"
	put ths_tries "$n"
	wr 0x34 0
	wr 0x20 0
}

# LIR: does PH stay in INT_SRC once P is back below REF; does INT_ACK clear
check_latch() {
	power_up $(( 0x30 | CTRL_BDU | CTRL_DIFF ))
	wburst 0xb2 0 0
	wr 0x34 7				# LIR | PL_E | PH_E
	wait_sample; p=$P
	set_ref $(( p - 800 ))			# P above REF: PH
	wait_sample; wait_sample
	s1=$(rd 0x35)
	set_ref $(( p + 800 ))			# P below REF: PL, PH no more
	wait_sample; wait_sample
	s2=$(rd 0x35)
	rd 0x36 > /dev/null			# INT_ACK
	s3=$(rd 0x35)
	wr 0x34 0
	wr 0x20 0
	put int_src_sequence "$(hex "$s1") $(hex "$s2") $(hex "$s3")"
	if [ $(( s1 & 1 )) -eq 0 ]; then
		put lir "?"; put int_ack_clears "?"
	elif [ $(( s2 & 1 )) -ne 0 ]; then
		put lir latch
		if [ $(( s3 & 1 )) -eq 0 ]; then put int_ack_clears yes; else put int_ack_clears no; fi
	else
		# no latch: INT_ACK has nothing to clear
		put lir ignored; put int_ack_clears "? (no latch)"
	fi
}

# Interrupt lines the driver had: their type (edge/level) from sysfs
check_irqs() {
	t=
	for d in /sys/kernel/irq/*; do
		[ -r "$d/actions" ] || continue
		case ",$(cat "$d/actions")," in
		*",$DRV-int1,"*|*",$DRV-int2,"*) t="$t${t:+ }$(cat "$d/type" 2>/dev/null)" ;;
		esac
	done
	put irq_type "${t:-none}"
}

# ---- the report ----
line() {	# line FACT LABEL
	m=$(get "$1"); e=$(expected "$1"); mac=$(macro_of "$1")
	case $m in
	"?"*|"") v="could not tell" ;;
	*) if [ "$e" = - ]; then v="(no assumption)"
	   elif [ "$m" = "$e" ]; then v=matches
	   else v=DIFFERS; fi ;;
	esac
	put "verdict_$1" "$(echo "$v" | tr -d '()' | tr ' ' '_')"
	printf '%-28s %-18s %-10s %-16s %s\n' "$2" "$m" "$e" "$v" "$mac"
}

board() {
	for f in /proc/device-tree/model /sys/firmware/devicetree/base/model; do
		[ -r "$f" ] && { tr -d '\0' < "$f"; return; }
	done
	for f in /sys/class/dmi/id/product_name /sys/class/dmi/id/board_name; do
		[ -r "$f" ] && { cat "$f"; return; }
	done
	echo unknown
}

# ---- main ----
if [ -z "$HEADER" ]; then
	HEADER=$(dirname "$0")/../lps001wp.h
	[ -r "$HEADER" ] || HEADER=
fi
if [ "$SHOW_EXPECTED" = 1 ]; then
	trap - EXIT
	rm -f "$FAILFILE"
	for f in $(assumptions | cut -d'|' -f1); do
		echo "$f $(expected "$f") $(macro_of "$f")"
	done
	exit 0
fi
[ "$(id -u)" = 0 ] || { err "run as root (sudo)"; exit 2; }
for t in i2cget i2cset i2ctransfer; do
	command -v $t > /dev/null || { err "needs i2c-tools ($t missing)"; exit 2; }
done
[ -d /sys/bus/i2c/devices ] || { err "no I2C in sysfs"; exit 2; }
find_device || { err "no $DRV device found; give -b BUS -a ADDR (or BUS= ADDR=)"; exit 2; }
case $(( ADDR )) in 92|93) ;; *) err "address $ADDR: an LPS001WP answers at 0x5c or 0x5d"; exit 2 ;; esac
[ -e "/dev/i2c-$BUS" ] || modprobe i2c-dev 2>/dev/null
[ -e "/dev/i2c-$BUS" ] || { err "/dev/i2c-$BUS missing (modprobe i2c-dev)"; exit 2; }
DEV=$BUS-00$(printf '%02x' $(( ADDR )))
A=$(hex $(( ADDR )))

check_irqs
if [ -e "/sys/bus/i2c/devices/$DEV/driver" ]; then
	drv=$(basename "$(readlink "/sys/bus/i2c/devices/$DEV/driver")")
	[ "$drv" = $DRV ] || { err "$DEV is bound to $drv, not $DRV"; exit 2; }
	WAS_BOUND=1
	echo "$DEV" > /sys/bus/i2c/drivers/$DRV/unbind || die "cannot unbind $DEV from $DRV"
fi

# the chip before anything else: identity, then save what we will change
who=$(rd 0x0f)
[ "$who" = 186 ] || die "WHO_AM_I at $(hex "$who"), not 0xba: not an LPS001WP (or a bus problem)"
for r in $SAVE_REGS; do SAVED="$SAVED $r $(rd "$r")"; done

say "lps001wp hwcheck $HWCHECK_VERSION: bus $BUS, address $(hex $(( ADDR ))), $([ "$QUICK" = 1 ] && echo "quick, ~20 s" || echo "~3 min")"
check_identity
check_rates
check_da_clear
check_bdu
check_first_sample
check_delta
check_ths
check_latch

say
printf '%-28s %-18s %-10s %-16s %s\n' FACT MEASURED "DRIVER" VERDICT "ASSUMPTION (lps001wp.h)"
line who_am_i "WHO_AM_I"
line autoinc_read "auto-increment on reads"
line autoinc_write "auto-increment on writes"
line dr00 "DR=00 rate P/T Hz"
line dr01 "DR=01 rate P/T Hz"
line dr10 "DR=10 rate P/T Hz (unlisted)"
line dr11 "DR=11 rate P/T Hz"
line da_clear "data-ready cleared by"
line bdu "BDU scope"
line first_sample "first sample after power-up"
line delta "DELTA sign"
line ths "threshold comparison"
line lir "INT_SRC latch (LIR)"
line int_ack_clears "INT_ACK read clears INT_SRC"
line lpow "CTRL_REG1 bit 7 (LPOW)"
line irq_type "interrupt line type"
say "pads:   INT1/INT2 toggling: could not tell (needs the pads on a GPIO); drdy level or pulse: could not tell"
say "noise:  P $(get noise_dr11_p_pa) Pa, T $(get noise_dr11_t_mdegc) mdegC at 12.5 Hz; P $(get noise_dr01_p_pa) Pa, T $(get noise_dr01_t_mdegc) mdegC at DR=01 ($(get dr11_samples) and $(get dr01_samples) samples)"

put kernel "$(uname -r)"
put machine "$(uname -m)"
put board "$(board)"
put driver_version "$(cat /sys/module/$DRV/version 2>/dev/null || echo unknown)"
put driver_srcversion "$(cat /sys/module/$DRV/srcversion 2>/dev/null || echo unknown)"
put assumptions_from "${HEADER:-built-in table}"
put hwcheck_version "$HWCHECK_VERSION"
put quick "$QUICK"
put int_pads "?"
put drdy "?"

restore
put driver_rebound "$rebound"
say
say "--- hwcheck begin ---"
printf '%s' "$R"
say "--- hwcheck end ---"
say "Please paste everything from the table to 'hwcheck end' into the bug report."
[ "$rebound" = FAILED ] && exit 1
exit 0
