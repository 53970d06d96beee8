# shellcheck shell=sh
# bench.mode=iiod, the guest half of tests/iiod.sh: the driver on the
# simulated chip at 0x5c with INT1 wired, served by iiod on the e1000 NIC
# (QEMU user networking; the host reaches it on 127.0.0.1 only). Reports
# "# IIOD-READY" on $RESULTS once iiod listens, then waits on ttyS2 (a FIFO
# on the host) for the host's "done", checks what the host left behind and
# cleans up. Run like a suite (lib.sh sourced, SUITE=iiod-guest); the
# runner (init) then adds "# BENCH-DONE" and powers off.

# listening: iiod's port 30431 (0x76DF) in LISTEN (0A), IPv4 or IPv6
listening() {
	awk '$2 ~ /:76DF$/ && $4 == "0A" { found = 1 } END { exit !found }' \
		/proc/net/tcp /proc/net/tcp6 2>/dev/null
}

plan 13
load_modules -c
# The host checks every scan against this ramp: +3 pressure LSB and +1
# temperature LSB per sample.
echo "ramp 16000 3 1600 1" > "$SIM/5c/stimulus"
check_eq "simulated LPS001WP at 0x5c with INT1" 0 "$(write_errno "$SIM/new_device" "0x5c irq=rising")"
D=$(iio_dev lps001wp)
check_true "IIO device lps001wp" test -n "$D"

ip link set lo up
check_true "eth0 at 10.0.2.15/24, default route via 10.0.2.2" sh -c \
	'ip addr add 10.0.2.15/24 dev eth0 && ip link set eth0 up && ip route add default via 10.0.2.2'
iiod > /tmp/iiod.log 2>&1 &
iiod_pid=$!
# ttyS2 open before the host hears "ready": a closed port drops what
# arrives. The host writes one line when it is done; a killer ends the wait
# should it never come (QEMU's own time limit is longer).
stty -F /dev/ttyS2 raw -echo 2>/dev/null
head -n 1 /dev/ttyS2 > /tmp/host.msg &
reader=$!
(sleep 400; kill "$reader" 2>/dev/null) &
killer=$!
if wait_for 60 listening; then
	pass "iiod listens on port 30431"
	echo "# IIOD-READY ${D##*/}" >> "$RESULTS"
else
	fail "iiod listens on port 30431" "$(head -c 300 /tmp/iiod.log)"
fi

wait "$reader"
kill "$killer" 2>/dev/null
check_eq "the host's end-of-test line on ttyS2" "done" "$(tr -d '\r' < /tmp/host.msg)"

# What the host left through iiod: its last sampling_frequency write, and
# no buffer left running once iio_readdev disconnected.
check_eq "sampling_frequency as the host last wrote it (iio_attr -u)" 7.000000 \
	"$(cat "$D/sampling_frequency" 2>&1)"
check_eq "buffer disabled after the remote stream" 0 "$(cat "$D/buffer/enable" 2>&1)"
check_true "iiod still running at the end" kill -0 "$iiod_pid"

# SIGTERM, and SIGKILL 10 s later should iiod not exit (wait would block)
kill "$iiod_pid" 2>/dev/null
(sleep 10; kill -9 "$iiod_pid" 2>/dev/null) &
killer=$!
wait "$iiod_pid"
kill "$killer" 2>/dev/null
echo > "$D/trigger/current_trigger"
check_eq "delete the simulated device" 0 "$(write_errno "$SIM/delete_device" 0x5c)"
check_true "rmmod lps001wp" rmmod lps001wp
check_true "rmmod lps001wp_sim" rmmod lps001wp_sim
