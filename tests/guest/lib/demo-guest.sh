# shellcheck shell=sh
# make demo, inside the guest: the simulated board with an LPS001WP at 0x5c
# wired to an interrupt, the driver bound to it, and ~10 s of live readings
# streamed with iio_readdev through the driver's own data-ready trigger.
# The runner (init) sources lib.sh first.

say() { printf '\n\033[1m%s\033[0m\n' "$*"; }

load_modules
# Pressure climbs 3/16 mbar per sample from 1000 mbar; temperature 1/64 degC.
echo "ramp 16000 3 1600 1" > "$SIM"/5c/stimulus
new_client irq=rising
dev=$D
if [ -z "$dev" ]; then
	echo "demo: the driver did not bind; dmesg:"
	dmesg | tail -n 20
	exit 1
fi
n=${dev##*iio:device}

say "iio_info: the device as libiio sees it"
echo "(libiio 0.24 files the in_pressure_* attributes under pressure1, where both"
echo " raw entries read in_pressure1_raw; sysfs below has them right. README.md,"
echo " \"libiio 0.24\", says why and what works.)"
iio_info | sed -n "/iio:device$n: lps001wp/,/^[[:space:]]*\(iio:device[0-9]*\|trigger[0-9]*\|iio_sysfs_trigger\):/p" | sed '$d'

say "One-shot reads from sysfs"
for ch in pressure temp; do
	printf '%-22s %s\n' "in_${ch}_raw" "$(cat "$dev/in_${ch}_raw")"
	printf '%-22s %s\n' "in_${ch}_scale" "$(cat "$dev/in_${ch}_scale")"
done

say "Streaming 10 s at 12.5 Hz: iio_readdev -b 1 -s 125 lps001wp pressure temp timestamp"
echo "(libiio then prints \"WARNING: High-speed mode not enabled\": mainline kernels"
echo " have no DMA block API for IIO buffers, so libiio reads /dev/iio:device$n with"
echo " read() instead; nothing is lost at this rate. Harmless.)"
echo 12.5 > "$dev/sampling_frequency"
echo "lps001wp-dev$n" > "$dev/trigger/current_trigger"
# Scan: u16 pressure, s16 temperature, 4 bytes padding, s64 timestamp (LE).
iio_readdev -b 1 -s 125 lps001wp pressure temp timestamp | od -An -v -t u2 -w16 |
awk "$SCAN_TIME_AWK"'
BEGIN { printf "%10s %12s %10s\n", "time (s)", "pressure", "temp" }
{
	ts = scan_time(5)
	if (t0 == "") t0 = ts
	t = $2; if (t >= 32768) t -= 65536
	printf "%10.3f %8.2f hPa %7.2f °C\n", (ts - t0) / 1e9, $1 / 16, t / 64
}'
echo > "$dev/trigger/current_trigger"

echo "$A" > "$SIM"/delete_device
rmmod lps001wp
rmmod lps001wp_sim
say "Demo done: that was the driver on a simulated LPS001WP. See README.md to use a real one."
