# shellcheck shell=sh
# KUnit: the driver's suite (compiled in by the bench build) and the
# simulator's run when their modules load; debugfs keeps each suite's KTAP
# results while the module is loaded. Every case is one test here; a skipped
# case counts as a failure. A case line cut off from the bounded log fails
# the case count and leaves the run short of its plan.

# The suites and their case counts, declared here rather than read from
# the KTAP header of the code under test: a case that goes missing, or one
# added without this list, fails (tests/kunit/lps001wp_kunit.c,
# tests/sim/lps001wp_sim_test_*.c).
KUNIT_SUITES="lps001wp:6 lps001wp_sim_glue:9 lps001wp_sim_model:31"

# the plan: the two modprobes, the list of suites, and per suite its case
# count, each case and the suite's own result
n=3
for sc in $KUNIT_SUITES; do
	n=$(( n + ${sc#*:} + 2 ))
done
plan "$n"

check_true "modprobe lps001wp" modprobe lps001wp
check_true "modprobe lps001wp_sim" modprobe lps001wp_sim

found=
for d in /sys/kernel/debug/kunit/*/; do
	[ -f "$d/results" ] && found="${found:+$found }$(basename "$d")"
done
check_eq "KUnit suites with results: the declared ones" \
	"$(for sc in $KUNIT_SUITES; do echo "${sc%%:*}"; done | sort | tr '\n' ' ' | sed 's/ $//')" \
	"$(echo "$found" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')"

for sc in $KUNIT_SUITES; do
	suite=${sc%%:*}
	d=/sys/kernel/debug/kunit/$suite
	if [ ! -f "$d/results" ]; then
		# the declared checks still count: one failure per case
		fail "$suite: ${sc#*:} cases" "no results"
		i=0
		while [ $i -lt "${sc#*:}" ]; do i=$((i + 1)); fail "$suite: case $i" "no results"; done
		fail "$suite: suite result" "no results"
		continue
	fi
	header=$(sed -n 's/^    1\.\.\([0-9]*\)$/\1/p' "$d/results" | head -n 1)
	cases=$(grep -cE '^    (not )?ok ' "$d/results")
	check_eq "$suite: ${sc#*:} cases (KTAP header, case lines)" "${sc#*:} ${sc#*:}" "$header $cases"
	while IFS= read -r line; do
		case "$line" in
		"    ok "*|"    not ok "*)
			name=${line#    }
			name=${name#not }
			name=${name#ok }
			name=${name#* }
			case "$line" in
			*"# SKIP"*) fail "$suite.${name%% *}" "skipped" ;;
			"    ok "*) pass "$suite.$name" ;;
			*) fail "$suite.$name" "see the KTAP log on the console" ;;
			esac
			;;
		esac
		# the suite's own line: the log is bounded, so a case line can
		# be cut off while the verdict survives
		case "$line" in
		"ok "*" $suite") pass "$suite: suite result" ;;
		"not ok "*" $suite") fail "$suite: suite result" "a case failed, see the KTAP log on the console" ;;
		esac
	done < "$d/results"
	sed 's/^/# /' "$d/results"
done

rmmod lps001wp
rmmod lps001wp_sim
