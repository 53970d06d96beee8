# shellcheck shell=sh
# make demo, inside the guest (Debian's own kernel): the simulator's I2C
# adapter with an LPS001WP at 0x5c whose INT1 goes to the simulator's own
# interrupt controller, the driver bound to it, live readings through the
# driver's data-ready trigger and one threshold event. The runner (init)
# sources lib.sh first and runs this as a suite: its checks go to the
# results port, where tests/demo.sh (and make check's demo stage) read them.
# The console is the user's terminal, so the output is for a reader, and the
# streaming loop reads one scan at a time: a pipe through od would hold
# the readings back until the end.

plan 4
SCANS=40

say() { printf '\n\033[1m%s\033[0m\n' "$*"; }

# hpa RAW: pressure LSBs (16 per hPa) as hPa with two decimals
hpa() { printf '%d.%02d' $(($1 / 16)) $(($1 % 16 * 100 / 16)); }
# degc RAW: temperature LSBs (64 per degC, signed) as degC with two decimals
degc() {
	if [ "$1" -lt 0 ]; then printf -- '-'; set -- $((-$1)); fi
	printf '%d.%02d' $(($1 / 64)) $(($1 % 64 * 100 / 64))
}

load_modules
# The simulated weather: pressure climbs 3/16 hPa per sample from 1000 hPa,
# temperature 1/64 degC per sample from 25 degC.
echo "ramp 16000 3 1600 1" > "$SIM"/5c/stimulus
new_client irq=rising
if [ -z "$D" ]; then
	fail "the driver binds to the simulated chip" "no IIO device named lps001wp"
	dmesg | tail -n 20
	exit 1
fi
pass "the driver binds to the simulated chip"
devn=${D##*iio:device}

say "The sensor: $D (driver $(basename "$(readlink "$D/../driver")"), I2C $(basename "$(readlink -f "$D/..")"))"
p0=$(cat "$D/in_pressure_raw")
temp=$(cat "$D/in_temp_raw")
printf '  %-30s %s\n' in_pressure_raw "$p0" in_pressure_scale "$(cat "$D/in_pressure_scale")" \
	in_temp_raw "$temp" in_temp_scale "$(cat "$D/in_temp_scale")"
echo "  (raw times scale: $(hpa "$p0") hPa, $(degc "$temp") °C; IIO's units are kPa and m°C)"
for f in sampling_frequency sampling_frequency_available; do
	printf '  %-30s %s\n' "$f" "$(cat "$D/$f")"
done

# The event: DELTA = REF - P below -THS, i.e. the pressure 2 hPa (32 LSBs)
# above the reference, the chip's PH interrupt ("falling" on the
# difference channel in_pressure1, Documentation/ABI).
echo "$p0" > "$D/in_pressure1_reference_raw"
echo 32 > "$D/events/in_pressure1_thresh_either_value"
echo 1 > "$D/events/in_pressure1_thresh_falling_en"
listen demo 20000

say "Live readings through the driver's own trigger lps001wp-dev$devn (INT1 data-ready), 12.5 Hz"
echo "  (a threshold event is armed: 2 hPa above $(hpa "$p0") hPa; iio_event_wait listens)"
echo "lps001wp-dev$devn" > "$D/trigger/current_trigger"
enable_scan pressure temp timestamp
echo 12.5 > "$D/sampling_frequency"
echo 1 > "$D/buffer/enable"
# Scan: u16 pressure, s16 temperature, 4 bytes padding, s64 timestamp (LE)
printf '  %8s %14s %10s\n' "time (s)" "pressure" "temp"
got=0 rising=0 last=-1 t0=
exec 3< "/dev/iio:device$devn"
while [ "$got" -lt "$SCANS" ]; do
	# shellcheck disable=SC2046 # one scan's words
	set -- $(timeout 5 dd bs=16 count=1 <&3 2>/dev/null | od -An -v -tu2 -w16)
	[ "$#" = 8 ] || break
	ts=$(($5 + ($6 << 16) + ($7 << 32) + ($8 << 48)))
	[ -n "$t0" ] || t0=$ts
	t=$2
	[ "$t" -lt 32768 ] || t=$((t - 65536))
	ms=$(((ts - t0) / 1000000))
	printf '  %4d.%03d s %9s hPa %7s °C\n' $((ms / 1000)) $((ms % 1000)) "$(hpa "$1")" "$(degc "$t")"
	[ "$1" -gt "$last" ] && rising=$((rising + 1))
	last=$1
	got=$((got + 1))
done
exec 3<&-
echo 0 > "$D/buffer/enable"
echo > "$D/trigger/current_trigger"
check_eq "$SCANS scans through the data-ready trigger" "$SCANS" "$got"
note "$rising of $got readings above the one before"
check_true "each reading above the one before (the simulated ramp)" test "$got" -ge 2 -a "$rising" = "$got"

say "The threshold event"
if wait "$LISTENER"; then
	echo "  iio_event_wait /dev/iio:device$devn: $(tail -n1 /tmp/ev.demo)"
	echo "  (in_pressure1 is DELTA = reference - pressure: it fell below -2 hPa as the"
	echo "   pressure rose past $(hpa $((p0 + 32))) hPa; the chip's PH interrupt on INT1)"
fi
check_eq "one threshold event: pressure above reference plus threshold" \
	"type=pressure channel=1 evtype=thresh dir=falling" "$(tail -n1 /tmp/ev.demo)"
echo 0 > "$D/events/in_pressure1_thresh_falling_en"

echo "$A" > "$SIM"/delete_device
# busybox timeout's watcher outlives dd by up to a second, holding the
# device's file open (a reference on the module)
wait_for 5 rmmod lps001wp
rmmod lps001wp_sim
say "Demo done: that was the driver on a simulated LPS001WP, on Debian's own kernel $(uname -r)."
