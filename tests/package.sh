#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian package end to end (part of `make check`; needs root), in a
# fresh chroot of the host's Debian release so the host stays as it was:
# make deb and lintian; apt install ./lps001wp-dkms_<v1>_amd64.deb into a
# minimal Debian with Debian's kernel headers (linux-headers-amd64) and
# dkms's dependencies but no dkms; DKMS built and installed the module for that kernel;
# lps001wp-read runs there and says there is no device; its plugdev udev
# rule parses (this machine's udevadm);
# lps001wp-setup on a stand-in Raspberry Pi (/boot/firmware with a
# config.txt ending in a [pi4] section, a device tree model) and for a PC
# adapter: its lines and files, idempotence, bad input refused with nothing
# changed, its own undo; apt install of a newer version replaces the module
# and keeps what setup wrote; apt remove --purge leaves no file behind and
# no file changed, config.txt included (compared file by file, checksums,
# with the chroot before); the README's Debian blocks in fresh chroots of
# Debian 12 and 13 (tests/readme-debian.sh, beside the rest). The caller boots
# Debian's own image of that kernel with the module the package built
# (guest suites 15-stub, setup-check: the package's lps001wp-setup check,
# udev-rule; i2c-stub).
#
#   package.sh BUILD_DIR     prints TAP lines "ok - package: ..."; writes
#                            BUILD_DIR/package.kernel and package.cpio.gz
#
# Cached in $cache/package-<codename>/ (per release): the base chroot as a
# tarball (debootstrap --variant=minbase, linux-headers-amd64 and the
# dependencies of dkms, not dkms) and apt's downloads; Debian's kernel image in $cache/stock-<kver>-<version>/, shared
# with tests/stock.sh. Delete the directory to start from the archive again.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
build=$(mkdir -p "$1" && cd "$1" && pwd)
# shellcheck source=tests/stock-lib.sh
. "$root/tests/stock-lib.sh"

HOST_PACKAGES="debootstrap debhelper dh-dkms device-tree-compiler lintian zstd xz-utils kmod cpio busybox-static udev git"

ok() { echo "ok - package: $1${2:+ # $2}"; }
fail() {
	echo "not ok - package: $1 # $2"
	[ -n "${3:-}" ] && [ -f "$3" ] && tail -n 40 "$3" >&2
	exit 1
}

readme_releases=(debian-12 debian-13)
# this script's checks, one per README release among them (the boot is
# check.sh's)
plan package $((37 + ${#readme_releases[@]}))

[ "$(id -u)" = 0 ] || fail setup "needs root (debootstrap, chroot)"
# shellcheck source=/dev/null
. /etc/os-release
if [ "${ID:-}" != debian ] || [ -z "${VERSION_CODENAME:-}" ]; then
	fail setup "the host is not Debian (/etc/os-release: ${PRETTY_NAME:-?}): the test installs into a chroot of the host's Debian release"
fi
codename=$VERSION_CODENAME
[ "$(dpkg --print-architecture)" = amd64 ] || fail setup "amd64 only: the chroot installs linux-headers-amd64"

missing=()
for p in $HOST_PACKAGES; do
	[ "$(dpkg-query -W -f '${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
	echo "package.sh: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
		{ apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; }
fi

pc=$cache/package-$codename
base=$pc/base.tar.zst
archives=$pc/archives
work=$build/package
chr=$work/chroot
logs=$work/logs
mkdir -p "$pc" "$archives/partial" "$work"
# apt in the chroot locks the kept downloads: a second run on this machine
# (make check in another clone) waits for this one
exec 5> "$pc/.lock"
flock 5
rm -rf "$logs"
mkdir -p "$logs"

# The README's Debian blocks, each in a fresh chroot of its release, from
# the start while the rest runs (they wait mostly on apt and DKMS's
# compiler).
README_CHECK_LOGS=$logs bash "$root/tests/readme-debian.sh" "${readme_releases[@]}" > "$work/readme.tap" 2> "$logs/readme.log" &
readme_pid=$!
# readme_done: its TAP lines, once it has finished (also when a check
# above failed: the exit waits for it); false if one failed
readme_done() {
	[ -n "$readme_pid" ] || return 0
	wait "$readme_pid" || true
	readme_pid=
	cat "$work/readme.tap"
	if grep -q '^not ok' "$work/readme.tap" || ! grep -q '^ok' "$work/readme.tap"; then
		tail -n 40 "$logs/readme.log" >&2
		return 1
	fi
}

# Mounts under the chroot: taken down on exit, and before the tree is
# deleted (rm -rf through a bind mount would empty the host's /dev).
mounts=(proc dev var/cache/apt/archives)
umount_chroot() {
	local m p r
	# What a package script left running inside (seen on Debian 13) keeps
	# the mounts busy
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		case $r in "$chr" | "$chr"/*) kill -9 "${p#/proc/}" 2>/dev/null || true ;; esac
	done
	for m in "${mounts[@]}"; do
		if mountpoint -q "$chr/$m"; then umount "$chr/$m" || umount -l "$chr/$m"; fi
	done
}
remove_chroot() {
	umount_chroot
	if grep -q " $chr/" /proc/mounts; then
		echo "package.sh: still mounted under $chr, not deleting it" >&2
		return 1
	fi
	if mountpoint -q "$chr"; then umount "$chr" || umount -l "$chr"; fi
	rm -rf "$chr"
}
# A fresh chroot: in RAM where there is room (about 1 GB unpacked, and
# deleting it from disk takes longer than the rest of a warm run).
new_chroot() {
	remove_chroot
	mkdir -p "$chr"
	if [ "$(awk '/^MemAvailable:/ {print int($2 / 1048576)}' /proc/meminfo)" -ge 6 ]; then
		mount -t tmpfs -o size=3g,mode=0755 tmpfs "$chr"
	fi
}
mount_chroot() {
	mount -t proc proc "$chr/proc"
	mount --bind /dev "$chr/dev"
	mount --bind "$archives" "$chr/var/cache/apt/archives"
}
# The chroot goes on exit, failed or not (in build/ the lint gates would
# find its scripts): the logs stay in $logs. PACKAGE_KEEP_CHROOT=1 keeps it.
trap 'readme_done || true; if [ "${PACKAGE_KEEP_CHROOT:-0}" = 1 ]; then umount_chroot; else remove_chroot; fi' EXIT

# The mirrors this machine's apt uses: the main archive and the security one.
host_uris() {
	cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
		awk '/^URIs:/ {print $2} /^deb / {print $2}' | sort -u
}

# INITRD=No: Debian 13's headers pull in the kernel image, and its hook
# would spend half a minute on an initramfs for each new kernel (the boot
# here uses its own).
in_chroot() {
	chroot "$chr" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 INITRD=No "$@"
}

# The base: minbase, the release's own apt sources, Debian's kernel headers.
make_base() {
	local mirror security
	mirror=$(host_uris | grep -v -- '-security' | grep -i debian | head -n1 || true)
	security=$(host_uris | grep -- '-security' | head -n1 || true)
	[ -n "$mirror" ] || { echo "package.sh: no Debian mirror in this machine's apt sources" >&2; return 1; }
	new_chroot
	mkdir -p "$pc/debootstrap"
	echo "package.sh: debootstrap $codename (first run; cached in $base)" >&2
	debootstrap --variant=minbase --cache-dir="$pc/debootstrap" "$codename" "$chr" "$mirror" >&2
	rm -f "$chr/etc/apt/sources.list"
	{
		printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$mirror" "$codename" "$codename"
		[ -z "$security" ] || printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$security" "$codename"
	} > "$chr/etc/apt/sources.list.d/debian.sources"
	cp /etc/resolv.conf "$chr/etc/resolv.conf"
	mount_chroot
	in_chroot apt-get update -qq >&2
	in_chroot apt-get install -y -qq --no-install-recommends linux-headers-amd64 dkms >&2
	# dkms's dependencies stay (perl, dpkg-dev, make, ...: unpacking them
	# would be most of a warm run); the package's install pulls dkms.
	in_chroot apt-get purge -y -qq dkms >&2
	umount_chroot
	tar -C "$chr" --zstd -cf "$base.tmp" . && mv "$base.tmp" "$base"
}

start=$(date +%s)
if [ ! -f "$base" ]; then
	make_base > "$logs/base.log" 2>&1 || fail "a $codename chroot with Debian's headers" "see the log above" "$logs/base.log"
else
	new_chroot
	tar -C "$chr" --zstd -xf "$base"
fi
mount_chroot
# shellcheck disable=SC2016 # dpkg-query's format, not the shell's
kver=$(in_chroot dpkg-query -W -f '${Depends}' linux-headers-amd64 | sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p')
# shellcheck disable=SC2016
hver=$(in_chroot dpkg-query -W -f '${Version}' "linux-headers-$kver")
# build links to /usr/src: an absolute link, to follow inside the chroot
if [ -z "$kver" ] || ! in_chroot test -f "/lib/modules/$kver/build/Makefile"; then
	fail "a $codename chroot with Debian's headers" "no headers for '$kver' in the chroot"
fi
ok "a $codename chroot with Debian's headers" "$kver, $(($(date +%s) - start)) s"

# Two versions: this tree's, and the next commit's (for the upgrade).
v1=$(sh "$root/tools/version.sh" "$root")
v2=${v1%.*}.$((${v1##*.} + 1))
debs=$work/debs
rm -rf "$debs"
for v in "$v1" "$v2"; do
	make -s -C "$root" deb LPS001WP_VERSION="$v" DEB_DIR="$debs/$v" > "$logs/deb-$v.log" 2>&1 ||
		fail "make deb builds this version and the next for the upgrade" "$v failed" "$logs/deb-$v.log"
done
# lps001wp-read makes it Architecture: any
deb1=lps001wp-dkms_${v1}_amd64.deb
deb2=lps001wp-dkms_${v2}_amd64.deb
if [ ! -f "$debs/$v1/$deb1" ] || [ ! -f "$debs/$v2/$deb2" ]; then
	fail "make deb builds this version and the next for the upgrade" "no $deb1 or $deb2 in $debs"
fi
ok "make deb builds this version and the next for the upgrade" "$deb1, $deb2"

contents=$(dpkg-deb -c "$debs/$v1/$deb1" | awk '{print $1, $6}' | grep -v '/$' | LC_ALL=C sort -k2 | tr '\n' ' ')
d=./usr/share/doc/lps001wp-dkms
want="-rwxr-xr-x ./usr/bin/lps001wp-read -rw-r--r-- ./usr/lib/udev/rules.d/60-lps001wp-plugdev.rules \
-rwxr-xr-x ./usr/sbin/lps001wp-hwcheck -rwxr-xr-x ./usr/sbin/lps001wp-setup \
-rw-r--r-- $d/Documentation/devicetree/overlays/README -rw-r--r-- $d/Documentation/iio/lps001wp.rst \
-rw-r--r-- $d/README.md -rw-r--r-- $d/README.overlay -rw-r--r-- $d/changelog.gz -rw-r--r-- $d/copyright \
-rw-r--r-- ./usr/share/lintian/overrides/lps001wp-dkms -rw-r--r-- ./usr/share/lps001wp-dkms/overlays/lps001wp.dtbo \
-rw-r--r-- ./usr/share/man/man1/lps001wp-read.1.gz -rw-r--r-- ./usr/share/man/man8/lps001wp-hwcheck.8.gz -rw-r--r-- ./usr/share/man/man8/lps001wp-setup.8.gz \
-rw-r--r-- ./usr/src/lps001wp-$v1/Kbuild -rw-r--r-- ./usr/src/lps001wp-$v1/dkms.conf \
-rw-r--r-- ./usr/src/lps001wp-$v1/lps001wp.c -rw-r--r-- ./usr/src/lps001wp-$v1/lps001wp.h "
[ "$contents" = "$want" ] || fail "the package holds the sources, the overlay, the three commands, the plugdev rule and the docs" "it holds: $contents"
# the overlay as the Makefile builds it (tests/overlay.sh tests that one)
dtc -@ -Wno-unit_address_vs_reg -I dts -O dtb -o "$work/lps001wp.dtbo" \
	"$root/Documentation/devicetree/overlays/lps001wp-overlay.dts" 2> /dev/null
dpkg-deb --fsys-tarfile "$debs/$v1/$deb1" | tar -xO ./usr/share/lps001wp-dkms/overlays/lps001wp.dtbo |
	cmp -s - "$work/lps001wp.dtbo" ||
	fail "the package holds the sources, the overlay, the three commands, the plugdev rule and the docs" "its lps001wp.dtbo is not make dtbo's"
ok "the package holds the sources, the overlay, the three commands, the plugdev rule and the docs"

# Lintian's own profile, pedantic and info tags included. One override
# (debian/lps001wp-dkms.lintian-overrides): Debian 13's lintian asks
# AppStream modaliases of any rule naming plugdev; Debian 12's reads only
# /lib/udev and calls that override unused, which is all it may say.
unused='^I: lps001wp-dkms: unused-override appstream-metadata-missing-modalias-provide '
if lintian --pedantic --display-info --fail-on error,warning,pedantic "$debs/$v1/$deb1" > "$logs/lintian.log" 2>&1 &&
	! grep '^[EWIP]: ' "$logs/lintian.log" | grep -qv "$unused"; then
	ok "lintian: no tags, pedantic included" "lintian $(lintian --version | awk '{print $2}')"
else
	fail "lintian: no tags, pedantic included" "$(grep -c '^[EWIP]: ' "$logs/lintian.log") tags" "$logs/lintian.log"
fi

# A stand-in Raspberry Pi for lps001wp-setup pi: the firmware's directory
# with a config.txt that ends in a conditional section (as a user's may:
# a line appended there would apply to a Pi 4 only), and the device tree's
# model where setup looks for it when /proc has none (this /proc is the
# host's). A stand-in I2C adapter for lps001wp-setup pc, which refuses a
# name no adapter has. All part of the chroot "before".
mkdir -p "$chr/boot/firmware/overlays" "$chr/sys/firmware/devicetree/base" "$chr/sys/bus/i2c/devices/i2c-3"
printf '# config.txt as a user left it\ndtparam=audio=on\n\n[cm4]\notg_mode=1\n\n[all]\narm_64bit=1\n\n[pi4]\narm_boost=1\n' \
	> "$chr/boot/firmware/config.txt"
cp "$chr/boot/firmware/config.txt" "$work/config.txt.orig"
printf 'not lps001wp' > "$chr/boot/firmware/overlays/other.dtbo"
printf 'Raspberry Pi 4 Model B Rev 1.5\0' > "$chr/sys/firmware/devicetree/base/model"
echo "SMBus stub driver" > "$chr/sys/bus/i2c/devices/i2c-3/name"

# Every path of the chroot but the mounts and /tmp (.list), and each
# file's checksum and each link's target (.sums), for the before/after
# comparison.
prune=(\( -path ./proc -o -path ./dev -o -path ./tmp -o -path ./var/cache/apt/archives \) -prune)
snapshot() {
	(cd "$chr" && find . "${prune[@]}" -o -print) | LC_ALL=C sort > "$1.list"
	(
		cd "$chr"
		find . "${prune[@]}" -o -type f -print0 | xargs -0 -r sha1sum | sed 's/^\([0-9a-f]*\)  \(.*\)$/\2\t\1/'
		find . "${prune[@]}" -o -type l -printf '%p\t-> %l\n'
	) | LC_ALL=C sort -t "$(printf '\t')" -k1,1 > "$1.sums"
}
snapshot "$work/before"

cp "$debs/$v1/$deb1" "$debs/$v2/$deb2" "$chr/tmp/"
# apt_install LOG ARGS...: apt-get install in the chroot (apt downloads
# dkms and its tools the first time, from the cache after). Without
# Recommends: dkms's and i2c-tools' pull in gnupg, fonts and X libraries,
# whose maintainer scripts would make the file comparison below about them.
apt_install() {
	local log=$1
	shift
	in_chroot apt-get install -y --no-install-recommends "$@" > "$log" 2>&1 && return 0
	# the base's package lists outlived the archive's files: refresh once
	in_chroot apt-get update -qq >> "$log" 2>&1 &&
		in_chroot apt-get install -y --no-install-recommends "$@" >> "$log" 2>&1
}

# check_installed V WHICH: dkms built and installed V (the first version or
# the upgrade) for $kver, and only V
check_installed() {
	local v=$1 which=$2 status ko
	status=$(in_chroot dkms status -m lps001wp 2>&1)
	[ "$status" = "lps001wp/$v, $kver, x86_64: installed" ] ||
		fail "$which: dkms status: installed for $kver, nothing else" "$v: dkms status: $(echo "$status" | tr '\n' ' ')"
	ok "$which: dkms status: installed for $kver, nothing else" "$v"
	ko=$(cd "$chr" && find "lib/modules/$kver" -name 'lps001wp.ko*')
	case $ko in
	"lib/modules/$kver/updates/dkms/lps001wp.ko" | "lib/modules/$kver/updates/dkms/lps001wp.ko.xz") ;;
	*) fail "$which: the module is in /lib/modules/$kver/updates/dkms" "$v: found: $(echo "$ko" | tr '\n' ' ')" ;;
	esac
	ok "$which: the module is in /lib/modules/$kver/updates/dkms" "$v: /$ko"
	[ "$(modinfo -F version "$chr/$ko")" = "$v" ] ||
		fail "$which: modinfo version and vermagic" "want $v, modinfo says '$(modinfo -F version "$chr/$ko")'"
	[ "$(modinfo -F vermagic "$chr/$ko" | cut -d' ' -f1)" = "$kver" ] ||
		fail "$which: modinfo version and vermagic" "want $kver, vermagic '$(modinfo -F vermagic "$chr/$ko")'"
	ok "$which: modinfo version and vermagic" "$v, $kver"
	grep -q "updates/dkms/lps001wp.ko" "$chr/lib/modules/$kver/modules.dep" ||
		fail "$which: depmod indexed it" "$v: not in modules.dep"
	ok "$which: depmod indexed it" "$v"
	installed_ko=$chr/$ko
}

t=$(date +%s)
apt_install "$logs/install.log" "/tmp/$deb1" || fail "apt install the first version, dkms and its build tools included" "./$deb1 failed" "$logs/install.log"
ok "apt install the first version, dkms and its build tools included" "./$deb1, $(($(date +%s) - t)) s"
check_installed "$v1" "the first version"

# Every link of the installed README to a file leads to an installed,
# uncompressed file: the README read in /usr/share/doc has no clone
# beside it.
name="the installed README's links to files lead to files in /usr/share/doc/lps001wp-dkms"
docdir=$chr/usr/share/doc/lps001wp-dkms
[ -f "$docdir/README.md" ] || fail "$name" "no README.md in /usr/share/doc/lps001wp-dkms"
links=$(grep -o '](\([^)#][^)]*\))' "$docdir/README.md" | sed 's/^](//; s/)$//' | sort -u)
[ -n "$links" ] || fail "$name" "no link to a file in the README (the check would pass on none)"
for l in $links; do
	case $l in
	*://*) continue ;;
	esac
	[ -f "$docdir/$l" ] || fail "$name" "$l: no /usr/share/doc/lps001wp-dkms/$l"
done
ok "$name" "$(echo "$links" | wc -l) links"

# The reader the package built, on this release: its usage, and no device
# in a chroot (no /sys): exit 1 and the reason, never a reading.
name="lps001wp-read runs: --help exits 0; without a device it exits 1 with the reason"
in_chroot lps001wp-read --help > "$logs/read.log" 2>&1 || fail "$name" "--help: exit status $?" "$logs/read.log"
grep -q '^usage: lps001wp-read \[once\] \[-d DEV\]$' "$logs/read.log" || fail "$name" "--help printed no usage" "$logs/read.log"
rc=0
in_chroot lps001wp-read > "$logs/read.log" 2>&1 || rc=$?
if [ "$rc" != 1 ] || [ "$(cat "$logs/read.log")" != "lps001wp-read: no device of the lps001wp driver: /sys/bus/iio/devices is missing (IIO not loaded)" ]; then
	fail "$name" "exit status $rc" "$logs/read.log"
fi
ok "$name"

# The plugdev rule as udev reads it: this machine's udevadm parses every
# rules file before it tests an event, and names a key it cannot read
# (a private mount namespace: the host's rules stay as they are).
name="the plugdev udev rule parses (udevadm test)"
dpkg-deb --fsys-tarfile "$debs/$v1/$deb1" | tar -xO ./usr/lib/udev/rules.d/60-lps001wp-plugdev.rules > "$work/60-lps001wp-plugdev.rules"
# In a chroot (a fresh machine's test) / is no mount point, so unshare
# cannot make the namespace's mounts private: the tmpfs is unmounted by
# hand either way, and the greps below judge what udevadm said.
prop=private
mountpoint -q / || prop=unchanged
# shellcheck disable=SC2016 # the inner shell's $1
unshare -m --propagation "$prop" sh -c 'mkdir -p /etc/udev/rules.d &&
	mount -t tmpfs tmpfs /etc/udev/rules.d && cp "$1" /etc/udev/rules.d/ &&
	udevadm test /sys/class/mem/null; r=$?; umount /etc/udev/rules.d; exit $r' \
	sh "$work/60-lps001wp-plugdev.rules" > "$logs/udevadm.log" 2>&1 || true
grep -q 'Reading rules file: /etc/udev/rules.d/60-lps001wp-plugdev.rules' "$logs/udevadm.log" ||
	fail "$name" "udevadm did not read it" "$logs/udevadm.log"
! grep '60-lps001wp-plugdev.rules:[0-9]' "$logs/udevadm.log" ||
	fail "$name" "$(grep '60-lps001wp-plugdev.rules:[0-9]' "$logs/udevadm.log" | head -n 3 | tr '\n' ' ')"
ok "$name"

# ---- lps001wp-setup ----
setup() { in_chroot lps001wp-setup "$@"; }
# What setup may write, with checksums: a refused run must leave it so.
state() {
	(
		cd "$chr"
		find boot etc var/lib -printf '%p %y\n'
		find boot etc var/lib \( -path 'var/lib/*' ! -path var/lib/lps001wp-setup ! -path 'var/lib/lps001wp-setup/*' \) \
			-prune -o -type f -print0 | xargs -0 -r sha1sum
	) | LC_ALL=C sort
}
cfg=$chr/boot/firmware/config.txt
orig=$work/config.txt.orig
state > "$work/state.0"
l5c="dtoverlay=lps001wp,addr=0x5c,interrupt=4"

name="setup pi: one dtoverlay line under an [all] added after the [pi4] section, the overlay in /boot/firmware/overlays"
setup pi --address 0x5c --int1-gpio 4 > "$logs/setup.log" 2>&1 || fail "$name" "exit status $?" "$logs/setup.log"
printf '[all]\n%s\n' "$l5c" | cat "$orig" - | cmp -s - "$cfg" || fail "$name" "config.txt: $(diff "$orig" "$cfg" | tr '\n' ' ')"
cmp -s "$chr/usr/share/lps001wp-dkms/overlays/lps001wp.dtbo" "$chr/boot/firmware/overlays/lps001wp.dtbo" ||
	fail "$name" "no /boot/firmware/overlays/lps001wp.dtbo, or not the package's"
ok "$name"

state > "$work/state.1"
setup pi --address 0x5c --int1-gpio 4 >> "$logs/setup.log" 2>&1 || fail "setup pi run again with the same options changes nothing" "exit status $?" "$logs/setup.log"
state > "$work/state.2"
cmp -s "$work/state.1" "$work/state.2" ||
	fail "setup pi run again with the same options changes nothing" "changed: $(diff "$work/state.1" "$work/state.2" | grep '^>' | tr '\n' ' ')"
ok "setup pi run again with the same options changes nothing" "config.txt, the overlay, the manifest: checksums"

name="setup pi: a second sensor adds its own line, a run with other options replaces it"
if ! { setup pi --address 0x5d --int1-gpio 17 && setup pi --address 0x5d --int1-gpio 22; } >> "$logs/setup.log" 2>&1; then
	fail "$name" "failed" "$logs/setup.log"
fi
printf '[all]\n%s\n%s\n' "$l5c" "dtoverlay=lps001wp,addr=0x5d,interrupt=22" | cat "$orig" - | cmp -s - "$cfg" ||
	fail "$name" "config.txt: $(diff "$orig" "$cfg" | tr '\n' ' ')"
ok "$name"

name="setup pc: a udev rule for the adapter by name, st_pressure_i2c kept from this device only; run again, nothing changes"
setup pc --adapter "SMBus stub driver" --address 0x5c >> "$logs/setup.log" 2>&1 || fail "$name" "exit status $?" "$logs/setup.log"
rules=$chr/etc/udev/rules.d/90-lps001wp-setup.rules
grep -qxF 'ACTION=="add", SUBSYSTEM=="i2c", KERNEL=="i2c-[0-9]*", ATTR{name}=="SMBus stub driver", ATTR{new_device}="lps001wp 0x5c"' "$rules" ||
	fail "$name" "no new_device rule for the adapter in $rules"
grep -q '^ACTION=="bind", SUBSYSTEM=="i2c", DRIVER=="st-press-i2c", KERNEL=="\*-005c", ATTR{name}=="lps001wp", ATTRS{name}=="SMBus stub driver", RUN+=' "$rules" ||
	fail "$name" "no rule taking the device from st-press-i2c in $rules"
grep -qx 'alias i2c:lps001wp lps001wp' "$chr/etc/modprobe.d/lps001wp-setup.conf" ||
	fail "$name" "no modprobe alias in /etc/modprobe.d/lps001wp-setup.conf"
grep -rqs '^[^#]*blacklist' "$chr/etc/modprobe.d" && fail "$name" "a blacklist in /etc/modprobe.d"
state > "$work/state.1"
setup pc --adapter "SMBus stub driver" --address 0x5c >> "$logs/setup.log" 2>&1 || fail "$name" "second run: exit status $?" "$logs/setup.log"
state > "$work/state.2"
cmp -s "$work/state.1" "$work/state.2" || fail "$name" "the second run changed: $(diff "$work/state.1" "$work/state.2" | grep '^>' | tr '\n' ' ')"
cp "$rules" "$work/setup.rules"
cp "$chr/etc/modprobe.d/lps001wp-setup.conf" "$work/setup.conf"
ok "$name"

# and claims no sensor bound: the stand-in /sys has the adapter, no device
if ! setup status > "$logs/status.log" 2>&1 ||
	! grep -qF "pi: sensor at 0x5c: $l5c: not bound: config.txt has its line, and no device is at 0x5c ('lps001wp-setup check' says what to do)" "$logs/status.log" ||
	! grep -qF "pc: sensor at 0x5c on the adapter named \"SMBus stub driver\": not bound: the adapter is bus 3, and the udev rule has not created its device ('lps001wp-setup check' says what to do)" "$logs/status.log"; then
	fail "setup status lists what it wrote, each sensor not bound" "see the log above" "$logs/status.log"
fi
ok "setup status lists what it wrote, each sensor not bound"

# Bad input: refused, non-zero, its own message, nothing changed. GPIO 22 is the
# second sensor's INT1; the user nobody is not root; without the model
# file this is no Pi.
name="setup refuses bad input with a message, and changes nothing"
state > "$work/state.1"
n=0
refused() {
	local why=$1 says=$2 rc=0
	shift 2
	"$@" > "$logs/refused.log" 2>&1 || rc=$?
	state > "$work/state.2"
	[ "$rc" != 0 ] || fail "$name" "$why: exit status 0"
	# the reason it gives is this case's, not another's
	grep -qF "lps001wp-setup: $says" "$logs/refused.log" || fail "$name" "$why: not refused with '$says'" "$logs/refused.log"
	cmp -s "$work/state.1" "$work/state.2" ||
		fail "$name" "$why: changed $(diff "$work/state.1" "$work/state.2" | grep '^[<>]' | head -n 3 | tr '\n' ' ')"
	n=$((n + 1))
}
refused "an unknown option" "pi: unknown option '--adress'" setup pi --adress 0x5d
refused "no word on INT1" "pi: say where INT1 is" setup pi --address 0x5d
refused "INT1 on a GPIO and not wired" "pi: --int1-gpio and --no-int1 exclude each other" setup pi --int1-gpio 5 --no-int1
refused "an unknown command" "unknown command or option 'frob'" setup frob
refused "address 0x5e" "bad address '0x5e'" setup pi --address 0x5e --int1-gpio 5
refused "GPIO 54" "GPIO 54 out of range" setup pi --address 0x5d --int1-gpio 54
refused "GPIO 3 (SCL)" "GPIO 3 is SDA or SCL" setup pi --address 0x5d --int1-gpio 3
refused "GPIO x" "bad GPIO 'x'" setup pi --address 0x5d --int1-gpio x
refused "the other sensor's GPIO" "pi: GPIO 22 is INT1 of the sensor at 0x5d" setup pi --address 0x5c --int1-gpio 22
refused "no --adapter" "pc: --adapter NAME is required" setup pc
refused "an adapter no one has" "pc: no I2C adapter is named 'SMBus stub'" setup pc --adapter "SMBus stub"
refused "a quote in the adapter name" "pc: adapter name 'a\"b' holds a quote" setup pc --adapter 'a"b'
refused "not root" "needs root" chroot --userspec=65534:65534 "$chr" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	lps001wp-setup pi --address 0x5d --int1-gpio 5
# a Pi 4 on 32-bit Pi OS, which boots the 64-bit kernel: stand-in uname
# and dpkg say so (in /tmp, outside the before/after comparison)
mkdir -p "$chr/tmp/pi32"
# shellcheck disable=SC2016 # the stand-in's $1
printf '#!/bin/sh\n[ "$1" = -m ] && echo aarch64 || echo 6.12.47+rpt-rpi-v8\n' > "$chr/tmp/pi32/uname"
printf '#!/bin/sh\necho armhf\n' > "$chr/tmp/pi32/dpkg"
chmod 755 "$chr/tmp/pi32/uname" "$chr/tmp/pi32/dpkg"
refused "32-bit Pi OS on a 64-bit kernel" "pi: 32-bit Raspberry Pi OS (armhf) on a 64-bit kernel (6.12.47+rpt-rpi-v8)" \
	in_chroot env PATH=/tmp/pi32:/usr/sbin:/usr/bin:/sbin:/bin lps001wp-setup pi --address 0x5d --int1-gpio 5
rm -r "$chr/tmp/pi32"
mv "$chr/sys/firmware" "$chr/sys/firmware.off"
refused "not a Raspberry Pi" "pi: not a Raspberry Pi" setup pi --address 0x5d --int1-gpio 5
mv "$chr/sys/firmware.off" "$chr/sys/firmware"
ok "$name" "$n cases"

# The installed lps001wp-hwcheck's usage names itself as installed, not
# the clone's script; a bad option gets it on stderr, status 2.
name="hwcheck --help: the usage of the installed command, exit 0; a bad option: the usage, exit 2"
out=$(in_chroot lps001wp-hwcheck --help 2> "$logs/hwcheck-help.err") || fail "$name" "--help: exit status $?" "$logs/hwcheck-help.err"
[ "$(head -n 1 <<< "$out")" = "Usage: sudo lps001wp-hwcheck [-b BUS] [-a ADDR] [-q] [-H HEADER] [-E]" ] ||
	fail "$name" "--help's first line: '$(head -n 1 <<< "$out")'"
rc=0
in_chroot lps001wp-hwcheck --frob > "$logs/hwcheck-bad.out" 2> "$logs/hwcheck-bad.err" || rc=$?
if [ "$rc" != 2 ] || [ -s "$logs/hwcheck-bad.out" ] || ! grep -qx "hwcheck: unknown option '--frob'" "$logs/hwcheck-bad.err" ||
	! grep -qx "Usage: sudo lps001wp-hwcheck .*" "$logs/hwcheck-bad.err"; then
	fail "$name" "--frob: exit status $rc, stderr: $(tr '\n' ' ' < "$logs/hwcheck-bad.err" | head -c 200)"
fi
ok "$name"

name="setup remove: /boot, /etc and /var/lib back to their checksums before setup"
setup remove > "$logs/remove.log" 2>&1 || fail "$name" "exit status $?" "$logs/remove.log"
state > "$work/state.2"
cmp -s "$work/state.0" "$work/state.2" || fail "$name" "differs: $(diff "$work/state.0" "$work/state.2" | grep '^[<>]' | head -n 5 | tr '\n' ' ')"
ok "$name"

# config.txt edited by hand after setup: remove takes out its own line only
# (the [all] stays: the user's line below it needs it).
name="setup remove after the user edited config.txt: only its own line goes, and it says so"
setup pi --no-int1 >> "$logs/setup.log" 2>&1 || fail "$name" "setup pi: exit status $?" "$logs/setup.log"
echo "gpu_mem=16" >> "$cfg"
setup remove > "$logs/remove.log" 2>&1 || fail "$name" "exit status $?" "$logs/remove.log"
printf '[all]\ngpu_mem=16\n' | cat "$orig" - | cmp -s - "$cfg" || fail "$name" "config.txt: $(diff "$orig" "$cfg" | tr '\n' ' ')"
grep -q 'edited' "$logs/remove.log" || fail "$name" "no word of it" "$logs/remove.log"
cat "$orig" > "$cfg"
ok "$name"

# What the purge must undo: two sensors on the Pi, one on the PC.
if ! { setup pi --address 0x5c --int1-gpio 4 && setup pi --address 0x5d --int1-gpio 17 &&
	setup pc --adapter "SMBus stub driver"; } >> "$logs/setup.log" 2>&1; then
	fail "setup pi (two sensors) and pc, for the purge" "failed" "$logs/setup.log"
fi
# setup's own part of state (dkms changes the rest on an upgrade)
setup_state() {
	state | grep -E '(^| )(boot|etc/udev|etc/modprobe\.d|var/lib/lps001wp-setup)(/| |$)'
}
setup_state > "$work/state.3"

t=$(date +%s)
apt_install "$logs/upgrade.log" "/tmp/$deb2" || fail "apt install the upgrade over the first version" "./$deb2 over $v1 failed" "$logs/upgrade.log"
ok "apt install the upgrade over the first version" "./$deb2 over $v1, $(($(date +%s) - t)) s"
if [ -e "$chr/usr/src/lps001wp-$v1" ] || [ -e "$chr/var/lib/dkms/lps001wp/$v1" ]; then
	fail "the first version is gone" "/usr/src/lps001wp-$v1 or /var/lib/dkms/lps001wp/$v1 is still there"
fi
ok "the first version is gone" "$v1"
check_installed "$v2" "the upgrade"
# the upgrade's lps001wp-setup, as installed, for the guest (suite setup-check)
cp "$chr/usr/sbin/lps001wp-setup" "$work/lps001wp-setup"
setup_state > "$work/state.4"
cmp -s "$work/state.3" "$work/state.4" ||
	fail "the upgrade keeps what setup wrote" "changed: $(diff "$work/state.3" "$work/state.4" | grep '^[<>]' | head -n 5 | tr '\n' ' ')"
ok "the upgrade keeps what setup wrote"

# The module the package installed, for the stock-kernel boot: uncompressed
# (busybox's modprobe cannot read .ko.xz).
mkdir -p "$work/module"
ko=$work/module/lps001wp.ko
case $installed_ko in
*.xz) xz -dc "$installed_ko" > "$ko" ;;
*) cp "$installed_ko" "$ko" ;;
esac

# A kernel installed after the package (as by a kernel upgrade): dkms's
# kernel hooks build the module for it. Debian's realtime flavour of the
# same version: a second kernel of the release with IIO, without a second
# kernel source.
kver2=${kver%-amd64}-rt-amd64
t=$(date +%s)
apt_install "$logs/newkernel.log" "linux-headers-$kver2" || fail "apt install linux-headers-$kver2" "failed" "$logs/newkernel.log"
status=$(in_chroot dkms status -m lps001wp -v "$v2" -k "$kver2" 2>&1)
ko2=$(cd "$chr" && find "lib/modules/$kver2" -name 'lps001wp.ko*' 2>/dev/null)
case "$status:$ko2" in
*": installed:lib/modules/$kver2/updates/dkms/lps001wp.ko"*)
	ok "a kernel installed later, $kver2: dkms built and installed the upgrade for it" "$v2, $(($(date +%s) - t)) s" ;;
*) fail "a kernel installed later, $kver2: dkms built and installed the upgrade for it" "$v2: dkms status: '$status', module: '$ko2'" "$logs/newkernel.log" ;;
esac
[ "$(modinfo -F vermagic "$chr/$ko2" | cut -d' ' -f1)" = "$kver2" ] ||
	fail "$kver2: vermagic $kver2" "vermagic '$(modinfo -F vermagic "$chr/$ko2")'"
ok "$kver2: vermagic $kver2"

t=$(date +%s)
in_chroot apt-get remove --purge -y lps001wp-dkms > "$logs/purge.log" 2>&1 || fail "apt remove --purge lps001wp-dkms" "failed" "$logs/purge.log"
ok "apt remove --purge lps001wp-dkms" "$(($(date +%s) - t)) s"
left=$(cd "$chr" && find usr/src var/lib/dkms lib/modules -name 'lps001wp*' 2>/dev/null | tr '\n' ' ')
[ -z "$left" ] || fail "no lps001wp file is left" "left: $left"
[ -z "$(in_chroot dkms status -m lps001wp 2>&1)" ] || fail "no lps001wp file is left" "dkms status: $(in_chroot dkms status -m lps001wp 2>&1)"
ok "no lps001wp file is left, dkms knows none"

# Otherwise the chroot holds what it held before plus the packages apt
# pulled in (dkms, make, ...: they stay, as on a user's machine). A path
# that appeared is a leftover unless a package still installed owns it or
# it is one of: apt's and dpkg's state and logs; what the maintainer
# scripts of those packages make (update-alternatives links; kmod's
# /etc/modules and its init script link); depmod's indexes of the chroot's
# kernels (made by dkms's depmod runs, the last one without lps001wp, see
# modules.dep).
snapshot "$work/after"
owned() {
	local usr=() d
	for d in bin sbin lib lib32 lib64 libx32; do
		[ -L "$chr/$d" ] && usr+=(-e "s|^/$d/|/usr/$d/|")
	done
	cat "$chr"/var/lib/dpkg/info/*.list | sed "${usr[@]}" -e 's|^/|./|' | LC_ALL=C sort -u
}
owned > "$work/owned.list"
allowed="^\./var/(lib/(apt|dpkg)|cache/(apt|debconf)|log)(/|\$)|^\./etc/alternatives/|^\./etc/modules\$|^\./etc/rcS\.d/S[0-9]+kmod\$|^\./usr/lib/modules/[^/]+/modules\.[a-z.]+\$"
LC_ALL=C comm -13 "$work/before.list" "$work/after.list" | LC_ALL=C comm -23 - "$work/owned.list" |
	{ grep -Ev "$allowed" || true; } | while read -r p; do
		case $(readlink "$chr/$p") in /etc/alternatives/*) continue ;; esac
		echo "$p"
	done > "$work/leftover.list"
if [ -s "$work/leftover.list" ]; then
	fail "after the purge no file is left" "$(wc -l < "$work/leftover.list") paths, see $work/leftover.list: $(head -n 5 "$work/leftover.list" | tr '\n' ' ')"
fi
if grep -q lps001wp "$chr/lib/modules/$kver/modules.dep" "$chr/lib/modules/$kver2/modules.dep"; then
	fail "after the purge no file is left" "modules.dep still lists lps001wp"
fi
ok "after the purge no file is left" "compared with the chroot before the install, $(wc -l < "$work/owned.list") paths owned by packages"

# No file of before is gone or different, but what apt and dpkg change on
# every install or removal: their state, caches and logs (seen:
# var/lib/dpkg/status and status-old, var/lib/apt/extended_states,
# var/cache/apt/pkgcache.bin, var/log/dpkg.log and var/log/apt/*). depmod's
# indexes come back byte for byte; config.txt must too. Nor the links a
# kernel image's postinst points at the newest kernel (/vmlinuz,
# /initrd.img and their .old): on Debian 13 the later kernel above brings
# its image with its headers, and the links move to it, with or without us.
tab=$(printf '\t')
apt_dpkg="^\./var/(lib/(apt|dpkg)|cache/(apt|debconf)|log)/|^\./(vmlinuz|initrd\.img)(\.old)?\$"
LC_ALL=C join -t "$tab" -a 1 -e GONE -o 0,1.2,2.2 "$work/before.sums" "$work/after.sums" |
	awk -F "$tab" '$2 != $3 { print $1 }' | { grep -Ev "$apt_dpkg" || true; } > "$work/changed.list"
if [ -s "$work/changed.list" ]; then
	fail "after the purge no file is gone or changed (checksums)" "$(wc -l < "$work/changed.list") files, see $work/changed.list: $(head -n 5 "$work/changed.list" | tr '\n' ' ')"
fi
ok "after the purge no file is gone or changed (checksums)" "$(wc -l < "$work/before.sums") files and links compared"

# The same comparison's verdict for each of setup's two paths, by name.
name="after the purge the Pi path is undone: config.txt byte for byte as before, no overlay in /boot/firmware/overlays"
cmp -s "$orig" "$cfg" || fail "$name" "config.txt: $(diff "$orig" "$cfg" | tr '\n' ' ')"
[ ! -e "$chr/boot/firmware/overlays/lps001wp.dtbo" ] || fail "$name" "/boot/firmware/overlays/lps001wp.dtbo is left"
[ ! -e "$chr/var/lib/lps001wp-setup" ] || fail "$name" "/var/lib/lps001wp-setup is left"
ok "$name"
name="after the purge the PC path is undone: no udev rule, no modprobe file"
for f in etc/udev/rules.d/90-lps001wp-setup.rules etc/modprobe.d/lps001wp-setup.conf; do
	[ ! -e "$chr/$f" ] || fail "$name" "/$f is left"
done
ok "$name"

# Debian's image of the chroot's kernel, for the caller's boot.
sroot=$(stock_fetch "$kver" "$hver" "$chr") || fail "Debian's $kver image and the package's module are ready to boot" "linux-image-$kver-unsigned $hver: download failed"
# st_pressure_i2c too: suite udev-rule checks it is kept from this device
# only, and still loads for others
stock_modroot "$sroot" "$kver" "$work/modroot" st_pressure_i2c ||
	fail "Debian's $kver image and the package's module are ready to boot" "its modules: see above"
rm -rf "$work/guest-files"
mkdir -p "$work/guest-files"
echo "$v2" > "$work/guest-files/expect-version"
# The PC path's udev rule, with i2c-stub's adapter name where a user puts
# theirs, for this machine's systemd-udevd in the guest (suite udev-rule).
u=$work/guest-files/udev
mkdir -p "$u/lib"
cp -L /lib/systemd/systemd-udevd "$u/"
# udevadm for settle: the same program as systemd-udevd since systemd 247,
# it picks its part by the name it runs under
udevadm=$(command -v udevadm)
cp -L "$udevadm" "$u/udevadm"
# udevd and its libraries; from systemd 256 (Debian 13) it dlopen()s libkmod
kmodlib=$(ldconfig -p | awk '$1 == "libkmod.so.2" && !found {print $NF; found = 1}')
for f in /lib/systemd/systemd-udevd "$udevadm" $kmodlib; do
	echo "$f"
	ldd "$f" | awk '/=> \// {print $3} /^[[:space:]]*\/lib/ {print $1}'
done | sort -u | grep -v systemd-udevd | while read -r lib; do cp -L "$lib" "$u/lib/"; done
cp /lib/udev/rules.d/80-drivers.rules "$u/"
# The rule lps001wp-setup pc wrote for i2c-stub's adapter above: what a
# user gets (the only udev rule of the PC path: setup writes it).
cp "$work/setup.rules" "$u/90-lps001wp-setup.rules"
cp "$work/setup.conf" "$u/lps001wp-setup.conf"
# The package's own lps001wp-setup, for suite setup-check
cp "$work/lps001wp-setup" "$work/guest-files/lps001wp-setup"
# The package's plugdev rule and its lps001wp-read (run through the
# loader above), for the group's rights (suite udev-rule).
dpkg-deb --fsys-tarfile "$debs/$v2/$deb2" | tar -xO ./usr/lib/udev/rules.d/60-lps001wp-plugdev.rules > "$u/60-lps001wp-plugdev.rules"
dpkg-deb --fsys-tarfile "$debs/$v2/$deb2" | tar -xO ./usr/bin/lps001wp-read > "$u/lps001wp-read"
chmod 755 "$u/lps001wp-read"
ldd "$u/lps001wp-read" | awk '/=> \// {print $3}' | while read -r lib; do cp -L "$lib" "$u/lib/"; done
# busybox's own i2cget/i2cset serve 15-stub: no host i2c-tools needed
BENCH_MINIMAL=1 BENCH_EXTRA_FILES=$work/guest-files bash "$root/tests/initramfs.sh" "$build/package.cpio.gz" "$work/modroot" "$kver" "$ko"
echo "$sroot/boot/vmlinuz-$kver" > "$build/package.kernel"
ok "Debian's $kver image and the package's module are ready to boot" "$(($(date +%s) - start)) s in all"

t=$(date +%s)
readme_done || exit 1
echo "package: waited $(($(date +%s) - t)) s for the README's blocks" >&2
