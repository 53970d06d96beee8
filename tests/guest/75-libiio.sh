# shellcheck shell=sh
# The device as Debian 12's libiio 0.24 tools show it, pinned so that what
# the README says about them stays true: iio_info's channel view (libiio
# moves the unindexed in_pressure_* files onto pressure1, so the absolute
# pressure has no attributes there), iio_attr per channel, direct_reg_access
# readable before any address is written, iio_readdev for the absolute
# pressure, and the README's hrtimer recipe (trigger rate set in sysfs,
# selected through current_trigger, no -t) against iio_readdev -t, which
# sets an hrtimer to 100 Hz.

plan 31
A=0x5c

# On 6.1, rmdir of an hrtimer trigger touches it after freeing it (KASAN:
# trigger_drop_group() puts a freed item), so the trigger made here stays.

# view: "channel attr=value" per attribute of our device in iio_info's
# output ($1), channels in iio_info's order; "dev", "buffer" and "debug"
# for the device's own attribute lists.
view() {
	sed -n "/^[[:space:]]*${D##*/}: lps001wp/,/^[[:space:]]*\(iio:device[0-9]*\|trigger[0-9]*\|iio_sysfs_trigger\):/p" "$1" |
		awk '
		/\(input, index:/ { sub(/^[[:space:]]*/, ""); sub(/:.*/, ""); cur = $0; next }
		/device-specific attributes found/ { cur = "dev"; next }
		/buffer-specific attributes found/ { cur = "buffer"; next }
		/debug attributes found/ { cur = "debug"; next }
		/attr +[0-9]+: / && cur != "" {
			s = $0; sub(/.*attr +[0-9]+: /, "", s)
			name = s; sub(/ .*/, "", name)
			val = s; sub(/^[^ ]* /, "", val); sub(/^value: /, "", val)
			print cur, name "=" val
		}'
}
# chan_attrs CHANNEL: that channel's attributes from the view, on one line
chan_attrs() {
	awk -v c="$1" '$1 == c { printf "%s%s", sep, $2; sep = " " }' /tmp/view.txt
}

load_modules
echo "const 17000 1280" > "$SIM/5c/stimulus"
new_client irq=rising
check_true "device present" test -n "$D"
N=${D##*iio:device}
echo 16000 > "$D/in_pressure1_reference_raw"
echo 12.5 > "$D/sampling_frequency"
# sysfs, the reference: P 17000, T 1280, DELTA 16000 - 17000
check_eq "sysfs: in_pressure_raw, in_temp_raw, in_pressure1_raw" "17000 1280 -1000" \
	"$(cat "$D/in_pressure_raw" "$D/in_temp_raw" "$D/in_pressure1_raw" | tr '\n' ' ' | sed 's/ $//')"

# ---- direct_reg_access before any address was written ----
# The IIO core starts it at 0x00, no register here; iio_info reads it as
# it stands, so point it at WHO_AM_I first, as a user would.
DBG=/sys/kernel/debug/iio/iio:device$N/direct_reg_access
check_eq "direct_reg_access starts at the core's 0x00: EINVAL" "ERR:dd: $DBG: Invalid argument" \
	"$(read_errno "$DBG")"
echo 0x0f > "$DBG"
dmesg -c > /dev/null

# ---- iio_info ----
iio_info > /tmp/iio_info.txt 2>&1
check_eq "iio_info exits 0" 0 "$?"
view /tmp/iio_info.txt > /tmp/view.txt
check_eq "iio_info: channels in order" "pressure temp pressure1 timestamp" \
	"$(sed -n "/^[[:space:]]*${D##*/}: lps001wp/,/device-specific/p" /tmp/iio_info.txt |
		sed -n 's/^[[:space:]]*\([a-z0-9]*\): *(input, index.*/\1/p' | tr '\n' ' ' | sed 's/ $//')"
check_eq "iio_info: pressure has no attributes (libiio moved in_pressure_* to pressure1)" "" \
	"$(chan_attrs pressure)"
check_eq "iio_info: temp attributes" "label=temperature raw=1280 scale=15.625000000" \
	"$(chan_attrs temp)"
# Both raw entries are named "raw" and libiio reads the first file of that
# name, in_pressure1_raw: -1000 twice, never 17000.
check_eq "iio_info: pressure1 shows two labels and two raws, all of in_pressure1" \
	"label=differential label=differential raw=-1000 raw=-1000 reference_raw=16000 scale=0.006250000" \
	"$(chan_attrs pressure1)"
check_eq "iio_info: debug attribute direct_reg_access reads WHO_AM_I" "direct_reg_access=0xBA" \
	"$(chan_attrs debug)"
check_eq "iio_info: sampling_frequency" "sampling_frequency=12.500000" \
	"$(chan_attrs dev | grep -o 'sampling_frequency=[0-9.]*')"
check_eq "iio_info: no ERROR in our device's block" 0 \
	"$(sed -n "/^[[:space:]]*${D##*/}: lps001wp/,/^[[:space:]]*\(iio:device[0-9]*\|trigger[0-9]*\|iio_sysfs_trigger\):/p" \
		/tmp/iio_info.txt | grep -c ERROR)"
check_eq "kernel log: no failed debugfs read" 0 "$(dmesg | grep -c 'read failed')"

# ---- iio_attr ----
out=$(iio_attr -c lps001wp temp raw 2>&1)
check_eq "iio_attr -c lps001wp temp raw" 1280 "$out"
out=$(iio_attr -c lps001wp pressure raw 2>&1)
rc=$?
check_eq "iio_attr -c lps001wp pressure raw: not found" "1 could not find attribute (raw)" \
	"$rc $(echo "$out" | sed -n 's/.*Error : //p')"
# two attributes named raw, both read from in_pressure1_raw
out=$(iio_attr -c lps001wp pressure1 raw 2>&1)
check_eq "iio_attr -c lps001wp pressure1 raw: DELTA twice" "-1000 -1000" "$(echo "$out" | tr '\n' ' ' | sed 's/ $//')"
out=$(iio_attr -c lps001wp pressure1 reference_raw 2>&1)
check_eq "iio_attr -c lps001wp pressure1 reference_raw" 16000 "$out"
out=$(iio_attr -D lps001wp direct_reg_access 2>&1)
check_eq "iio_attr -D lps001wp direct_reg_access" 0xBA "$out"

# ---- iio_readdev: the absolute pressure through the buffer ----
# by id, as the README does (st_pressure's device has the same name)
timeout 30 iio_readdev -t "lps001wp-dev$N" -T 0 -b 4 -s 4 "iio:device$N" pressure > /tmp/p.bin 2> /tmp/readdev.err
check_eq "iio_readdev -t lps001wp-devN iio:deviceN: 4 scans of in_pressure" "17000 17000 17000 17000" \
	"$(od -An -v -tu2 -w2 /tmp/p.bin | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')"
check_eq "iio_readdev: prints libiio's 'High-speed mode not enabled' warning" 1 \
	"$(grep -c 'WARNING: High-speed mode not enabled' /tmp/readdev.err)"
check_eq "iio_readdev -b 4 without high-speed mode: kernel buffer of 4 x 4 scans" 16 \
	"$(cat "$D/buffer/length")"
echo > "$D/trigger/current_trigger"

# ---- hrtimer recipe: rate in sysfs, selected in sysfs, no -t ----
mkdir /sys/kernel/config/iio/triggers/hrtimer/lpsl
T=$(iio_trigger lpsl)
check_true "hrtimer trigger lpsl" test -n "$T"
check_eq "hrtimer sampling_frequency 12.5" 0 "$(write_errno "$T/sampling_frequency" 12.5)"
check_eq "select it through current_trigger" 0 "$(write_errno "$D/trigger/current_trigger" lpsl)"
# +3 pressure LSB per chip sample: the number of distinct values is the
# number of chip samples the scans saw. How many that is depends on the
# guest's speed (at the chip's rate nearly every scan is a new sample on an
# idle host, at 100 Hz one in eight), so it is a figure of the line; the
# check is what holds at any speed: every scan is a sample of the ramp,
# none is older than the one before, and the last is newer than the first
# (40 scans span 0.4 s or more of the guest's clock, which the chip's
# samples follow: 5 at least; a driver repeating one sample fails).
# ramp_in_order FILE: 40 scans of the ramp, in sample order
ramp_in_order() {
	od -An -v -tu2 -w2 "$1" | awk '
		{ n++; if ($1 < 16000 || ($1 - 16000) % 3 || (n > 1 && $1 < p)) bad = 1; if (n == 1) f = $1; p = $1 }
		END { exit bad || n != 40 || p == f }'
}
echo "ramp 16000 3 1600 1" > "$SIM/5c/stimulus"
timeout 30 iio_readdev -T 0 -b 4 -s 40 "iio:device$N" pressure > /tmp/h.bin 2> /tmp/readdev.err
distinct=$(od -An -v -tu2 -w2 /tmp/h.bin | sort -u | wc -l)
check_eq "iio_readdev without -t: 40 scans" 80 "$(stat -c %s /tmp/h.bin)"
check_eq "iio_readdev without -t keeps current_trigger" lpsl "$(cat "$D/trigger/current_trigger")"
check_eq "iio_readdev without -t keeps the hrtimer at 12.5 Hz" 12.500000 "$(cat "$T/sampling_frequency")"
note "$distinct distinct samples in 40 scans"
check_true "hrtimer at the chip's rate: scans are ramp samples in order" ramp_in_order /tmp/h.bin
timeout 30 iio_readdev -t lpsl -T 0 -b 4 -s 40 "iio:device$N" pressure > /tmp/h.bin 2> /tmp/readdev.err
distinct=$(od -An -v -tu2 -w2 /tmp/h.bin | sort -u | wc -l)
check_eq "iio_readdev -t sets the hrtimer to 100 Hz" 100.000000 "$(cat "$T/sampling_frequency")"
note "$distinct distinct samples in 40 scans"
check_true "iio_readdev -t (100 Hz): scans are ramp samples in order" ramp_in_order /tmp/h.bin
echo > "$D/trigger/current_trigger"

echo "$A" > "$SIM/delete_device"
check_true "rmmod lps001wp" rmmod lps001wp
check_true "rmmod lps001wp_sim" rmmod lps001wp_sim
