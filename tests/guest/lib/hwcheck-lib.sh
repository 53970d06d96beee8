# shellcheck shell=sh
# Helpers of the hwcheck suites (80-hwcheck, 81-hwcheck-faults): the
# simulator and the driver loaded, a client at 0x5c, hwcheck run on it.
# Sourced by the suites, not a suite itself (no number).

HW=/tests/lps001wp-hwcheck.sh
HDR=/tests/lps001wp.h
A=0x5c
load_modules
DEV=$BUS-005c
OUT=/tmp/hwcheck.out
ERR=/tmp/hwcheck.err

# read_wregs: WREGS = the chip's writable registers, from one read of the
# side-effect-free dump, with builtins only (regs_are is polled)
read_wregs() {
	WREGS=
	while read -r wr_r wr_v; do
		case $wr_r in 0x2[0-2] | 0x3[0-4]) WREGS="$WREGS$wr_v " ;; esac
	done < "$SIM/5c/regs"
}
# wregs: the same, printed
wregs() {
	read_wregs
	echo "$WREGS"
}
# bound: the client at 0x5c is bound to lps001wp (polled: no fork)
bound() {
	[ -e "/sys/bus/i2c/drivers/lps001wp/$DEV" ]
}
regs_are() {
	read_wregs
	[ "$WREGS" = "$1" ]
}
# key KEY: a value from the report's key=value block
key() {
	sed -n '/^--- hwcheck begin ---$/,/^--- hwcheck end ---$/p' "$OUT" | sed -n "s/^$1=//p"
}
# client VARIANT: a fresh client at 0x5c (INT1 rising) on a chip in VARIANT;
# the variant first, so that irq= applies to the client's line
client() {
	[ -e "/sys/bus/i2c/devices/$DEV" ] && echo $A > "$SIM"/delete_device
	check_eq "variant $1" 0 "$(write_errno "$SIM"/5c/variant "$1")"
	echo "ramp 16212 0 1600 1" > "$SIM"/5c/stimulus
	new_client irq=rising
	wait_for 5 bound
}
# hwcheck LABEL: one quick run; stdout in $OUT, stderr in $ERR, status in $rc
hwcheck() {
	check_true "$1: chip idle before hwcheck" wait_for 5 powered_down
	before=$(wregs)
	sh "$HW" -q -b "$BUS" -a $A -H "$HDR" > "$OUT" 2> "$ERR"
	# shellcheck disable=SC2034 # read by the suites
	rc=$?
	check_true "$1: driver bound again" wait_for 5 bound
	note "before: $before"
	check_true "$1: registers as before" wait_for 5 regs_are "$before"
}
# expect LABEL KEY=VALUE...: each key's value and, where the driver has an
# assumption, its verdict (VALUE!VERDICT)
expect() {
	lbl=$1; shift
	for kv in "$@"; do
		k=${kv%%=*}; v=${kv#*=}
		verdict=${v#*!}; [ "$verdict" = "$v" ] && verdict=
		v=${v%%!*}
		check_eq "$lbl: $k" "$v" "$(key "$k")"
		[ -n "$verdict" ] && check_eq "$lbl: verdict_$k" "$verdict" "$(key "verdict_$k")"
	done
}

