#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian package end to end (part of `make check`; needs root), in a
# fresh chroot of the host's Debian release so the host stays as it was:
# make deb and lintian; apt install ./lps001wp-dkms_<v1>_all.deb into a
# minimal Debian with Debian's kernel headers (linux-headers-amd64) and
# dkms's dependencies but no dkms; DKMS built and installed the module for that kernel;
# apt install of a newer version replaces it; apt remove --purge leaves
# no file behind (compared path for path with the chroot before). The caller boots
# Debian's own image of that kernel with the module the package built
# (guest suite 15-stub, i2c-stub).
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
build=$(mkdir -p "$1" && cd "$1" && pwd)
# shellcheck source=tests/stock-lib.sh
. "$root/tests/stock-lib.sh"

HOST_PACKAGES="debootstrap debhelper dh-dkms lintian zstd xz-utils kmod cpio busybox-static udev"

ok() { echo "ok - package: $1${2:+ # $2}"; }
fail() {
	echo "not ok - package: $1 # $2"
	[ -n "${3:-}" ] && [ -f "$3" ] && tail -n 40 "$3" >&2
	exit 1
}

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
rm -rf "$logs"
mkdir -p "$logs"

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
trap 'if [ "${PACKAGE_KEEP_CHROOT:-0}" = 1 ]; then umount_chroot; else remove_chroot; fi' EXIT

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
deb1=lps001wp-dkms_${v1}_all.deb
deb2=lps001wp-dkms_${v2}_all.deb
if [ ! -f "$debs/$v1/$deb1" ] || [ ! -f "$debs/$v2/$deb2" ]; then
	fail "make deb builds this version and the next for the upgrade" "no $deb1 or $deb2 in $debs"
fi
ok "make deb builds this version and the next for the upgrade" "$deb1, $deb2"

contents=$(dpkg-deb -c "$debs/$v1/$deb1" | awk '{print $6}' | grep -v '/$' | LC_ALL=C sort | tr '\n' ' ')
want="./usr/share/doc/lps001wp-dkms/changelog.gz ./usr/share/doc/lps001wp-dkms/copyright ./usr/src/lps001wp-$v1/Kbuild ./usr/src/lps001wp-$v1/dkms.conf ./usr/src/lps001wp-$v1/lps001wp.c ./usr/src/lps001wp-$v1/lps001wp.h "
[ "$contents" = "$want" ] || fail "the package holds the module's sources only" "it holds: $contents"
ok "the package holds the module's sources only"

# Lintian's own profile, pedantic and info tags included; no overrides.
if lintian --pedantic --display-info --fail-on error,warning,info,pedantic "$debs/$v1/$deb1" > "$logs/lintian.log" 2>&1 &&
	! grep -q '^[EWIP]: ' "$logs/lintian.log"; then
	ok "lintian: no tags, pedantic included" "lintian $(lintian --version | awk '{print $2}')"
else
	fail "lintian: no tags, pedantic included" "$(grep -c '^[EWIP]: ' "$logs/lintian.log") tags" "$logs/lintian.log"
fi

# Every path of the chroot but the mounts and /tmp, for the before/after
# comparison.
snapshot() {
	(cd "$chr" && find . \( -path ./proc -o -path ./dev -o -path ./tmp -o -path ./var/cache/apt/archives \) -prune \
		-o -print) | LC_ALL=C sort
}
snapshot > "$work/before.list"

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

t=$(date +%s)
apt_install "$logs/upgrade.log" "/tmp/$deb2" || fail "apt install the upgrade over the first version" "./$deb2 over $v1 failed" "$logs/upgrade.log"
ok "apt install the upgrade over the first version" "./$deb2 over $v1, $(($(date +%s) - t)) s"
if [ -e "$chr/usr/src/lps001wp-$v1" ] || [ -e "$chr/var/lib/dkms/lps001wp/$v1" ]; then
	fail "the first version is gone" "/usr/src/lps001wp-$v1 or /var/lib/dkms/lps001wp/$v1 is still there"
fi
ok "the first version is gone" "$v1"
check_installed "$v2" "the upgrade"

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
snapshot > "$work/after.list"
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

# Debian's image of the chroot's kernel, for the caller's boot.
sroot=$(stock_fetch "$kver" "$hver" "$chr") || fail "Debian's $kver image and the package's module are ready to boot" "linux-image-$kver-unsigned $hver: download failed"
stock_modroot "$sroot" "$kver" "$work/modroot"
rm -rf "$work/guest-files"
mkdir -p "$work/guest-files"
echo "$v2" > "$work/guest-files/expect-version"
# The PC path's udev rule, with i2c-stub's adapter name where a user puts
# theirs, for this machine's systemd-udevd in the guest (suite udev-rule).
u=$work/guest-files/udev
mkdir -p "$u/lib"
cp -L /lib/systemd/systemd-udevd "$u/"
# udevd and its libraries; from systemd 256 (Debian 13) it dlopen()s libkmod
kmodlib=$(ldconfig -p | awk '$1 == "libkmod.so.2" && !found {print $NF; found = 1}')
for f in /lib/systemd/systemd-udevd $kmodlib; do
	echo "$f"
	ldd "$f" | awk '/=> \// {print $3} /^[[:space:]]*\/lib/ {print $1}'
done | sort -u | grep -v systemd-udevd | while read -r lib; do cp -L "$lib" "$u/lib/"; done
cp /lib/udev/rules.d/80-drivers.rules "$u/"
sed 's/ATTR{name}=="i2c-tiny-usb\*"/ATTR{name}=="SMBus stub driver"/' "$root/tools/90-lps001wp.rules" > "$u/90-lps001wp.rules"
grep -q '^ACTION=="add".*ATTR{name}=="SMBus stub driver", ATTR{new_device}="lps001wp 0x5c"$' "$u/90-lps001wp.rules" ||
	fail "tools/90-lps001wp.rules takes an adapter name" "no ATTR{name}==\"i2c-tiny-usb*\" rule line to set it in"
# busybox's own i2cget/i2cset serve 15-stub: no host i2c-tools needed
BENCH_MINIMAL=1 BENCH_EXTRA_FILES=$work/guest-files bash "$root/tests/initramfs.sh" "$build/package.cpio.gz" "$work/modroot" "$kver" "$ko"
echo "$sroot/boot/vmlinuz-$kver" > "$build/package.kernel"
ok "Debian's $kver image and the package's module are ready to boot" "$(($(date +%s) - start)) s in all"
