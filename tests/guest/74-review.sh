# shellcheck shell=sh
# The review of issue 19, one check per defect (numbered as in the issue);
# each check but 3 failed on the driver before the fix.

plan 13
A=0x5c

load_modules
DEV=/sys/bus/i2c/devices/$BUS-005c
DRV=/sys/bus/i2c/drivers/lps001wp

# ---- 1: runtime PM lives longer than the IIO device ----
# Readers queue on the device while it unbinds and binds again; with
# runtime PM torn down before the IIO device, a read that got in between
# failed with EACCES. Slow transfers keep the readers in flight.
new_client irq=rising
echo "delay_us 5000" > "$SIM"/5c/fault
rm -f /tmp/stop /tmp/race.*
for r in 1 2 3 4; do
	( while [ ! -e /tmp/stop ]; do
		for f in "$DEV"/iio:device*/in_pressure_raw; do
			dd if="$f" bs=64 count=1 2>&1
		done
	done > /tmp/race.$r ) &
done
i=0
while [ $i -lt 6 ]; do
	sleep 0.3
	echo "$BUS-005c" > $DRV/unbind
	sleep 0.1
	echo "$BUS-005c" > $DRV/bind
	i=$((i + 1))
done
sleep 0.3
touch /tmp/stop
wait
echo clear > "$SIM"/5c/fault
ok=$(cat /tmp/race.* | grep -c '^[0-9][0-9]*$')
note "$ok reads succeeded"
check_eq "1: reads racing 6 unbinds and binds: none fails with EACCES" "" \
	"$(cat /tmp/race.* | grep -m1 'Permission denied')"
echo $A > "$SIM"/delete_device

# ---- 2: a dead bus is not hammered ----
# Level line, own trigger streaming, every transfer failing: each pass of
# the IRQ thread is bounded, and the line cannot fire faster than passes
# end. Counted over 2 s: at most 150 transfers and 20 interrupts a second
# (a live stream is 12.5 of each).
echo "irq=level" > "$SIM"/5c/variant
new_client irq=rising
enable_scan pressure
echo 1 > "$D/buffer/enable"
scans 3 2 > /dev/null
echo "eio_every 1" > "$SIM"/5c/fault
sleep 0.5
echo 0 > "$SIM"/5c/counters
sleep 2
tr=$(counter 5c transfers)
irqs=$(counter 5c irqs_int1)
echo clear > "$SIM"/5c/fault
note "$tr transfers and $irqs interrupts in 2 s"
check_true "2: dead bus on a level line: at most 300 transfers and 40 interrupts in 2 s" \
	test "$tr" -le 300 -a "$irqs" -le 40
check_eq "2: the stream resumes when the bus does" 3 "$(scans 3 2 | grep -c .)"
echo 0 > "$D/buffer/enable"
echo $A > "$SIM"/delete_device
echo default > "$SIM"/5c/variant

# ---- 3: the IRQ thread and event configuration exclude each other ----
# Rising crossed for good, so the chip latches it with every sample, and
# every transfer takes 100 ms. Once the chip shows rising off (INT_CFG),
# the driver is inside its disable: no rising event may follow. (The
# driver before the fix passed this too: its race, the thread reading
# events_enabled between the disable's INT_CFG write and its update, is
# narrower than anything user space can time here.)
new_client irq=rising
E=$D/events
echo "const 16212 1600" > "$SIM"/5c/stimulus
echo 16512 > "$D/in_pressure1_reference_raw"
echo 200 > "$E/in_pressure1_thresh_either_value"
late=""
echo 0 > "$SIM"/5c/counters
i=0
while [ $i -lt 4 ]; do
	echo 1 > "$E/in_pressure1_thresh_rising_en"
	wait_for 3 counter_reached 5c irqs_int1 1
	echo "delay_us 100000" > "$SIM"/5c/fault
	echo 0 > "$E/in_pressure1_thresh_rising_en" &
	off=$!
	wait_for 5 reg_is 5c 0x34 0x04
	listen late$i 1500
	wait "$off"
	wait "$LISTENER"
	echo clear > "$SIM"/5c/fault
	late="$late$(grep type= /tmp/ev.late$i)"
	echo 0 > "$SIM"/5c/counters
	i=$((i + 1))
done
check_eq "3: rising switched off while crossed: no rising event once INT_CFG is off (4 tries)" "" "$late"
echo $A > "$SIM"/delete_device

# ---- 4: no wait for a sample holds the driver's lock ----
# STATUS stuck at 7 Hz: a buffer or event enable waits up to 3 s for a
# sample. Meanwhile the reference, which takes the lock, still answers.
new_client irq=rising
E=$D/events
echo 7 > "$D/sampling_frequency"
enable_scan pressure
# enable_waiting WHAT FILE: write 1 to FILE in the background while STATUS
# is stuck; once it has polled STATUS a few times, the reference answers
# before the enable returns
enable_waiting() {
	rm -f /tmp/enable.done
	echo 0 > "$SIM"/5c/counters
	( echo 1 > "$2"; touch /tmp/enable.done ) 2>/dev/null &
	wait_for 3 counter_reached 5c read_0x27 7
	cat "$D/in_pressure1_reference_raw" > /dev/null
	check_false "4: the reference answers while $1 waits for a sample" test -e /tmp/enable.done
	wait
}
echo stuck_status > "$SIM"/5c/fault
enable_waiting "a buffer enable" "$D/buffer/enable"
check_true "4: idle between the two enables" wait_for 4 powered_down
enable_waiting "an event enable" "$E/in_pressure1_thresh_rising_en"
echo clear > "$SIM"/5c/fault
echo 0 > "$E/in_pressure1_thresh_rising_en"
echo $A > "$SIM"/delete_device

# ---- 5: registers lost while suspended are all restored ----
new_client irq=rising
echo "const 16212 1600" > "$SIM"/5c/stimulus
echo 1234 > "$D/in_pressure1_reference_raw"
echo 300 > "$D/events/in_pressure1_thresh_either_value"
check_true "5: idle before the registers are lost" wait_for 4 powered_down
dmesg -c > /dev/null
for r in 0x20 0x21 0x22 0x30 0x31 0x32 0x33 0x34; do echo "$r 0x00" > "$SIM"/5c/regs; done
hold_on
delta=$(cat "$D/in_pressure1_raw")
check_eq "5: after a supply loss: DELTA, REF_P, THS_P, INT_CFG restored; one log line" \
	"-14978 0xd2 0x04 0x2c 0x01 0x04 1" \
	"$delta $(regval 5c 0x30) $(regval 5c 0x31) $(regval 5c 0x32) $(regval 5c 0x33) $(regval 5c 0x34) $(dmesg | grep -c 'registers lost')"
let_go
echo $A > "$SIM"/delete_device

# ---- 6: the IIO core's state is the core's ----
# The core starts direct_reg_access at 0x00, which is no register here.
new_client
DBG=/sys/kernel/debug/iio/${D##*/}/direct_reg_access
check_eq "6: direct_reg_access starts where the core starts it (0x00: no register)" \
	"ERR:dd: $DBG: Invalid argument" "$(read_errno "$DBG")"
echo $A > "$SIM"/delete_device

# ---- 7: the trigger has a module owner ----
new_client irq=rising
check_false "7: rmmod refused while the own trigger is the device's trigger" rmmod lps001wp
echo "" > "$D/trigger/current_trigger"
check_true "7: and allowed once nothing holds it" rmmod lps001wp
modprobe lps001wp
echo $A > "$SIM"/delete_device

# ---- 8: one threshold value, through the IIO core ----
new_client irq=rising
E=$D/events
echo 1234 > "$D/in_pressure1_reference_raw"
# the configuration registers but THS_P
conf() { awk '$1 ~ /^0x(2[0-2]|3[0145])$/ { printf "%s ", $2 }' "$SIM/5c/regs"; }
before=$(conf)
e=$(write_errno "$E/in_pressure1_thresh_either_value" 300)
after=$(conf)
bad=""
for v in 65536 -1 1.5 -0.5 abc; do
	bad="$bad $(write_errno "$E/in_pressure1_thresh_either_value" "$v")"
done
check_eq "8: in_pressure1_thresh_either_value: 300 sets THS_P and nothing else; bad values refused" \
	"0 0x2c 0x01 300 same EINVAL EINVAL EINVAL EINVAL EINVAL 0x2c 0x01" \
	"$e $(regval 5c 0x32) $(regval 5c 0x33) $(cat "$E/in_pressure1_thresh_either_value" 2>&1) $([ "$before" = "$after" ] && echo same)$bad $(regval 5c 0x32) $(regval 5c 0x33)"
echo $A > "$SIM"/delete_device

rmmod lps001wp
rmmod lps001wp_sim
