# shellcheck shell=bash
# Helpers for the host scripts (sourced after setting root, the work tree):
# TAP lines and building the driver.
: "${root:?hostlib.sh needs root, the work tree}"

# tap_result WHAT STATUS [WHY]: one TAP line for a step that exited STATUS.
tap_result() {
	if [ "$2" = 0 ]; then echo "ok - $1"; else echo "not ok - $1 # ${3:-}"; fi
}

# plan PREFIX N: the stage part whose TAP lines are named "PREFIX: ..."
# runs N checks; check.sh's run_stage fails the stage when it ran another
# number (as guest suites declare theirs). N may be computed, never from
# what the checks find.
plan() {
	echo "# plan $1 $2"
}

# tag SERIES COMMAND...: run COMMAND, naming the kernel series in its TAP
# lines and plans ("ok - dkms: ..." becomes "ok - dkms-6.12: ...").
tag() {
	local series=$1
	shift
	"$@" | sed -E "s/^(ok|not ok) - ([a-z0-9]+):/\1 - \2-$series:/; s/^# plan ([a-z0-9]+) /# plan \1-$series /"
	return "${PIPESTATUS[0]}"
}

# copy_driver DIR [kunit] [sim]: the driver's build inputs into DIR (created),
# optionally with the KUnit tests and the simulator. Files keep their times,
# so an unchanged file is not rebuilt in a DIR that is kept.
copy_driver() {
	local dir=$1 what
	shift
	mkdir -p "$dir/tests"
	cp -p "$root"/lps001wp.c "$root"/lps001wp.h "$root"/Kbuild "$root"/Kconfig "$root"/dkms.conf "$dir/"
	for what in "$@"; do
		mkdir -p "$dir/tests/$what"
		cp -p "$root/tests/$what"/* "$dir/tests/$what/"
	done
}

# make_modules KDIR OUT [make args]: the driver and the simulator built
# against KDIR in OUT, a scratch copy, so the work tree stays clean; the
# compiler's output in OUT/build.log, ending with the first error.
# BENCH_INCREMENTAL=1 keeps OUT, so only what changed is rebuilt.
make_modules() {
	local kdir=$1 out=$2
	shift 2
	[ "${BENCH_INCREMENTAL:-0}" = 1 ] || rm -rf "$out"
	copy_driver "$out" kunit sim
	make -C "$kdir" M="$out" "$@" modules > "$out/build.log" 2>&1 &&
		make -C "$kdir" M="$out/tests/sim" "$@" modules >> "$out/build.log" 2>&1
}

# build_modules KDIR OUT [make args]: make_modules as make check builds for
# its guests: W=1, and any warning fails (a TAP line).
build_modules() {
	local kdir=$1 out=$2 rc=0
	shift 2
	make_modules "$kdir" "$out" W=1 "$@" || rc=1
	if grep -q 'warning:' "$out/build.log"; then
		grep -B2 -A4 'warning:' "$out/build.log" >&2
		rc=1
	fi
	[ "$rc" = 0 ] || tail -n 30 "$out/build.log" >&2
	tap_result "build: modules against the test kernel with W=1, no warnings" "$rc" "$(basename "$kdir"): see $out/build.log"
	return "$rc"
}

# build_alt KDIR OUT SWITCH=VALUE: the driver (with KUnit) built with one
# of lps001wp.h's LPS001WP_ASSUME_* switches flipped, built in
# OUT/alt-SWITCH and copied to OUT/guest-files/alt-SWITCH.ko for the guest
# suite 86-switches. Same W=1 rule as build_modules.
build_alt() {
	local kdir=$1 out=$2 sw=$3 dir rc=0
	dir=$out/alt-${sw%%=*}
	rm -rf "$dir"
	copy_driver "$dir" kunit
	make -C "$kdir" M="$dir" W=1 LPS001WP_KUNIT=1 LPS001WP_ASSUME="$sw" modules > "$dir/build.log" 2>&1 || rc=1
	if grep -q 'warning:' "$dir/build.log"; then
		grep -B2 -A4 'warning:' "$dir/build.log" >&2
		rc=1
	fi
	[ "$rc" = 0 ] && cp "$dir/lps001wp.ko" "$out/guest-files/alt-${sw%%=*}.ko" || rc=1
	tap_result "build: driver with LPS001WP_ASSUME_$sw against the test kernel, W=1, no warnings" "$rc" "$(basename "$kdir"): see $dir/build.log"
	return "$rc"
}

# modroot_for KDIR DIR: the kernel's modules_install into DIR, redone only
# when DIR was installed from another tree.
modroot_for() {
	local kdir=$1 dir=$2
	[ "$(cat "$dir/.from" 2>/dev/null)" = "$kdir" ] && return 0
	rm -rf "$dir"
	make -s -C "$kdir" INSTALL_MOD_PATH="$dir" modules_install > /dev/null || return 1
	echo "$kdir" > "$dir/.from"
}
