# shellcheck shell=sh
# The PC path's udev rule (tools/90-lps001wp.rules), its adapter name set
# to i2c-stub's as a user sets their adapter's: when the adapter appears,
# systemd-udevd creates the device and loads the driver for it. Booted by
# tests/package.sh's guest only, which brings the host's udevd in
# /tests/udev (run through its own dynamic loader: the guest has no libc).

plan 6
U=/tests/udev
ADDR=0x5c

check_false "lps001wp is not loaded before udev runs" test -d /sys/module/lps001wp
mkdir -p /etc/udev/rules.d /run/udev
# a merged-/usr libkmod (Debian 13) looks in /usr/lib/modules
[ -e /usr/lib/modules ] || { mkdir -p /usr/lib && ln -s /lib/modules /usr/lib/modules; }
cp "$U"/*.rules /etc/udev/rules.d/
"$U/lib/ld-linux-x86-64.so.2" --library-path "$U/lib" "$U/systemd-udevd" --daemon --resolve-names=never
check_true "systemd-udevd runs" wait_for 10 test -S /run/udev/control

modprobe i2c-stub chip_addr=$ADDR
BUS=$(i2c_bus_of "SMBus stub driver")
dev=/sys/bus/i2c/devices/$BUS-00${ADDR#0x}
check_true "the rule creates the device when the adapter appears" wait_for 10 test -e "$dev"
check_eq "the device is an lps001wp" lps001wp "$(cat "$dev/name" 2>/dev/null)"
check_true "udev loads the driver for it" wait_for 10 test -d /sys/module/lps001wp

# i2c-stub's registers were zero when the driver probed: preload a chip
# (as 15-stub does) and bind again.
stub_preload "$BUS" $ADDR
[ -e "$dev/driver" ] || echo "$BUS-00${ADDR#0x}" > /sys/bus/i2c/drivers/lps001wp/bind
if d=$(iio_dev lps001wp); then
	check_eq "the device reads: in_pressure_raw" 16212 "$(cat "$d/in_pressure_raw")"
else
	fail "the device reads: in_pressure_raw" "no iio device named lps001wp"
fi

echo $ADDR > "/sys/bus/i2c/devices/i2c-$BUS/delete_device"
rmmod i2c-stub
rmmod lps001wp
kill "$(pidof systemd-udevd)" 2>/dev/null
