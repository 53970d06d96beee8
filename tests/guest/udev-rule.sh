# shellcheck shell=sh
# The PC path as `lps001wp-setup pc --adapter "SMBus stub driver"` wrote it
# in tests/package.sh's chroot: its udev rules and its modprobe alias, the
# files themselves, run by this machine's systemd-udevd (in /tests/udev,
# through its own dynamic loader: the guest has no libc) on Debian's own
# kernel with mainline's st_pressure_i2c beside the driver. Both drivers
# claim the I2C name "lps001wp"; the setup keeps st_pressure_i2c from the
# rule's device only. Then the package's plugdev rule: the rights it gives
# that group on the lps001wp device (and not on st_pressure's), used by
# users in and out of the group with the package's lps001wp-read. Booted by
# tests/package.sh's guest only.

plan 20
U=/tests/udev
ADDR=0x5c
# a second LPS001WP on the same adapter, not the rule's: st_pressure_i2c's
OTHER=0x5d

udevadm() {
	"$U/lib/ld-linux-x86-64.so.2" --library-path "$U/lib" "$U/udevadm" "$@"
}
# settle: udevd's queue empty, again until no uevent came during the
# settle: an event's rule makes the next one (the adapter's add creates the
# device), and the kernel's uevent sequence number counts each
settle() {
	st_i=0
	while [ $st_i -lt 10 ]; do
		read -r st_seq < /sys/kernel/uevent_seqnum
		udevadm settle --timeout=10
		read -r st_now < /sys/kernel/uevent_seqnum
		[ "$st_now" = "$st_seq" ] && return 0
		st_i=$((st_i + 1))
	done
	return 1
}
# driver_of DEV: the name of the driver DEV is bound to, or nothing
driver_of() {
	do_l=$(readlink "$1/driver") && echo "${do_l##*/}"
}
bound_to() {
	[ "$(driver_of "$1")" = "$2" ]
}
# reads_through DEV DRIVER: in_pressure_raw of DEV's own IIO device (both
# drivers name theirs lps001wp) if DEV is bound to DRIVER
reads_through() {
	rt_d=$(driver_of "$1")
	if [ "$rt_d" != "$2" ]; then
		echo "bound to '$rt_d', not $2"
		return
	fi
	for rt_i in "$1"/iio:device*; do
		cat "$rt_i/in_pressure_raw" 2>&1
		return
	done
}

check_false "neither lps001wp nor st_pressure_i2c is loaded before udev runs" \
	sh -c 'test -d /sys/module/lps001wp || test -d /sys/module/st_pressure_i2c'

# The chips are preloaded before the device can exist: i2c-stub is in
# place before udevd starts, the adapter's add uevent comes after.
modprobe i2c-stub chip_addr=$ADDR,$OTHER
BUS=$(i2c_bus_of "SMBus stub driver")
dev=/sys/bus/i2c/devices/$BUS-00${ADDR#0x}
other=/sys/bus/i2c/devices/$BUS-00${OTHER#0x}
stub_preload "$BUS" $ADDR
stub_preload "$BUS" $OTHER

mkdir -p /etc/udev/rules.d /etc/modprobe.d /run/udev
# a merged-/usr libkmod (Debian 13) looks in /usr/lib/modules
[ -e /usr/lib/modules ] || { mkdir -p /usr/lib && ln -s /lib/modules /usr/lib/modules; }
cp "$U"/*.rules /etc/udev/rules.d/
cp "$U"/lps001wp-setup.conf /etc/modprobe.d/
# Users for the plugdev rule: "reader" in plugdev (Debian's gid 46),
# "other" not; udevd resolves the rule's group name as it reads the rules
mkdir -p /etc /home
printf 'root:x:0:0::/root:/bin/sh\nreader:x:1000:1000::/home:/bin/sh\nother:x:1001:1001::/home:/bin/sh\n' > /etc/passwd
printf 'root:x:0:\nplugdev:x:46:reader\nreader:x:1000:\nother:x:1001:\n' > /etc/group
printf 'passwd: files\ngroup: files\n' > /etc/nsswitch.conf
# the initramfs' directories are root's alone (0700): users must reach
# their shell, /tests/udev's loader and the reader
chmod 755 / /bin /tests /tests/udev /tests/udev/lib
"$U/lib/ld-linux-x86-64.so.2" --library-path "$U/lib" "$U/systemd-udevd" --daemon --resolve-names=early
check_true "systemd-udevd runs" wait_for 10 test -S /run/udev/control

# -- st_pressure_i2c not loaded: udev's modalias load brings lps001wp only
echo add > "/sys/bus/i2c/devices/i2c-$BUS/uevent"
settle
wait_for 10 bound_to "$dev" lps001wp
check_eq "st_pressure_i2c not loaded: the rule creates the device when the adapter appears" \
	lps001wp "$(cat "$dev/name" 2>&1)"
check_true "st_pressure_i2c not loaded: udev loads lps001wp" test -d /sys/module/lps001wp
check_false "st_pressure_i2c not loaded: udev does not load it (the modprobe alias)" \
	test -d /sys/module/st_pressure_i2c
check_eq "st_pressure_i2c not loaded: the device is bound to lps001wp" lps001wp "$(driver_of "$dev")"
check_eq "st_pressure_i2c not loaded: the device reads through lps001wp: in_pressure_raw" \
	16212 "$(reads_through "$dev" lps001wp)"

echo $ADDR > "/sys/bus/i2c/devices/i2c-$BUS/delete_device"
rmmod lps001wp
settle

# -- st_pressure_i2c loaded first (another ST sensor needs it): it takes
# the device as it appears, the bind rule gives it to lps001wp
check_true "st_pressure_i2c loaded first: modprobe st_pressure_i2c" modprobe st_pressure_i2c
stub_preload "$BUS" $ADDR
udevadm monitor --kernel --property --subsystem-match=i2c > /tmp/udev-events 2>&1 &
mon=$!
# The monitor has subscribed once it logs an event (its output is line
# buffered; its header comes before it subscribes): a change uevent of
# the adapter, which no rule acts on, until one shows
subscribed=no
mh_i=0
while [ $mh_i -lt 50 ] && [ $subscribed = no ]; do
	echo change > "/sys/bus/i2c/devices/i2c-$BUS/uevent"
	nap 0.2
	grep -q '^ACTION=change' /tmp/udev-events && subscribed=yes
	mh_i=$((mh_i + 1))
done
echo add > "/sys/bus/i2c/devices/i2c-$BUS/uevent"
settle
wait_for 10 bound_to "$dev" lps001wp
kill "$mon" 2>/dev/null
# the drivers of the device's bind uevents, in order
took=$(awk -v dev="/$BUS-00${ADDR#0x}" '
	function event() {
		if (a == "bind" && substr(p, length(p) - length(dev) + 1) == dev)
			out = out (out == "" ? "" : " ") d
		a = p = d = ""
	}
	/^ACTION=/ { a = substr($0, 8) }
	/^DEVPATH=/ { p = substr($0, 9) }
	/^DRIVER=/ { d = substr($0, 8) }
	/^$/ { event() }
	END { event(); print out }' /tmp/udev-events)
[ "$subscribed" = yes ] || took="(the monitor never logged an event) $took"
check_eq "st_pressure_i2c loaded first: it takes the device first (the bind uevents' drivers)" \
	"st-press-i2c lps001wp" "$took"
check_eq "st_pressure_i2c loaded first: the device ends bound to lps001wp" lps001wp "$(driver_of "$dev")"
check_eq "st_pressure_i2c loaded first: the device reads through lps001wp: in_pressure_raw" \
	16212 "$(reads_through "$dev" lps001wp)"
check_true "st_pressure_i2c loaded first: it stays loaded, its driver registered" \
	sh -c 'test -d /sys/module/st_pressure_i2c && test -d /sys/bus/i2c/drivers/st-press-i2c'

# -- this device only: an lps001wp at another address stays st_pressure's
echo "lps001wp $OTHER" > "/sys/bus/i2c/devices/i2c-$BUS/new_device"
settle
check_eq "another lps001wp, not at the rule's address: st_pressure_i2c keeps it" \
	st-press-i2c "$(driver_of "$other")"
check_eq "another lps001wp, not at the rule's address: it reads through st_pressure_i2c: in_pressure_raw" \
	16212 "$(reads_through "$other" st-press-i2c)"

# -- the plugdev rule (60-lps001wp-plugdev.rules): both devices are there
for i in "$dev"/iio:device*; do iio=${i##*/}; done
for i in "$other"/iio:device*; do iio_other=${i##*/}; done
I=/sys/bus/iio/devices/$iio
check_eq "plugdev rule: the lps001wp device's node is group plugdev, mode 660" "plugdev 660" \
	"$(stat -c '%G %a' "/dev/$iio" 2>&1)"
check_eq "plugdev rule: st_pressure's device node keeps root's" "root 600" \
	"$(stat -c '%G %a' "/dev/$iio_other" 2>&1)"
perms=
for f in buffer/enable buffer/length scan_elements/in_pressure_en scan_elements/in_temp_en \
	scan_elements/in_pressure1_en scan_elements/in_timestamp_en trigger/current_trigger in_pressure1_reference_raw; do
	perms="$perms $(stat -c '%G %A' "$I/$f" 2>&1)"
done
check_eq "plugdev rule: the files lps001wp-read writes are plugdev's to write" \
	"$(for i in 1 2 3 4 5 6 7 8; do printf ' plugdev -rw-rw-r--'; done)" "$perms"
# as USER: open the node, enable a scan element and disable it again
rights() {
	# dd's record counts only when the open failed
	su -s /bin/sh "$1" -c "o=\$(dd if=/dev/$iio of=/dev/null count=0 2>&1) || { echo \"\$o\"; exit 1; }
		echo 1 > $I/scan_elements/in_pressure_en && echo 0 > $I/scan_elements/in_pressure_en" > /tmp/rights.out 2>&1
	echo "$? $(head -c 100 /tmp/rights.out)"
}
check_eq "plugdev rule: a member of plugdev opens the node and writes a scan element" "0 " "$(rights reader)"
denied() {
	case $(rights other) in [1-9]*"can't open '/dev/$iio': Permission denied"*) return 0 ;; esac
	return 1
}
check_true "plugdev rule: a user outside plugdev cannot open it (Permission denied)" denied
read_as() {
	su -s /bin/sh "$1" -c "$U/lib/ld-linux-x86-64.so.2 --library-path $U/lib $U/lps001wp-read $2" 2>&1
	echo "status $?"
}
check_eq "the package's lps001wp-read as a user outside plugdev: the lps001wp device's reading (sysfs)" \
	"pressure 1013.25 hPa, temperature 25.00 °C, DELTA -4.00 hPa (reference 0.00 hPa) status 0" \
	"$(read_as other | tr '\n' ' ' | sed 's/ $//')"

for a in $OTHER $ADDR; do
	echo "$a" > "/sys/bus/i2c/devices/i2c-$BUS/delete_device"
done
settle
kill "$(pidof systemd-udevd)" 2>/dev/null
rmmod i2c-stub
rmmod lps001wp
rmmod st_pressure_i2c st_pressure st_sensors_i2c st_sensors
