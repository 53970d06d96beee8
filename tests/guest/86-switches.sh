# shellcheck shell=sh
# lps001wp.h's switches for the facts no build can get right on every chip:
# the driver built with each one flipped (/tests/alt-<SWITCH>.ko, built by
# tests/check.sh with KUnit) is right on the chip variant that needs it,
# and differs from the default build where the switch matters.

plan 21

# each switch's build is loaded by alt
load_modules none

# alt SWITCH: load the build with SWITCH flipped, its KUnit suite passing
alt() {
	S=$1
	# shellcheck disable=SC2034 # lib.sh's bind reads it
	BIND_PREFIX="$S, chip "
	rmmod lps001wp 2>/dev/null
	check_true "$S: insmod alt-$S.ko" insmod "/tests/alt-$S.ko"
	check_true "$S: its KUnit suite passes" \
		grep -q '^ok [0-9]* lps001wp$' /sys/kernel/debug/kunit/lps001wp/results
}

# bind, unbind, cold: lib.sh's; V names the build and the chip

# rate PERIOD_MS N TOL: over N samples, the powered chip's samples match
# its powered time at PERIOD_MS a sample, within TOL (counted as 10-sim does: a slow guest stretches the
# wait, not the ratio)
rate() {
	hold_on
	cat "$D/in_pressure_raw" > /dev/null
	echo 0 > "$SIM"/5c/counters
	wait_samples "$2"
	rate_matches "$1" "$3"
	rc=$?
	let_go
	return $rc
}

# ---- DELTA_IS_REF_MINUS_P=0: the chip subtracts the other way ----
alt DELTA_IS_REF_MINUS_P
bind delta=p-ref
echo "const 16212 1600" > "$SIM"/5c/stimulus
echo 16000 > "$D/in_pressure1_reference_raw"
check_eq "$V: in_pressure1_raw = REF_P - P" -212 "$(cold in_pressure1_raw)"
enable_scan pressure1
echo 1 > "$D/buffer/enable"
check_eq "$V: buffered DELTA = REF_P - P (-212 as u16)" 65324 "$(scans 1 2 | awk '{ print $1 }')"
echo 0 > "$D/buffer/enable"
echo 16212 > "$D/in_pressure1_reference_raw"
echo 200 > "$D/events/in_pressure1_thresh_either_value"
echo 1 > "$D/events/in_pressure1_thresh_rising_en"
listen sw 4000
echo 16512 > "$D/in_pressure1_reference_raw"
expect_event "$V: REF_P 300 above P is a rising event" sw \
	"type=pressure channel=1 evtype=thresh dir=rising"
echo 0 > "$D/events/in_pressure1_thresh_rising_en"
unbind
bind default
echo 16000 > "$D/in_pressure1_reference_raw"
check_eq "$V: on a REF_P - P chip the sign is wrong: the switch matters" 212 "$(cold in_pressure1_raw)"
unbind

# ---- FIRST_SAMPLE_VALID=1: the first sample after power-up is taken ----
alt FIRST_SAMPLE_VALID
bind default
echo "const 16212 1600" > "$SIM"/5c/stimulus
check_eq "$V: cold read" 16212 "$(cold in_pressure_raw)"
unbind
bind first_sample=garbage
check_eq "$V: a cold read returns the garbage (0): the default's drop is what saves it" \
	0 "$(cold in_pressure_raw)"
unbind

# ---- DR_ST_TABLE=0: mainline st_pressure's rate table ----
alt DR_ST_TABLE
bind dr01=1
check_eq "$V: sampling_frequency_available" "1.000000 7.000000 12.500000" \
	"$(cat "$D/sampling_frequency_available")"
check_eq "$V: default 12.5 Hz" 12.500000 "$(cat "$D/sampling_frequency")"
check_eq "$V: 1 Hz accepted" 0 "$(write_errno "$D/sampling_frequency" 1)"
check_eq "$V: 1 Hz is DR=01" 16 $(( $(regval 5c 0x20) & 0x30 ))
check_true "$V: 1 Hz runs at 1 Hz" rate 1000 3 1
check_eq "$V: 7 Hz accepted" 0 "$(write_errno "$D/sampling_frequency" 7)"
check_eq "$V: 7 Hz is DR=10" 32 $(( $(regval 5c 0x20) & 0x30 ))
check_true "$V: 7 Hz runs at 7 Hz" rate 143 10 2
check_eq "$V: reads at 7 Hz" 1600 "$(cold in_temp_raw)"
unbind

rmmod lps001wp
rmmod lps001wp_sim
