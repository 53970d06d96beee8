# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# tests/lint.sh's gates over text: codespell, shellcheck, helpers. Sourced by
# lint.sh after its helpers (ok, notok, show, exceptions_for, lint_src) and
# its scratch copy ($src, $work, $logs).
# shellcheck disable=SC2154 # set by lint.sh

gate_codespell() {
	local words files
	if ! words=$(exceptions_for codespell); then
		notok codespell "tests/lint-exceptions entry without a reason"
		return
	fi
	mapfile -t files < <(grep -E '\.(c|h|md|yaml|dts|dtsi|sh|rst|txt)$|/(Kconfig|Kbuild|Makefile|dkms\.conf)$|^\./(Documentation|\.ci)/|^\./tests/guest/lib/init$' \
		"$work/files")
	if (cd "$src" && codespell ${words:+-L "$(echo "$words" | paste -sd, -)"} \
		"${files[@]}") >"$logs/codespell.log" 2>&1; then
		ok codespell
	else
		show codespell "$logs/codespell.log"
		notok codespell "$(grep -c '==>' "$logs/codespell.log") misspellings"
	fi
}

gate_shellcheck() {
	local f scripts=() bad=0 codes excl=()
	if ! codes=$(exceptions_for shellcheck); then
		notok shellcheck "tests/lint-exceptions entry without a reason"
		return
	fi
	[ -n "$codes" ] && excl=(-e "$(echo "$codes" | paste -sd, -)")
	while IFS= read -r f; do
		case "$f" in
		*.sh) scripts+=("$f") ;;
		*)
			if head -n 1 "$src/$f" | grep -E '^#!.*([/ ]|env )(ba|da|k)?sh([[:space:]]|$)' >/dev/null ||
				head -n 5 "$src/$f" | grep '^# shellcheck shell=' >/dev/null; then
				scripts+=("$f")
			fi
			;;
		esac
	done < <(grep -vE '\.([ch]|md|yaml|dts)$' "$work/files" | sed 's|^\./||')
	if [ "${#scripts[@]}" -eq 0 ]; then
		notok shellcheck "no shell scripts found"
		return
	fi
	(cd "$src" && shellcheck -x -P SCRIPTDIR -f gcc "${excl[@]}" "${scripts[@]}") \
		>"$logs/shellcheck.log" 2>&1 || bad=1
	if [ "$bad" = 0 ] && [ ! -s "$logs/shellcheck.log" ]; then
		ok shellcheck
	else
		show shellcheck "$logs/shellcheck.log"
		notok shellcheck "$(grep -c ': \(error\|warning\|note\|style\):' "$logs/shellcheck.log") findings in ${#scripts[@]} scripts"
	fi
}

# The guest suites share lib.sh's helpers: a script that defines a function
# of the same name replaces it for the rest of the suite, also where other
# helpers call it (76-failnth's own field() once broke regval and
# wait_samples after it). Every guest script sourced after lib.sh is checked.
# And the helpers leave the suites' variables alone: each assigns only its
# own (its initials first) and the capitals its header names
# (helper-names.awk), since busybox sh has no local variables.
gate_helpers() {
	local lib=$src/tests/guest/lib/lib.sh out=$logs/helpers.log names f clobbers
	names=$(sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)()[[:space:]]*{.*/\1/p' "$lib" | paste -sd'|' -)
	if [ -z "$names" ]; then
		notok helpers "no function found in tests/guest/lib/lib.sh"
		return
	fi
	: >"$out"
	for f in "$src"/tests/guest/*.sh "$src"/tests/guest/lib/*.sh; do
		[ "$f" = "$lib" ] && continue
		grep -nHE "^[[:space:]]*(function[[:space:]]+)?($names)[[:space:]]*\(\)" "$f" |
			sed "s|^$src/||" >>"$out" || true
	done
	clobbers=$(awk -f "$src/tests/lint/helper-names.awk" "$lib" | tee -a "$out" | wc -l)
	if [ -s "$out" ]; then
		show helpers "$out"
		notok helpers "$(($(wc -l <"$out") - clobbers)) redefinitions of lib.sh functions, $clobbers assignments outside a helper's own names"
	else
		ok helpers
	fi
}
