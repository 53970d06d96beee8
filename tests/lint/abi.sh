# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# tests/lint.sh's gate over the driver's ABI file: the kernel's own ABI
# validator. Sourced by lint.sh after its helpers (ok, notok, show,
# lint_src) and its scratch copy ($src, $work, $logs).
# shellcheck disable=SC2154 # set by lint.sh
#
# Documentation/ABI/testing/sysfs-bus-iio-pressure-lps001wp is read the way
# mainline would read it: beside the kernel's own Documentation/ABI, by
# `get_abi.pl validate` of linux-source-6.1 (the lint tree) and
# `get_abi.py validate` of the newest test kernel's series (ABI_SERIES),
# whose parser is a rewrite. A finding is any line the validator prints
# with our file that it does not print without it (7.3's own tree has
# three duplicates of its own); the gate wants none. The typical one is a
# generic IIO attribute (sysfs-bus-iio) defined a second time here.

# The series whose get_abi.py also reads the file: the newest lane's.
ABI_SERIES=${ABI_SERIES:-7.3}

# abi_tree SERIES: a tree with that series' Documentation/ABI and its
# validator, extracted once from linux-source-SERIES into the cache (only
# those parts: the whole tree is not needed).
abi_tree() {
	local series=$1 at_tarball at_ver at_dir at_top
	read -r at_tarball at_ver < <(bash "$root/tests/kernel/source.sh" "$series") || return 1
	at_dir=$cache/abi-src-$series-$at_ver
	if [ ! -f "$at_dir/.extracted" ]; then
		(
			flock 9
			[ -f "$at_dir/.extracted" ] && exit 0
			log "extracting linux-source-$series's ABI files and validator to $at_dir"
			rm -rf "$at_dir.tmp"
			mkdir -p "$at_dir.tmp"
			at_top=linux-source-$series
			# 7.3 keeps get_abi.py in tools/docs and its modules in
			# tools/lib/python; scripts/ is the fallback for a tree
			# that does not. tar fails on the paths a tree lacks: what
			# counts is below.
			tar -xf "$at_tarball" -C "$at_dir.tmp" --strip-components=1 \
				"$at_top/Documentation/ABI" "$at_top/tools/docs/get_abi.py" "$at_top/tools/lib/python" \
				"$at_top/scripts/get_abi.py" "$at_top/scripts/lib" 2>/dev/null || true
			[ -d "$at_dir.tmp/Documentation/ABI" ] || exit 1
			[ -f "$at_dir.tmp/tools/docs/get_abi.py" ] || [ -f "$at_dir.tmp/scripts/get_abi.py" ] || exit 1
			rm -rf "$at_dir"
			mv "$at_dir.tmp" "$at_dir"
			touch "$at_dir/.extracted"
		) 9>"$cache/.abi-src.lock" || return 1
	fi
	echo "$at_dir"
}

# abi_findings NAME TREE VALIDATOR...: the lines VALIDATOR (run with
# --dir DIR validate) prints about a copy of TREE's Documentation/ABI with
# our file added and not without it, in $logs/abi-NAME.log; fails when the
# validator itself fails.
abi_findings() {
	local name=$1 tree=$2 af_d
	shift 2
	af_d=$work/abi-$name
	rm -rf "$af_d"
	cp -r "$tree/Documentation/ABI" "$af_d"
	"$@" --dir "$af_d" validate >"$af_d.before" 2>&1 || return 1
	cp "$src/Documentation/ABI/testing/sysfs-bus-iio-pressure-lps001wp" "$af_d/testing/"
	"$@" --dir "$af_d" validate >"$af_d.after" 2>&1 || return 1
	comm -13 <(sort "$af_d.before") <(sort "$af_d.after") >"$logs/abi-$name.log"
}

gate_abi() {
	local tree py found=0 what=() s
	tree=$(lint_src)
	if ! abi_findings 6.1 "$tree" perl "$tree/scripts/get_abi.pl"; then
		notok abi "linux-source-6.1's get_abi.pl validate failed (see $work/abi-6.1.after)"
		return
	fi
	for s in $ABI_SERIES; do
		if ! tree=$(abi_tree "$s"); then
			notok abi "no Documentation/ABI from linux-source-$s (see tests/kernel/source.sh)"
			return
		fi
		py=$tree/tools/docs/get_abi.py
		[ -f "$py" ] || py=$tree/scripts/get_abi.py
		if ! abi_findings "$s" "$tree" python3 "$py"; then
			notok abi "linux-source-$s's get_abi.py validate failed (see $work/abi-$s.after)"
			return
		fi
	done
	for s in 6.1 $ABI_SERIES; do
		if [ -s "$logs/abi-$s.log" ]; then
			show "abi ($s)" "$logs/abi-$s.log"
			found=$((found + $(wc -l <"$logs/abi-$s.log")))
			what+=("$s")
		fi
	done
	if [ "$found" = 0 ]; then
		ok abi
	else
		notok abi "$found findings of the kernel's ABI validator (${what[*]}), first: $(head -n1 "$logs/abi-${what[0]}.log" | sed "s|$work/abi-[^/]*/||g")"
	fi
}
