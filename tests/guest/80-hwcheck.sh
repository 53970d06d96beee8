# shellcheck shell=sh
# make hwcheck (tools/lps001wp-hwcheck.sh) against the simulator: the driver
# bound to a simulated chip, the check run in quick mode in the default
# model and in the alternative variants of tests/sim; each fact the report
# names must be the variant's, the driver bound again afterwards and the
# chip's registers as before. Faults: 81-hwcheck-faults.

plan 81
# shellcheck source=tests/guest/lib/hwcheck-lib.sh
. /tests/hwcheck-lib.sh

# ---- the default model: every fact matches the driver's assumption ----
client default
hwcheck default
check_eq "default: exit status" 0 "$rc"
check_true "default: report complete" grep -q '^--- hwcheck end ---$' "$OUT"
expect default who_am_i=0xba!matches autoinc_read=yes!matches autoinc_write=yes!matches \
	dr00=7/1!matches dr01=7/7!matches dr10=7/7!no_assumption dr11=12.5/12.5!matches \
	da_clear=out_h!matches bdu=pair!matches first_sample=valid!no_assumption \
	delta=ref-p!matches ths=strict!matches lir=latch!matches int_ack_clears=yes!matches \
	"lpow=no visible effect" irq_type=edge driver_rebound=yes
check_eq "default: kernel" "$(uname -r)" "$(key kernel)"
check_eq "default: board (DT model)" "LPS001WP test bench" "$(key board)"
check_eq "default: driver version" "$(cat /sys/module/lps001wp/version)" "$(key driver_version)"
check_eq "default: assumptions read from the header" "$HDR" "$(key assumptions_from)"
check_eq "default: no DIFFERS line" 0 "$(grep -c ' DIFFERS ' "$OUT")"
D=$(iio_dev lps001wp)
check_eq "default: the driver reads the chip after hwcheck" 16212 "$(cat "$D/in_pressure_raw" 2>&1)"
sed 's/^/# /' "$OUT"

# ---- every alternative at once: each fact measured on its own ----
alt="dr01=1 dr10=12.5 da_clear=status bdu=block first_sample=garbage delta=p-ref ths=inclusive lir=ignored irq=level drdy=pulse int2=absent"
client "$alt"
hwcheck alternatives
check_eq "alternatives: exit status" 0 "$rc"
expect alternatives who_am_i=0xba!matches dr00=7/1!matches dr01=1/1!DIFFERS \
	dr10=12.5/12.5 dr11=12.5/12.5!matches da_clear=status!DIFFERS bdu=block!DIFFERS \
	first_sample=garbage!no_assumption delta=p-ref!DIFFERS ths=inclusive!DIFFERS \
	lir=ignored!DIFFERS "int_ack_clears=? (no latch)!could_not_tell" irq_type=level \
	"int_pads=?" "drdy=?"
# the expected answers follow the header's switches: with the DELTA one at 0
# the driver assumes P - REF
sed -E 's/^(#define[[:space:]]+LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P[[:space:]]+)1/\10/' "$HDR" > /tmp/nodelta.h
check_eq "expectations: DELTA from the header" "delta ref-p LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P" \
	"$(sh "$HW" -E -H "$HDR" | grep '^delta ')"
check_eq "expectations: DELTA with its switch at 0" "delta p-ref LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P" \
	"$(sh "$HW" -E -H /tmp/nodelta.h | grep '^delta ')"
sed 's/^/# /' "$OUT"

# ---- the rate decision on made-up polls: no timing, so no load can
# change the answer ----
# canned_polls HZ INTERVAL BRACKET N: N observations of polls INTERVAL cs
# apart, each bracket BRACKET cs wide with its transfer 3/4 of the way in,
# of a chip sampling at HZ
canned_polls() {
	awk -v hz="$1" -v per="$2" -v w="$3" -v n="$4" 'BEGIN {
		p = 100 / hz; ph = 0.3 * p
		for (i = 0; i <= n; i++) {
			b = i * per; a = b + w; c = int((b + 0.75 * w - ph) / p + 100)
			if (i) printf "%d:%d:%d:%d:%d ", lb, la, b, a, (c - lc > 2 ? 2 : c - lc)
			lb = b; la = a; lc = c
		}
	}'
}
sed -n '/^likely_rate() {/,/^}/p' "$HW" > /tmp/likely_rate.sh
# shellcheck source=/dev/null
. /tmp/likely_rate.sh
# shellcheck disable=SC2046 # one argument per observation
{
check_eq "rate decision: polls 6 cs apart at 1 Hz" 1 "$(likely_rate $(canned_polls 1 6 4 100))"
check_eq "rate decision: polls 6 cs apart at 7 Hz" 7 "$(likely_rate $(canned_polls 7 6 4 40))"
check_eq "rate decision: polls 6 cs apart at 12.5 Hz" 12.5 "$(likely_rate $(canned_polls 12.5 6 4 40))"
# a loaded machine: every poll 40 cs long and a C=2, which 7 and 12.5 Hz
# explain alike
check_eq "rate decision: polls 45 cs apart at 7 Hz, undecided" - "$(likely_rate $(canned_polls 7 45 40 60))"
check_eq "rate decision: polls 45 cs apart at 12.5 Hz, undecided" - "$(likely_rate $(canned_polls 12.5 45 40 60))"
}

echo $A > "$SIM"/delete_device
echo default > "$SIM"/5c/variant
rmmod lps001wp
rmmod lps001wp_sim
