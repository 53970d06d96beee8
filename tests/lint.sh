#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Quality gates (`make lint`, also part of `make check`). Each gate prints one
# TAP line on stdout:
#   ok - lint: <gate>
#   not ok - lint: <gate> # <short reason>
# Details go to stderr and to the log directory named at the end. The exit
# status is non-zero when any gate failed.
#
# Gates: checkpatch, sparse, W=1, coccicheck, codespell, shellcheck, binding,
# overlay, helpers. Each must report zero findings; the only way to waive one is an
# entry with a reason in tests/lint-exceptions.
#
# The work tree is never modified: builds run in a scratch copy under /tmp.
# The kernel sources the gates need (checkpatch, coccicheck, the binding
# .yamllint and dt-bindings headers) are extracted once from Debian's
# linux-source-6.1 (tests/kernel/source.sh: the host's package, or fetched
# on a release without it) into /var/cache/lps001wp/lint-src-<version>.
#
# Environment:
#   LINT_KVER      Debian headers to build against (default: the version
#                  linux-headers-amd64 depends on, e.g. 6.1.0-57-amd64)
#   LINT_KDIR      kernel build dir (default /lib/modules/$LINT_KVER/build)
#   LINT_GATES     space-separated subset of gates to run (default: all)
#   LPS001WP_CACHE cache directory (default /var/cache/lps001wp)
set -euo pipefail

# Debian packages the gates need; missing ones are installed with apt-get
# (ocaml-nox and libpython3-dev: spatch runs its scripted coccicheck rules
# only with them, as tests/deps.sh says).
LINT_PACKAGES="linux-headers-amd64 build-essential bc perl sparse coccinelle ocaml-nox libpython3-dev codespell shellcheck yamllint dt-schema device-tree-compiler"

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}
exceptions=$root/tests/lint-exceptions
all_gates="checkpatch sparse W=1 coccicheck codespell shellcheck binding overlay helpers"
gates=${LINT_GATES:-$all_gates}
jobs=$(nproc)

log() { echo "lint: $*" >&2; }

# One TAP line per gate asked for (check.sh's run_stage counts them): a
# gate that stops early, or a run that never reaches the gates, fails.
# shellcheck disable=SC2086 # one word per gate
set -- $gates
echo "# plan lint $#"

# ---------------------------------------------------------------- packages
missing=()
for p in $LINT_PACKAGES; do
	if [ "$(dpkg-query -W -f '${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
		missing+=("$p")
	fi
done
if [ "${#missing[@]}" -gt 0 ]; then
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y --no-install-recommends "${missing[@]}" >&2; then
		apt-get update >&2
		apt-get install -y --no-install-recommends "${missing[@]}" >&2
	fi
fi

read -r lint_tarball lint_srcver < <(bash "$root/tests/kernel/source.sh" 6.1) ||
	{ log "no linux-source-6.1 (see tests/kernel/source.sh)"; exit 1; }

kver=${LINT_KVER:-$(dpkg-query -W -f '${Depends}' linux-headers-amd64 |
	sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p')}
kdir=${LINT_KDIR:-/lib/modules/$kver/build}
[ -d "$kdir" ] || kdir=/usr/src/linux-headers-$kver

# ---------------------------------------------------------------- scratch
# Logs of earlier runs are kept for a day.
find /tmp -maxdepth 1 -name 'lps001wp-lint.*' -mtime +0 -exec rm -rf {} + 2>/dev/null || true
work=$(mktemp -d /tmp/lps001wp-lint.XXXXXX)
logs=$work/log
mkdir -p "$logs"
# On exit keep the logs, drop the scratch copies.
trap 'find "$work" -mindepth 1 -maxdepth 1 ! -name log -exec rm -rf {} +' EXIT

# A copy of the work tree without git metadata or build products; not
# build/, which the stages beside this one write into (the package stage's
# chroot has /proc mounted there).
src=$work/src
mkdir -p "$src"
tar -C "$root" --exclude=./.git --exclude=./build --exclude='*.o' --exclude='*.ko' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' \
	--exclude='*.a' --exclude=modules.order --exclude=Module.symvers \
	--exclude='*.dtbo' --exclude='*.dtb' -cf - . | tar -C "$src" -xf -
# Its files, before the W=1 and sparse gates build in it
(cd "$src" && find . -type f | sort) > "$work/files"

# ---------------------------------------------------------------- helpers
failed=0
ok() { echo "ok - lint: $1"; }
notok() {
	echo "not ok - lint: $1 # $2"
	failed=1
}
# Show a log's first lines on stderr under a header.
show() {
	local name=$1 file=$2
	[ -s "$file" ] || return 0
	echo "---- lint $name ($file)" >&2
	head -n 60 "$file" >&2
}

# Exceptions: "<gate> <value>  # <reason>"; lines starting with # are comments.
# Prints the values for GATE; an entry without a reason fails the gate.
exceptions_for() {
	local gate=$1 line g v reason
	[ -f "$exceptions" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		case "$line" in '' | '#'*) continue ;; esac
		read -r g v _ <<<"$line"
		reason=${line#*#}
		if [ "$reason" = "$line" ] || [ -z "${reason// /}" ]; then
			echo "lint-exceptions: no reason given: $line" >&2
			return 1
		fi
		[ "$g" = "$gate" ] && echo "$v"
	done <"$exceptions"
	return 0
}

# Kernel sources for checkpatch, coccicheck and the binding checks.
lint_src() {
	local dir
	dir=$cache/lint-src-$lint_srcver
	if [ ! -f "$dir/.extracted" ]; then
		mkdir -p "$cache"
		(
			flock 9
			if [ ! -f "$dir/.extracted" ]; then
				log "extracting linux-source-6.1 $lint_srcver to $dir"
				rm -rf "$dir.tmp"
				mkdir -p "$dir.tmp"
				tar -xf "$lint_tarball" -C "$dir.tmp" --strip-components=1
				rm -rf "$dir"
				mv "$dir.tmp" "$dir"
				touch "$dir/.extracted"
			fi
		) 9>"$cache/.lint-src.lock"
	fi
	echo "$dir"
}

# C sources: the driver at the top level and the test modules.
c_sources() {
	(
		cd "$root"
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

# ---------------------------------------------------------------- gates
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

# cpp + dtc the way the kernel does for binding examples / dts files.
dt_cpp() {
	local srcdir=$1 in=$2 out=$3
	cpp -nostdinc -I "$srcdir/include" -I "$srcdir/scripts/dtc/include-prefixes" \
		-undef -D__DTS__ -x assembler-with-cpp -P -o "$out" "$in"
}

gate_binding() {
	local srcdir bdir b dt=$work/dt out=$logs/binding.log n=0 compat c
	srcdir=$(lint_src)
	bdir=$root/Documentation/devicetree/bindings
	mkdir -p "$dt"
	: >"$out"
	mapfile -t bindings < <(find "$bdir" -name '*.yaml' 2>/dev/null | sort)
	if [ "${#bindings[@]}" -eq 0 ]; then
		notok binding "no binding under Documentation/devicetree/bindings"
		return
	fi
	# dt-doc-validate and dt-validate exit 0 on most findings: any output
	# is a finding.
	yamllint -f parsable -c "$srcdir/Documentation/devicetree/bindings/.yamllint" \
		"${bindings[@]}" >>"$out" 2>&1 || true
	dt-doc-validate -u "$bdir" "${bindings[@]}" >>"$out" 2>&1 ||
		echo "dt-doc-validate failed" >>"$out"
	dt-mk-schema -j "$bdir" >"$dt/schema.json" 2>>"$out" ||
		echo "dt-mk-schema failed" >>"$out"
	for b in "${bindings[@]}"; do
		n=$((n + 1))
		if ! grep -q '^examples:' "$b"; then
			echo "$b: no examples" >>"$out"
			continue
		fi
		{
			dt-extract-example "$b" >"$dt/$n.dts" &&
				dt_cpp "$srcdir" "$dt/$n.dts" "$dt/$n.pre.dts" &&
				dtc -q -O dtb -b 0 -o "$dt/$n.dtb" -Wno-avoid_unnecessary_addr_size \
					-Wno-graph_child_address -Wno-interrupt_provider \
					-Wno-unique_unit_address -Wunique_unit_address_if_enabled \
					"$dt/$n.pre.dts" &&
				dt-validate -s "$dt/schema.json" "$dt/$n.dtb"
		} >>"$out" 2>&1 || echo "$b: example does not build" >>"$out"
		# The driver must match what the binding documents.
		compat=$(sed -n '/^  compatible:/,/^  [a-z]/s/^ *\(- \|const: \)\([a-z0-9]*,[a-z0-9-]*\).*/\2/p' "$b")
		# The example must actually be checked against this binding.
		if [ -f "$dt/$n.dtb" ] && ! bash "$root/tests/tools/dt-checked.sh" \
			"$dt/schema.json" "$dt/$n.dtb" "${compat%%[[:space:]]*}" >>"$out" 2>&1; then
			echo "$b: no node of the example matched the binding" >>"$out"
		fi
		for c in $compat; do
			if [ -f "$root/lps001wp.c" ] && ! grep -qF "\"$c\"" "$root"/*.c; then
				echo "$b: compatible \"$c\" not in the driver's OF match table" >>"$out"
			fi
		done
	done
	if [ -s "$out" ]; then
		show binding "$out"
		notok binding "$(grep -cvE '^[[:space:]]' "$out") findings"
	else
		ok binding
	fi
}

gate_overlay() {
	local odir dt=$work/overlay out=$logs/overlay.log o base
	odir=$root/Documentation/devicetree/overlays
	mkdir -p "$dt"
	: >"$out"
	mapfile -t overlays < <(find "$odir" -name '*.dts' 2>/dev/null | sort)
	if [ "${#overlays[@]}" -eq 0 ]; then
		notok overlay "no overlay under Documentation/devicetree/overlays"
		return
	fi
	# The overlays are Raspberry Pi overlays: applied onto a stand-in Pi
	# tree the way the Pi firmware applies them (libfdt's fdtoverlay
	# follows the kernel's rules, which differ; tests/overlay.sh checks
	# the parameters).
	base=$root/tests/dt/pi/base.dts
	dtc -q -@ -I dts -O dtb -o "$dt/base.dtb" "$base"
	for o in "${overlays[@]}"; do
		local name v variants
		name=$(basename "$o" .dts)
		# dtc prints warnings but exits 0: any output is a finding.
		# unit_address_vs_reg is off as in the kernel's and the Raspberry
		# Pi's dtbo builds: __dormant__ fragments trip it.
		dtc -@ -Wno-unit_address_vs_reg -I dts -O dtb -o "$dt/$name.dtbo" "$o" >>"$out" 2>&1 ||
			echo "$o: dtc failed" >>"$out"
		[ -f "$dt/$name.dtbo" ] || continue
		# The parameters (noirq, the buses, two instances) are
		# tests/overlay.sh's; here the overlay as it comes.
		variants=("$name")
		for v in "${variants[@]}"; do
			if ! python3 "$root/tests/tools/pi-dtmerge.py" "$dt/base.dtb" "$dt/$v.merged.dtb" \
				"$dt/$v.dtbo" >>"$out" 2>&1; then
				echo "$o ($v): does not apply to tests/dt/pi/base.dts" >>"$out"
				continue
			fi
			# The applied node must satisfy the binding (when the
			# binding gate made a schema).
			if [ -f "$work/dt/schema.json" ]; then
				dt-validate -l st,lps001wp -s "$work/dt/schema.json" \
					"$dt/$v.merged.dtb" >>"$out" 2>&1 || true
				bash "$root/tests/tools/dt-checked.sh" "$work/dt/schema.json" \
					"$dt/$v.merged.dtb" st,lps001wp >>"$out" 2>&1 ||
					echo "$o ($v): no node checked against the binding" >>"$out"
			fi
		done
	done
	if [ -s "$out" ]; then
		show overlay "$out"
		notok overlay "$(grep -cvE '^[[:space:]]' "$out") findings"
	else
		ok overlay
	fi
}

# The guest suites share lib.sh's helpers: a script that defines a function
# of the same name replaces it for the rest of the suite, also where other
# helpers call it (76-failnth's own field() once broke regval and
# wait_samples after it). Every guest script sourced after lib.sh is checked.
gate_helpers() {
	local lib=$src/tests/guest/lib/lib.sh out=$logs/helpers.log names f
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
	if [ -s "$out" ]; then
		show helpers "$out"
		notok helpers "$(wc -l <"$out") redefinitions of lib.sh functions"
	else
		ok helpers
	fi
}

# ---------------------------------------------------------------- run
for g in $gates; do
	t0=$SECONDS
	case "$g" in
	checkpatch) gate_checkpatch ;;
	sparse) gate_sparse ;;
	W=1) gate_w1 ;;
	coccicheck) gate_coccicheck ;;
	codespell) gate_codespell ;;
	shellcheck) gate_shellcheck ;;
	binding) gate_binding ;;
	overlay) gate_overlay ;;
	helpers) gate_helpers ;;
	*) notok "$g" "unknown gate (known: $all_gates)" ;;
	esac
	log "$g: $((SECONDS - t0))s"
done

log "logs in $logs"
exit "$failed"
