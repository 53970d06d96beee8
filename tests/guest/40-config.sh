# shellcheck shell=sh
# Configuration: sampling_frequency and its available list, the reference,
# and bad input (-EINVAL, registers unchanged).

plan 37
A=0x5c
setup_device

# ---- sampling_frequency ----
check_eq "sampling_frequency_available" "7.000000 12.500000" "$(cat "$D/sampling_frequency_available")"
# 12.5 Hz (DR=11) is the one rate every source agrees on
check_eq "default sampling_frequency 12.5 Hz" 12.500000 "$(cat "$D/sampling_frequency")"
check_eq "12.5 Hz is DR=11: CTRL_REG1 0x34" 0x34 "$(regval 5c 0x20)"
# each rate reads a stimulus of its own (not the default): a value left in
# the outputs from before cannot pass for a new sample
echo "const 16300 1700" > "$SIM"/5c/stimulus
check_eq "one-shot read at 12.5 Hz" 1700 "$(cat "$D/in_temp_raw")"
check_eq "set 7 Hz" 0 "$(write_errno "$D/sampling_frequency" 7)"
check_eq "reads 7 Hz" 7.000000 "$(cat "$D/sampling_frequency")"
check_eq "7 Hz is DR=01 (P and T at 7 Hz)" 16 $(( $(regval 5c 0x20) & 0x30 ))
check_true "idle before the 7 Hz read" wait_for 4 powered_down
echo "const 16400 1800" > "$SIM"/5c/stimulus
check_eq "temperature at 7 Hz" 1800 "$(cat "$D/in_temp_raw")"
check_eq "set 12.5 Hz" 0 "$(write_errno "$D/sampling_frequency" 12.5)"
check_eq "reads 12.5 Hz" 12.500000 "$(cat "$D/sampling_frequency")"
for bad in 13 1 0 7.1 12 -7 abc ""; do
	check_eq "sampling_frequency '$bad' rejected" EINVAL "$(write_errno "$D/sampling_frequency" "$bad")"
done
check_eq "rejected values left DR=11 alone" 48 $(( $(regval 5c 0x20) & 0x30 ))
check_eq "and sampling_frequency" 12.500000 "$(cat "$D/sampling_frequency")"

# ---- reference ----
check_eq "reference 1234 accepted" 0 "$(write_errno "$D/in_pressure1_reference_raw" 1234)"
check_eq "REF_P = 0x04d2" "0xd2 0x04" "$(regval 5c 0x30) $(regval 5c 0x31)"
check_eq "reference 65535 accepted" 0 "$(write_errno "$D/in_pressure1_reference_raw" 65535)"
check_eq "reference 0 accepted" 0 "$(write_errno "$D/in_pressure1_reference_raw" 0)"
echo 1234 > "$D/in_pressure1_reference_raw"
for bad in -1 abc 12x 0x10 1e3 ""; do
	check_eq "reference '$bad' rejected" EINVAL "$(write_errno "$D/in_pressure1_reference_raw" "$bad")"
done
# a number past 65535: kstrtou16's own errno
for bad in 65536 99999999999; do
	check_eq "reference '$bad' rejected" "ERR:sh: write error: Numerical result out of range" \
		"$(write_errno "$D/in_pressure1_reference_raw" "$bad")"
done
check_eq "rejected references left REF_P alone" "0xd2 0x04" "$(regval 5c 0x30) $(regval 5c 0x31)"
check_eq "reference still reads 1234" 1234 "$(cat "$D/in_pressure1_reference_raw")"

# ---- read-only and generic attributes ----
check_false "in_pressure_raw is read-only" sh -c "echo 1 > $D/in_pressure_raw"
echo $A > "$SIM"/delete_device
rmmod lps001wp
rmmod lps001wp_sim
