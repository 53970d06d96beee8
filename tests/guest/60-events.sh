# shellcheck shell=sh
# Threshold events on the differential channel (DELTA = REF_P - P):
# rising = PL (DELTA > +THS_P), falling = PH (DELTA < -THS_P). The checks
# look at the chip (INT_CFG and CTRL_REG3, interrupts raised, INT_SRC/INT_ACK
# reads, power) and at what user space receives: /tests/iio_event_wait
# (tests/tools) reads one event from the device's event fd.

plan 47
A=0x5c

load_modules
new_client irq=rising
E=$D/events
for f in in_pressure1_thresh_rising_en in_pressure1_thresh_falling_en \
	 in_pressure1_thresh_either_value; do
	check_true "$f exists" test -f "$E/$f"
done
check_false "no events on the absolute channel" test -e "$E/in_pressure_thresh_rising_en"
check_eq "rising disabled at probe" 0 "$(cat "$E/in_pressure1_thresh_rising_en")"

# ---- THS_P: one magnitude for both directions ----
check_eq "threshold 100" 0 "$(write_errno "$E/in_pressure1_thresh_either_value" 100)"
check_eq "THS_P = 100" "0x64 0x00" "$(regval 5c 0x32) $(regval 5c 0x33)"
# the configuration registers but THS_P: a threshold write changes none
conf() { awk '$1 ~ /^0x(2[0-2]|3[0145])$/ { printf "%s ", $2 }' "$SIM/5c/regs"; }
echo 1234 > "$D/in_pressure1_reference_raw"
before=$(conf)
check_eq "threshold 200" 0 "$(write_errno "$E/in_pressure1_thresh_either_value" 200)"
check_eq "threshold 200 changes no other configuration register" "$before" "$(conf)"
check_eq "threshold reads 200" 200 "$(cat "$E/in_pressure1_thresh_either_value")"
# Numbers only, 0..65535. The IIO core parses them; 6.1 to 7.2 take "",
# "-", "+" and "." as 0 and wrap the integer part at 32 bits (README), so
# those are not tried here.
for bad in -1 65536 abc 1.5 -0.5 "1 2" 0x10; do
	check_eq "threshold '$bad' rejected" EINVAL "$(write_errno "$E/in_pressure1_thresh_either_value" "$bad")"
done
check_eq "rejected values left THS_P alone" "0xc8 0x00" "$(regval 5c 0x32) $(regval 5c 0x33)"
check_eq "threshold +400 accepted" 0 "$(write_errno "$E/in_pressure1_thresh_either_value" +400)"
check_eq "threshold -0 accepted: THS_P 0" "0 0x00 0x00" \
	"$(write_errno "$E/in_pressure1_thresh_either_value" -0) $(regval 5c 0x32) $(regval 5c 0x33)"
echo 200 > "$E/in_pressure1_thresh_either_value"

# ---- quiet: REF_P = P, no event ----
echo "const 16212 1600" > "$SIM"/5c/stimulus
echo 16212 > "$D/in_pressure1_reference_raw"
echo 0 > "$SIM"/5c/counters
check_eq "enable rising" 0 "$(write_errno "$E/in_pressure1_thresh_rising_en" 1)"
check_eq "INT_CFG = LIR | PL_E" 0x06 "$(regval 5c 0x34)"
check_eq "CTRL_REG3: thresholds on INT1" 0x03 "$(regval 5c 0x22)"
check_eq "events keep the chip running with DIFF_EN" 0x7c "$(regval 5c 0x20)"
# three samples compared against the threshold, none crossing (the
# samples confirmed: an absence needs its observer)
seen=no
wait_samples 3 && seen=yes
check_eq "DELTA = 0: no interrupt in 3 samples (samples taken, interrupts)" "yes 0" "$seen $(counter 5c irqs_int1)"

# ---- rising: REF_P - P = 300 > 200 ----
listen rising 4000
echo 16512 > "$D/in_pressure1_reference_raw"
check_true "DELTA 300 > 200: INT1 fires" wait_for 3 counter_reached 5c irqs_int1 2
# One snapshot since the counters' reset: one INT_SRC read per interrupt,
# one INT_ACK read per latch it showed, and the enable's own INT_ACK read
# (a latch from before events were on). An interrupt whose thread has not
# run yet counts on one side only.
counters_snapshot 5c
irqs=$(counter_in irqs_int1)
srcs=$(counter_in read_0x35)
acks=$(counter_in read_0x36)
note "$srcs INT_SRC and $acks INT_ACK reads, $irqs interrupts"
check_true "the IRQ thread read INT_SRC once per interrupt" \
	test "$srcs" -ge 1 -a "$srcs" -ge $(( irqs - 1 )) -a "$srcs" -le "$irqs"
note "$acks INT_ACK reads, $irqs interrupts"
check_true "and acknowledged with INT_ACK once per latch" \
	test "$acks" -ge 1 -a "$acks" -ge $(( irqs - 1 )) -a "$acks" -le $(( irqs + 1 ))
expect_event "user space gets the event: in_pressure1 thresh rising" rising \
	"type=pressure channel=1 evtype=thresh dir=rising"
# runtime PM's own account of the active time grows past twice the
# autosuspend delay with the chip still powered: no suspend came
active_past() {
	read -r ap_t < "$PWR"/runtime_active_time && [ "$ap_t" -ge "$1" ] &&
		field "$SIM/5c/regs" 0x20 && [ $(( FIELD & 0x40 )) = 64 ]
}
check_true "enabled events keep the chip powered" wait_for 5 active_past \
	$(( $(cat "$PWR"/runtime_active_time) + 2 * $(cat "$PWR"/autosuspend_delay_ms) ))

# ---- the other direction does not fire rising ----
echo 0 > "$E/in_pressure1_thresh_rising_en"
check_eq "rising off: INT_CFG = LIR" 0x04 "$(regval 5c 0x34)"
check_eq "rising off: INT1 unused" 0x00 "$(regval 5c 0x22)"
check_true "last event off: powered down" wait_for 4 powered_down
echo 15912 > "$D/in_pressure1_reference_raw"
echo 0 > "$SIM"/5c/counters
echo 1 > "$E/in_pressure1_thresh_rising_en"
seen=no
wait_samples 3 && seen=yes
check_eq "DELTA -300 does not fire rising in 3 samples (samples taken, interrupts)" "yes 0" "$seen $(counter 5c irqs_int1)"
echo 0 > "$E/in_pressure1_thresh_rising_en"

# ---- falling: REF_P - P = -300 < -200 (PH) ----
echo 0 > "$SIM"/5c/counters
listen falling 4000
check_eq "enable falling" 0 "$(write_errno "$E/in_pressure1_thresh_falling_en" 1)"
check_eq "INT_CFG = LIR | PH_E" 0x05 "$(regval 5c 0x34)"
check_true "DELTA -300 < -200: INT1 fires" wait_for 3 counter_reached 5c irqs_int1 2
expect_event "user space gets the event: in_pressure1 thresh falling" falling \
	"type=pressure channel=1 evtype=thresh dir=falling"

# ---- events while the own trigger runs: DRDY owns INT1, INT_SRC polled ----
enable_scan pressure
echo 1 > "$D/buffer/enable"
check_eq "own trigger + events: DRDY on INT1" 0x04 "$(regval 5c 0x22)"
echo 0 > "$SIM"/5c/counters
scans 10 2 > /dev/null
# each of them (counted from the reset: a scan read may predate it)
counters_snapshot 5c
irqs=$(counter_in irqs_int1)
srcs=$(counter_in read_0x35)
note "$srcs INT_SRC reads, $irqs interrupts"
check_true "INT_SRC checked once per data-ready interrupt" \
	test "$srcs" -ge $(( irqs - 1 )) -a "$srcs" -le $(( irqs + 1 )) -a "$irqs" -ge 5
check_true "latched events acknowledged" test "$(counter 5c read_0x36)" -ge 1
echo 0 > "$D/buffer/enable"
check_eq "buffer off, events on: thresholds back on INT1" 0x03 "$(regval 5c 0x22)"
echo 0 > "$E/in_pressure1_thresh_falling_en"
check_true "all off: powered down" wait_for 4 powered_down

# ---- unbind with an event enabled: chip powered down, PM balanced ----
echo 1 > "$E/in_pressure1_thresh_falling_en"
echo "$BUS-005c" > /sys/bus/i2c/drivers/lps001wp/unbind
check_eq "unbind with an event on: PD=0" 0 $(( $(regval 5c 0x20) & 0x40 ))
check_eq "unbind with an event on: threshold unit off (INT_CFG)" 0x00 "$(regval 5c 0x34)"
check_eq "unbind with an event on: pads idle (CTRL_REG3)" 0x00 "$(regval 5c 0x22)"
echo "$BUS-005c" > /sys/bus/i2c/drivers/lps001wp/bind
D=$(iio_dev lps001wp)
cat "$D/in_pressure_raw" > /dev/null
check_true "after rebind the chip still autosuspends" wait_for 4 powered_down

echo $A > "$SIM"/delete_device
rmmod lps001wp
rmmod lps001wp_sim
