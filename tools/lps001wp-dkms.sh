#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# DKMS from a clone, without the Debian package (make dkms-install,
# make dkms-uninstall). Needs root for install and uninstall.
#
#   lps001wp-dkms.sh stage DIR       copy what DKMS builds from (the driver's
#                                    sources, Kbuild, dkms.conf with the
#                                    version) to DIR; also used by make deb
#   lps001wp-dkms.sh install         stage in /usr/src/lps001wp-<version>,
#                                    replace any other version added from a
#                                    clone, build and install for every
#                                    kernel with headers (DKMS_KERNELS=
#                                    "<kver> ..." to choose)
#   lps001wp-dkms.sh uninstall       remove every version added from a clone
#
# Versions the lps001wp-dkms package installed belong to dpkg: install
# refuses while the package is installed and uninstall leaves them alone.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
name=lps001wp
sources="lps001wp.c lps001wp.h Kbuild"

die() {
	echo "lps001wp-dkms: $*" >&2
	exit 1
}

version() {
	[ -n "${LPS001WP_VERSION:-}" ] && { echo "$LPS001WP_VERSION"; return; }
	sh "$root/tools/version.sh" "$root"
}

stage() {
	dest=$1 ver=$2
	mkdir -p "$dest"
	for f in $sources; do
		cp "$root/$f" "$dest/$f"
	done
	sed "/^PACKAGE_NAME=/a PACKAGE_VERSION=\"$ver\"" "$root/dkms.conf" > "$dest/dkms.conf"
}

# The versions of $name dkms knows, one a line.
dkms_versions() {
	dkms status -m "$name" 2>/dev/null | sed -n "s|^$name/\([^,:]*\)[,:].*|\1|p" | sort -u
}

owned_by_dpkg() {
	dpkg-query -S "$1" >/dev/null 2>&1
}

# Remove a version that a clone added: from every kernel, from dkms's tree
# and from /usr/src.
remove_version() {
	if [ -n "$(dkms status -m "$name" -v "$1" 2>/dev/null)" ]; then
		dkms remove -m "$name" -v "$1" --all >&2
	fi
	rm -rf "/usr/src/$name-$1" "/var/lib/dkms/$name/$1"
}

# Kernels with headers: every /lib/modules/<kver>/build that resolves.
kernels_with_headers() {
	for d in /lib/modules/*/build; do
		[ -e "$d/Makefile" ] || continue
		d=${d%/build}
		echo "${d##*/}"
	done
}

install() {
	command -v dkms >/dev/null || die "dkms is not installed (apt install dkms)"
	if dpkg-query -W -f '${Status}' "$name-dkms" 2>/dev/null | grep -q 'install ok installed'; then
		die "the $name-dkms package is installed: upgrade it (make deb) instead of mixing it with a clone's DKMS tree"
	fi
	for ko in /lib/modules/*/extra/"$name".ko* /lib/modules/*/updates/"$name".ko*; do
		[ -e "$ko" ] || continue
		die "$ko is from make install and would compete with DKMS's copy: run 'sudo make uninstall' (for each kernel: KERNELRELEASE=<kver>) first"
	done
	ver=$(version)
	for old in $(dkms_versions); do
		owned_by_dpkg "/usr/src/$name-$old" && continue
		echo "lps001wp-dkms: removing $name/$old" >&2
		remove_version "$old"
	done
	rm -rf "/usr/src/$name-$ver"
	stage "/usr/src/$name-$ver" "$ver"
	dkms add -m "$name" -v "$ver"
	kernels=${DKMS_KERNELS:-$(kernels_with_headers)}
	[ -n "$kernels" ] || die "no kernel headers in /lib/modules/*/build: apt install linux-headers-\$(uname -r)"
	for k in $kernels; do
		dkms install -m "$name" -v "$ver" -k "$k"
	done
}

uninstall() {
	for v in $(dkms_versions); do
		owned_by_dpkg "/usr/src/$name-$v" && continue
		remove_version "$v"
	done
	# copies an earlier `dkms add .` left behind (dkms remove keeps them)
	for d in /usr/src/"$name"-*; do
		[ -d "$d" ] && ! owned_by_dpkg "$d" && [ -z "$(dkms status -m "$name" -v "${d#/usr/src/"$name"-}" 2>/dev/null)" ] &&
			rm -rf "$d"
	done
	rmdir "/var/lib/dkms/$name" 2>/dev/null || true
}

case ${1:-} in
stage) [ $# = 2 ] || die "usage: $0 stage DIR"; stage "$2" "$(version)" ;;
install) install ;;
uninstall) uninstall ;;
*) die "usage: $0 stage DIR | install | uninstall" ;;
esac
