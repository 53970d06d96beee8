#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lps001wp-setup: declare an LPS001WP to the system, the one way the user
# would otherwise do by hand, and undo it. Installed by the lps001wp-dkms
# package as /usr/sbin/lps001wp-setup; run `lps001wp-setup --help`.
#
# Everything it writes is recorded in /var/lib/lps001wp-setup/manifest, one
# record a line, fields separated by a tab:
#   file PATH SHA256          a file it created (the overlay, a udev rule, ...)
#   dir PATH                  a directory it created for one (removed if empty)
#   config PATH SHA256 ALL    config.txt, its checksum after the last write
#                             and whether an [all] line was added (1/0); the
#                             file as it was before is kept in orig.config
#   pi ADDR LINE              the config.txt line of the sensor at ADDR
#   pc ADDR ADAPTER           the sensor at ADDR on the adapter named ADAPTER
# `remove` (also run by the package's purge) undoes exactly these.
# `check` writes nothing: it reads the running system (sysfs, modinfo,
# dkms status, the kernel log, mokutil).
#
# LPS001WP_ROOT=DIR (or --root DIR) works on DIR as the root file system
# (a staging tree, a test), without needing root. LPS001WP_SHARE=DIR takes
# the overlay from DIR/overlays instead of the package's copy.
set -eu

prog=lps001wp-setup
share=${LPS001WP_SHARE:-/usr/share/lps001wp-dkms}
R=${LPS001WP_ROOT:-}
tab=$(printf '\t')
nl='
'
# The I2C device name the udev rule creates. Mainline's st_pressure_i2c
# matches it too, hence the rebinding rule below.
client=lps001wp

usage() {
	cat <<EOF
Usage: sudo $prog pi [--address 0x5c|0x5d] --int1-gpio N | --no-int1
       sudo $prog pc --adapter NAME [--address 0x5c|0x5d] [--allow-absent]
       sudo $prog status
       sudo $prog check
       sudo $prog remove
       $prog --help

Declares an LPS001WP pressure sensor so that the lps001wp driver binds to
it at every boot, and records what it wrote so that "remove" (or
"apt remove --purge lps001wp-dkms") undoes all of it.

  pi       On a Raspberry Pi: copy the lps001wp overlay to the firmware's
           overlays directory (/boot/firmware/overlays, or /boot/overlays
           before Bookworm) and add one line
             dtoverlay=lps001wp,addr=ADDR,interrupt=N
           under an [all] section of config.txt. One line per sensor
           (address): a second run for the same address replaces that
           sensor's line, the same run twice changes nothing. Takes
           effect at the next boot.
             --address 0x5c|0x5d  the sensor's address: 0x5c with SDO to
                                  GND (default), 0x5d with SDO to VDD_IO
             --int1-gpio N        the BCM GPIO INT1 is wired to (GPIO 4 is
                                  header pin 7)
             --no-int1            INT1 is not wired (no data-ready trigger,
                                  no threshold events)
                                  One of the two is required: an interrupt
                                  on an unwired GPIO would float.
  pc       Without a device tree (a PC with a USB-I2C adapter): a udev
           rule creates the device whenever the adapter named NAME appears
           (bus numbers change between boots; names do not), and takes the
           device from mainline's st_pressure_i2c, should that driver bind
           it, without blacklisting it for other sensors.
             --adapter NAME       the adapter's name, the third column of
                                  "i2cdetect -l" (or
                                  /sys/bus/i2c/devices/i2c-N/name); a glob
                                  such as 'i2c-tiny-usb*' where the name
                                  holds a USB or hidraw number
             --address 0x5c|0x5d  as for pi
             --allow-absent       accept a NAME no adapter has now (one
                                  plugged in later); otherwise refused, as
                                  a likely typo
  status   What $prog wrote, and where; whether each sensor it declared
           is bound to the lps001wp driver now.
  check    Whether the sensor works, one piece a line, each with what to
           do when it is missing: the module built for the running kernel
           (DKMS), loaded, the I2C device bound to lps001wp (or to
           st_pressure_i2c, or to none: then Secure Boot's word), its IIO
           device, one reading in hPa and °C. Exits 0 when every sensor
           found gave a reading, 1 otherwise, its last line naming the
           first piece missing. Works without root too, but for the
           kernel log (as /usr/sbin/$prog check).
  remove   Undo all of it: config.txt back to what it was before (only
           its own lines removed if it was edited since), the files it
           wrote deleted.

  refresh  After an upgrade of the package (its postinst runs this): the
           new overlay where $prog put the old one.

  --root DIR   work on DIR as the root file system (or LPS001WP_ROOT=DIR)
EOF
}

die() {
	echo "$prog: $*" >&2
	exit 1
}

bad_usage() {
	echo "$prog: $*" >&2
	echo "Run '$prog --help' for the usage." >&2
	exit 2
}

sha() {
	sha256sum < "$1" | cut -d' ' -f1
}

# ---- the manifest ----

state=$R/var/lib/lps001wp-setup
manifest=$state/manifest

# records TYPE [FILE]: the manifest's (or FILE's) records of that type,
# without the type
records() {
	set -- "$1" "${2:-$manifest}"
	[ -f "$2" ] || return 0
	awk -F "$tab" -v t="$1" '$1 == t { sub(/^[^\t]*\t/, ""); print }' "$2"
}

# field N LINE: the Nth tab-separated field of LINE
field() {
	printf '%s\n' "$2" | cut -d "$tab" -f "$1"
}

# The new manifest is built in $manifest.new and replaces the old one at
# once, after the files it names are in place.
begin_manifest() {
	mkdir -p "$state"
	if [ -f "$manifest" ]; then cp "$manifest" "$manifest.new"; else : > "$manifest.new"; fi
}

# drop TYPE KEY: remove the records TYPE KEY ... from the new manifest
drop() {
	awk -F "$tab" -v t="$1" -v k="$2" '!($1 == t && $2 == k)' "$manifest.new" > "$manifest.tmp"
	mv "$manifest.tmp" "$manifest.new"
}

add() {
	printf '%s\n' "$*" | tr ' ' "$tab" >> "$manifest.new"
}

# add_raw FIELD...: a record whose fields may hold spaces
add_raw() {
	(IFS=$tab; printf '%s\n' "$*") >> "$manifest.new"
}

commit_manifest() {
	if [ -s "$manifest.new" ]; then
		# sorted: the same records give the same bytes, whatever the order
		# of the runs that wrote them
		LC_ALL=C sort "$manifest.new" > "$manifest.tmp"
		rm -f "$manifest.new"
		mv "$manifest.tmp" "$manifest"
	else
		rm -f "$manifest.new" "$manifest"
	fi
}

# own_file PATH: PATH is a file this tool wrote (and records)
own_file() {
	records file | cut -d "$tab" -f1 | grep -qxF "$1"
}

# put_file SRC DEST: install SRC as DEST (mode 644) and record it; refuses
# (before anything is written: check_put first) a DEST it did not write.
check_put() {
	if [ -e "$R$1" ] && ! own_file "$1"; then
		die "$R$1 exists and was not written by $prog (by hand, or make install-dtbo?): move it away first; nothing changed"
	fi
}

put_file() {
	src=$1 dest=$2
	if [ ! -f "$R$dest" ] || ! cmp -s "$src" "$R$dest"; then
		# the directories that are missing (/etc/udev/rules.d on a
		# system without udev): made, recorded, removed with the file
		d=$(dirname "$dest")
		while [ "$d" != / ] && [ ! -d "$R$d" ]; do
			drop dir "$d"
			add dir "$d"
			d=$(dirname "$d")
		done
		mkdir -p "$(dirname "$R$dest")"
		cp "$src" "$R$dest.lps001wp-setup.tmp"
		chmod 644 "$R$dest.lps001wp-setup.tmp"
		mv "$R$dest.lps001wp-setup.tmp" "$R$dest"
		changed=1
	fi
	drop file "$dest"
	add file "$dest" "$(sha "$R$dest")"
}

need_root() {
	[ -n "$R" ] && return 0
	[ "$(id -u)" = 0 ] || die "needs root: sudo $prog $cmd ...; nothing changed"
}

# ---- options ----

check_address() {
	case $1 in
	0x5c | 0x5C) echo 0x5c ;;
	0x5d | 0x5D) echo 0x5d ;;
	*) bad_usage "bad address '$1': 0x5c (SDO to GND) or 0x5d (SDO to VDD_IO); nothing changed" ;;
	esac
}

# The BCM2835 family has GPIOs 0 to 53; 2 and 3 are i2c_arm's SDA and SCL.
check_gpio() {
	case $1 in
	'' | *[!0-9]* | 0?*) bad_usage "bad GPIO '$1': a BCM GPIO number, 0 to 53; nothing changed" ;;
	esac
	[ "$1" -le 53 ] || bad_usage "GPIO $1 out of range: the BCM GPIOs are 0 to 53; nothing changed"
	case $1 in
	2 | 3) bad_usage "GPIO $1 is SDA or SCL of i2c_arm, not INT1; nothing changed" ;;
	esac
	echo "$1"
}

# ---- pi ----

# The model file a Raspberry Pi's device tree gives; the second for a
# system whose /proc lacks the link.
pi_model() {
	for f in "$R/proc/device-tree/model" "$R/sys/firmware/devicetree/base/model"; do
		[ -r "$f" ] && { tr -d '\000' < "$f"; return 0; }
	done
	return 0
}

# The firmware's directory: /boot/firmware from Bookworm on (where
# /boot/config.txt is a stub saying so), /boot before.
pi_bootdir() {
	if [ -f "$R/boot/firmware/config.txt" ]; then
		echo /boot/firmware
	elif [ -f "$R/boot/config.txt" ]; then
		echo /boot
	fi
}

# last_section FILE: the last [filter] line of FILE ("all" when none:
# nothing is conditional then)
last_section() {
	sed -n 's/^[[:space:]]*\[\([^]]*\)\].*/\1/p' "$1" | tail -n 1 | grep . || echo all
}

cmd_pi() {
	addr=0x5c gpio='' noirq=
	while [ $# -gt 0 ]; do
		case $1 in
		--address) [ $# -ge 2 ] || bad_usage "--address needs a value"; addr=$(check_address "$2"); shift ;;
		--address=*) addr=$(check_address "${1#*=}") ;;
		--int1-gpio) [ $# -ge 2 ] || bad_usage "--int1-gpio needs a value"; gpio=$(check_gpio "$2"); shift ;;
		--int1-gpio=*) gpio=$(check_gpio "${1#*=}") ;;
		--no-int1) noirq=1 ;;
		*) bad_usage "pi: unknown option '$1'" ;;
		esac
		shift
	done
	# no default GPIO: on one INT1 is not wired to, the interrupt would float
	[ -n "$gpio$noirq" ] || bad_usage "pi: say where INT1 is: --int1-gpio N (its BCM GPIO; GPIO 4 is header pin 7), or --no-int1 if it is not wired"
	[ -z "$gpio" ] || [ -z "$noirq" ] || bad_usage "pi: --int1-gpio and --no-int1 exclude each other"
	need_root
	model=$(pi_model)
	case $model in
	*"Raspberry Pi"*) ;;
	*) die "pi: not a Raspberry Pi (device tree model: '${model:-none}'); on a PC use '$prog pc'; nothing changed" ;;
	esac
	# A Pi 4 or 5 boots a 64-bit kernel under 32-bit Pi OS too, and the
	# armhf archive has no headers for it: DKMS builds no module there
	[ -n "$R" ] || case "$(uname -m) $(dpkg --print-architecture 2>/dev/null)" in
	"aarch64 armhf" | "aarch64 armel")
		die "pi: 32-bit Raspberry Pi OS ($(dpkg --print-architecture)) on a 64-bit kernel ($(uname -r)): no module can be built for that kernel; install 64-bit Raspberry Pi OS; nothing changed" ;;
	esac
	boot=$(pi_bootdir)
	[ -n "$boot" ] || die "pi: no config.txt in $R/boot/firmware or $R/boot; nothing changed"
	config=$boot/config.txt
	overlay=$boot/overlays/lps001wp.dtbo
	[ -d "$R$boot/overlays" ] || die "pi: no $R$boot/overlays directory; nothing changed"
	dtbo=$share/overlays/lps001wp.dtbo
	[ -f "$dtbo" ] || die "pi: $dtbo is missing (is lps001wp-dkms installed?); nothing changed"

	if [ -n "$noirq" ]; then
		line="dtoverlay=lps001wp,addr=$addr,noirq"
	else
		line="dtoverlay=lps001wp,addr=$addr,interrupt=$gpio"
		# the other sensor's INT1 on the same GPIO: two requests of one IRQ
		other=$(records pi | awk -F "$tab" -v a="$addr" -v g="interrupt=$gpio" \
			'$1 != a && ("," $2 ",") ~ ("," g ",") { print $1 }')
		[ -z "$other" ] || die "pi: GPIO $gpio is INT1 of the sensor at $other already; give --int1-gpio another GPIO; nothing changed"
	fi
	old=$(records pi | awk -F "$tab" -v a="$addr" '$1 == a { print $2 }')
	# dtoverlay=lps001wp lines this tool did not write would load the overlay twice
	ours=$(records pi | cut -d "$tab" -f2)
	foreign=$(grep -n '^[[:space:]]*dtoverlay=lps001wp\([,:[:space:]]\|$\)' "$R$config" |
		while IFS= read -r l; do
			printf '%s\n' "$ours" | grep -qxF "${l#*:}" || printf '%s\n' "$l"
		done)
	[ -z "$foreign" ] || die "pi: $R$config has dtoverlay=lps001wp lines $prog did not write (line ${foreign%%:*}); remove them first; nothing changed"
	check_put "$overlay"

	changed=
	begin_manifest
	put_file "$dtbo" "$overlay"
	conf=$(records config | awk -F "$tab" -v p="$config" '$1 == p')
	if [ -n "$conf" ] && [ "$(sha "$R$config")" != "$(field 2 "$conf")" ]; then
		edited=1
	else
		edited=
	fi
	if [ -z "$conf" ]; then
		cp -p "$R$config" "$state/orig.config"
		added_all=0
	else
		added_all=$(field 3 "$conf")
	fi
	if [ -n "$old" ] && grep -qxF "$old" "$R$config"; then
		if [ "$old" != "$line" ]; then
			# the sensor's own line, in place
			awk -v o="$old" -v n="$line" '!done && $0 == o { print n; done = 1; next } { print }' \
				"$R$config" > "$R$config.lps001wp-setup.tmp"
			cat "$R$config.lps001wp-setup.tmp" > "$R$config"
			rm -f "$R$config.lps001wp-setup.tmp"
			changed=1
		fi
	else
		# appended, under [all]: after a [pi4] or [cm4] section the line
		# would apply to that board only
		head=
		[ ! -s "$R$config" ] || [ -z "$(tail -c 1 "$R$config")" ] || head=$nl
		if [ "$(last_section "$R$config")" != all ]; then
			head="${head}[all]$nl"
			added_all=1
		fi
		printf '%s%s\n' "$head" "$line" >> "$R$config"
		changed=1
	fi
	drop pi "$addr"
	add_raw pi "$addr" "$line"
	# once edited by hand, the file as it was before is no longer the one
	# to restore: remove then takes out only the lines
	sum=$(sha "$R$config")
	[ -z "$edited" ] || sum=edited
	drop config "$config"
	add_raw config "$config" "$sum" "$added_all"
	commit_manifest
	if [ -n "$edited" ]; then
		echo "$prog: note: $R$config was edited since $prog last wrote it: remove will take out only its own lines" >&2
	fi
	if [ -n "$changed" ]; then
		echo "$prog: $R$config: $line; $R$overlay. Reboot to load it."
	else
		echo "$prog: nothing to change: $R$config has $line"
	fi
}

# ---- pc ----

rules=/etc/udev/rules.d/90-lps001wp-setup.rules
modconf=/etc/modprobe.d/lps001wp-setup.conf

adapters() {
	for f in "$R"/sys/bus/i2c/devices/i2c-*/name; do
		[ -r "$f" ] && cat "$f"
	done
	return 0
}

# write_rules OUT MANIFEST: the rules for every pc record of MANIFEST: create the device when its adapter
# appears; should st_pressure_i2c take it (it matches the I2C name
# "lps001wp" too, and may be loaded for another ST sensor), give it to
# this driver. Only the device at that address on that adapter is
# touched.
write_rules() {
	{
		echo "# Written by $prog (do not edit; 'sudo $prog remove' removes it)."
		records pc "$2" | while IFS="$tab" read -r a name; do
			hex=$(printf '%04x' "$a")
			echo
			echo "# the LPS001WP at $a on the I2C adapter named \"$name\""
			echo "ACTION==\"add\", SUBSYSTEM==\"i2c\", KERNEL==\"i2c-[0-9]*\", ATTR{name}==\"$name\", ATTR{new_device}=\"$client $a\""
			echo "ACTION==\"bind\", SUBSYSTEM==\"i2c\", DRIVER==\"st-press-i2c\", KERNEL==\"*-$hex\", ATTR{name}==\"$client\", ATTRS{name}==\"$name\", RUN+=\"/bin/sh -c 'echo \$kernel > /sys/bus/i2c/drivers/st-press-i2c/unbind; modprobe lps001wp && echo \$kernel > /sys/bus/i2c/drivers/lps001wp/bind'\""
		done
	} > "$1"
}

write_modconf() {
	cat > "$1" <<EOF
# Written by $prog (do not edit; 'sudo $prog remove' removes it).
# A device named lps001wp makes udev load this driver only, not also
# mainline's st_pressure_i2c, which still loads for other ST sensors.
alias i2c:lps001wp lps001wp
EOF
}

udevd_running() {
	[ -z "$R" ] && [ -S /run/udev/control ] && command -v udevadm > /dev/null
}

cmd_pc() {
	addr=0x5c name='' absent_ok=
	while [ $# -gt 0 ]; do
		case $1 in
		--address) [ $# -ge 2 ] || bad_usage "--address needs a value"; addr=$(check_address "$2"); shift ;;
		--address=*) addr=$(check_address "${1#*=}") ;;
		--adapter) [ $# -ge 2 ] || bad_usage "--adapter needs a value"; name=$2; shift ;;
		--adapter=*) name=${1#*=} ;;
		--allow-absent) absent_ok=1 ;;
		*) bad_usage "pc: unknown option '$1'" ;;
		esac
		shift
	done
	[ -n "$name" ] || bad_usage "pc: --adapter NAME is required (the third column of 'i2cdetect -l')"
	# udev's match is a glob with | for alternatives; quotes would end it
	case $name in
	*'"'* | *'|'* | *\\* | *"$tab"* | *"$nl"*)
		bad_usage "pc: adapter name '$name' holds a quote, |, \\, tab or newline, which a udev rule cannot match; use * for them" ;;
	esac
	need_root
	found=
	list=$(adapters)
	if [ -n "$list" ]; then
		found=$(printf '%s\n' "$list" | while IFS= read -r a; do
			# shellcheck disable=SC2254 # NAME is a glob on purpose
			case $a in $name) echo "$a" ;; esac
		done)
	fi
	if [ -z "$found" ] && [ -z "$absent_ok" ]; then
		die "pc: no I2C adapter is named '$name' now (adapters: $(printf '%s\n' "$list" | sed 's/.*/"&"/' | paste -sd, - | sed 's/^$/none/')); plug it in, or add --allow-absent; nothing changed"
	fi
	check_put "$rules"
	check_put "$modconf"

	old=$(records pc | awk -F "$tab" -v a="$addr" '$1 == a { print $2 }')
	changed=
	[ "$old" = "$name" ] || changed=1
	begin_manifest
	drop pc "$addr"
	add_raw pc "$addr" "$name"
	tmp=$state/rules.tmp
	write_rules "$tmp" "$manifest.new"
	put_file "$tmp" "$rules"
	rm -f "$tmp"
	write_modconf "$tmp"
	put_file "$tmp" "$modconf"
	rm -f "$tmp"
	commit_manifest
	if [ -z "$changed" ]; then
		echo "$prog: nothing to change: $R$rules has the LPS001WP at $addr on \"$name\""
		return 0
	fi
	echo "$prog: $R$rules: the LPS001WP at $addr on \"$name\"; $R$modconf"
	if [ -n "$found" ] && udevd_running; then
		udevadm control --reload
		udevadm trigger --action=add --subsystem-match=i2c --attr-match="name=$name"
		echo "$prog: the device is created now on $(printf '%s\n' "$found" | paste -sd, -)"
	else
		echo "$prog: the device is created when the adapter appears (plug it in, or reboot)"
	fi
}

# ---- status, remove ----

cmd_status() {
	[ $# = 0 ] || bad_usage "status: unknown option '$1'"
	if [ ! -f "$manifest" ]; then
		echo "$prog: has written nothing"
		return 0
	fi
	records pi | while IFS="$tab" read -r a line; do
		echo "pi: sensor at $a: $line: $(sensor_state pi "$a" "$line")"
	done
	records config | while IFS="$tab" read -r p sum all; do
		if [ "$(sha "$R$p" 2>/dev/null)" = "$sum" ]; then
			echo "config.txt: $R$p (as $prog left it; remove restores it byte for byte)"
		else
			echo "config.txt: $R$p (edited since; remove takes out only the lines above)"
		fi
		[ "$all" = 0 ] || echo "config.txt: an [all] line added before them"
	done
	records pc | while IFS="$tab" read -r a name; do
		echo "pc: sensor at $a on the adapter named \"$name\": $(sensor_state pc "$a" "$name")"
	done
	records file | while IFS="$tab" read -r p sum; do
		echo "file: $R$p"
	done
	records dir | while IFS= read -r d; do
		echo "directory: $R$d"
	done
}

cmd_remove() {
	[ $# = 0 ] || bad_usage "remove: unknown option '$1'"
	need_root
	if [ ! -f "$manifest" ]; then
		echo "$prog: nothing to remove"
		rm -rf "$state"
		return 0
	fi
	records config | while IFS="$tab" read -r p sum all; do
		if [ ! -f "$R$p" ]; then
			echo "$prog: $R$p is gone: nothing to restore" >&2
		elif [ "$(sha "$R$p")" = "$sum" ]; then
			# as this tool left it: back to the bytes it had before
			cat "$state/orig.config" > "$R$p"
			echo "$prog: $R$p restored"
		else
			records pi | cut -d "$tab" -f2 > "$state/lines"
			awk -v all="$all" 'NR == FNR { ours[$0] = 1; next }
				!($0 in ours) { out[++n] = $0 }
				END {
					# the [all] added before them, if nothing follows it now
					if (all == 1 && n > 0 && out[n] == "[all]") n--
					for (i = 1; i <= n; i++) print out[i]
				}' "$state/lines" "$R$p" > "$R$p.lps001wp-setup.tmp"
			cat "$R$p.lps001wp-setup.tmp" > "$R$p"
			rm -f "$R$p.lps001wp-setup.tmp" "$state/lines"
			echo "$prog: $R$p was edited since $prog wrote it: removed only its lines, kept the rest as it is now" >&2
		fi
	done
	records file | while IFS="$tab" read -r p sum; do
		if [ ! -e "$R$p" ]; then
			continue
		elif [ "$(sha "$R$p")" = "$sum" ]; then
			rm -f "$R$p"
			echo "$prog: $R$p removed"
		else
			echo "$prog: $R$p changed since $prog wrote it: left in place, remove it yourself" >&2
		fi
	done
	# deepest first
	records dir | sort -r | while IFS= read -r d; do
		rmdir "$R$d" 2> /dev/null || true
	done
	rules_gone=$(records pc)
	rm -rf "$state"
	if [ -n "$rules_gone" ] && udevd_running; then
		udevadm control --reload || true
	fi
}

# refresh: after a package upgrade, the new overlay where the old one was
# put (the package's postinst runs it); a copy changed since is left alone.
cmd_refresh() {
	[ $# = 0 ] || bad_usage "refresh: unknown option '$1'"
	need_root
	dtbo=$share/overlays/lps001wp.dtbo
	[ -f "$manifest" ] && [ -f "$dtbo" ] || return 0
	begin_manifest
	records file | while IFS="$tab" read -r p sum; do
		case $p in */lps001wp.dtbo) ;; *) continue ;; esac
		if [ -f "$R$p" ] && [ "$(sha "$R$p")" = "$sum" ] && ! cmp -s "$dtbo" "$R$p"; then
			put_file "$dtbo" "$p"
			echo "$prog: $R$p updated"
		fi
	done
	commit_manifest
}

# ---- the sensors as the kernel sees them (check, status) ----

i2c_devices=/sys/bus/i2c/devices

# driver_of DEV: the driver the I2C device DEV (a sysfs path) is bound to,
# or nothing
driver_of() {
	do_l=$(readlink "$1/driver" 2> /dev/null) || return 0
	echo "${do_l##*/}"
}

# where DEV: "N-00AA (0xAA on "ADAPTER")"
where() {
	w_n=${1##*/}
	w_a=$(cat "$R$i2c_devices/i2c-${w_n%%-*}/name" 2> /dev/null || echo '?')
	echo "$w_n (0x${w_n#*-00} on \"$w_a\")"
}

# sensor_devices: the I2C devices that are, or could be, an LPS001WP for
# this driver: those bound to it, and those named lps001wp (the name the
# udev rule and a device tree node "st,lps001wp" give; st_pressure_i2c
# binds that name too). One sysfs path a line.
sensor_devices() {
	for sd_d in "$R/sys/bus/i2c/drivers/$client"/*-* "$R$i2c_devices"/*-*; do
		[ -e "$sd_d/name" ] || continue
		case $sd_d in
		*/drivers/*) ;;
		*) [ "$(cat "$sd_d/name" 2> /dev/null)" = "$client" ] || continue ;;
		esac
		echo "$R$i2c_devices/${sd_d##*/}"
	done | sort -u
}

# setup_device KIND ADDR NAME: the I2C device of a sensor setup declared
# (a pi or pc record): SD_DEV its sysfs path; when it has none, SD_WHY
# says why and SD_DO what to do
setup_device() {
	SD_DEV='' SD_WHY='' SD_DO=''
	sd_hex=$(printf '%04x' "$2")
	if [ "$1" = pc ]; then
		sd_bus=''
		for sd_f in "$R$i2c_devices"/i2c-*/name; do
			[ -r "$sd_f" ] || continue
			# shellcheck disable=SC2254 # NAME is a glob on purpose
			case $(cat "$sd_f") in $3) ;; *) continue ;; esac
			sd_n=${sd_f%/name}
			sd_n=${sd_n##*/i2c-}
			sd_bus=${sd_bus:+$sd_bus, }$sd_n
			if [ -e "$R$i2c_devices/$sd_n-$sd_hex" ]; then
				SD_DEV=$R$i2c_devices/$sd_n-$sd_hex
				return 0
			fi
		done
		if [ -z "$sd_bus" ]; then
			SD_WHY="no I2C adapter named \"$3\" is plugged in"
			SD_DO="plug it in; 'sudo i2cdetect -l' lists the adapters' names, which \"$3\" must match"
		else
			SD_WHY="the adapter is bus $sd_bus, and the udev rule has not created its device"
			SD_DO="unplug and plug the adapter in again, or: sudo udevadm trigger --action=add --subsystem-match=i2c"
		fi
	else
		for sd_d in "$R$i2c_devices"/*-"$sd_hex"; do
			[ -e "$sd_d/name" ] && [ "$(cat "$sd_d/name")" = "$client" ] && { SD_DEV=$sd_d; return 0; }
		done
		SD_WHY="config.txt has its line, and no device is at $2"
		SD_DO="reboot: the overlay loads at boot; after a reboot, check that the line is under [all] in config.txt"
	fi
}

# state_of DEV: whether the I2C device DEV is bound to this driver, in words
state_of() {
	so_drv=$(driver_of "$1")
	case $so_drv in
	"$client")
		so_iio=
		for so_i in "$1"/iio:device*; do
			[ -e "$so_i" ] && so_iio=", ${so_i##*/}"
		done
		echo "bound to $client (${1##*/}$so_iio)" ;;
	'') echo "not bound: ${1##*/} exists, no driver has it" ;;
	*) echo "not bound: ${1##*/} is bound to $so_drv" ;;
	esac
}

# sensor_state KIND ADDR NAME: whether a sensor setup declared is bound
# now, in words
sensor_state() {
	setup_device "$@"
	if [ -n "$SD_DEV" ]; then
		ss=$(state_of "$SD_DEV")
	else
		ss="not bound: $SD_WHY"
	fi
	case $ss in
	bound*) echo "$ss" ;;
	*) echo "$ss ('$prog check' says what to do)" ;;
	esac
}

# ---- check ----

# One fact a line: "ok", or "MISSING" with what to do on the lines below
# (TEXT, one line each). The last line names the first fact missing.
found() { printf 'ok       %s\n' "$1"; }
missing() {
	printf 'MISSING  %s\n' "$1"
	[ -n "$first" ] || first=$1
	[ -z "${2:-}" ] || printf '%s\n' "$2" | sed '/^$/d; s/^/         /'
}

# kernel_log ERE: the last lines of the kernel log that match, or why it
# could not be read
kernel_log() {
	if ! kl_all=$(dmesg 2> /dev/null); then
		echo "(the kernel log needs root: sudo $prog check)"
		return 0
	fi
	# without dmesg's time stamps
	printf '%s\n' "$kl_all" | grep -E "$1" | tail -n 3 | sed 's/^\[[^]]*\] *//; s/^/kernel log: /'
	return 0
}

# secure_boot: what Secure Boot has to do with a module that is not loaded
secure_boot() {
	if command -v mokutil > /dev/null; then
		sb_state=$(mokutil --sb-state 2>&1 | head -n 1)
	else
		sb_state="unknown, mokutil is not installed (sudo apt install mokutil; mokutil --sb-state)"
	fi
	echo "Secure Boot: $sb_state"
	sb_log=$(kernel_log 'Key was rejected|module verification failed|with unavailable key|unsigned module loading is restricted')
	[ -z "$sb_log" ] || echo "$sb_log"
	case $sb_state$sb_log in
	*"SecureBoot enabled"* | *"Key was rejected"* | *"unavailable key"* | *restricted*)
		echo "Secure Boot loads only modules signed by a key it knows: enroll DKMS's key once,"
		echo "  sudo mokutil --import /var/lib/dkms/mok.pub (Ubuntu: /var/lib/shim-signed/mok/MOK.der),"
		echo "  reboot and choose \"Enroll MOK\" (README.md, Troubleshooting, Secure Boot)" ;;
	esac
}

# check_module KVER: the module built for the running kernel
check_module() {
	cm_file=$(modinfo -n "$client" 2> /dev/null || true)
	cm_dkms=
	if command -v dkms > /dev/null; then
		cm_dkms=$(dkms status -m "$client" -k "$1" 2> /dev/null | head -n 1)
	fi
	if [ -n "$cm_file" ]; then
		# DKMS's "lps001wp/V, KVER, ARCH: installed" without the kernel
		found "module built for $1: $cm_file${cm_dkms:+ (DKMS: ${cm_dkms%%,*} ${cm_dkms##*: })}"
		return 0
	fi
	cm_do=
	# the floor of lps001wp.h's #error
	case $1 in
	[0-5].* | 6.0 | 6.0[.-]*)
		cm_do="the driver needs Linux 6.1 or later: boot a newer kernel (Ubuntu 22.04: its HWE kernel)$nl" ;;
	esac
	if ! command -v dkms > /dev/null || { [ -z "$cm_dkms" ] && [ ! -d "/var/lib/dkms/$client" ]; }; then
		cm_do="${cm_do}DKMS knows no $client: install the lps001wp-dkms package (README.md, Install)"
	else
		[ -z "$cm_dkms" ] || cm_do="${cm_do}DKMS: $cm_dkms$nl"
		case $1 in
		*bpo*)
			# shellcheck disable=SC1091
			cm_s=$(. /etc/os-release 2> /dev/null && echo "${VERSION_CODENAME:-}")
			cm_do="${cm_do}a backports kernel: its headers are in backports too:$nl  sudo apt install -t ${cm_s:-<release>}-backports linux-headers-$1" ;;
		*-rpi-*)
			cm_do="${cm_do}install its headers: sudo apt install linux-headers-rpi-${1##*-rpi-}" ;;
		*)
			cm_do="${cm_do}install its headers: sudo apt install linux-headers-$1" ;;
		esac
		cm_do="$cm_do${nl}then: sudo dkms autoinstall"
		for cm_log in /var/lib/dkms/"$client"/*/build/make.log; do
			[ -r "$cm_log" ] || continue
			cm_err=$(grep -m 1 -E 'error:|Error [0-9]' "$cm_log" || true)
			[ -z "$cm_err" ] || cm_do="$cm_do${nl}the last build failed ($cm_log):$nl  $cm_err"
		done
	fi
	missing "module built for $1: none" "$cm_do"
}

# reading IIO: one reading through the IIO device's sysfs files
reading() {
	rd_v=
	for rd_a in in_pressure_raw in_pressure_scale in_temp_raw in_temp_scale; do
		if ! rd_x=$(cat "$1/$rd_a" 2>&1) || [ -z "$rd_x" ]; then
			case $rd_x in
			*"timed out"*) rd_do="the chip answers but gave no sample: check its power" ;;
			*) rd_do="the chip did not answer: check its wiring and power" ;;
			esac
			missing "a reading from ${1##*/}: $rd_a: ${rd_x##*: }" \
				"$rd_do; the driver's messages: sudo dmesg | grep lps001wp"
			return 0
		fi
		rd_v="$rd_v $rd_x"
	done
	# IIO's units: pressure in kPa (x 10: hPa), temperature in m°C
	# shellcheck disable=SC2086 # four numbers
	found "a reading from ${1##*/}: $(echo $rd_v | awk '{ printf "%.2f hPa, %.2f °C", $1 * $2 * 10, $3 * $4 / 1000 }')"
	readings=$((readings + 1))
}

cmd_check() {
	[ $# = 0 ] || bad_usage "check: unknown option '$1'"
	[ -z "$R" ] || bad_usage "check: looks at the running system; --root does not apply"
	PATH=$PATH:/usr/sbin:/sbin
	first='' readings=0 kver=$(uname -r)
	echo "$prog check: kernel $kver"
	check_module "$kver"

	devs=$(sensor_devices)
	loaded=
	if [ -d "/sys/module/$client" ]; then
		found "module loaded: $client $(cat "/sys/module/$client/version" 2> /dev/null)"
		loaded=1
	elif [ -z "$devs" ]; then
		# not missing yet: udev loads it for a device, and there is none
		printf -- '--       module loaded: no, and no device to load it for yet\n'
	else
		missing "module loaded: no" \
			"udev loads it when the device appears; by hand: sudo modprobe $client$nl$(secure_boot)"
	fi

	# the sensors setup declared that have no device
	recs=$(records pi | sed "s/^/pi$tab/"; records pc | sed "s/^/pc$tab/")
	while IFS="$tab" read -r kind a rest; do
		[ -n "$kind" ] || continue
		setup_device "$kind" "$a" "$rest"
		[ -z "$SD_DEV" ] || continue
		case $kind in
		pc) missing "I2C device of the sensor at $a on \"$rest\" ($prog pc): none" "$SD_WHY$nl$SD_DO" ;;
		pi) missing "I2C device of the sensor at $a ($rest, $prog pi): none" "$SD_WHY$nl$SD_DO" ;;
		esac
	done <<-EOF
	$recs
	EOF

	bound=
	for d in $devs; do
		drv=$(driver_of "$d")
		case $drv in
		"$client")
			found "I2C device bound to $client: $(where "$d")"
			bound="$bound $d" ;;
		'')
			if [ -z "$loaded" ]; then
				m_do="the module is not loaded (above)"
			else
				m_do="the driver did not take it:$nl$(kernel_log "$client|${d##*/}")$nl\"WHO_AM_I read failed\": nothing answers at that address (wiring, power, SDO, CS)"
			fi
			missing "I2C device bound to $client: no, $(where "$d") has no driver" "$m_do" ;;
		*)
			missing "I2C device bound to $client: no, $(where "$d") is bound to $drv" \
				"mainline's st_pressure_i2c took it ($prog pc prevents that); give it to $client:$nl  echo ${d##*/} | sudo tee /sys/bus/i2c/drivers/$drv/unbind$nl  sudo modprobe $client && echo ${d##*/} | sudo tee /sys/bus/i2c/drivers/$client/bind" ;;
		esac
	done
	if [ -z "$devs" ] && [ -z "$recs" ]; then
		missing "I2C device bound to $client: none, and $prog declared none" \
			"on a PC: sudo $prog pc --adapter NAME; on a Raspberry Pi: sudo $prog pi ... (README.md, Install)"
	fi

	for d in $bound; do
		iio=
		for i in "$d"/iio:device*; do
			[ -e "$i" ] && iio=$i
		done
		if [ -z "$iio" ]; then
			missing "IIO device of ${d##*/}: none" "the driver is bound and registered no IIO device:$nl$(kernel_log "$client|${d##*/}")"
			continue
		fi
		if [ -d "$iio/events" ]; then
			int1="INT1: trigger lps001wp-dev${iio##*device}, events"
		else
			int1="no INT1: no events, streaming with a software trigger"
		fi
		found "IIO device: ${iio##*/} of ${d##*/} ($int1)"
		reading "$iio"
	done

	if [ -n "$first" ]; then
		if [ "$readings" = 0 ]; then
			echo "$prog check: no reading: $first"
		else
			echo "$prog check: $readings reading(s), but $first"
		fi
		return 1
	fi
	if [ "$readings" = 0 ]; then
		echo "$prog check: no reading"
		return 1
	fi
	echo "$prog check: the sensor works"
}

# ---- main ----

cmd=
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--root) [ $# -ge 2 ] || bad_usage "--root needs a directory"; R=$2; shift ;;
	--root=*) R=${1#*=} ;;
	pi | pc | status | check | remove | refresh) cmd=$1; shift; break ;;
	*) bad_usage "unknown command or option '$1'" ;;
	esac
	shift
done
[ -n "$cmd" ] || bad_usage "no command: pi, pc, status, check or remove"
if [ -n "$R" ]; then
	[ -d "$R" ] || bad_usage "--root $R: no such directory"
	R=$(cd "$R" && pwd)
	[ "$R" != / ] || R=
	state=$R/var/lib/lps001wp-setup
	manifest=$state/manifest
fi
case $cmd in
pi) cmd_pi "$@" ;;
pc) cmd_pc "$@" ;;
status) cmd_status "$@" ;;
check) cmd_check "$@" ;;
remove) cmd_remove "$@" ;;
refresh) cmd_refresh "$@" ;;
esac
