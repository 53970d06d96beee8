#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS from a clone, as the README tells desktop users (part of `make
# check`; needs root): in a scratch git clone of this tree, `make
# dkms-install` for Debian's headers of one kernel; what it staged in
# /usr/src (the module's sources, not the test bench); the installed .ko,
# its version and signature; a new commit and `make dkms-install` again
# replace that version; `dkms add .` refuses the folder; `make
# dkms-uninstall` leaves nothing. Prints TAP lines "ok - dkms: <step>" /
# "not ok - dkms: <step> # <reason>" and exits non-zero on failure. Always
# removes what it added (trap).
#
#   dkms.sh [KERNELRELEASE]
#
# KERNELRELEASE (or DKMS_KVER): the kernel to build for (default: the version
# linux-headers-amd64 depends on, e.g. 6.1.0-57-amd64); its headers are
# installed when missing. 7.3's need Debian 13 with backports: the bench runs
# this in tests/debian-chroot.sh.
set -euo pipefail

DKMS_KVER=${1:-${DKMS_KVER:-}}
DKMS_PACKAGES="dkms linux-headers-${DKMS_KVER:-amd64} build-essential git"

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
name=lps001wp

log() { echo "dkms.sh: $*" >&2; }
ok() { echo "ok - dkms: $1"; }
fail() {
	echo "not ok - dkms: $1 # $2"
	[ -n "${3:-}" ] && [ -f "$3" ] && tail -n 40 "$3" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || fail setup "needs root"

missing=()
for p in $DKMS_PACKAGES; do
	if [ "$(dpkg-query -W -f '${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
		missing+=("$p")
	fi
done
if [ "${#missing[@]}" -gt 0 ]; then
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
		{ apt-get update >&2 && apt-get install -y --no-install-recommends "${missing[@]}" >&2; }
fi

kver=${DKMS_KVER:-$(dpkg-query -W -f '${Depends}' linux-headers-amd64 |
	sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p')}
[ -d "/lib/modules/$kver/build" ] || fail setup "no headers at /lib/modules/$kver/build"
# the checks below: two versions get installed_ok's 4, or 5 where the
# kernel signs modules
signs=0
grep -qx 'CONFIG_MODULE_SIG=y' "/lib/modules/$kver/build/.config" 2>/dev/null && signs=1
plan dkms $((17 + 2 * signs))

# One DKMS round trip at a time on a machine: every run adds and removes the
# same module/version in the one /var/lib/dkms (make check's stages for two
# kernels run side by side).
lockdir=${LPS001WP_CACHE:-/var/cache/lps001wp}
mkdir -p "$lockdir"
exec 7>"$lockdir/.dkms.lock"
flock 7

# make dkms-uninstall removes every version a clone added: a real one on
# this machine would go too.
if [ -n "$(dkms status -m "$name" 2>/dev/null)" ] || compgen -G "/usr/src/$name-*" >/dev/null; then
	fail setup "$name is in DKMS on this machine already (dkms status; /usr/src/$name-*): this test would remove it"
fi

work=$(mktemp -d /tmp/lps001wp-dkms.XXXXXX)
clone=$work/lps001wp
fake=/lib/modules/$kver/extra/$name.ko
cleanup() {
	rm -f "$fake"
	rmdir "/lib/modules/$kver/extra" 2>/dev/null || true
	if [ -d "$clone" ]; then
		make -s -C "$clone" dkms-uninstall >&2 || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

# The work tree as a clone of its own, commits included but as one: the
# version counts this clone's commits.
mkdir -p "$clone"
tar -C "$root" --exclude=./.git --exclude=./build -cf - . | tar -C "$clone" -xf -
git -C "$clone" init -q
git -C "$clone" add -A
git -C "$clone" -c user.name=bench -c user.email=bench@localhost commit -q -m "the tree under test"
v1=$(sh "$clone/tools/version.sh")

# In a root shell (sudo -i, su) on a clone another user owns, git refuses
# the clone ("dubious ownership"); the version must still count its
# commits. A copy owned by nobody, read as root without sudo's SUDO_UID
# (which git would take for the owner).
foreign=$work/foreign
cp -a "$clone" "$foreign"
chown -R 65534:65534 "$foreign"
vf=$(env -u SUDO_UID sh "$foreign/tools/version.sh" "$foreign" 2> "$work/foreign.err") || vf=failed
[ "$vf" = "$v1" ] || fail "version.sh as root on a clone another user owns" \
	"'$vf', not '$v1': $(head -c 200 "$work/foreign.err")"
ok "version.sh as root on a clone another user owns # $vf"
rm -rf "$foreign"

# dkms_install LOG: make dkms-install for $kver only
dkms_install() {
	make -C "$clone" DKMS_KERNELS="$kver" dkms-install > "$1" 2>&1
}

# installed_ok VERSION: dkms status, the .ko under updates/dkms, modinfo
installed_ok() {
	local v=$1 status ko modver vermagic signer
	status=$(dkms status -m "$name" -v "$v" -k "$kver" 2>&1)
	case "$status" in
	*": installed"*) ok "$v: dkms status says installed for $kver" ;;
	*) fail "$v: dkms status says installed for $kver" "dkms status: $status" ;;
	esac
	ko=$(modinfo -k "$kver" -F filename "$name" 2>/dev/null || true)
	case "$ko" in
	"/lib/modules/$kver/updates/dkms/$name.ko"*) [ -f "$ko" ] || fail "$v: installed .ko" "$ko missing"
		ok "$v: installed .ko: $ko" ;;
	"") fail "$v: installed .ko" "modinfo -k $kver $name finds nothing" ;;
	*) fail "$v: installed .ko" "unexpected location $ko" ;;
	esac
	modver=$(modinfo -F version "$ko")
	[ "$modver" = "$v" ] || fail "$v: modinfo version = $v" "modinfo says '$modver'"
	ok "$v: modinfo version = $v"
	vermagic=$(modinfo -F vermagic "$ko")
	case "$vermagic" in
	"$kver "*) ok "$v: vermagic $kver" ;;
	*) fail "$v: vermagic $kver" "vermagic is '$vermagic'" ;;
	esac
	# dkms 3.0.10 signs with its MOK key (/var/lib/dkms/mok.key, made on
	# first use) when the kernel has CONFIG_MODULE_SIG.
	if [ "$signs" = 1 ]; then
		signer=$(modinfo -F signer "$ko")
		[ -n "$signer" ] || fail "$v: signed" "no module signature"
		ok "$v: signed (signer: $signer)"
	fi
}

# A module from make install for this kernel: dkms-install refuses.
mkdir -p "$(dirname "$fake")"
: > "$fake"
if dkms_install "$work/mixed.log"; then
	fail "dkms-install refuses while make install's module is there" "it installed"
fi
grep -q 'from make install' "$work/mixed.log" ||
	fail "dkms-install refuses while make install's module is there" "not for that reason" "$work/mixed.log"
[ -z "$(dkms status -m "$name")" ] || fail "dkms-install refuses while make install's module is there" "dkms has $name anyway"
ok "dkms-install refuses while make install's module is there"
rm -f "$fake"
rmdir "/lib/modules/$kver/extra" 2>/dev/null || true

if dkms_install "$work/install1.log"; then
	ok "make dkms-install $v1 for $kver"
else
	cp "/var/lib/dkms/$name/$v1/build/make.log" "$work/make.log" 2>/dev/null || cp "$work/install1.log" "$work/make.log"
	fail "make dkms-install $v1 for $kver" "failed" "$work/make.log"
fi
staged=$(cd "/usr/src/$name-$v1" && find . | LC_ALL=C sort | tr '\n' ' ')
want=". ./Kbuild ./dkms.conf ./lps001wp.c ./lps001wp.h "
[ "$staged" = "$want" ] || fail "/usr/src/$name-$v1 holds the module's sources only" "it holds: $staged"
ok "/usr/src/$name-$v1 holds the module's sources only"
installed_ok "$v1"

# After `git pull`: a new commit is a new version, and installing it
# replaces the old one.
git -C "$clone" -c user.name=bench -c user.email=bench@localhost commit -q --allow-empty -m "a newer commit"
v2=$(sh "$clone/tools/version.sh")
[ "$v2" != "$v1" ] || fail "a new commit is a new version" "still $v1"
ok "a new commit is a new version: $v1 -> $v2"
dkms_install "$work/install2.log" || fail "make dkms-install $v2 over $v1" "failed" "$work/install2.log"
ok "make dkms-install $v2 over $v1"
if [ -n "$(dkms status -m "$name" -v "$v1")" ] || [ -e "/usr/src/$name-$v1" ] || [ -e "/var/lib/dkms/$name/$v1" ]; then
	fail "$v1 is gone" "dkms status: $(dkms status -m "$name" | tr '\n' ' ')"
fi
ok "$v1 is gone"
installed_ok "$v2"

# `dkms add` on the folder would copy the whole clone to /usr/src.
srcdirs() { find /usr/src -maxdepth 1 -name "$name-*" | sort | tr '\n' ' '; }
before=$(srcdirs)
if (cd "$clone" && dkms add .) > "$work/add.log" 2>&1; then
	fail "dkms add . refuses the folder" "it added it"
fi
grep -q 'make dkms-install' "$work/add.log" || fail "dkms add . refuses the folder" "no pointer to make dkms-install" "$work/add.log"
after=$(srcdirs)
[ "$before" = "$after" ] || fail "dkms add . refuses the folder" "/usr/src went from '$before' to '$after'"
ok "dkms add . refuses the folder and says to use make dkms-install"

ko=$(modinfo -k "$kver" -F filename "$name")
make -C "$clone" dkms-uninstall > "$work/uninstall.log" 2>&1 || fail "make dkms-uninstall" "failed" "$work/uninstall.log"
if [ -e "$ko" ]; then
	fail "make dkms-uninstall leaves nothing" "$ko still exists"
elif modinfo -k "$kver" "$name" >/dev/null 2>&1; then
	fail "make dkms-uninstall leaves nothing" "modinfo -k $kver still finds $name"
elif [ -n "$(dkms status -m "$name" 2>/dev/null)" ]; then
	fail "make dkms-uninstall leaves nothing" "dkms status still lists $name"
elif compgen -G "/usr/src/$name-*" >/dev/null || [ -e "/var/lib/dkms/$name" ]; then
	fail "make dkms-uninstall leaves nothing" "left: $(srcdirs) $(find /var/lib/dkms -maxdepth 1 -name "$name")"
else
	ok "make dkms-uninstall leaves nothing"
fi
