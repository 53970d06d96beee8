# shellcheck shell=sh
# The documentation names exactly what the driver creates. The files under
# the IIO device's directory (attributes, scan_elements/, events/,
# trigger/) are listed on a device with an interrupt, less the core's own
# (CORE_NAMES below), and compared both ways with the names of
# Documentation/iio/lps001wp.rst (first cell of its "Device file" tables)
# and, less the generic IIO files (is_generic), with those of
# Documentation/ABI/testing/sysfs-bus-iio-pressure-lps001wp (its What:
# lines), which documents only the driver's own. check.sh copies both into
# /tests. A name in one and not the other fails, and the names that differ
# follow the '#'.

plan 7
A=0x5c
RST=/tests/lps001wp.rst
ABI=/tests/sysfs-bus-iio-pressure-lps001wp

# Present on IIO devices whatever the driver, so neither document lists them:
#   dev uevent subsystem of_node power/*  the driver core's, every device
#                                         (the chip's runtime PM is on the
#                                         I2C client, not here)
#   waiting_for_supplier                  the driver core's, a device with a
#                                         firmware node (fw_devlink)
#   name current_timestamp_clock          the IIO core's, every device
#   label                                 the IIO core's, with a firmware label
#   buffer/* buffer0/*                    the buffer core's controls, the
#                                         same on every buffered device;
#                                         buffer0/ repeats buffer/ and
#                                         scan_elements/ (multi-buffer ABI)
is_core() {
	case "$1" in
	dev | uevent | subsystem | of_node | power/* | waiting_for_supplier | name | \
		current_timestamp_clock | label | buffer/* | buffer0/*) return 0 ;;
	esac
	return 1
}

# The generic IIO files, the IIO core's for any pressure and temperature
# channel: the kernel's Documentation/ABI/testing/sysfs-bus-iio defines
# them by name (in_pressure_raw, trigger/current_trigger) or as the
# buffer's (bufferY/in_pressure_en for scan_elements/), except
# in_temp_scale, the core's scale file as in_pressure_scale is. The .rst
# gives this chip's values; the ABI file does not define them again (the
# kernel's ABI validator, tests/lint/abi.sh, reports a second definition).
is_generic() {
	case "$1" in
	in_pressure_raw | in_pressure_scale | in_temp_raw | in_temp_scale | \
		sampling_frequency | sampling_frequency_available | \
		scan_elements/* | trigger/current_trigger) return 0 ;;
	esac
	return 1
}

# created DIR: every file (or link) under DIR, relative to it, one a line,
# the core's left out. A subshell per directory: busybox sh has no locals.
created() {
	for cr_f in "$1"/*; do
		[ -e "$cr_f" ] || [ -L "$cr_f" ] || continue
		cr_n=${cr_f#"$D"/}
		if [ -d "$cr_f" ] && [ ! -L "$cr_f" ]; then
			is_core "$cr_n/" || (created "$cr_f")
		else
			is_core "$cr_n" || echo "$cr_n"
		fi
	done
}

# rst_names: the first cell of every row of the tables headed "Device
# file", split at commas and blanks
rst_names() {
	awk '
		!/^[|+]/ { tab = 0; next }
		/^\|/ {
			split($0, c, "|")
			cell = c[2]
			gsub(/^ +| +$/, "", cell)
			if (cell == "Device file") { tab = 1; next }
			if (!tab) next
			n = split(cell, w, /[ ,]+/)
			for (i = 1; i <= n; i++) if (w[i] != "") print w[i]
		}' "$RST" | sort -u
}

# abi_names: the What: lines, relative to the device directory
abi_names() {
	sed -n 's|^What:[[:space:]]*/sys/bus/iio/devices/iio:deviceX/||p' "$ABI" | sort -u
}

# only_in A B: the lines of file A that file B lacks, on one line
only_in() {
	awk 'NR == FNR { b[$0] = 1; next } !($0 in b)' "$2" "$1" | tr '\n' ' ' | sed 's/ $//'
}

load_modules
new_client irq=rising
check_true "device with an interrupt present" test -n "$D" -a -d "$D/events"
created "$D" | sort -u > /tmp/abi.created
while read -r ab_n; do
	is_generic "$ab_n" || echo "$ab_n"
done < /tmp/abi.created > /tmp/abi.own
rst_names > /tmp/abi.rst
abi_names > /tmp/abi.abi
note "$(wc -l < /tmp/abi.created) created, $(wc -l < /tmp/abi.rst) in the .rst, $(wc -l < /tmp/abi.abi) in the ABI file"
check_true "the threshold's one value file is created" test -f "$D/events/in_pressure1_thresh_either_value"

compare() {
	co_d=$(only_in "$2" "$3")
	if [ -z "$co_d" ]; then pass "$1"; else fail "$1" "$co_d"; fi
}
compare "every created name is in the .rst" /tmp/abi.created /tmp/abi.rst
compare "every name in the .rst is created" /tmp/abi.rst /tmp/abi.created
compare "every created name but the generic IIO ones is in the ABI file" /tmp/abi.own /tmp/abi.abi
compare "every name in the ABI file is created and the driver's own" /tmp/abi.abi /tmp/abi.own

# Without an interrupt the documents say there are no events: the same
# names less events/
echo $A > "$SIM"/delete_device
new_client
created "$D" | sort -u > /tmp/abi.noirq
grep -v '^events/' /tmp/abi.created > /tmp/abi.want
co_x="$(only_in /tmp/abi.noirq /tmp/abi.want) $(only_in /tmp/abi.want /tmp/abi.noirq)"
co_x=${co_x# }
co_x=${co_x% }
if [ -z "$co_x" ]; then
	pass "without an interrupt: the same names less events/"
else
	fail "without an interrupt: the same names less events/" "$co_x"
fi

echo $A > "$SIM"/delete_device
rmmod lps001wp
rmmod lps001wp_sim
