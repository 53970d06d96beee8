# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# tests/lint.sh's device-tree gates: binding, overlay. Sourced by
# lint.sh after its helpers (ok, notok, show, exceptions_for, lint_src) and
# its scratch copy ($src, $work, $logs).
# shellcheck disable=SC2154 # set by lint.sh

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
