# shellcheck shell=sh
# Channels: exact raw values from the simulator's stimulus, scales, labels,
# the differential channel and its reference.

plan 24
A=0x5c
setup_device

# ---- absolute pressure and temperature ----
# a warm read takes the sample waiting unread, which may predate a new
# stimulus: each waits until it has reached the outputs (settled)
echo "const 16212 1600" > "$SIM"/5c/stimulus
settled
check_eq "in_pressure_raw = 16212 (1013.25 mbar)" 16212 "$(cat "$D/in_pressure_raw")"
check_eq "in_temp_raw = 1600 (25 degC)" 1600 "$(cat "$D/in_temp_raw")"
echo "const 40000 -2560" > "$SIM"/5c/stimulus
settled
check_eq "pressure is unsigned: 40000" 40000 "$(cat "$D/in_pressure_raw")"
check_eq "temperature is signed: -2560 (-40 degC)" -2560 "$(cat "$D/in_temp_raw")"
echo "const 4800 5440" > "$SIM"/5c/stimulus
settled
check_eq "in_pressure_raw = 4800 (300 mbar)" 4800 "$(cat "$D/in_pressure_raw")"
check_eq "in_temp_raw = 5440 (85 degC)" 5440 "$(cat "$D/in_temp_raw")"

# ---- scales, labels ----
check_eq "in_pressure_scale (kPa per LSB)" 0.006250000 "$(cat "$D/in_pressure_scale")"
check_eq "in_temp_scale (m degC per LSB)" 15.625000000 "$(cat "$D/in_temp_scale")"
check_false "no in_temp_offset" test -e "$D/in_temp_offset"
check_false "one pressure scale for both channels" test -e "$D/in_pressure1_scale"
check_eq "in_pressure_label" absolute "$(cat "$D/in_pressure_label")"
check_eq "in_pressure1_label" differential "$(cat "$D/in_pressure1_label")"
check_eq "in_temp_label" temperature "$(read_errno "$D/in_temp_label")"

# ---- a fresh sample per read ----
echo "counter 1000 0" > "$SIM"/5c/stimulus
# a sample waiting unread may predate the stimulus: it is the first read's
cat "$D/in_pressure_raw" > /dev/null
p1=$(cat "$D/in_pressure_raw")
p2=$(cat "$D/in_pressure_raw")
note "$p1 then $p2"
check_true "consecutive reads return new samples" test "$p2" -gt "$p1"

# ---- differential channel: DELTA = REF_P - P ----
echo "const 16212 1600" > "$SIM"/5c/stimulus
settled
check_eq "in_pressure1_reference_raw starts at 0" 0 "$(cat "$D/in_pressure1_reference_raw")"
echo 16000 > "$D/in_pressure1_reference_raw"
check_eq "reference reads back" 16000 "$(cat "$D/in_pressure1_reference_raw")"
check_eq "REF_P registers hold 16000 (0x3e80)" "0x80 0x3e" "$(regval 5c 0x30) $(regval 5c 0x31)"
hold_on
check_eq "in_pressure1_raw = 16000 - 16212" -212 "$(cat "$D/in_pressure1_raw")"
check_eq "DIFF_EN on while powered" 8 $(( $(regval 5c 0x20) & 0x08 ))
let_go
echo 17000 > "$D/in_pressure1_reference_raw"
check_eq "new reference applies to the very next read: 17000 - 16212" 788 "$(cat "$D/in_pressure1_raw")"
echo 65535 > "$D/in_pressure1_reference_raw"
echo "const 65535 0" > "$SIM"/5c/stimulus
settled
check_eq "reference 65535 - P 65535" 0 "$(cat "$D/in_pressure1_raw")"
echo 0 > "$D/in_pressure1_reference_raw"
check_eq "pressure still 65535 unsigned" 65535 "$(cat "$D/in_pressure_raw")"

# ---- after autosuspend: powered down, DIFF_EN off ----
check_true "autosuspend: CTRL_REG1 back to 0x34" wait_for 4 reg_is 5c 0x20 0x34

echo $A > "$SIM"/delete_device
rmmod lps001wp
rmmod lps001wp_sim
