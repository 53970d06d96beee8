# shellcheck shell=sh
# make demo, inside the guest (Debian's own kernel): the simulator's I2C
# adapter with an LPS001WP at 0x5c whose INT1 goes to the simulator's own
# interrupt controller, the driver bound to it, live readings through the
# driver's data-ready trigger and one threshold event. The runner (init)
# sources lib.sh first and runs this as a suite: its checks go to the
# results port, where tests/demo.sh (and make check's demo stage) read them.
# The console is the user's terminal, so the output is for a reader. The
# readings and the event come from lps001wp-read, the reader the package
# installs (built for this guest by tests/demo.sh), run as a user runs it.

plan 5
SCANS=40
PATH=$PATH:/tests

say() { printf '\n\033[1m%s\033[0m\n' "$*"; }
# typed CMD: the command line as the user types it
typed() { printf '$ %s\n' "$*"; }
# TIME_RE: the time of day lps001wp-read puts first on a line
TIME_RE='[0-2][0-9]:[0-5][0-9]:[0-5][0-9]\.[0-9][0-9][0-9]'

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
echo "  (a simulated LPS001WP: the pressure climbs 3/16 hPa per sample from 1000 hPa)"
say "One reading"
typed lps001wp-read
lps001wp-read > /tmp/once.out 2>&1
rc=$?
cat /tmp/once.out
check_eq "lps001wp-read: one reading, exit 0" "0 1" \
	"$rc $(grep -c '^pressure [0-9]*\.[0-9][0-9] hPa, temperature [0-9]*\.[0-9][0-9] °C, DELTA -*[0-9]*\.[0-9][0-9] hPa (reference [0-9]*\.[0-9][0-9] hPa)$' /tmp/once.out)"

# The event: the pressure 2 hPa above the reference (DELTA = reference -
# pressure below -2 hPa, "falling"), the chip's PH interrupt on INT1. The
# events command prints its line amid the stream's, as it arrives.
say "Live readings through the driver's own trigger lps001wp-dev$devn (INT1 data-ready), 12.5 Hz, and a threshold event"
typed "lps001wp-read events --falling --reference now --threshold 2 -n 1 &"
# tee: the line to the terminal as it comes, and to a file for the check
{ lps001wp-read events --falling --reference now --threshold 2 -n 1 2> /tmp/ev.err; echo $? > /tmp/ev.rc; } |
	tee /tmp/ev.out &
EVENTS_PID=$!
wait_for 10 grep -q 'waiting for' /tmp/ev.err
cat /tmp/ev.err
typed lps001wp-read stream -n "$SCANS"
{ lps001wp-read stream -n "$SCANS" 2>&1; echo $? > /tmp/stream.rc; } | tee /tmp/stream.out
rc=$(cat /tmp/stream.rc)
wait "$EVENTS_PID"
got=$(grep -c "^$TIME_RE  *[0-9]*\.[0-9][0-9] hPa  *[0-9-]*\.[0-9][0-9] °C  DELTA  *[0-9-]*\.[0-9][0-9] hPa$" /tmp/stream.out)
check_eq "lps001wp-read stream -n $SCANS: $SCANS readings, exit 0" "0 $SCANS" "$rc $got"
rising=$(awk '$3 == "hPa" { if (n++ && $2 > p) r++; p = $2 } END { print r + 1 }' /tmp/stream.out)
note "$rising of $got readings above the one before"
check_true "each reading above the one before (the simulated ramp)" test "$got" -ge 2 -a "$rising" = "$got"
check_eq "lps001wp-read events: one falling event, 2 hPa above the reference, exit 0" "0 1" \
	"$(cat /tmp/ev.rc) $(grep -c "^$TIME_RE  falling  DELTA < -2\.00 hPa: the pressure above [0-9]*\.[0-9][0-9] hPa$" /tmp/ev.out)"
echo "  (in_pressure1 is DELTA = reference - pressure: it fell below -2 hPa as the"
echo "   pressure rose 2 hPa above the reference; the chip's PH interrupt on INT1)"

echo "$A" > "$SIM"/delete_device
wait_for 5 rmmod lps001wp
rmmod lps001wp_sim
say "Demo done: that was the driver on a simulated LPS001WP, on Debian's own kernel $(uname -r)."
