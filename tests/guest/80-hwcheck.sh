# shellcheck shell=sh
# make hwcheck (tools/lps001wp-hwcheck.sh) against the simulator: the driver
# bound to a simulated chip, the check run in quick mode in the default
# model and in the alternative variants of tests/sim; each fact the report
# names must be the variant's. With faults injected: a clear error, the
# driver bound again and the chip's registers as before.

HW=/tests/lps001wp-hwcheck.sh
HDR=/tests/lps001wp.h
A=0x5c

modprobe lps001wp_sim
modprobe lps001wp
BUS=$(i2c_bus_of lps001wp-sim)
DEV=$BUS-005c
OUT=/tmp/hwcheck.out
ERR=/tmp/hwcheck.err

# wregs: the chip's writable registers, from the side-effect-free dump
wregs() {
	for r in 0x20 0x21 0x22 0x30 0x31 0x32 0x33 0x34; do printf '%s ' "$(regval 5c $r)"; done
}
bound() {
	[ "$(basename "$(readlink "/sys/bus/i2c/devices/$DEV/driver" 2>/dev/null)")" = lps001wp ]
}
regs_are() {
	[ "$(wregs)" = "$1" ]
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
	echo "$A irq=rising" > "$SIM"/new_device
	wait_for 5 bound
}
# hwcheck LABEL: one quick run; stdout in $OUT, stderr in $ERR, status in $rc
hwcheck() {
	wait_for 5 powered_down
	before=$(wregs)
	sh "$HW" -q -b "$BUS" -a $A -H "$HDR" > "$OUT" 2> "$ERR"
	rc=$?
	check_true "$1: driver bound again" wait_for 5 bound
	check_true "$1: registers as before ($before, now $(wregs))" wait_for 5 regs_are "$before"
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

# ---- the default model: every fact matches the driver's assumption ----
client default
hwcheck default
check_eq "default: exit status" 0 "$rc"
check_true "default: report complete" grep -q '^--- hwcheck end ---$' "$OUT"
expect default who_am_i=0xba!matches autoinc_read=yes!matches autoinc_write=yes!matches \
	dr00=7/1!matches dr01=7/7!matches dr10=7/7!no_assumption dr11=12.5/12.5!matches \
	da_clear=out_h!matches bdu=pair!matches first_sample=valid!matches \
	delta=ref-p!matches ths=strict!matches lir=latch!matches int_ack_clears=yes!matches \
	"lpow=no visible effect" irq_type=edge driver_rebound=yes
check_eq "default: kernel" "$(uname -r)" "$(key kernel)"
check_eq "default: board (DT model)" "LPS001WP test bench" "$(key board)"
check_eq "default: driver version" "$(cat /sys/module/lps001wp/version)" "$(key driver_version)"
check_eq "default: assumptions read from the header" "$HDR" "$(key assumptions_from)"
check_eq "default: no DIFFERS line" 0 "$(grep -c ' DIFFERS ' "$OUT")"
D=$(iio_dev lps001wp)
check_eq "default: the driver reads the chip after hwcheck" 16212 "$(cat "$D/in_pressure_raw" 2>&1)"
sed 's/^/# /' "$OUT"

# ---- every alternative at once: each fact measured on its own ----
alt="dr01=1 dr10=12.5 da_clear=status bdu=block first_sample=garbage delta=p-ref ths=inclusive lir=ignored irq=level drdy=pulse int2=absent"
client "$alt"
hwcheck alternatives
check_eq "alternatives: exit status" 0 "$rc"
expect alternatives who_am_i=0xba!matches dr00=7/1!matches dr01=1/1!DIFFERS \
	dr10=12.5/12.5 dr11=12.5/12.5!matches da_clear=status!DIFFERS bdu=block!DIFFERS \
	first_sample=garbage!DIFFERS delta=p-ref!DIFFERS ths=inclusive!DIFFERS \
	lir=ignored!DIFFERS "int_ack_clears=? (no latch)!could_not_tell" irq_type=level \
	"int_pads=?" "drdy=?"
# the expected answers follow the header's markers: without the DELTA one
# the driver would assume P - REF
grep -v 'LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P' "$HDR" > /tmp/nodelta.h
check_eq "expectations: DELTA from the header" "delta ref-p LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P" \
	"$(sh "$HW" -E -H "$HDR" | grep '^delta ')"
check_eq "expectations: DELTA with its marker removed" "delta p-ref LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P" \
	"$(sh "$HW" -E -H /tmp/nodelta.h | grep '^delta ')"
sed 's/^/# /' "$OUT"

# ---- faults: a clear error, the driver back, the registers as before ----
# No driver this time, so nothing re-initialises the chip after hwcheck:
# the registers it wrote (REF_P/THS_P at least) must be its own restore.
echo $A > "$SIM"/delete_device
for rv in "0x30 0x34" "0x31 0x12" "0x32 0x56" "0x33 0x01" "0x34 0x04" "0x22 0x80" "0x20 0x14"; do
	echo "$rv" > "$SIM"/5c/regs
done
before=$(wregs)
echo stuck_status > "$SIM"/5c/fault
sh "$HW" -q -b "$BUS" -a $A -H "$HDR" > "$OUT" 2> "$ERR"
rc=$?
echo clear > "$SIM"/5c/fault
check_eq "stuck STATUS: exit status" 1 "$rc"
check_true "stuck STATUS: says what failed" grep -q 'ERROR: no data-ready' "$ERR"
check_true "stuck STATUS: says it restored, no driver to re-bind" \
	grep -q 'registers restored: yes; driver bound again: was not bound' "$ERR"
check_false "stuck STATUS: no report block" grep -q '^--- hwcheck begin ---$' "$OUT"
check_eq "stuck STATUS: registers restored by hwcheck itself" "$before" "$(wregs)"

client default

echo "eio_every 30" > "$SIM"/5c/fault
hwcheck "bus errors"
echo clear > "$SIM"/5c/fault
check_eq "bus errors: exit status" 1 "$rc"
check_true "bus errors: says which access failed" grep -q 'ERROR: i2c.* failed' "$ERR"
check_true "bus errors: says it restored and re-bound" \
	grep -q 'registers restored: yes; driver bound again: yes' "$ERR"

# SIGTERM in the middle (a background job ignores SIGINT, as POSIX says;
# Ctrl-C on a terminal takes the same trap path)
wait_for 5 powered_down
before=$(wregs)
sh "$HW" -q -b "$BUS" -a $A -H "$HDR" > "$OUT" 2> "$ERR" &
pid=$!
sleep 4
kill -TERM $pid
wait $pid
rc=$?
check_eq "SIGTERM: exit status" 143 "$rc"
check_true "SIGTERM: says it was stopped" grep -q 'the check stopped: terminated' "$ERR"
check_true "SIGTERM: driver bound again" wait_for 5 bound
check_true "SIGTERM: registers as before ($before, now $(wregs))" wait_for 5 regs_are "$before"

echo $A > "$SIM"/delete_device
echo default > "$SIM"/5c/variant
rmmod lps001wp
rmmod lps001wp_sim
