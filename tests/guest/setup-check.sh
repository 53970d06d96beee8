# shellcheck shell=sh
# `lps001wp-setup check` and `status`, the package's own command (from
# tests/package.sh's chroot), on Debian's own kernel with the module the
# package built, an i2c-stub chip preloaded as an LPS001WP (16212: 1013.25
# hPa, 1600: 25 °C) and mainline's st_pressure_i2c beside the driver. The
# check is walked through what a user meets: nothing set up, a sensor
# declared on an adapter with no device yet, a device whose module did not
# load (as under Secure Boot), the sensor bound and read, a read that
# fails, the device taken by st_pressure_i2c. Booted by tests/package.sh's guest only.

plan 20
SETUP=/tests/lps001wp-setup
ADDR=0x5c
KVER=$(uname -r)
NAME="SMBus stub driver"

# run_check: the check's output in OUT (stdout and stderr), its status in RC
run_check() {
	OUT=$("$SETUP" check 2>&1)
	RC=$?
	note "exit $RC: $(printf '%s' "$OUT" | tr '\n' '|' | head -c 600)"
}
# line_of TEXT: the check's first output line that holds TEXT
line_of() {
	printf '%s\n' "$OUT" | grep -F -m 1 -- "$1"
}
last_line() {
	printf '%s\n' "$OUT" | tail -n 1
}
# status_of: the pc line of lps001wp-setup status
status_of() {
	"$SETUP" status 2>&1 | grep '^pc: '
}

modprobe i2c-stub chip_addr=$ADDR
BUS=$(i2c_bus_of "$NAME")
N=$BUS-00${ADDR#0x}
dev=/sys/bus/i2c/devices/$N
stub_preload "$BUS" $ADDR

# -- nothing set up: the module is built (the package's, in extra/), not
# loaded, and no device is declared
run_check
check_eq "nothing set up: check exits 1" 1 "$RC"
check_eq "nothing set up: the module built for the running kernel is found" \
	"ok       module built for $KVER: /lib/modules/$KVER/extra/lps001wp.ko" \
	"$(line_of "module built")"
check_eq "nothing set up: not loaded, not missing yet with no device to load it for" \
	"--       module loaded: no, and no device to load it for yet|" \
	"$(line_of "module loaded")|$(line_of "Secure Boot")"
check_eq "nothing set up: no device, none declared, and how to declare one" \
	"MISSING  I2C device bound to lps001wp: none, and lps001wp-setup declared none" \
	"$(line_of "I2C device")"
check_eq "nothing set up: the last line names the first missing piece" \
	"lps001wp-setup check: no reading: I2C device bound to lps001wp: none, and lps001wp-setup declared none" "$(last_line)"

# -- declared on the stub's adapter; udevd does not run, so no device yet
check_true "setup pc declares the sensor on the stub's adapter" "$SETUP" pc --adapter "$NAME" --address $ADDR
check_eq "declared, no device: status says not bound and points to check" \
	"pc: sensor at $ADDR on the adapter named \"$NAME\": not bound: the adapter is bus $BUS, and the udev rule has not created its device ('lps001wp-setup check' says what to do)" \
	"$(status_of)"
run_check
check_eq "declared, no device: check exits 1, names the device and how to make it" \
	"1|MISSING  I2C device of the sensor at $ADDR on \"$NAME\" (lps001wp-setup pc): none|         unplug and plug the adapter in again, or: sudo udevadm trigger --action=add --subsystem-match=i2c" \
	"$RC|$(line_of "I2C device of")|$(line_of "udevadm trigger")"

# -- the device as the udev rule makes it, the module not loaded: what a
# Secure Boot machine shows when the module's key is unknown (the kernel's
# line written to the log here, as such a kernel writes it)
echo "lps001wp $ADDR" > "/sys/bus/i2c/devices/i2c-$BUS/new_device"
echo "Loading of module with unavailable key is rejected" > /dev/kmsg
check_false "a device and no module: the device exists, the module is not loaded" \
	sh -c "test ! -e $dev || test -d /sys/module/lps001wp"
run_check
check_eq "a device and no module: check exits 1, the device has no driver" \
	"1|MISSING  I2C device bound to lps001wp: no, $N (0x5c on \"$NAME\") has no driver" \
	"$RC|$(line_of "I2C device bound")"
check_eq "a device and no module: Secure Boot, from its state and the kernel's log line to mokutil" \
	"MISSING  module loaded: no|         Secure Boot: unknown, mokutil is not installed (sudo apt install mokutil; mokutil --sb-state)|         kernel log: Loading of module with unavailable key is rejected|         Secure Boot loads only modules signed by a key it knows: enroll DKMS's key once,|           sudo mokutil --import /var/lib/dkms/mok.pub (Ubuntu: /var/lib/shim-signed/mok/MOK.der)," \
	"$(line_of "module loaded")|$(line_of "Secure Boot:")|$(line_of "kernel log: Loading")|$(line_of "Secure Boot loads")|$(line_of "mokutil --import")"
check_eq "a device and no module: status says not bound" \
	"pc: sensor at $ADDR on the adapter named \"$NAME\": not bound: $N exists, no driver has it ('lps001wp-setup check' says what to do)" \
	"$(status_of)"

# -- the module loaded: bound, one reading
modprobe lps001wp
wait_for 10 test -e "$dev/driver"
run_check
check_eq "bound: check exits 0" 0 "$RC"
IIO=
for i in "$dev"/iio:device*; do IIO=${i##*/}; done
check_eq "bound: the device on its adapter, its IIO device without INT1" \
	"ok       I2C device bound to lps001wp: $N (0x5c on \"$NAME\")|ok       IIO device: $IIO of $N (no INT1: no events, streaming with a software trigger)" \
	"$(line_of "I2C device")|$(line_of "IIO device")"
check_eq "bound: one reading in hPa and °C, the sysfs values scaled" \
	"ok       a reading from $IIO: 1013.25 hPa, 25.00 °C" "$(line_of "a reading")"
check_eq "bound: nothing missing, the last line says so" \
	"|lps001wp-setup check: the sensor works" "$(line_of MISSING)|$(last_line)"
check_eq "bound: status says bound, with the IIO device" \
	"pc: sensor at $ADDR on the adapter named \"$NAME\": bound to lps001wp ($N, $IIO)" "$(status_of)"

# -- the chip gives no sample (STATUS never says data ready): the read
# fails, and check says which and with what error, not a reading
i2cset -f -y "$BUS" $ADDR 0x27 0x00 b && i2cset -f -y "$BUS" $ADDR 0xa7 0x00 b
run_check
check_eq "no sample: check exits 1 and names the read that failed, with its error" \
	"1|MISSING  a reading from $IIO: in_pressure_raw: Connection timed out|         the chip answers but gave no sample: check its power; the driver's messages: sudo dmesg | grep lps001wp|" \
	"$RC|$(line_of "a reading from")|$(line_of "gave no sample")|$(line_of " hPa, ")"
stub_preload "$BUS" $ADDR

# -- st_pressure_i2c has it (what setup's udev rule prevents)
echo "$N" > /sys/bus/i2c/drivers/lps001wp/unbind
modprobe st_pressure_i2c
[ -e "$dev/driver" ] || echo "$N" > /sys/bus/i2c/drivers/st-press-i2c/bind
run_check
check_eq "taken by st_pressure_i2c: check exits 1, names the driver and the commands to move it" \
	"1|MISSING  I2C device bound to lps001wp: no, $N (0x5c on \"$NAME\") is bound to st-press-i2c|           echo $N | sudo tee /sys/bus/i2c/drivers/st-press-i2c/unbind" \
	"$RC|$(line_of "I2C device bound")|$(line_of "/unbind")"

echo "$ADDR" > "/sys/bus/i2c/devices/i2c-$BUS/delete_device"
check_true "setup remove undoes the declaration" "$SETUP" remove
rmmod st_pressure_i2c st_pressure st_sensors_i2c st_sensors lps001wp i2c-stub
