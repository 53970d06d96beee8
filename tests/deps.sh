#!/bin/bash
# Install the Debian 12 packages the bench needs; skip what is present.
set -euo pipefail

packages=(
	linux-source-6.1 linux-headers-amd64 build-essential bc bison flex
	libelf-dev libssl-dev kmod cpio patch python3
	qemu-system-x86 busybox-static i2c-tools libiio-utils iiod
	sparse coccinelle dkms dt-schema device-tree-compiler
	codespell shellcheck yamllint
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
	echo "deps: all ${#packages[@]} packages present" >&2
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to install: ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
