# shellcheck shell=sh
# make bench, inside the guest: this driver and mainline st_pressure, one at
# a time, on the same simulated chip at 0x5c. Prints raw figures as
#   BENCH <driver> <metric> <value...>
# to $RESULTS; tests/bench.sh turns them into the table, CSV and plot.
# Durations: bench.stream=<s> (default 60), bench.own_stream=<s> (the own
# trigger's stream, default bench.stream), bench.power=<s> (default 60).

A=0x5c
P0=16000
STREAM_S=$(sed -n 's/.*bench\.stream=\([0-9]*\).*/\1/p' /proc/cmdline)
STREAM_S=${STREAM_S:-60}
OWN_STREAM_S=$(sed -n 's/.*bench\.own_stream=\([0-9]*\).*/\1/p' /proc/cmdline)
OWN_STREAM_S=${OWN_STREAM_S:-$STREAM_S}
POWER_S=$(sed -n 's/.*bench\.power=\([0-9]*\).*/\1/p' /proc/cmdline)
POWER_S=${POWER_S:-60}
COLD_RUNS=5
WARM_RUNS=10

out() { echo "BENCH $*" >> "$RESULTS"; }

# restart_counting: the stimulus and the counters start together, so the
# newest sample's pressure is P0 + counter(samples) (the counter stimulus
# gives P = P0 + n).
restart_counting() {
	echo "counter $P0 1600" > "$SIM/5c/stimulus"
	echo 0 > "$SIM/5c/counters"
}

# read_counted N GAP_MS: N timed reads of in_pressure_raw; per read
# "lat_us value age" where age = samples between the read's value and the
# newest sample right after it (0: the newest).
read_counted() {
	/tests/readlat "$D/in_pressure_raw" "$1" "$2" "$SIM/5c/counters" samples | while read -r lat val n; do
		case $val in ERR*) echo "$lat $val -" ;; *) echo "$lat $val $(( P0 + n - val ))" ;; esac
	done
}

# stream_counted SECONDS: pressure-only scans from the buffer for SECONDS;
# prints "scans fresh dup missed" judged from the counter stimulus.
stream_counted() {
	timeout "$1" dd if="/dev/${D##*/}" bs=2 2>/dev/null | od -An -v -tu2 -w2 |
		awk 'NR == 1 { p = $1; n = 1; next }
		     { n++; d = $1 - p; if (d == 1) f++; else if (d == 0) u++; else if (d > 1) m += d - 1; p = $1 }
		     END { printf "%d %d %d %d\n", n, f + (n > 0), u, m }'
}

bench_driver() {
	drv=$1
	echo "=== bench: $drv"
	case $drv in
	ours)
		load_modules
		new_client irq=rising
		echo 12.5 > "$D/sampling_frequency"
		;;
	peer)
		load_modules st_pressure_i2c
		new_client
		;;
	esac
	if [ -z "$D" ]; then
		out "$drv error no_device"
		return
	fi
	out "$drv driver $(basename "$(readlink -f "$D/../driver")")"
	out "$drv ctrl_reg1_idle $(regval 5c 0x20)"

	# ---- cold reads: chip powered down before each ----
	i=0
	while [ "$i" -lt "$COLD_RUNS" ]; do
		wait_for 10 powered_down
		restart_counting
		# shellcheck disable=SC2046 # split into the fields on purpose
		set -- $(read_counted 1 0)
		wait_for 10 powered_down
		out "$drv cold $1 $2 $3 $(counter 5c transfers) $(counter 5c bytes)"
		i=$(( i + 1 ))
	done

	# ---- warm reads: chip running, one period or more apart ----
	/tests/readlat "$D/in_pressure_raw" 1 0 > /dev/null
	# the first counted read too: the warm-up read took the waiting sample
	sleep 0.1
	restart_counting
	read_counted "$WARM_RUNS" 100 | while read -r lat val age; do
		out "$drv warm $lat $val $age"
	done
	out "$drv warm_bus $(counter 5c transfers) $(counter 5c bytes) $WARM_RUNS"

	# ---- back-to-back reads, faster than the rate ----
	restart_counting
	read_counted "$WARM_RUNS" 0 | while read -r lat val age; do
		out "$drv b2b $lat $val $age"
	done
	out "$drv b2b_bus $(counter 5c transfers) $(counter 5c bytes) $WARM_RUNS"

	# ---- streams: own data-ready trigger (ours only), hrtimer at 12.5 Hz ----
	echo 128 > "$D/buffer/length"
	for f in "$D"/scan_elements/*_en; do echo 0 > "$f"; done
	echo 1 > "$D/scan_elements/in_pressure_en"
	if [ "$drv" = ours ]; then
		echo "lps001wp-dev${D##*iio:device}" > "$D/trigger/current_trigger"
		echo 1 > "$D/buffer/enable"
		restart_counting
		# shellcheck disable=SC2046 # split into the fields on purpose
		set -- $(stream_counted "$OWN_STREAM_S")
		out "$drv stream_own $OWN_STREAM_S $* $(counter 5c transfers) $(counter 5c bytes) $(counter 5c samples)"
		echo 0 > "$D/buffer/enable"
	fi
	[ -d /sys/kernel/config/iio/triggers/hrtimer/bench ] || mkdir /sys/kernel/config/iio/triggers/hrtimer/bench
	T=$(iio_trigger bench)
	echo 12.5 > "$T/sampling_frequency"
	echo bench > "$D/trigger/current_trigger"
	echo 1 > "$D/buffer/enable"
	restart_counting
	# shellcheck disable=SC2046 # split into the fields on purpose
	set -- $(stream_counted "$STREAM_S")
	out "$drv stream_hrtimer $STREAM_S $* $(counter 5c transfers) $(counter 5c bytes) $(counter 5c samples)"
	echo 0 > "$D/buffer/enable"
	echo > "$D/trigger/current_trigger"

	# ---- sparse reads: one every 10 s; the chip's powered time ----
	wait_for 10 powered_down
	(
		while :; do
			on=0
			powered_down || on=1
			echo "$(cut -d' ' -f1 /proc/uptime) $on"
			sleep 0.05
		done
	) > /tmp/power.tl &
	tl=$!
	echo 0 > "$SIM/5c/counters"
	t=0
	while [ "$t" -lt "$POWER_S" ]; do
		/tests/readlat "$D/in_pressure_raw" 1 0 > /dev/null
		sleep 10
		t=$(( t + 10 ))
	done
	out "$drv power $POWER_S $(counter 5c powered_ms) $(counter 5c power_ups)"
	kill "$tl"
	wait "$tl" 2>/dev/null
	awk -v d="$drv" 'NR == 1 { t0 = $1 } { printf "BENCH %s power_tl %.2f %d\n", d, $1 - t0, $2 }' /tmp/power.tl >> "$RESULTS"

	echo "$A" > "$SIM/delete_device"
	case $drv in
	ours) rmmod lps001wp ;;
	peer) rmmod st_pressure_i2c st_pressure st_sensors_i2c st_sensors 2>/dev/null ;;
	esac
	rmmod lps001wp_sim
}

out "kernel $(uname -r)"
bench_driver ours
bench_driver peer
