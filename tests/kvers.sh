# shellcheck shell=bash
# Sourced by the host scripts: the Debian stock kernels the bench covers.
#
#   stock_kver 6.1     e.g. 6.1.0-57-amd64 (what linux-headers-amd64 depends on)
#   stock_kver 6.12    e.g. 6.12.118+deb12-amd64 (the newest installed
#                      linux-headers-6.12.*+deb12-amd64, see tests/deps.sh)
# Prints nothing and fails when the headers are not installed.
stock_kver() {
	local k
	case $1 in
	6.1)
		k=$(dpkg-query -W -f '${Depends}' linux-headers-amd64 2>/dev/null |
			sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p')
		;;
	6.12)
		k=$(dpkg-query -W -f '${Package} ${Status}\n' 'linux-headers-6.12.*+deb12-amd64' 2>/dev/null |
			awk '/install ok installed/ {print $1}' | sort -V | tail -n1 || true)
		k=${k#linux-headers-}
		;;
	*) return 1 ;;
	esac
	[ -n "$k" ] && [ -d "/lib/modules/$k/build" ] || return 1
	echo "$k"
}
