# shellcheck shell=sh
# The recovery rule (lps001wp_power_up): every start is a power-up that
# writes the whole configuration, drops the first sample and only then arms
# INT1. One block per way the earlier design left the chip half restored
# (issue 41, items 1 to 8), the configuration after a supply loss on
# every path, then the first-sample drop on every path that
# meets a first sample, with the chip's first sample garbage (P 0x0000,
# T 0x8000: DELTA = REF_P, far over any threshold used here).

plan 43
A=0x5c
load_modules
REL=/sys/power/pm_test
RISING="type=pressure channel=1 evtype=thresh dir=rising"

# new_configured: a client with the configuration CONFIGURED describes
new_configured() {
	new_client irq=rising
	echo 1234 > "$D/in_pressure1_reference_raw"
	echo 300 > "$D/events/in_pressure1_thresh_either_value"
}
# configured: DELTA with reference 1234, and the registers a loss resets:
# REF_P, THS_P (300) and INT_CFG (LIR, events off)
CONFIGURED="-14978 0xd2 0x04 0x2c 0x01 0x04"
configured() {
	echo "$(read_errno "$D/in_pressure1_raw") $(regval 5c 0x30) $(regval 5c 0x31) $(regval 5c 0x32) $(regval 5c 0x33) $(regval 5c 0x34)"
}
# two_reads: two reads of in_pressure_raw (R1, R2); fine when the first
# is right (16212) or an error, never another value, and the second right
two_reads() {
	R1=$(read_errno "$D/in_pressure_raw")
	R2=$(read_errno "$D/in_pressure_raw")
	note "reads: '$R1' '$R2'"
	case $R1 in
	16212 | ERR:*) [ "$R2" = 16212 ] ;;
	*) return 1 ;;
	esac
}
# crossing_raises WHAT NAME: DELTA 400 over the threshold (300) raises a
# rising event (the check WHAT, listener NAME); the stimulus back after
crossing_raises() {
	listen "$2" 4000
	echo "const 15812 1600" > "$SIM"/5c/stimulus
	expect_event "$1" "$2" "$RISING"
	echo "const 16212 1600" > "$SIM"/5c/stimulus
}
# rpm_suspended: runtime PM has suspended the device
rpm_suspended() {
	read -r rs_st < "$PWR/runtime_status" && [ "$rs_st" = suspended ]
}
# idle: suspended with the chip powered down
idle() {
	rpm_suspended && powered_down
}
# consistent: the chip powered down exactly when runtime PM says suspended
consistent() {
	read -r c_st < "$PWR/runtime_status"
	if [ "$c_st" = suspended ]; then powered_down; else ! powered_down; fi
}
# suspend_resume: one system suspend/resume (pm_test=devices)
suspend_resume() {
	echo devices > $REL
	sr_rc=0
	sh -c "echo mem > /sys/power/state" || sr_rc=$?
	echo none > $REL
	return $sr_rc
}

# ---- 1: a loss while the chip stays on is found at the next read ----
new_configured
echo on > "$PWR/control"
cat "$D/in_pressure_raw" > /dev/null
supply_loss
check_true "1: power/control on, supply loss: first read right or an error, second right" two_reads
check_eq "1: and the configuration is back" "$CONFIGURED" "$(configured)"
echo auto > "$PWR/control"
echo $A > "$SIM"/delete_device

new_client irq=rising
arm_rising 300
cat "$D/in_pressure_raw" > /dev/null
supply_loss
check_true "1: events on, supply loss: first read right or an error, second right" two_reads
crossing_raises "1: events on, supply loss: events come back without a toggle" one
echo $A > "$SIM"/delete_device

# ---- 2: an INT_CFG write after a loss does not hide it ----
new_client irq=rising
arm_rising 300
echo 1234 > "$D/in_pressure1_reference_raw"
supply_loss
echo 0 > "$E/in_pressure1_thresh_rising_en"
check_true "2: suspended after the events went off" wait_for 4 rpm_suspended
check_eq "2: loss, events off (INT_CFG written), autosuspend: DELTA and registers right" \
	"$CONFIGURED" "$(configured)"
echo $A > "$SIM"/delete_device

# ---- the configuration after a loss, on the other paths ----
# while suspended
new_configured
check_true "loss while idle: idle before the registers are lost" wait_for 4 idle
supply_loss
hold_on
check_eq "loss while idle: DELTA, REF_P, THS_P, INT_CFG restored" "$CONFIGURED" "$(configured)"
let_go
echo $A > "$SIM"/delete_device

# while a buffer runs: seen at the next resume
new_configured
enable_scan pressure
echo 1 > "$D/buffer/enable"
scans 2 2 > /dev/null
supply_loss
echo 0 > "$D/buffer/enable"
check_true "loss while streaming: suspended once the stream stops" wait_for 4 rpm_suspended
hold_on
check_eq "loss while streaming: the next read restores them all" "$CONFIGURED" "$(configured)"
let_go
echo $A > "$SIM"/delete_device

# at once after a read that failed, or after its suspend
new_configured
bad=
failed=0
for f in "eio_every 2" "eio_every 3" "eio_every 4" "eio_every 5" "nak_every 3"; do
	for when in now suspended; do
		wait_for 4 rpm_suspended
		echo "$f" > "$SIM"/5c/fault
		case $(read_errno "$D/in_pressure_raw") in
		ERR*) failed=$((failed + 1)) ;;
		*) when=suspended ;;
		esac
		[ "$when" = now ] || wait_for 3 rpm_suspended
		echo clear > "$SIM"/5c/fault
		# idle: a failed power-down's recovery is over
		[ "$when" = now ] || wait_for 4 idle
		supply_loss
		# a loss while the chip runs is found by a missed sample: the
		# first read is right or an error, the second right
		first=$(read_errno "$D/in_pressure1_raw")
		case $first in -14978 | ERR:*) got=$(configured) ;; *) got="first read $first" ;; esac
		[ "$got" = "$CONFIGURED" ] || bad="$bad [$f, loss $when: $got]"
	done
done
note "$failed of 10 reads failed"
check_eq "loss after faults: every register restored (10 paths)" "" "$bad"
check_true "loss after faults: the faults made reads fail" test "$failed" -ge 4
echo $A > "$SIM"/delete_device

# ---- 3: a dead bus does not keep the machine from suspending ----
new_client irq=rising
arm_rising 300
dmesg -c > /dev/null
echo "nak 100000" > "$SIM"/5c/fault
check_true "3: events on, bus dead: system suspend goes through" suspend_resume
check_true "3: and the failed power-down is logged" sh -c "dmesg | grep -q 'power down failed'"
echo clear > "$SIM"/5c/fault
check_eq "3: reads right once the bus answers (the chip reinitialised)" 16212 \
	"$(read_errno "$D/in_pressure_raw")"
echo $A > "$SIM"/delete_device

# ---- 4: recovery on a dead bus backs off, and sleeps with the system ----
new_client irq=rising
arm_rising 300
echo "nak 100000" > "$SIM"/5c/fault
echo "0x35 0x06" > "$SIM"/5c/regs
check_true "4: the failed INT1 pass is seen" wait_for 4 fault_fired 5c
nap 10	# the back-off is what is measured: ten seconds of it
field "$SIM"/5c/counters transfers
t0=$FIELD
nap 10	# and the next ten
field "$SIM"/5c/counters transfers
note "$t0 transfers in the first 10 s, $((FIELD - t0)) in the next 10 s"
check_true "4: dead bus: at most 2 recovery passes in the second 10 s" test $((FIELD - t0)) -le 2
field "$SIM"/5c/counters transfers
t0=$FIELD
suspend_resume
field "$SIM"/5c/counters transfers
note "$((FIELD - t0)) transfers across a suspend"
check_true "4: no recovery passes while the system sleeps (one resume attempt)" \
	test $((FIELD - t0)) -le 3
echo clear > "$SIM"/5c/fault
echo "0x35 0x00" > "$SIM"/5c/regs
echo $A > "$SIM"/delete_device

# ---- 5: a failed write, then a loss: the old value, no garbage sample ----
echo first_sample=garbage > "$SIM"/5c/variant
new_configured
echo on > "$PWR/control"
cat "$D/in_pressure_raw" > /dev/null
echo "eio 1" > "$SIM"/5c/fault
check_eq "5: a reference write the bus fails is refused" EIO \
	"$(write_errno "$D/in_pressure1_reference_raw" 5678)"
echo clear > "$SIM"/5c/fault
supply_loss
check_true "5: after a failed write and a loss, reads are right or errors, never the garbage sample" \
	two_reads
check_eq "5: the old reference is written back (DELTA 1234 - 16212, the registers)" \
	"$CONFIGURED" "$(configured)"
check_eq "5: and the attribute says the old reference" 1234 "$(cat "$D/in_pressure1_reference_raw")"
echo auto > "$PWR/control"
# the same write refused from idle, where the failing transfer is its power-up's
check_true "5: idle before the failed reference write" wait_for 4 idle
echo "eio 1" > "$SIM"/5c/fault
check_eq "5: from idle, a reference write the bus fails is refused" EIO \
	"$(write_errno "$D/in_pressure1_reference_raw" 5678)"
echo clear > "$SIM"/5c/fault
supply_loss
hold_on
check_eq "5: from idle, then a loss: the old reference is written back" "$CONFIGURED" "$(configured)"
check_eq "5: from idle: the attribute says the old reference" 1234 "$(cat "$D/in_pressure1_reference_raw")"
let_go
echo $A > "$SIM"/delete_device
echo default > "$SIM"/5c/variant

# ---- 6: a failed data-ready enable leaves INT1 to the events ----
# DRDY routed, then the burst that lowers it and the routing back both fail
new_client irq=rising
arm_rising 300
enable_scan pressure
echo "eio_after 0x22 2" > "$SIM"/5c/fault
echo 1 > "$D/buffer/enable" 2> /dev/null
check_true "6: the data-ready routing went through, then two transfers failed" wait_for 2 fault_fired 5c 2
echo 0 > "$D/buffer/enable" 2> /dev/null
echo clear > "$SIM"/5c/fault
check_true "6: INT1 routed to the threshold again (CTRL_REG3 0x03)" wait_for 4 reg_is 5c 0x22 0x03
crossing_raises "6: and a crossing raises an event" six
echo $A > "$SIM"/delete_device

# ---- 7: a failed system resume leaves no chip converting behind PM's back ----
new_client irq=rising
arm_rising 300
echo "eio_at 6" > "$SIM"/5c/fault
suspend_resume
check_true "7: the fault hit a transfer of the suspend or the resume" fault_fired 5c
echo clear > "$SIM"/5c/fault
check_true "7: after it, runtime PM and the chip agree" wait_for 4 consistent
crossing_raises "7: and events work again" seven
echo $A > "$SIM"/delete_device

# ---- 8: the smaller ones ----
new_client irq=rising
arm_rising 300
echo "eio 3" > "$SIM"/5c/fault
echo $A > "$SIM"/delete_device
echo clear > "$SIM"/5c/fault
check_true "8: unbind whose first three transfers fail still powers the chip down" powered_down
new_client irq=rising
write_errno "$D/in_pressure1_reference_raw" 70000 > /dev/null
check_true "8: a reference out of u16 range: ERANGE, not EINVAL" \
	sh -c "case '$WERR' in *'out of range'*) true;; *) false;; esac"
echo $A > "$SIM"/delete_device

# ---- the first sample is dropped on every path (first_sample=garbage) ----
echo first_sample=garbage > "$SIM"/5c/variant
new_client irq=rising
check_eq "first sample: a cold read" 16212 "$(cold in_pressure_raw)"
check_eq "first sample: a cold read of the temperature" 1600 "$(cold in_temp_raw)"
enable_scan pressure temp
wait_for 4 powered_down
echo 1 > "$D/buffer/enable"
check_eq "first sample: a buffer start on the own trigger" "16212 1600" "$(scans 1 4 | awk '{ print $1, $2 }')"
suspend_resume
check_eq "first sample: a resume under the own trigger" "16212 1600;16212 1600;16212 1600" \
	"$(scans 3 4 | awk '{ printf "%s%s %s", s, $1, $2; s = ";" }')"
echo 0 > "$D/buffer/enable"
mkdir -p /sys/kernel/config/iio/triggers/hrtimer/lpsrec
echo 25 > "$(iio_trigger lpsrec)/sampling_frequency"
echo lpsrec > "$D/trigger/current_trigger"
wait_for 4 powered_down
echo 1 > "$D/buffer/enable"
s=$(scans 8 4 | awk '$1 != 16212 || $2 != 1600 { n++ } END { print n + 0 }')
check_eq "first sample: a buffer start on a foreign trigger (8 scans, none garbage)" 0 "$s"
suspend_resume
s=$(scans 12 4 | awk '$1 != 16212 || $2 != 1600 { n++ } END { print n + 0 }')
check_eq "first sample: a resume under a foreign trigger (12 scans, none garbage)" 0 "$s"
echo 0 > "$D/buffer/enable"
echo "" > "$D/trigger/current_trigger"
wait_for 4 powered_down
E=$D/events
echo 16212 > "$D/in_pressure1_reference_raw"
echo 300 > "$E/in_pressure1_thresh_either_value"
listen cold 3000
echo 1 > "$E/in_pressure1_thresh_rising_en"
expect_no_event "first sample: events enabled from cold" cold
listen resume 3000
suspend_resume
expect_no_event "first sample: a resume with events on" resume
echo 0 > "$E/in_pressure1_thresh_rising_en"
hold_on
cat "$D/in_pressure_raw" > /dev/null
supply_loss
read_errno "$D/in_pressure_raw" > /dev/null
check_eq "first sample: the start after a missed sample" 16212 "$(read_errno "$D/in_pressure_raw")"
let_go
echo $A > "$SIM"/delete_device
echo default > "$SIM"/5c/variant

rmmod lps001wp
rmmod lps001wp_sim
