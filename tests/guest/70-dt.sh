# shellcheck shell=sh
# The device-tree path, as on a board: the test kernel boots with
# tests/dt/board.dtb, whose "lps001wp-test,i2c-sim" node gives the
# simulator a second adapter (lps001wp-sim-of) and interrupt controller;
# the overlays in /tests add the sensor under it, as a Raspberry Pi
# overlay does, and the driver must be instantiated from DT with its
# interrupt and properties from DT, also from a node with mainline's
# compatible "st,lps001wp-press".

plan 69
OV=/tests/lps001wp-overlay.dtbo
OV2=/tests/lps001wp-int2-overlay.dtbo
OV3=/tests/lps001wp-mainline-overlay.dtbo

# dtstr FILE: a DT string property without its NUL terminators
dtstr() {
	tr '\0' ' ' < "$1" | sed 's/ *$//'
}
# bit VALUE N: bit N of VALUE (0 or 1)
bit() {
	echo $(( ($1 >> $2) & 1 ))
}
# apply FILE: applies an overlay through the simulator; prints the new id
apply() {
	before=$(cat "$SIM/overlay")
	cat "$1" > "$SIM/overlay" || return 1
	grep -vxF "$before" "$SIM/overlay" | tail -n 1
}
# clients BUS: the i2c clients on BUS, space-separated
clients() {
	for c in /sys/bus/i2c/devices/"$1"-*; do
		[ -e "$c" ] && printf '%s ' "${c##*/}"
	done
	echo
}
bound_to_lps001wp() {
	[ "$(basename "$(readlink "$1/driver")")" = lps001wp ]
}

# run_dt_trigger CHIP CLIENT INT_H_L PP_OD LABEL: the driver's own trigger
# on the IRQ from DT; samples through the buffer, INT1 edges counted by the
# sim, CTRL_REG3 as the DT asks while it runs.
run_dt_trigger() {
	chip=$1 cl=$2 lbl=$5
	D=
	for d in "$cl"/iio:device*; do
		[ -e "$d" ] && D=/sys/bus/iio/devices/${d##*/}
	done
	check_true "$lbl: IIO device under the client" test -n "$D"
	N=${D##*iio:device}
	CDEV=/dev/iio:device$N
	check_eq "$lbl: IIO device name" lps001wp "$(cat "$D/name" 2>/dev/null)"

	echo "const 17000 1280" > "$SIM/$chip/stimulus"
	check_eq "$lbl: in_pressure_raw is the $chip stimulus" 17000 "$(cat "$D/in_pressure_raw" 2>&1)"
	check_eq "$lbl: in_temp_raw is the $chip stimulus" 1280 "$(cat "$D/in_temp_raw" 2>&1)"

	check_true "$lbl: own trigger lps001wp-devN" iio_trigger "lps001wp-dev$N"
	check_eq "$lbl: select own trigger" 0 "$(write_errno "$D/trigger/current_trigger" "lps001wp-dev$N")"
	for f in "$D"/scan_elements/*_en; do echo 0 > "$f"; done
	echo 1 > "$D/scan_elements/in_pressure_en"
	type=$(cat "$D/scan_elements/in_pressure_type")
	echo 16 > "$D/buffer/length"
	echo 0 > "$SIM/$chip/counters"
	check_eq "$lbl: buffer enable" 0 "$(write_errno "$D/buffer/enable" 1)"
	check_true "$lbl: INT1 edges delivered (irqs_int1 >= 3)" wait_for 5 counter_reached "$chip" irqs_int1 3

	r3=$(regval "$chip" 0x22)
	note "CTRL_REG3 $r3"
	check_eq "$lbl: CTRL_REG3.INT_H_L while triggered" "$3" "$(bit "$r3" 7)"
	note "CTRL_REG3 $r3"
	check_eq "$lbl: CTRL_REG3.PP_OD while triggered" "$4" "$(bit "$r3" 6)"
	note "CTRL_REG3 $r3"
	check_eq "$lbl: CTRL_REG3.INT1_CFG = DRDY while triggered" 4 "$(( r3 & 7 ))"

	# only in_pressure is enabled: the first 16-bit word of a scan
	s=$(timeout 5 dd if="$CDEV" bs=64 count=1 2>/dev/null | od -An -v -tu2 | awk 'NR == 1 { print $1 }')
	note "type $type"
	check_eq "$lbl: buffer scan carries the stimulus" 17000 "$s"
	n1=$(counter "$chip" irqs_int1)
	wait_for 5 counter_reached "$chip" irqs_int1 $(( n1 + 2 ))
	n2=$(counter "$chip" irqs_int1)
	note "$n1 -> $n2"
	check_true "$lbl: irqs_int1 keeps growing" test "$n2" -gt "$n1"

	check_eq "$lbl: buffer disable" 0 "$(write_errno "$D/buffer/enable" 0)"
	echo > "$D/trigger/current_trigger"
}

load_modules -c
# the clients come from DT, on the adapter of the board's node
MAIN=$BUS

# ---- the board's node and the second adapter ----
check_eq "board DT is live" "lps001wp-test,i2c-sim" \
	"$(dtstr /sys/firmware/devicetree/base/i2c-sim/compatible 2>/dev/null)"
BUS=$(i2c_bus_of lps001wp-sim-of)
check_true "adapter lps001wp-sim-of registered" test -n "$BUS"
check_eq "lps001wp-sim-of has the board node as of_node" "lps001wp-test,i2c-sim" \
	"$(dtstr /sys/bus/i2c/devices/i2c-"$BUS"/of_node/compatible 2>/dev/null)"
check_false "lps001wp-sim has no of_node" test -e /sys/bus/i2c/devices/i2c-"$MAIN"/of_node
check_eq "no client on lps001wp-sim-of before an overlay" "" "$(clients "$BUS")"
check_eq "no client on lps001wp-sim" "" "$(clients "$MAIN")"
check_true "debugfs has of-5c/ and of-5d/" test -f "$SIM"/of-5c/regs -a -f "$SIM"/of-5d/stimulus \
	-a -f "$SIM"/of-5d/counters -a -f "$SIM"/of-5d/fault -a -f "$SIM"/of-5d/delta_sign
check_eq "no overlay applied" "" "$(cat "$SIM/overlay")"

# ---- control-file errors ----
check_eq "overlay: a blob that is not an FDT" EINVAL "$(write_errno "$SIM/overlay" "not a device tree blob")"
check_eq "overlay_remove: unknown id" ENOENT "$(write_errno "$SIM/overlay_remove" 12345)"
check_eq "overlay_remove: garbage" EINVAL "$(write_errno "$SIM/overlay_remove" x)"
check_eq "overlay_remove all with none applied" 0 "$(write_errno "$SIM/overlay_remove" all)"

# ---- INT1 falling, open drain, at 0x5d ----
ID=$(apply "$OV")
note "id '$ID'"
check_true "overlay applied" test -n "$ID"
CL=/sys/bus/i2c/devices/$BUS-005d
check_true "client 0x5d bound to lps001wp" wait_for 5 bound_to_lps001wp "$CL"
check_eq "client of_node compatible" st,lps001wp "$(dtstr "$CL/of_node/compatible" 2>/dev/null)"
check_eq "only 0x5d on lps001wp-sim-of" "$BUS-005d" "$(clients "$BUS" | sed 's/ *$//')"
check_eq "still no client on lps001wp-sim" "" "$(clients "$MAIN")"
run_dt_trigger of-5d "$CL" 1 1 "DT falling/open-drain"
check_eq "remove the overlay by id" 0 "$(write_errno "$SIM/overlay_remove" "$ID")"
check_false "client 0x5d gone" test -e "$CL"
check_false "IIO device gone" iio_dev lps001wp
check_false "trigger gone" iio_trigger "lps001wp-dev$N"
check_eq "no overlay left" "" "$(cat "$SIM/overlay")"

# ---- a tree naming INT2, which the LPS001WP does not have ----
dmesg -c > /dev/null
ID=$(apply "$OV2")
note "id '$ID'"
check_true "INT2 overlay applied" test -n "$ID"
CL=/sys/bus/i2c/devices/$BUS-005c
note "$BUS-005c"
check_true "INT2 tree: client 0x5c created" wait_for 5 test -e "$CL"
check_false "INT2 named: lps001wp does not bind" bound_to_lps001wp "$CL"
check_true "and says why" sh -c "dmesg | grep '$BUS-005c' | grep -q 'the LPS001WP has INT1 only'"
check_eq "remove all overlays" 0 "$(write_errno "$SIM/overlay_remove" all)"
check_false "INT2 tree: client 0x5c gone with the overlays" test -e "$CL"

# ---- mainline's compatible, as a board tree written for st_pressure has it ----
# The client is named "lps001wp-press", in no I2C id table: only the OF
# match binds it.
echo "const 17000 1280" > "$SIM/of-5c/stimulus"
ID=$(apply "$OV3")
note "id '$ID'"
check_true "mainline-compatible overlay applied" test -n "$ID"
CL=/sys/bus/i2c/devices/$BUS-005c
check_true "st,lps001wp-press: client 0x5c bound to lps001wp" wait_for 5 bound_to_lps001wp "$CL"
check_eq "st,lps001wp-press: client name" lps001wp-press "$(cat "$CL/name" 2>/dev/null)"
check_eq "st,lps001wp-press: in_pressure_raw is the of-5c stimulus" 17000 \
	"$(cat "$CL"/iio:device*/in_pressure_raw 2>&1)"
# What udev would load for each compatible (modules.alias from depmod)
aliases() {
	awk -v a="of:N*T*C$1" '$1 == "alias" && $2 == a { print $3 }' \
		"/lib/modules/$(uname -r)/modules.alias" | sort | tr '\n' ' ' | sed 's/ $//'
}
check_eq "modules.alias: st,lps001wp-press loads both drivers" "lps001wp st_pressure_i2c" \
	"$(aliases st,lps001wp-press)"
check_eq "modules.alias: st,lps001wp loads only this one" lps001wp "$(aliases st,lps001wp)"

# ---- two IIO devices named lps001wp: the README finds ours by its driver ----
check_true "modprobe st_pressure_i2c" modprobe st_pressure_i2c
echo 0x5d > "$SIM/new_device"
M5D=/sys/bus/i2c/devices/$MAIN-005d
check_true "0x5d on lps001wp-sim bound to lps001wp (loaded first)" wait_for 5 bound_to_lps001wp "$M5D"
echo "$MAIN-005d" > /sys/bus/i2c/drivers/lps001wp/unbind
echo "$MAIN-005d" > /sys/bus/i2c/drivers/st-press-i2c/bind
check_eq "0x5d rebound to st_pressure_i2c" st-press-i2c "$(basename "$(readlink "$M5D/driver")")"
check_eq "two IIO devices named lps001wp" 2 \
	"$(grep -lx lps001wp /sys/bus/iio/devices/iio:device*/name | wc -l)"
ours=$(for d in /sys/bus/i2c/drivers/lps001wp/*/iio:device*; do echo "${d##*/}"; done)
check_eq "README: /sys/bus/i2c/drivers/lps001wp/*/iio:device* is ours only" \
	"$(for d in "$CL"/iio:device*; do echo "${d##*/}"; done)" "$ours"
echo 0x5d > "$SIM/delete_device"
check_true "rmmod st_pressure_i2c" rmmod st_pressure_i2c
check_eq "remove the mainline-compatible overlay" 0 "$(write_errno "$SIM/overlay_remove" "$ID")"
check_false "client 0x5c gone" test -e "$CL"

# ---- in chunks, twice, and left applied at rmmod ----
check_true "overlay written in 64-byte chunks" dd if="$OV" of="$SIM/overlay" bs=64 conv=notrunc
check_true "same overlay again: bound again" wait_for 5 bound_to_lps001wp /sys/bus/i2c/devices/"$BUS"-005d
check_eq "one overlay applied" 1 "$(grep -c . "$SIM/overlay")"
check_true "rmmod lps001wp_sim with the overlay applied" rmmod lps001wp_sim
check_false "overlay removed with the module (node gone)" test -e /sys/firmware/devicetree/base/i2c-sim/pressure@5d
check_false "client gone with the module" iio_dev lps001wp
check_true "modprobe lps001wp_sim again" modprobe lps001wp_sim
BUS=$(i2c_bus_of lps001wp-sim-of)
check_eq "no client after reload" "" "$(clients "$BUS")"
check_eq "no overlay after reload" "" "$(cat "$SIM/overlay")"

check_true "rmmod lps001wp" rmmod lps001wp
check_true "rmmod lps001wp_sim" rmmod lps001wp_sim
