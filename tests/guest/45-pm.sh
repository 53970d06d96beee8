# shellcheck shell=sh
# Power management: one-shot reads power the chip up and autosuspend powers
# it down; a burst of reads is one power-up; runtime resume replays the
# configuration; system suspend/resume (pm_test=devices) keeps it.

plan 30
A=0x5c
setup_device
check_eq "autosuspend delay 250 ms" 250 "$(cat "$PWR"/autosuspend_delay_ms)"
check_eq "idle after probe: runtime suspended" suspended "$(cat "$PWR"/runtime_status)"

hold_on

# ---- one-shot read: up, then down after the autosuspend delay ----
echo 0 > "$SIM"/5c/counters
echo "const 16212 1600" > "$SIM"/5c/stimulus
check_eq "one-shot read" 16212 "$(cat "$D/in_pressure_raw")"
check_eq "one power-up" 1 "$(counter 5c power_ups)"
check_eq "PD=1 right after the read" 64 $(( $(regval 5c 0x20) & 0x40 ))
check_eq "runtime active" active "$(cat "$PWR"/runtime_status)"
let_go
check_true "PD=0 within 4 s" wait_for 4 powered_down
check_eq "runtime suspended again" suspended "$(cat "$PWR"/runtime_status)"
s1=$(counter 5c samples)
# An absence needs its observer: chip 5d, powered at 12.5 Hz (DR=11) as
# 5c was, takes 6 samples meanwhile
clocked=no
periods_pass 6 3 && clocked=yes
check_eq "no samples while powered down (5d took 6 meanwhile)" "yes $s1" "$clocked $(counter 5c samples)"

# ---- a burst of reads is one power-up ----
hold_on
echo 0 > "$SIM"/5c/counters
i=0
while [ $i -lt 8 ]; do
	cat "$D/in_pressure_raw" "$D/in_temp_raw" > /dev/null
	i=$((i + 1))
done
check_eq "16 reads, one power-up" 1 "$(counter 5c power_ups)"
let_go
check_true "and down again afterwards" wait_for 4 powered_down

# ---- bus cost of a read (issue 12) ----
# Cold: CTRL_REG1 check, power-up, discard, one burst that finds the second
# sample (the first after power-up may be garbage: the poll sleeps until two
# periods after power-up), power-down.
echo 12.5 > "$D/sampling_frequency"
check_true "idle" wait_for 4 powered_down
# Written with the chip down, the stimulus numbers the samples from the
# read's power-up on (P = 3000 + n): the value is a sample of it no later
# than the chip has taken, not merely a number above 3000.
echo "counter 3000 0" > "$SIM"/5c/stimulus
echo 0 > "$SIM"/5c/counters
v=$(read_errno "$D/in_pressure_raw")
check_true "powered down after the cold read" wait_for 4 powered_down
# at least the power-up, one burst and the power-down
tr=$(counter 5c transfers)
sm=$(counter 5c samples)
note "$tr transfers, read $v, $sm samples"
check_true "cold read, power-down included: a sample (3000 on) in 3 to 5 transfers" \
	test "$tr" -ge 3 -a "$tr" -le 5 -a "$v" -ge 3000 -a "$v" -le $(( 3000 + ${sm:-0} ))
# Warm: a sample has been waiting since the last read, one burst takes it
hold_on
p1=$(cat "$D/in_pressure_raw")
wait_samples 2
echo 0 > "$SIM"/5c/counters
p2=$(cat "$D/in_pressure_raw")
check_eq "warm read with a sample waiting: one transfer" 1 "$(counter 5c transfers)"
note "$p1 then $p2"
check_true "and it is a newer sample" test "$p2" -gt "$p1"
# Back to back, faster than the rate: each read waits for its own sample
s=$(for i in 1 2 3 4 5; do read_errno "$D/in_pressure_raw"; done | tr '\n' ' ')
# five numbers, each above the one before (a failed read is no number)
note "$s"
check_true "back-to-back reads never repeat a sample" \
	assert_increasing "$s" 5
let_go
check_true "down again after the reads" wait_for 4 powered_down
echo "const 16212 1600" > "$SIM"/5c/stimulus

# ---- runtime resume replays the configuration ----
echo 12.5 > "$D/sampling_frequency"
echo 1234 > "$D/in_pressure1_reference_raw"
supply_loss
hold_on
cat "$D/in_pressure_raw" > /dev/null
check_eq "resume restored REF_P" "0xd2 0x04" "$(regval 5c 0x30) $(regval 5c 0x31)"
check_eq "resume restored CTRL_REG1 (BDU, DR=11, PD, DIFF_EN)" 0x7c "$(regval 5c 0x20)"
let_go
check_true "down again after the resume" wait_for 4 powered_down

# ---- system suspend (pm_test=devices) while idle ----
echo devices > /sys/power/pm_test
check_true "suspend/resume while idle" sh -c "echo mem > /sys/power/state"
check_eq "idle chip stays powered down" 0x34 "$(regval 5c 0x20)"
check_eq "reads after resume" 16212 "$(cat "$D/in_pressure_raw")"
check_eq "sampling_frequency kept" 12.500000 "$(cat "$D/sampling_frequency")"

# ---- system suspend with the chip active ----
# held active (hold_on): with the default delay the chip may have
# autosuspended before the suspend starts
echo "0x30 0x00" > "$SIM"/5c/regs
hold_on
cat "$D/in_pressure1_raw" > /dev/null
echo "0x31 0x00" > "$SIM"/5c/regs
check_eq "active before the suspend" "active 64" \
	"$(cat "$PWR"/runtime_status) $(( $(regval 5c 0x20) & 0x40 ))"
check_true "suspend/resume while active" sh -c "echo mem > /sys/power/state"
check_eq "active chip: powered down by the suspend" 0 $(( $(regval 5c 0x20) & 0x40 ))
let_go
cat "$D/in_pressure_raw" > /dev/null
check_eq "next power-up replays REF_P" "0xd2 0x04" "$(regval 5c 0x30) $(regval 5c 0x31)"
echo none > /sys/power/pm_test

echo $A > "$SIM"/delete_device
rmmod lps001wp
rmmod lps001wp_sim
