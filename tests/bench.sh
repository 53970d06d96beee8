#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: this driver side by side with mainline st_pressure on the same
# simulated chip, and st_pressure with the patch series of upstream/st_pressure
# applied (tests/upstream.sh --build; with the runtime PM RFC on a kernel it
# applies to, 7.2 or later), in one boot of the 6.1 test kernel, or of
# BENCH_KERNEL's (kmemleak off). Reports numbers; it passes or fails on nothing but the
# bench itself running.
#
#   BENCH_STREAM=60 BENCH_POWER=60 bash tests/bench.sh
#   BENCH_OWN_STREAM=600 bash tests/bench.sh    # the own trigger for 10 minutes
#   BENCH_KERNEL=7.3 bash tests/bench.sh        # another test kernel: the RFC too
#
# BENCH_STREAM: seconds of each counted stream (default 60); BENCH_OWN_STREAM:
# of the stream on the own trigger alone (default BENCH_STREAM); BENCH_POWER:
# of the sparse-read power window (default 60).
#
# Writes build/bench/{results.log,bench.csv,bench.png} and prints the table.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
build=${BENCH_BUILD:-$root/build}
out=$build/bench
stream=${BENCH_STREAM:-60}
own_stream=${BENCH_OWN_STREAM:-$stream}
power=${BENCH_POWER:-60}
for v in "$stream" "$own_stream" "$power"; do
	case $v in ''|*[!0-9]*) echo "bench: durations are whole seconds, not '$v'" >&2; exit 2 ;; esac
done
mkdir -p "$out"

bash "$root/tests/deps.sh"
command -v gnuplot > /dev/null || {
	echo "bench: installing gnuplot-nox" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gnuplot-nox >&2
}
kdir=$(bash "$root/tests/kernel/build.sh" "${BENCH_KERNEL:-6.1}")
kver=$(make -s -C "$kdir" kernelrelease)

mods=$out/modules
make_modules "$kdir" "$mods" || {
	echo "bench: the build failed; the end of $mods/build.log:" >&2
	tail -n 30 "$mods/build.log" >&2
	exit 1
}
modroot_for "$kdir" "$out/modroot"
rm -rf "$out/files"
mkdir -p "$out/files"
gcc -O2 -Wall -Wextra -Werror -static -o "$out/files/readlat" "$root/tests/tools/readlat.c"
# the third column: st_sensors and st_pressure from this kernel's sources
# with the series applied, loaded in the guest from /tests/st-series
bash "$root/tests/upstream.sh" --build "$kdir" "$out/series"
cp -a "$out/series/guest-files/st-series" "$out/files/"
BENCH_EXTRA_FILES=$out/files bash "$root/tests/initramfs.sh" "$out/initramfs.cpio.gz" "$out/modroot" "$kver" \
	"$mods/lps001wp.ko" "$mods/tests/sim/lps001wp_sim.ko"

# guest time: ours streams on its own trigger and an hrtimer, st_pressure
# with and without the series on an hrtimer; all three have a power window;
# the rest (reads, boot) is under 10 min
guest_s=$(( own_stream + 3 * stream + 3 * power ))
echo "bench: booting (about $(( 2 * guest_s / 60 + 3 )) min)" >&2
rm -f "$out/console.log" "$out/results.log"
bash "$root/tests/qemu.sh" "$kdir/arch/x86/boot/bzImage" "$out/initramfs.cpio.gz" \
	$(( 2 * guest_s + 600 )) "$out/console.log" "$out/results.log" \
	bench.mode=bench kmemleak=off "bench.stream=$stream" "bench.own_stream=$own_stream" "bench.power=$power"
tr -d '\r' < "$out/results.log" | grep '^BENCH ' | cut -d' ' -f2- > "$out/raw.txt"
grep -q '^series power ' "$out/raw.txt" || { echo "bench: the guest did not finish; see $out/console.log" >&2; exit 1; }

# CSV: driver,metric,values... (one row per measurement)
sed 's/ /,/g' "$out/raw.txt" > "$out/bench.csv"

awk -v stream="$stream" -v power="$power" '
function median(s,   n, a, i, j, t) {
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	if (n == 0) return "-"
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function minmax(s,   n, a, i, lo, hi) {
	n = split(s, a, " "); lo = a[1]; hi = a[1]
	for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
	return sprintf("%.1f-%.1f", lo / 1000, hi / 1000)
}
function add(k, v) { val[k] = (k in val) ? val[k] " " v : v }
$2 == "cold" { add($1 ".cold", $3); add($1 ".cold_tr", $6); add($1 ".cold_by", $7) }
$2 == "warm" { add($1 ".warm", $3); if ($5 != "-") add($1 ".warm_age", $5); if (pw[$1] != "" && $4 == pw[$1]) dupw[$1]++; pw[$1] = $4 }
$2 == "b2b" { add($1 ".b2b", $3); if (pb[$1] != "" && $4 == pb[$1]) dupb[$1]++; pb[$1] = $4 }
$2 == "warm_bus" { wtr[$1] = $3 / $5; wby[$1] = $4 / $5 }
$2 == "b2b_bus" { btr[$1] = $3 / $5 }
$2 == "stream_own" { osec = $3; own[$1] = $5 " / " $6 " / " $7; otr[$1] = $4 ? $8 / $4 : 0; oby[$1] = $4 ? $9 / $4 : 0 }
$2 == "stream_hrtimer" { hrt[$1] = $5 " / " $6 " / " $7 }
$2 == "power" { pwr[$1] = $4 / ($3 * 10) }
# each row: ours, st_pressure, st_pressure + series (a figure of one
# driver, by the name the guest gives it)
function row(name, o, p, s, lim, ratio) {
	if (ratio == "") ratio = (o + 0 > 0 && p + 0 > 0) ? sprintf("%.2f", o / p) : "-"
	printf "| %s | %s | %s | %s | %s | %s |\n", name, o, p, s, ratio, lim
}
function cold(d) { return sprintf("%.1f (%s)", median(val[d ".cold"]) / 1000, minmax(val[d ".cold"])) }
function warm(d) { return sprintf("%.1f (%s)", median(val[d ".warm"]) / 1000, minmax(val[d ".warm"])) }
function age(d) { return median(val[d ".warm_age"]) " / " dupw[d] + 0 }
function b2b(d) { return sprintf("%.1f / %d", median(val[d ".b2b"]) / 1000, dupb[d]) }
function coldtr(d) { return median(val[d ".cold_tr"]) " (" median(val[d ".cold_by"]) " bytes)" }
function warmtr(d) { return sprintf("%.2f (%.1f bytes)", wtr[d], wby[d]) }
function pshare(d) { return sprintf("%.1f %%", pwr[d]) }
END {
	co = median(val["ours.cold"]) / 1000; cp = median(val["peer.cold"]) / 1000
	if (osec == "") osec = stream
	print "| Metric | ours | st_pressure | st_pressure + series | ours/peer | limit |"
	print "|---|---|---|---|---|---|"
	row("cold one-shot read, median ms (range)", cold("ours"), cold("peer"), cold("series"), "176 (1.1 x two periods: the first sample after power-up is dropped)", sprintf("%.3f", co / cp))
	row("warm read, >= one period apart, median ms", warm("ours"), warm("peer"), warm("series"), "one transfer when a sample waits", "")
	row("warm read: sample age (periods, median) / repeats", age("ours"), age("peer"), age("series"), "<= 1 / 0", "-")
	row("back-to-back read, median ms / repeats", b2b("ours"), b2b("peer"), b2b("series"), "one period / 0", "-")
	row("bus transfers per cold read (incl. power-down)", coldtr("ours"), coldtr("peer"), coldtr("series"), "3", "")
	row("bus transfers per warm read", warmtr("ours"), warmtr("peer"), warmtr("series"), "1", "")
	row("transfers per sample, own data-ready trigger", sprintf("%.2f (%.1f bytes)", otr["ours"], oby["ours"]), "no trigger", "no trigger", "1", "-")
	row(osec " s stream, own trigger: fresh / duplicated / missed", own["ours"], "no trigger", "no trigger", osec * 12.5 " / 0 / 0", "-")
	row(stream " s stream, hrtimer 12.5 Hz: fresh / duplicated / missed", hrt["ours"], hrt["peer"], hrt["series"], stream * 12.5 " / 0 / 0", "-")
	row("chip powered, one read every 10 s for " power " s", pshare("ours"), pshare("peer"), pshare("series"), "~0.8 % (one period per read)", "")
}' "$out/raw.txt" > "$out/table.md"

# Plot: latency distributions (per read) and the power timelines.
awk '$2 == "cold" || $2 == "warm" || $2 == "b2b" { print $1, $2, $3 / 1000 }' "$out/raw.txt" > "$out/lat.dat"
awk '$2 == "power_tl" { print $3, $4 > "'"$out"'/power-" $1 ".dat" }' "$out/raw.txt"
gnuplot <<GP
set terminal pngcairo size 1000,700 font ",10" noenhanced
set output "$out/bench.png"
set multiplot layout 2,1 title "make bench: lps001wp vs st_pressure (and with the series) on the simulated chip (TCG, debug kernel: absolute times are emulated; ratios and bus counts carry over)"
set title "one-shot read latency (each point one read)"
set ylabel "ms"
set logscale y
set xtics ("ours cold" 0, "ours warm" 1, "ours b2b" 2, "peer cold" 3, "peer warm" 4, "peer b2b" 5, "series cold" 6, "series warm" 7, "series b2b" 8)
set xrange [-0.5:8.5]
plot "$out/lat.dat" using ((strcol(1) eq "peer" ? 3 : strcol(1) eq "series" ? 6 : 0) + (strcol(2) eq "cold" ? 0 : strcol(2) eq "warm" ? 1 : 2) + (rand(0) - 0.5) * 0.3):3 with points pt 7 ps 0.6 notitle
unset logscale y
set title "chip powered (CTRL_REG1 PD), one read every 10 s"
set xtics auto
set xrange [*:*]
set xlabel "s"
set ylabel "powered"
set yrange [-0.1:3.4]
set ytics ("off" 0, "on" 1)
plot "$out/power-ours.dat" using 1:(\$2 + 2.2) with steps title "ours (offset 2.2)", "$out/power-series.dat" using 1:(\$2 + 1.1) with steps title "st_pressure + series (offset 1.1)", "$out/power-peer.dat" using 1:2 with steps title "st_pressure"
unset multiplot
GP

{
	echo "make bench ($(grep '^kernel ' "$out/raw.txt" | cut -d' ' -f2), TCG, KASAN/lockdep debug kernel:"
	echo "absolute times are from an emulated CPU; the ratios and bus counts are what carry over;"
	echo "st_pressure + series: $(cat "$out/series/guest-files/st-series/what") applied)"
	echo
	cat "$out/table.md"
	echo
	echo "raw figures: $out/bench.csv; plot: $out/bench.png"
}
