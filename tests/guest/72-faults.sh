# shellcheck shell=sh
# Faults (issue 8): one bus error or failed power transition must never
# stall, mislead or leak. One block per defect; each check failed on the
# driver before its fix.

plan 38
A=0x5c
load_modules

# ---- 1: a bus error must not stop the own data-ready stream ----
# DRDY is a level on an edge interrupt: a sample left unread keeps the pad
# high and no edge ever comes again. Each pattern must hit the stream (the
# fault file's fired count: all of a counted one, two of an every-Nth one),
# then the stream must go on: 5 more scans delivered once the fault is
# cleared, each a new sample of the numbered stimulus.
new_client irq=rising
echo 12.5 > "$D/sampling_frequency"
echo "counter 0 0" > "$SIM"/5c/stimulus
enable_scan pressure
for f in "eio 1" "nak 1" "eio 6" "nak 3" "eio_every 2" "nak_every 2"; do
	echo 1 > "$D/buffer/enable"
	scans 2 2 > /dev/null
	echo "$f" > "$SIM"/5c/fault
	case $f in *_every*) want=2 ;; *) want=${f#* } ;; esac
	wait_for 5 fault_fired 5c "$want"
	field "$SIM"/5c/fault fired
	hit=$FIELD
	echo clear > "$SIM"/5c/fault
	read -r q0 < "$D/buffer/data_available"
	wait_for 5 scans_queued $((q0 + 5))
	read -r q1 < "$D/buffer/data_available"
	s=$(scans "$q1" 2)
	echo 0 > "$D/buffer/enable"
	dup_miss "$s"
	note "$hit of $want transfers failed, then $((q1 - q0)) scans; $DUPS repeated"
	check_true "own trigger: '$f' hits the stream, new scans still delivered after it" \
		test "$hit" -ge "$want" -a $((q1 - q0)) -ge 5 -a "$DUPS" = 0
done

# ---- 2: a bus error must not stop threshold events ----
arm_rising 200
# INT_SRC read fails: the latch stays set and the pad asserted. Between
# two crossings the chip takes two samples below the threshold (a sample
# of the new stimulus has been compared).
RISING="type=pressure channel=1 evtype=thresh dir=rising"
listen int_src 6000
echo "eio 1" > "$SIM"/5c/fault
echo "const 15912 1600" > "$SIM"/5c/stimulus
expect_event "failed INT_SRC read: the event still arrives" int_src "$RISING"
note "fault file: fired $(field "$SIM"/5c/fault fired; echo "$FIELD") at $(field "$SIM"/5c/fault fired_reg; echo "$FIELD")"
check_true "the failed transfer was the IRQ thread's INT_SRC read" fault_hit_reg 5c 0x35
echo "const 16212 1600" > "$SIM"/5c/stimulus
wait_samples 2
listen again 4000
echo "const 15912 1600" > "$SIM"/5c/stimulus
expect_event "and the next crossing raises one" again "$RISING"
# INT_ACK read fails (the transfer after INT_SRC): same
echo "const 16212 1600" > "$SIM"/5c/stimulus
wait_samples 2
listen ack 4000
echo "eio_at 2" > "$SIM"/5c/fault
echo "const 15912 1600" > "$SIM"/5c/stimulus
heard ack
check_true "the failed transfer was the INT_ACK read" fault_hit_reg 5c 0x36
echo clear > "$SIM"/5c/fault
echo "const 16212 1600" > "$SIM"/5c/stimulus
wait_samples 2
listen after_ack 4000
echo "const 15912 1600" > "$SIM"/5c/stimulus
expect_event "failed INT_ACK read: the next crossing raises an event" after_ack "$RISING"
echo "const 16212 1600" > "$SIM"/5c/stimulus
echo 0 > "$E/in_pressure1_thresh_rising_en"

# ---- 5: no stale or unwanted event reaches user space ----
# A latch left from earlier (INT_SRC poked while no event is on) must not
# fire when rising is enabled: acknowledged before the pad is routed.
echo 0 > "$SIM"/5c/counters
echo "0x35 0x05" > "$SIM"/5c/regs
listen stale 1500
echo 1 > "$E/in_pressure1_thresh_rising_en"
expect_no_event_after "enabling rising: a stale falling latch raises no event" stale
check_eq "and no interrupt" 0 "$(counter 5c irqs_int1)"
# INT_SRC with both flags while only rising is enabled: rising only
listen masked 1500 2
echo "0x35 0x03" > "$SIM"/5c/regs
expect_event "INT_SRC PL|PH with only rising enabled: one rising event, no falling" masked "$RISING"
# A latch the IRQ thread could not clear is cleared when events go off:
# the thread's INT_SRC read (the chip's only traffic while events hold it
# powered) fails before the fault is cleared
echo 0 > "$SIM"/5c/counters
echo "eio_every 1" > "$SIM"/5c/fault
echo "0x35 0x06" > "$SIM"/5c/regs
check_true "the IRQ thread's read of the latch fails" wait_for 5 fault_hit_reg 5c 0x35
echo clear > "$SIM"/5c/fault
echo 0 > "$E/in_pressure1_thresh_rising_en"
check_eq "events off: the latch is acknowledged (INT_SRC 0)" 0x00 "$(regval 5c 0x35)"
check_eq "and INT1 idle (CTRL_REG3)" 0x00 "$(regval 5c 0x22)"
echo $A > "$SIM"/delete_device

# ---- 3: a failed power-up must not give wrong values later ----
new_client
echo 12.5 > "$D/sampling_frequency"
echo 1234 > "$D/in_pressure1_reference_raw"
cat "$D/in_pressure1_raw" > /dev/null
check_true "idle before the failed power-ups" wait_for 4 powered_down
# A read from idle powers up, and one of its first writes sets PD. Its first
# transfers are failed in turn until the fault hits CTRL_REG1 (the fault
# file's register): that read must fail, the others are recovered from.
k=1
hit=
seen=
while [ $k -le 8 ] && [ -z "$hit" ]; do
	wait_for 4 powered_down
	echo "eio_at $k" > "$SIM"/5c/fault
	r=$(read_errno "$D/in_pressure1_raw")
	field "$SIM"/5c/fault fired_reg
	seen="$seen $k:$FIELD"
	if [ "$FIELD" = 0x20 ]; then
		hit=$r
	else
		echo clear > "$SIM"/5c/fault
		read_errno "$D/in_pressure1_raw" > /dev/null
	fi
	k=$((k + 1))
done
note "transfer failed: the register it addressed:$seen"
check_eq "power-up write fails (the fault hit CTRL_REG1): the read fails" \
	"ERR:dd: $D/in_pressure1_raw: Input/output error" "${hit:-no transfer addressed CTRL_REG1}"
echo clear > "$SIM"/5c/fault
hold_on
check_eq "the next read is right (1234 - 16212)" -14978 "$(read_errno "$D/in_pressure1_raw")"
check_eq "and CTRL_REG1 is written (BDU, DR=11, PD, DIFF_EN)" 0x7c "$(regval 5c 0x20)"
let_go

# ---- 3b: a failed reference write keeps the old reference: in 78-recovery (5) ----

# ---- 4: a failed power-down is retried: in 65-errors ----

# ---- 7: direct_reg_access refuses values beyond a byte ----
# idle first: an autosuspend between the two reads of CTRL_REG1 changes it
check_true "7: idle before the refused writes" wait_for 4 powered_down
DBG=/sys/kernel/debug/iio/${D##*/}/direct_reg_access
ctrl1=$(regval 5c 0x20)
check_eq "direct_reg_access '0x20 0x1ff' refused" EINVAL "$(write_errno "$DBG" "0x20 0x1ff")"
check_eq "CTRL_REG1 unchanged" "$ctrl1" "$(regval 5c 0x20)"
check_eq "direct_reg_access '0x30 -1' refused" EINVAL "$(write_errno "$DBG" "0x30 -1")"
check_eq "REF_P_L unchanged" 0xd2 "$(regval 5c 0x30)"
check_eq "direct_reg_access '0x30 0xff' still works" 0 "$(write_errno "$DBG" "0x30 0xff")"
echo "0x30 0xd2" > "$DBG"
echo $A > "$SIM"/delete_device

# ---- 8: threshold values are numbers: in 60-events ----
new_client irq=rising

# ---- 10: rmmod works while an IRQ-wired device is bound and idle ----
# The own trigger, current by default, holds the module until released.
check_false "rmmod refused while the own trigger is current" rmmod lps001wp
echo "" > "$D/trigger/current_trigger"
check_true "rmmod lps001wp with an idle IRQ-wired device bound" rmmod lps001wp
check_false "device unbound" test -e /sys/bus/i2c/drivers/lps001wp/"$BUS"-005c
modprobe lps001wp
D=$(iio_dev lps001wp)
check_true "modprobe binds it again" test -n "$D"
enable_scan pressure
echo 1 > "$D/buffer/enable"
check_false "rmmod refused while it streams" rmmod lps001wp
echo 0 > "$D/buffer/enable"
echo $A > "$SIM"/delete_device

# ---- 9: probe waits for the chip to turn on; IRQ errors fail it ----
echo "turn_on_ms 5" > "$SIM"/5c/fault
echo $A > "$SIM"/new_device
check_true "chip answering 5 ms after power-on: probe succeeds" test -e /sys/bus/i2c/drivers/lps001wp/"$BUS"-005c
echo $A > "$SIM"/delete_device
# The window is real: a chip that answers only 2 s after power-on refuses
# probe's first transfer (WHO_AM_I), and probe fails
echo "turn_on_ms 2000" > "$SIM"/5c/fault
echo $A > "$SIM"/new_device
bound=no
[ -e /sys/bus/i2c/drivers/lps001wp/"$BUS"-005c ] && bound=yes
fired=no
fault_fired 5c && fired=yes
field "$SIM"/5c/fault fired_reg
check_eq "chip answering 2 s after power-on: WHO_AM_I refused, probe fails (refused, register, bound)" \
	"yes 0x0f no" "$fired $FIELD $bound"
echo $A > "$SIM"/delete_device
echo clear > "$SIM"/5c/fault
dmesg -c > /dev/null
echo "$A int1=unmappable" > "$SIM"/new_device
check_false "INT1 named but unmappable: probe fails" test -e /sys/bus/i2c/drivers/lps001wp/"$BUS"-005c
check_true "and says so" sh -c "dmesg | grep -q 'int1 IRQ unusable'"
echo $A > "$SIM"/delete_device

# ---- 6: a trigger that stores no time still gets fresh timestamps ----
modprobe iio-trig-loop
mkdir -p /sys/kernel/config/iio/triggers/loop/lpsloop
mkdir -p /sys/kernel/config/iio/triggers/hrtimer/lpsts
echo 50 > "$(iio_trigger lpsts)/sampling_frequency"
new_client
enable_scan pressure timestamp
# First a trigger whose top half stores the time...
echo lpsts > "$D/trigger/current_trigger"
echo 1 > "$D/buffer/enable"
scans 3 16 > /dev/null
echo 0 > "$D/buffer/enable"
# ...then iio-trig-loop, which never does. The simulated bus sleeps per
# transfer like a real one, or the loop's kthread would never yield.
echo "delay_us 2000" > "$SIM"/5c/fault
echo lpsloop > "$D/trigger/current_trigger"
echo 1 > "$D/buffer/enable"
s=$(scans 5 16)
echo 0 > "$D/buffer/enable"
echo "" > "$D/trigger/current_trigger"
echo clear > "$SIM"/5c/fault
check_eq "loop trigger: 5 scans" 5 "$(echo "$s" | grep -c .)"
ts=$(echo "$s" | scan_times)
check_true "loop trigger: timestamps strictly increasing" assert_increasing "$ts" 5
echo $A > "$SIM"/delete_device

rmmod lps001wp
rmmod lps001wp_sim
