# shellcheck shell=sh
# The driver on an SMBus-only adapter (i2c-stub): registers preloaded with
# i2cset, device made through new_device, as a user without the simulator
# (or on Debian's stock kernel) would. i2c-stub ignores the auto-increment
# bit, so every register the driver reads is preloaded at both its address
# and address | 0x80.

# one more where the package boot says which version it installed
if [ -f /tests/expect-version ]; then plan 11; else plan 10; fi
ADDR=0x5c

stub_load() {
	modprobe i2c-stub chip_addr=$ADDR || return 1
	BUS=$(i2c_bus_of "SMBus stub driver") || return 1
}

new_device() {
	echo "lps001wp $ADDR" > "/sys/bus/i2c/devices/i2c-$BUS/new_device"
}

delete_device() {
	echo "$ADDR" > "/sys/bus/i2c/devices/i2c-$BUS/delete_device"
}

modprobe lps001wp
# tests/package.sh boots the module the Debian package built, and names its version.
if [ -f /tests/expect-version ]; then
	check_eq "the loaded module is the package's" "$(cat /tests/expect-version)" "$(cat /sys/module/lps001wp/version)"
fi
check_true "i2c-stub loads with a chip at $ADDR" stub_load

stub_preload "$BUS" $ADDR 0xba
new_device
if dev=$(iio_dev lps001wp); then
	pass "probe on an SMBus-only adapter registers an IIO device"
	check_eq "in_pressure_raw from PRESS_OUT" 16212 "$(cat "$dev/in_pressure_raw")"
	check_eq "in_pressure_scale is 1/160 kPa" 0.006250000 "$(cat "$dev/in_pressure_scale")"
	check_eq "in_temp_raw from TEMP_OUT (signed)" 1600 "$(cat "$dev/in_temp_raw")"
	check_eq "in_temp_scale is 15.625 m°C" 15.625000000 "$(cat "$dev/in_temp_scale")"
	check_eq "in_pressure1_raw from DELTA (signed)" -64 "$(cat "$dev/in_pressure1_raw")"
	# Probe sets BDU (bit 2). The driver's writes carry the auto-increment
	# bit, and i2c-stub does not strip it: CTRL_REG1 lands at 0xa0.
	ctrl1=$(i2cget -f -y "$BUS" $ADDR 0xa0 b)
	check_eq "CTRL_REG1 has BDU set" 4 $(( ctrl1 & 0x04 ))
else
	fail "probe on an SMBus-only adapter registers an IIO device" "no iio device named lps001wp"
fi
delete_device

# A sibling part answers at the same address: probe must refuse it.
stub_preload "$BUS" $ADDR 0xbb
dmesg -c > /dev/null
new_device
check_false "WHO_AM_I 0xbb: no IIO device" iio_dev lps001wp
check_true "WHO_AM_I 0xbb: the log names the value and the expected one" \
	sh -c 'dmesg | grep -i lps001wp | grep -q "WHO_AM_I 0xbb, expected 0xba"'
delete_device

rmmod i2c-stub
rmmod lps001wp
