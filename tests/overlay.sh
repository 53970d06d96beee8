#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Raspberry Pi overlay (Documentation/devicetree/overlays/lps001wp-overlay.dts)
# applied with its parameters the way the Pi firmware applies them
# (tests/tools/pi-dtmerge.py) onto a stand-in Pi 4 tree (tests/dt/pi/base.dts),
# one instance and two at once, and the resulting nodes checked. Prints TAP
# lines ("ok - overlay: ...").
#
# The two-instance check then runs against broken copies of the overlay
# (each a mistake that once existed or easily could): it must fail on each.
#
#   LPS001WP_OVERLAY=file.dts   check another overlay source instead
#   TWO_IRQ=irq                 the interrupt parameter's name in the
#                               two-instance check (irq for overlays older
#                               than "interrupt")
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
src=${LPS001WP_OVERLAY:-$root/Documentation/devicetree/overlays/lps001wp-overlay.dts}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
# the checks below, counted (check.sh fails the stage on another number):
# the compile, 6 parameter sets, 6 bus parameters, dt-validate, make, and
# 3 mutants
plan overlay 18

GPIO=/soc/gpio@7e200000
I2C1=/soc/i2c@7e804000

tap() { # tap NAME PROBLEMS (one a line; none: ok)
	set -- "$1" "$(sed '/^$/d' <<<"$2")"
	if [ -z "$2" ]; then
		echo "ok - overlay: $1"
	else
		echo "not ok - overlay: $1 # $(tr '\n' ';' <<<"$2" | sed 's/;$//')"
		failed=1
	fi
}

merge() { python3 "$root/tests/tools/pi-dtmerge.py" "$@"; }

# prop DTB NODE PROP [TYPE]: the value, or nothing (status 1) when absent
prop() { fdtget -t "${4:-s}" "$1" "$2" "$3" 2>/dev/null; }
has_node() { fdtget -l "$1" "$2" >/dev/null 2>&1; }

# phandles DTB: "PHANDLE PATH" for every node that has one
phandles() {
	local dtb=$1 p=${2:-/} c ph
	ph=$(prop "$dtb" "$p" phandle u) && echo "$ph $p"
	for c in $(fdtget -l "$dtb" "$p"); do
		phandles "$dtb" "${p%/}/$c"
	done
}

# refers DTB NODE PROP: the path of the node PROP's first cell points to
refers() {
	local ph
	ph=$(prop "$1" "$2" "$3" u | cut -d' ' -f1) || return 1
	phandles "$1" | awk -v ph="$ph" '$1 == ph { print $2 }'
}

# instance DTB BUS ADDR GPIO|none: what is wrong with the sensor at ADDR
# (hex, no 0x) on BUS, INT1 on GPIO (decimal) or not wired; one line each.
instance() {
	local dtb=$1 bus=$2 addr=$3 gpio=$4 n pins v
	n=$bus/pressure@$addr
	pins=$GPIO/lps001wp_pins@$addr
	if ! has_node "$dtb" "$n"; then
		echo "no node $n"
		return
	fi
	v=$(prop "$dtb" "$n" compatible); [ "$v" = st,lps001wp ] || echo "$n compatible '$v'"
	v=$(prop "$dtb" "$n" reg x); [ "$v" = "$addr" ] || echo "$n reg '$v'"
	v=$(prop "$dtb" "$bus" status); [ "$v" = okay ] || echo "$bus status '$v'"
	if [ "$gpio" = none ]; then
		for v in interrupts interrupt-parent interrupt-names pinctrl-0 pinctrl-names; do
			prop "$dtb" "$n" "$v" x >/dev/null && echo "$n has $v"
		done
		has_node "$dtb" "$pins" && echo "$pins exists"
		return
	fi
	if has_node "$dtb" "$pins"; then
		v=$(prop "$dtb" "$pins" brcm,pins u); [ "$v" = "$gpio" ] || echo "$pins brcm,pins '$v'"
		v=$(prop "$dtb" "$pins" brcm,function u); [ "$v" = 0 ] || echo "$pins brcm,function '$v'"
	else
		echo "no pin node $pins"
	fi
	v=$(refers "$dtb" "$n" pinctrl-0); [ "$v" = "$pins" ] || echo "$n pinctrl-0 -> '$v'"
	v=$(prop "$dtb" "$n" pinctrl-names); [ "$v" = default ] || echo "$n pinctrl-names '$v'"
	v=$(refers "$dtb" "$n" interrupt-parent); [ "$v" = "$GPIO" ] || echo "$n interrupt-parent -> '$v'"
	v=$(prop "$dtb" "$n" interrupts u); [ "$v" = "$gpio 1" ] || echo "$n interrupts '$v'"
	v=$(prop "$dtb" "$n" interrupt-names); [ "$v" = int1 ] || echo "$n interrupt-names '$v'"
}

# only DTB ADDR BUS: no sensor node at ADDR on any bus but BUS (none: on no bus)
only() {
	local b
	for b in $I2C1 /i2c0mux/i2c@0 /i2c0mux/i2c@1 /soc/i2c@7e205600 /soc/i2c@7e205800 \
		/soc/i2c@7e205a00 /soc/i2c@7e205c00; do
		[ "$b" = "$3" ] && continue
		has_node "$1" "$b/pressure@$2" && echo "also a node on $b"
	done
}

# two DTBO: the two-instance problems (0x5c on GPIO 4, 0x5d on GPIO 17)
two() {
	if ! merge "$work/base.dtb" "$work/two-a.dtb" "$1" 2>&1 ||
		! merge "$work/two-a.dtb" "$work/two.dtb" "$1" addr=0x5d "${TWO_IRQ:-interrupt}=17" 2>&1; then
		echo "merge failed"
		return
	fi
	instance "$work/two.dtb" $I2C1 5c 4
	instance "$work/two.dtb" $I2C1 5d 17
	phandles "$work/two.dtb" | awk '{ print $1 }' | sort | uniq -d | sed 's/^/phandle defined twice: /'
}

dtc -q -@ -I dts -O dtb -o "$work/base.dtb" "$root/tests/dt/pi/base.dts" ||
	{ echo "not ok - overlay: the stand-in Pi tree compiles"; exit 1; }
# unit_address_vs_reg is off as in the Pi's own overlay builds: the pin
# node has a unit address (the sensor's) and no reg.
out=$(dtc -@ -Wno-unit_address_vs_reg -I dts -O dtb -o "$work/ov.dtbo" "$src" 2>&1)
tap "compiles with dtc -@ without a warning" "$out"
[ -f "$work/ov.dtbo" ] || exit 1
ov=$work/ov.dtbo

# run NAME [param ...]: one instance onto the base, into $work/NAME.dtb
run() {
	local name=$1
	shift
	merge "$work/base.dtb" "$work/$name.dtb" "$ov" "$@" 2>&1 || { echo "merge failed"; return 1; }
}

p=$(run default && { instance "$work/default.dtb" $I2C1 5c 4; only "$work/default.dtb" 5c $I2C1; })
tap "no parameters: sensor on i2c_arm at 0x5c, INT1 on GPIO 4 through its own pin node" "$p"

p=$(run moved addr=0x5d interrupt=17 && {
	instance "$work/moved.dtb" $I2C1 5d 17
	only "$work/moved.dtb" 5c none
})
tap "addr=0x5d,interrupt=17: sensor and pin node at @5d, INT1 on GPIO 17" "$p"

p=$(run alias irq=22 && instance "$work/alias.dtb" $I2C1 5c 22)
tap "irq=22 (the old name of interrupt) moves INT1 to GPIO 22" "$p"

p=$(two "$ov")
tap "two instances (0x5c on GPIO 4, 0x5d on GPIO 17): each its own node, pin node, pinctrl-0 and interrupt; no phandle twice" "$p"

p=$(run noirq noirq && instance "$work/noirq.dtb" $I2C1 5c none)
tap "noirq: sensor without interrupt, pinctrl or pin node" "$p"

p=$(if merge "$work/base.dtb" "$work/mix-a.dtb" "$ov" noirq 2>&1 &&
	merge "$work/mix-a.dtb" "$work/mix.dtb" "$ov" addr=0x5d interrupt=17 2>&1; then
	instance "$work/mix.dtb" $I2C1 5c none
	instance "$work/mix.dtb" $I2C1 5d 17
else
	echo "merge failed"
fi)
tap "noirq at 0x5c beside 0x5d on GPIO 17: each as asked" "$p"

# Bus parameters: BUS-PARAM:PATH; i2c0 and i2c_csi_dsi also enable the
# controller and the pin mux in front of them.
for b in i2c0:/i2c0mux/i2c@0 i2c_csi_dsi:/i2c0mux/i2c@1 i2c3:/soc/i2c@7e205600 \
	i2c4:/soc/i2c@7e205800 i2c5:/soc/i2c@7e205a00 i2c6:/soc/i2c@7e205c00; do
	param=${b%%:*} path=${b#*:}
	p=$(run "$param" "$param" addr=0x5d interrupt=17 &&
		{ instance "$work/$param.dtb" "$path" 5d 17; only "$work/$param.dtb" 5d "$path"; })
	case $param in
	i2c0|i2c_csi_dsi) mux=okay ;;
	*) mux=disabled ;;
	esac
	for n in /soc/i2c@7e205000 /i2c0mux; do
		v=$(prop "$work/$param.dtb" "$n" status)
		[ "$v" = "$mux" ] || p+=$'\n'"$n status '$v', not $mux"
	done
	tap "$param,addr=0x5d,interrupt=17: sensor on $path only" "$p"
done

# The merged nodes against the binding, when dt-schema is installed.
if command -v dt-validate >/dev/null && command -v dt-mk-schema >/dev/null; then
	p=$(dt-mk-schema -j "$root/Documentation/devicetree/bindings" >"$work/schema.json" 2>&1) ||
		p="dt-mk-schema failed: $p"
	for d in two noirq i2c3; do
		[ -f "$work/$d.dtb" ] || { p+=$'\n'"$d: not merged"; continue; }
		p+=$(dt-validate -l st,lps001wp -s "$work/schema.json" "$work/$d.dtb" 2>&1)
		bash "$root/tests/tools/dt-checked.sh" "$work/schema.json" "$work/$d.dtb" st,lps001wp ||
			p+=$'\n'"$d: no node checked against the binding"
	done
	tap "the merged sensor nodes (two instances, noirq, i2c3) pass dt-validate against the binding" "$p"
else
	echo "not ok - overlay: dt-validate against the binding # dt-schema not installed"
	failed=1
fi

# make dtbo and make install-dtbo, in a copy (the work tree stays as it is):
# /boot/firmware/overlays when it exists, else /boot/overlays, else an error.
mk=$work/make
mkdir -p "$mk/Documentation/devicetree/overlays"
cp "$root/Makefile" "$mk/"
cp "$src" "$mk/Documentation/devicetree/overlays/lps001wp-overlay.dts"
p=$(make -s -C "$mk" dtbo 2>&1) || p+=$'\nmake dtbo failed'
cmp -s "$mk/lps001wp.dtbo" "$ov" || p+=$'\nlps001wp.dtbo differs from dtc -@ output'
d=$work/destdir
mkdir -p "$d/boot/overlays"
make -s -C "$mk" install-dtbo DESTDIR="$d" >/dev/null 2>&1 || p+=$'\ninstall-dtbo failed with /boot/overlays'
[ -f "$d/boot/overlays/lps001wp.dtbo" ] || p+=$'\nnot in /boot/overlays'
mkdir -p "$d/boot/firmware/overlays"
rm -f "$d/boot/overlays/lps001wp.dtbo"
make -s -C "$mk" install-dtbo DESTDIR="$d" >/dev/null 2>&1 || p+=$'\ninstall-dtbo failed with /boot/firmware/overlays'
[ -f "$d/boot/firmware/overlays/lps001wp.dtbo" ] || p+=$'\nnot in /boot/firmware/overlays'
[ -f "$d/boot/overlays/lps001wp.dtbo" ] && p+=$'\ninstalled to /boot/overlays although /boot/firmware/overlays exists'
rm -rf "$d"
mkdir -p "$d"
make -s -C "$mk" install-dtbo DESTDIR="$d" >/dev/null 2>&1 && p+=$'\ninstall-dtbo succeeded with no overlays directory'
tap "make dtbo builds it; make install-dtbo puts it in /boot/firmware/overlays, else /boot/overlays, else fails" "$p"

# mutant NAME SED: the two-instance check must fail on the overlay edited by SED
mutant() {
	sed "$2" "$src" >"$work/$1.dts"
	if cmp -s "$src" "$work/$1.dts"; then
		tap "mutant '$1' differs from the overlay" "the edit no longer applies: update it"
		return
	fi
	dtc -q -@ -Wno-unit_address_vs_reg -I dts -O dtb -o "$work/$1.dtbo" "$work/$1.dts"
	p=$(two "$work/$1.dtbo")
	if [ -n "$p" ]; then
		tap "the two-instance check fails on mutant '$1' ($(head -n1 <<<"$p"))" ""
	else
		tap "the two-instance check fails on mutant '$1'" "it passed"
	fi
}
mutant "pin node without unit address" 's/lps001wp_pins@5c {/lps001wp_pins {/'
mutant "addr leaves the pin node's name" 's/<&lps001wp_pins>, "reg:0";/<\&lps001wp>, "reg:0";/'
mutant "interrupt leaves interrupts" 's/<&lps001wp_irq>, "interrupts:0";/<\&lps001wp_pins>, "brcm,pins:0";/'

exit "$failed"
