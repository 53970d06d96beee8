# shellcheck shell=bash
# Sourced by the host scripts: the Debian stock kernels the bench covers.
#
#   stock_headers_re SERIES  the extended regex of Debian's amd64 headers
#                            package names of that series (not -cloud, -rt)
#   stock_kver SERIES        the release of the newest installed headers of
#                            SERIES; prints nothing and fails when none is
#                            installed (the caller then builds against a tree
#                            prepared from linux-source, see tests/stock.sh)
#
# What a host can install, by release:
#   series  Debian 12 (bookworm)                Debian 13 (trixie)
#   6.1     6.1.0-N-amd64 (bookworm)            none: not in trixie
#   6.12    6.12.N+deb12-amd64                  6.12.N+deb13-amd64 (trixie)
#           (bookworm-security; the bench does
#           not install it: its image comes
#           with it, see tests/deps.sh)
#   7.3     none: needs libc6 >= 2.38, gcc-14   none from the host's sources:
#                                               trixie-backports (the bench
#                                               uses it in a chroot only)
stock_headers_re() {
	printf '^linux-headers-%s[.][0-9]+(-[0-9]+)?([+]deb[0-9]+([.][0-9]+)?)?-amd64$' "${1//./\\.}"
}

stock_kver() {
	local k
	k=$(dpkg-query -W -f '${Package} ${Status}\n' "linux-headers-$1.*-amd64" 2>/dev/null |
		awk '/install ok installed/ {print $1}' | grep -E "$(stock_headers_re "$1")" | sort -V | tail -n1 || true)
	k=${k#linux-headers-}
	[ -n "$k" ] && [ -d "/lib/modules/$k/build" ] || return 1
	echo "$k"
}
