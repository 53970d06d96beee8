# shellcheck shell=sh
# make hwcheck with faults injected into the simulated chip: a clear error,
# the chip's registers as before and the driver bound again.

plan 18
# shellcheck source=tests/guest/lib/hwcheck-lib.sh
. /tests/hwcheck-lib.sh

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
# Ctrl-C on a terminal takes the same trap path), once hwcheck has changed
# the chip's registers (it saves them first): only then does "registers
# as before" say that it restored them
check_true "SIGTERM: chip idle before hwcheck" wait_for 5 powered_down
before=$(wregs)
regs_changed() { [ "$(wregs)" != "$before" ]; }
sh "$HW" -q -b "$BUS" -a $A -H "$HDR" > "$OUT" 2> "$ERR" &
pid=$!
check_true "SIGTERM: sent once hwcheck has changed the registers" wait_for 20 regs_changed
kill -TERM $pid
wait $pid
rc=$?
check_eq "SIGTERM: exit status" 143 "$rc"
check_true "SIGTERM: says it was stopped" grep -q 'the check stopped: terminated' "$ERR"
check_true "SIGTERM: driver bound again" wait_for 5 bound
note "before: $before"
check_true "SIGTERM: registers as before" wait_for 5 regs_are "$before"

echo $A > "$SIM"/delete_device
echo default > "$SIM"/5c/variant
rmmod lps001wp
rmmod lps001wp_sim
