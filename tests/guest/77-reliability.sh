# shellcheck shell=sh
# Reliability (issue 8): bounded, counted runs of what a noisy bus and
# hostile user space do to the driver (the failing allocator: 76-failnth).
# Each check carries its figures after its '#'. kmemleak is scanned by the
# runner after all suites.

plan 19

A=0x5c
load_modules

# ---- malformed writes: refused, value unchanged ----
new_client irq=rising
E=$D/events
DBG=/sys/kernel/debug/iio/${D##*/}/direct_reg_access
echo 12.5 > "$D/sampling_frequency"
echo 1234 > "$D/in_pressure1_reference_raw"
echo 300 > "$E/in_pressure1_thresh_either_value"
total=0
bad_errno=0
changed=0
where=""
# snap WHAT...: STATE = for each WHAT, a file's line or, for "regs", the
# chip's configuration registers from one read of the simulator's dump.
# Builtins only: try takes two per write, over a hundred writes.
snap() {
	STATE=
	for sn_w in "$@"; do
		if [ "$sn_w" = regs ]; then
			while read -r sn_r sn_v; do
				case $sn_r in 0x20 | 0x22 | 0x3[0-4]) STATE="$STATE $sn_v" ;; esac
			done < "$SIM/5c/regs"
		else
			sn_l=
			read -r sn_l < "$sn_w"
			STATE="$STATE $sn_l"
		fi
	done
}
# try FILE EXPECTED_ERRNOS WHAT VALUE...: each VALUE must fail with one of
# EXPECTED_ERRNOS (a |-list) and leave snap WHAT (a list) unchanged.
try() {
	file=$1 expect=$2 state=$3
	shift 3
	for v in "$@"; do
		# shellcheck disable=SC2086 # $state: files and "regs", one word each
		snap $state
		before=$STATE
		write_errno "$file" "$v" > /dev/null
		e=$WERR
		case "$e" in ERR:*"out of range"*) e=ERANGE ;; esac
		# shellcheck disable=SC2086 # $state: files and "regs", one word each
		snap $state
		after=$STATE
		total=$((total + 1))
		case "|$expect|" in
		*"|$e|"*) ;;
		*) bad_errno=$((bad_errno + 1)); where="$where ${file##*/}='$v':$e" ;;
		esac
		if [ "$before" != "$after" ]; then
			changed=$((changed + 1))
			where="$where ${file##*/}='$v':changed"
		fi
	done
}
# Not numbers, or numbers out of range, for the integer attributes
NUMS='"" - + . -. +. "--1" "+-1" 1- 1+ "1 2" " 1" "1\t" 1x x1 abc 0x10 1e3 1.5 1,5 1..0 nan inf 65536 -1 99999999999999999999 4294967296 4294967396 -4294967296'
# The reference is parsed by the driver (kstrtou16): ERANGE out of range
eval "try \"$D/in_pressure1_reference_raw\" \"EINVAL|ERANGE\" \"$D/in_pressure1_reference_raw regs\" $NUMS"
# The threshold goes through the IIO core's parser, which takes "", "-",
# "+" and "." as 0 and wraps at 32 bits (README): not tried
EV='"--1" "+-1" 1- 1+ "1 2" " 1" "1\t" 1x x1 abc 0x10 1e3 1.5 1,5 1..0 nan inf 65536 -1 -0.5 -65536'
eval "try \"$E/in_pressure1_thresh_either_value\" EINVAL \"$E/in_pressure1_thresh_either_value regs\" $EV"
try "$D/sampling_frequency" EINVAL "$D/sampling_frequency regs" \
	"" - + . -. x 7x 12.5.5 "12 5" 1e1 7,0 -7 -12.5 0 1 6.999999 12.4 13 100 12.50001 --7
for dir in rising falling; do
	try "$E/in_pressure1_thresh_${dir}_en" EINVAL "$E/in_pressure1_thresh_${dir}_en regs" \
		"" x abc 2 -1 " 1" 9 . - + z
done
try "$DBG" EINVAL regs \
	"" x "0x20 0x100" "0x20 -1" "0x30 0x1ff" "0x34 256" "0x27 1" "0x0f 0" "0x40 0" "0x21 0x1ff" "-1 0" "0x100 0"
try "$D/buffer/length" "EINVAL|ERANGE" "$D/buffer/length" \
	"" x -1 1x 99999999999999999999 1.5
try "$D/scan_elements/in_pressure_en" EINVAL "$D/scan_elements/in_pressure_en" \
	"" x 2 abc -
note "$total writes, $bad_errno bad errnos, $changed changed$where"
check_true "malformed writes over 8 attributes: refused with a sane errno and nothing changed" \
	test "$bad_errno" = 0 -a "$changed" = 0 -a "$total" -ge 110

# ---- bus faults while reading ----
# Every read is right or an error, never a wrong value; under each fault
# pattern the fault hits (its fired count) and some reads are right (the
# driver recovers from each). Rounds of 3 reads go on until the pattern
# has fired twice, 3 rounds at least and 20 at most: a sparse pattern
# (every 29th transfer) needs more reads than a dense one.
wrong=0 errs=0 reads=0
echo "const 16212 1600" > "$SIM"/5c/stimulus
for f in "eio_every 5" "nak_every 13" "eio_every 29"; do
	ok=0 err=0
	echo "$f" > "$SIM"/5c/fault
	i=0
	while [ $i -lt 3 ] || { [ $i -lt 20 ] && ! fault_fired 5c 2; }; do
		for c in in_pressure_raw:16212 in_temp_raw:1600 in_pressure1_raw:-14978; do
			v=$(read_errno "$D/${c%%:*}")
			case "$v" in
			"${c#*:}") ok=$((ok + 1)) ;;
			ERR:*) err=$((err + 1)) ;;
			*) wrong=$((wrong + 1)) ;;
			esac
		done
		i=$((i + 1))
	done
	reads=$((reads + 3 * i))
	errs=$((errs + err))
	field "$SIM"/5c/fault fired
	note "$ok right, $err errors, fired $FIELD times in $((3 * i)) reads"
	check_true "one-shot reads under '$f': the fault hits, some reads right" \
		test "$ok" -ge 1 -a "$FIELD" -ge 2
done
echo clear > "$SIM"/5c/fault
note "$wrong wrong, $errs errors in $reads reads"
check_true "one-shot reads under faults: no wrong value, some errors" test "$wrong" = 0 -a "$errs" -ge 1
check_eq "reads right once faults stop" 16212 "$(cat "$D/in_pressure_raw")"

# ---- bus faults while streaming (own trigger, hrtimer) ----
# stream TRIGGER LABEL [NEW]: counter stimulus at 12.5 Hz, three fault
# patterns, then clear; scans must be whole samples (T = P + 1000), no more
# of them than bursts the bus answered while the faults came (a scan pushed
# after a failed burst is stale), and they must go on. NEW: every scan is a
# new sample (the own trigger: one per data-ready; a faster trigger may
# read a sample twice).
stream() {
	echo "$1" > "$D/trigger/current_trigger"
	echo "counter 1000 0" > "$SIM"/5c/stimulus
	enable_scan pressure temp
	echo 1 > "$D/buffer/enable"
	# a burst in flight at either end may be counted on one side only
	echo 0 > "$SIM"/5c/counters
	read -r q0 < "$D/buffer/data_available"
	# each pattern until it has failed 5 transfers (every one of "eio 5"),
	# then the stream back (one more scan queued) before the next
	missed=
	for f in "eio_every 2" "nak_every 3" "eio 5"; do
		echo "$f" > "$SIM"/5c/fault
		wait_for 10 fault_fired 5c 5 || missed="$missed '$f'"
		echo clear > "$SIM"/5c/fault
		read -r sq < "$D/buffer/data_available"
		wait_for 10 scans_queued $((sq + 1)) || missed="$missed '$f' (no scan after it)"
	done
	counters_snapshot 5c
	read -r q1 < "$D/buffer/data_available"
	answered=$(counter_in read_0x27)
	queued=$((q1 - q0))
	s=$(scans 20 4)
	torn=$(echo "$s" | awk '$1 - $2 != 1000 { n++ } END { print n + 0 }')
	dup_miss "$s"
	[ -n "${3:-}" ] || DUPS=0
	echo 0 > "$SIM"/5c/counters
	wait_for 5 counter_reached 5c read_0x27 5
	after=$(counter 5c read_0x27)
	echo 0 > "$D/buffer/enable"
	note "$(echo "$s" | grep -c .) scans read, $torn torn, $DUPS repeated; $queued scans for $answered answered bursts under faults; ${after:-0} bursts after;${missed:+ short of 5 failures:$missed}"
	check_true "$2: each of 3 fault patterns failed 5 transfers; no torn${3:+ or repeated} scan, none from a failed burst, and the stream goes on" \
		test -z "$missed" -a "$torn" = 0 -a "$DUPS" = 0 -a "$queued" -le $((answered + 2)) -a "${after:-0}" -ge 5
}
echo 12.5 > "$D/sampling_frequency"
N=${D##*iio:device}
stream "lps001wp-dev$N" "own trigger" new
mkdir -p /sys/kernel/config/iio/triggers/hrtimer/lpsrel
echo 25 > "$(iio_trigger lpsrel)/sampling_frequency"
stream lpsrel "hrtimer trigger"
echo "" > "$D/trigger/current_trigger"

# ---- bus faults while enabling and disabling events ----
echo "const 16212 1600" > "$SIM"/5c/stimulus
echo 16212 > "$D/in_pressure1_reference_raw"
echo "eio_every 11" > "$SIM"/5c/fault
fails=0 i=0
while [ $i -lt 20 ]; do
	for dir in rising falling; do
		[ "$(write_errno "$E/in_pressure1_thresh_${dir}_en" $(( (i + 1) % 2 )))" = 0 ] || fails=$((fails + 1))
	done
	i=$((i + 1))
done
hit=no
fault_fired 5c && hit=yes
echo clear > "$SIM"/5c/fault
# Writing the enables again brings the chip in line with them
echo 0 > "$E/in_pressure1_thresh_rising_en"
echo 0 > "$E/in_pressure1_thresh_falling_en"
note "$fails failed"
check_eq "40 event switches under faults (the fault hit), then both off: INT_CFG = LIR" \
	"yes 0x04" "$hit $(regval 5c 0x34)"
check_eq "and INT1 idle" 0x00 "$(regval 5c 0x22)"
check_true "and powered down (runtime PM balanced)" wait_for 5 powered_down
echo 1 > "$E/in_pressure1_thresh_rising_en"
listen rel 4000
echo "const 15812 1600" > "$SIM"/5c/stimulus
expect_event "events work after the faults (DELTA 400 > THS_P 300)" rel "type=pressure channel=1 evtype=thresh dir=rising"
echo "const 16212 1600" > "$SIM"/5c/stimulus
echo 0 > "$E/in_pressure1_thresh_rising_en"

# ---- bus faults across system suspend/resume ----
# Events on: the suspend has a power-down to make and the resume a
# power-up (without a buffer or events it leaves that to the next user), so
# each pattern has transfers to hit. A refused suspend is allowed, all
# three refused is not: then no resume was tried.
echo devices > /sys/power/pm_test
sfail=0 went=0 nohit=
echo 1 > "$E/in_pressure1_thresh_rising_en"
for f in "eio_every 2" "eio 1" "nak_every 3"; do
	cat "$D/in_pressure_raw" > /dev/null
	echo "$f" > "$SIM"/5c/fault
	if echo mem 2>/dev/null > /sys/power/state; then went=$((went + 1)); else sfail=$((sfail + 1)); fi
	fault_fired 5c || nohit="$nohit '$f'"
	echo clear > "$SIM"/5c/fault
done
echo 0 > "$E/in_pressure1_thresh_rising_en"
echo none > /sys/power/pm_test
note "$sfail refused, $went went through;${nohit:+ never fired:$nohit}"
check_true "3 suspend/resume cycles under faults: each fault hit, not every suspend refused" \
	test -z "$nohit" -a "$went" -ge 1
check_eq "3 suspend/resume cycles under faults: DELTA right after" 0 "$(read_errno "$D/in_pressure1_raw")"
check_true "and autosuspend still works" wait_for 5 powered_down

# ---- bind/unbind and buffer cycles ----
i=0
while [ $i -lt 10 ]; do
	echo "$BUS-005c" > /sys/bus/i2c/drivers/lps001wp/unbind
	echo "$BUS-005c" > /sys/bus/i2c/drivers/lps001wp/bind
	i=$((i + 1))
done
D=$(iio_dev lps001wp)
check_eq "10 unbind/bind cycles: reads" 16212 "$(cat "$D/in_pressure_raw")"
enable_scan pressure
i=0
good=0
while [ $i -lt 20 ]; do
	echo 1 > "$D/buffer/enable" && good=$((good + 1))
	echo 0 > "$D/buffer/enable"
	i=$((i + 1))
done
check_eq "20 buffer cycles on the own trigger" 20 "$good"
check_true "and then autosuspend" wait_for 5 powered_down

echo $A > "$SIM"/delete_device
check_true "rmmod lps001wp" rmmod lps001wp
rmmod lps001wp_sim
