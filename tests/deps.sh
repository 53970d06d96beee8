#!/bin/bash
# Install the Debian 12 packages the bench needs; skip what is present.
#
# Everything `make check` runs comes from here, so a fresh machine (Debian 12
# with make and git) needs nothing else. Notes on the less obvious ones:
#   ocaml-nox     spatch runs the OCaml-scripted coccicheck rules only when an
#                 OCaml compiler is present; without one coccicheck fails
#   libpython3-dev  and the Python-scripted ones only when it can dlopen
#                 libpython3.11.so (the unversioned name is in the -dev package)
#   openssl       dkms signs modules (and makes its MOK key) only with it
#   linux-headers-6.12.*-amd64
#                 Debian 12's security archive carries 6.12; the newest
#                 headers package is picked at run time. It pulls the matching
#                 kernel image in through its Depends (as on a user's machine).
set -euo pipefail

packages=(
	linux-source-6.1 linux-source-6.12 linux-headers-amd64
	build-essential bc bison flex libelf-dev libssl-dev kmod cpio patch
	python3 xz-utils openssl
	qemu-system-x86 qemu-system-arm busybox-static i2c-tools libiio-utils iiod
	gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf
	sparse coccinelle ocaml-nox libpython3-dev dkms dt-schema device-tree-compiler
	codespell shellcheck yamllint
)

installed() {
	dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# The newest linux-headers-6.12.N+deb12-amd64 apt knows of (empty if none).
newest_612_headers() {
	apt-cache pkgnames linux-headers-6.12. 2>/dev/null |
		grep -E '^linux-headers-6\.12\.[0-9]+\+deb12-amd64$' | sort -V | tail -n1
}

missing=()
for p in "${packages[@]}"; do
	installed "$p" || missing+=("$p")
done
have_612=$(dpkg-query -W -f '${Package} ${Status}\n' 'linux-headers-6.12.*+deb12-amd64' 2>/dev/null |
	awk '/install ok installed/ {print $1}' | sort -V | tail -n1 || true)

if [ "${#missing[@]}" -eq 0 ] && [ -n "$have_612" ]; then
	echo "deps: all $(( ${#packages[@]} + 1 )) packages present ($have_612)" >&2
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to install: ${missing[*]} ${have_612:-linux-headers-6.12.*-amd64}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
if [ -z "$have_612" ]; then
	h=$(newest_612_headers)
	[ -n "$h" ] || { echo "deps: no linux-headers-6.12.*+deb12-amd64 in apt (is bookworm-security in sources?)" >&2; exit 1; }
	missing+=("$h")
fi
echo "deps: installing ${missing[*]}" >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
