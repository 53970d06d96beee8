# shellcheck shell=sh
# KUnit: the driver's suite (compiled in by the bench build) and the
# simulator's run when their modules load; debugfs keeps each suite's KTAP
# results while the module is loaded. Every case is one test here; a skipped
# case counts as a failure.

check_true "modprobe lps001wp" modprobe lps001wp
check_true "modprobe lps001wp_sim" modprobe lps001wp_sim

# the plan: these four checks, and per KUnit suite the cases its KTAP
# header announces ("    1..N") and the suite's own result
n=4
for d in /sys/kernel/debug/kunit/*/; do
	[ -f "$d/results" ] || continue
	c=$(sed -n 's/^    1\.\.\([0-9]*\)$/\1/p' "$d/results" | head -n 1)
	n=$(( n + ${c:-0} + 1 ))
done
plan "$n"

suites=0
for d in /sys/kernel/debug/kunit/*/; do
	[ -f "$d/results" ] || continue
	suite=$(basename "$d")
	suites=$((suites + 1))
	cases=0
	while IFS= read -r line; do
		case "$line" in
		"    ok "*|"    not ok "*)
			cases=$((cases + 1))
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
	[ "$cases" -gt 0 ] || fail "$suite has test cases" "no case lines in results"
	sed 's/^/# /' "$d/results"
done

check_true "the driver's KUnit suite ran" test -f /sys/kernel/debug/kunit/lps001wp/results
check_true "the simulator's KUnit suite ran (2 suites or more)" test "$suites" -ge 2

rmmod lps001wp
rmmod lps001wp_sim
