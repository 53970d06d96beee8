# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# tests/lint.sh's C gates: checkpatch, W=1, sparse, coccicheck, and the
# driver builds W=1 and sparse share. Sourced by lint.sh after its helpers
# (ok, notok, show, exceptions_for, lint_src) and its scratch copy ($src,
# $work, $logs).
# shellcheck disable=SC2154 # set by lint.sh

# C sources: the driver at the top level and the test modules.
c_sources() {
	(
		cd "$root" || exit
		shopt -s nullglob
		for f in ./*.c ./*.h tests/sim/*.c tests/sim/*.h tests/kunit/*.c tests/kunit/*.h; do
			case "$f" in *.mod.c) continue ;; esac # kbuild output
			echo "${f#./}"
		done
	)
}

# Driver builds against Debian's headers, each in its own scratch copy:
#   default  what users build
#   kunit    LPS001WP_KUNIT=1 (the KUnit suite compiled in, as the bench
#            does); Debian has no KUnit, so modpost may only warn about the
#            kunit_* symbols (__kunit_* from 6.8), which the W=1 gate ignores.
variants=(default)
if grep -q LPS001WP_KUNIT "$src/Kbuild" 2>/dev/null; then
	variants+=(kunit)
	cp -a "$src" "$work/src-kunit"
fi
variant_dir() { if [ "$1" = kunit ]; then echo "$work/src-kunit"; else echo "$src"; fi; }
variant_args() { if [ "$1" = kunit ]; then echo "LPS001WP_KUNIT=1 KBUILD_MODPOST_WARN=1"; fi; }

# Build a variant with W=1 (once; the sparse gate reuses the objects).
declare -A build_rc
build_driver() {
	local v=$1 args
	read -r -a args <<<"$(variant_args "$v")"
	if [ -z "${build_rc[$v]:-}" ]; then
		build_rc[$v]=0
		make -C "$kdir" M="$(variant_dir "$v")" W=1 "${args[@]}" modules \
			>"$logs/w1-$v.log" 2>&1 || build_rc[$v]=$?
	fi
	return "${build_rc[$v]}"
}

gate_checkpatch() {
	local srcdir files ignore types
	srcdir=$(lint_src)
	mapfile -t files < <(c_sources)
	if [ "${#files[@]}" -eq 0 ]; then
		notok checkpatch "no C sources found"
		return
	fi
	if ! types=$(exceptions_for checkpatch); then
		notok checkpatch "tests/lint-exceptions entry without a reason"
		return
	fi
	ignore=()
	[ -n "$types" ] && ignore=(--ignore "$(echo "$types" | paste -sd, -)")
	if (cd "$root" && perl "$srcdir/scripts/checkpatch.pl" --strict --no-tree \
		--show-types --no-summary --terse "${ignore[@]}" -f "${files[@]}") \
		>"$logs/checkpatch.log" 2>&1; then
		ok checkpatch
	else
		show checkpatch "$logs/checkpatch.log"
		notok checkpatch "$(grep -cE ': (ERROR|WARNING|CHECK):' "$logs/checkpatch.log") findings in ${#files[@]} files"
	fi
}

gate_w1() {
	local v n=0
	if [ ! -f "$root/lps001wp.c" ]; then
		notok W=1 "lps001wp.c missing"
		return
	fi
	: >"$logs/w1.findings"
	for v in "${variants[@]}"; do
		if ! build_driver "$v"; then
			show "W=1 ($v)" "$logs/w1-$v.log"
			notok W=1 "$v build failed against $kver headers"
			return
		fi
		grep -iE 'warning:|error:' "$logs/w1-$v.log" |
			{ if [ "$v" = kunit ]; then grep -vE '^WARNING: modpost: "_*kunit_[a-z_]+" .* undefined!$'; else cat; fi; } |
			sed "s|^|[$v] |" >>"$logs/w1.findings" || true
	done
	n=$(wc -l <"$logs/w1.findings")
	if [ "$n" -gt 0 ]; then
		show W=1 "$logs/w1.findings"
		notok W=1 "$n warnings"
		return
	fi
	ok W=1
}

gate_sparse() {
	local v args
	if [ ! -f "$root/lps001wp.c" ]; then
		notok sparse "lps001wp.c missing"
		return
	fi
	: >"$logs/sparse.findings"
	for v in "${variants[@]}"; do
		if ! build_driver "$v"; then
			notok sparse "$v build failed (see W=1)"
			return
		fi
		# Same flags as the W=1 build, so nothing recompiles and the log
		# holds sparse's output only; every sparse line says "sparse:".
		read -r -a args <<<"$(variant_args "$v")"
		if ! make -C "$kdir" M="$(variant_dir "$v")" W=1 "${args[@]}" C=2 \
			CF="-fdiagnostic-prefix -D__CHECK_ENDIAN__ -fmax-warnings=unlimited" \
			modules >"$logs/sparse-$v.log" 2>&1; then
			show sparse "$logs/sparse-$v.log"
			notok sparse "make C=2 failed ($v)"
			return
		fi
		grep 'sparse:' "$logs/sparse-$v.log" | sed "s|^|[$v] |" >>"$logs/sparse.findings" || true
	done
	if [ -s "$logs/sparse.findings" ]; then
		show sparse "$logs/sparse.findings"
		notok sparse "$(grep -c 'sparse: [a-z]*:' "$logs/sparse.findings") findings"
		return
	fi
	ok sparse
}

gate_coccicheck() {
	local srcdir copy key hit
	srcdir=$(lint_src)
	# A copy holding only C sources: coccicheck scans the whole M= dir.
	copy=$work/cocci
	mkdir -p "$copy"
	while read -r f; do
		mkdir -p "$copy/$(dirname "$f")"
		cp "$root/$f" "$copy/$f"
	done < <(c_sources)
	if [ -z "$(ls -A "$copy")" ]; then
		notok coccicheck "no C sources found"
		return
	fi
	# coccicheck takes most of the lint's time: its findings are cached,
	# keyed by the sources, the kernel scripts, spatch and this script.
	key=$( {
		(cd "$copy" && find . -type f | sort | xargs sha256sum)
		echo "$lint_srcver"
		dpkg-query -W -f '${Version}' coccinelle
		sha256sum "$root/tests/lint.sh"
	} | sha256sum | cut -c1-16)
	hit=$cache/lint-results/coccicheck-$key
	if [ -f "$hit" ]; then
		log "coccicheck: cached result $hit"
		cp "$hit" "$logs/coccicheck.findings"
	else
		if ! make -C "$srcdir" M="$copy" coccicheck MODE=report J="$jobs" \
			>"$logs/coccicheck.log" 2>&1; then
			show coccicheck "$logs/coccicheck.log"
			notok coccicheck "coccicheck failed"
			return
		fi
		# Reports name a file of the copy; the rest is spatch/make noise.
		grep -F "$copy/" "$logs/coccicheck.log" | grep -v -e '^/usr/bin/spatch' -e '^make' |
			sed "s|$copy/||" >"$logs/coccicheck.findings" || true
		mkdir -p "$cache/lint-results"
		cp "$logs/coccicheck.findings" "$hit.tmp" && mv "$hit.tmp" "$hit"
	fi
	if [ -s "$logs/coccicheck.findings" ]; then
		show coccicheck "$logs/coccicheck.findings"
		notok coccicheck "$(wc -l <"$logs/coccicheck.findings") reports"
		return
	fi
	ok coccicheck
}
