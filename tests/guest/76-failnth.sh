# shellcheck shell=sh
# Fail-nth (issue 8): the Nth slab allocation of the write that creates the
# client (the simulator's node, the i2c core's client, the driver's probe)
# fails, for N = FIRST, FIRST + STEP, ... until the write makes fewer than
# N. Every run must unwind (or bind) cleanly and leave the bus usable; KASAN
# and kmemleak (scanned by the runner after all suites) watch. A full sweep
# (STEP=1) takes ~3 min under TCG; each run covers every STEP-th allocation
# from a random FIRST, so successive runs cover them all (a TAP comment
# gives FIRST; FAILNTH_FIRST=FIRST make check (or check-suite) repeats
# a run). With kmemleak on, every other allocation
# is kmemleak's own record of the one before (a failed one falls back to
# its pool, harmlessly): STEP is odd so both kinds get hit.

plan 6
STEP=5
FIRST=${FAILNTH_FIRST:-$(( $(od -An -N2 -tu2 /dev/urandom) % STEP + 1 ))}
echo "# $SUITE: FIRST=$FIRST STEP=$STEP (repeat: FAILNTH_FIRST=$FIRST make check-suite SUITES=$SUITE)" >> "$RESULTS"

A=0x5c
load_modules

bound() {
	test -e /sys/bus/i2c/drivers/lps001wp/"$BUS"-005c
}

# 6.1's irq_insert_desc() ignores a failed radix-tree insert, so a trigger
# whose sub-IRQ descriptors needed a new radix-tree node that could not be
# allocated is later freed through a NULL descriptor (a general protection
# fault in unregister_irq_proc() at delete_device). Not the driver's bug:
# the node the trigger's sub-IRQs land in is made to exist beforehand,
# held by anchor hrtimer triggers (which stay, see 65-errors). Nodes hold
# 16 entries with CONFIG_BASE_SMALL (the test kernels), 64 otherwise: a
# block of 16 with a live IRQ is safe for both.
irqs() { for i in /sys/kernel/irq/*; do echo "${i##*/}"; done | sort -n > "$1"; }
anchors=0
while :; do
	irqs /tmp/irqs.before
	echo "$A irq=rising open-drain" > "$SIM"/new_device
	irqs /tmp/irqs.during
	echo $A > "$SIM"/delete_device
	irqs /tmp/irqs.after
	# new descriptors of the device whose 16-entry block has no other one
	lonely=$(awk 'FILENAME == ARGV[1] { old[$1]; next }
		FILENAME == ARGV[2] { if (!($1 in old)) add[$1]; next }
		{ left[int($1 / 16)] }
		END { for (i in add) if (!(int(i / 16) in left)) print i }' \
		/tmp/irqs.before /tmp/irqs.during /tmp/irqs.after)
	[ -z "$lonely" ] || [ "$anchors" -ge 4 ] && break
	anchors=$((anchors + 1))
	mkdir /sys/kernel/config/iio/triggers/hrtimer/lpsanchor$anchors
done
note "$anchors anchor triggers"
check_eq "sub-IRQs of the trigger share a radix-tree block with a live IRQ" "" "$lonely"
F=/sys/kernel/debug/failslab
echo N > "$F/ignore-gfp-wait"
echo 0 > "$F/verbose"
start=$(date +%s)
r=$(/tests/fail_nth_sweep "$FIRST" "$STEP" 5000 "$SIM"/new_device "$A irq=rising open-drain" \
	"$SIM"/delete_device "$A" /sys/bus/i2c/drivers/lps001wp/"$BUS"-005c)
secs=$(( $(date +%s) - start ))
echo Y > "$F/ignore-gfp-wait"
# swept KEY: a figure of the sweep's one-line report (KEY=VALUE words)
swept() { echo "$r" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
needed=$(( ($(swept allocations) - FIRST) / STEP + 1 ))
note "FIRST=$FIRST STEP=$STEP, ${secs}s: $(swept injected) of $(swept allocations) allocations failed one at a time: $(swept absent) probes failed, $(swept write_failed) new_device writes failed, $(swept present) bound anyway"
# A write's allocation count can vary by one or two between runs (a lazy
# allocation), so a run may inject past the clean run's count: the sweep
# must cover that count, never stop short of it
check_true "fail-nth sweep: every STEP-th allocation failed once, then a clean run" \
	test "$(swept allocations)" -ge 50 -a "$(swept injected)" -ge "$needed"
check_true "after the sweep the device is bound" bound
D=$(iio_dev lps001wp)
check_eq "and reads" 16212 "$(cat "$D/in_pressure_raw")"
echo $A > "$SIM"/delete_device
check_true "delete_device after the sweep (client gone, no use-after-free)" \
	sh -c "! test -e /sys/bus/i2c/devices/$BUS-005c"
check_true "rmmod lps001wp" rmmod lps001wp
rmmod lps001wp_sim
