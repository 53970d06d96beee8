#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's Debian install blocks, run as they stand: every fenced block
# after a line `<!-- check: debian-12 -->` (or -13) in README.md, read from
# the README itself so that the text and the test cannot drift apart, runs
# as root in a fresh chroot of that release (a throw-away copy of
# tests/debian-chroot.sh's cached one: minbase, the release's headers, dkms,
# build-essential) from inside a clone of this tree (committed history plus
# the work tree's files: the README under test), with `sudo` a no-op and apt
# answering yes as a user does. The kernel the blocks see running (a
# stand-in uname) is the one a user of the release runs besides its first
# kernel, whose headers a block must add: on Debian 12 its 6.12
# (linux-image-6.12-amd64), on Debian 13 trixie-backports' (uname -v says
# ~bpo13; the chroot gets backports in its sources, as a user who installed
# that kernel has). Then DKMS must have installed the module for that
# kernel and for another (the release's first, of linux-headers-amd64).
# A release without a marked block fails: deleting the marker is caught.
#
#   readme-debian.sh RELEASE...      RELEASE: debian-12 or debian-13;
#                                    prints TAP lines "ok - package: ..."
#
# Needs root. apt's downloads are kept in $cache/readme-<release>-archives;
# README_CHECK_LOGS=DIR keeps each release's log as DIR/readme-<release>.log.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}
readme=$root/README.md

ok() { echo "ok - package: $1${2:+ # $2}"; }
notok() { echo "not ok - package: $1 # $2"; }

# blocks RELEASE: the marked blocks' lines for RELEASE, blocks one after the
# other. Markers stack (two markers, one block for both); only blank lines
# may stand between the markers and the block's opening fence.
blocks() {
	awk -v rel="$1" '
	inblock && /^[[:space:]]*(```|~~~)/ { inblock = 0; pending = ""; next }
	inblock { if (want) print; next }
	/^<!-- check: debian-[0-9]+ -->[[:space:]]*$/ {
		r = $0; sub(/^<!-- check: /, "", r); sub(/ -->.*/, "", r)
		pending = pending " " r " "; next
	}
	pending != "" && /^[[:space:]]*(```|~~~)/ {
		inblock = 1; want = index(pending, " " rel " ") > 0; next
	}
	pending != "" && /^[[:space:]]*$/ { next }
	{ pending = "" }
	' "$readme"
}

work=$(mktemp -d /tmp/lps001wp-readme.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The clone a user has: this tree's history, with the work tree's files on
# top (what is being tested may not be committed yet).
git clone -q --no-hardlinks "$root" "$work/lps001wp"
(cd "$root" && git ls-files -z -c -o --exclude-standard | xargs -0 -r cp --parents -t "$work/lps001wp" 2>/dev/null) || true

pids=()
for rel in "$@"; do
	case $rel in
	debian-12) series=6.1 ;;
	debian-13) series=6.12 ;;
	*) notok "README $rel blocks" "no chroot for $rel"; exit 1 ;;
	esac
	name="README's $rel blocks run as root in a fresh $rel chroot, in a clone"
	block=$(blocks "$rel")
	if [ -z "$block" ]; then
		notok "$name" "README.md has no block after <!-- check: $rel -->" > "$work/$rel.tap"
		continue
	fi
	mkdir -p "$work/$rel"
	cp -a "$work/lps001wp" "$work/$rel/lps001wp"
	{
		echo 'set -ex'
		echo 'cd /root/lps001wp'
		printf '%s\n' "$block"
	} > "$work/$rel/block.sh"
	# The harness around the block: no sudo in a minbase system (root
	# already), apt says yes as the user would, apt's lists fetched as on
	# an installed system, the downloads kept for the next run.
	cat > "$work/$rel/run.sh" <<-'EOF'
	set -e
	# a login shell's PATH, where the stand-in sudo is
	export PATH=/usr/local/sbin:/usr/local/bin:$PATH
	printf '#!/bin/sh\nexec "$@"\n' > /usr/local/bin/sudo
	chmod 755 /usr/local/bin/sudo
	printf 'APT::Get::Assume-Yes "true";\nBinary::apt::APT::Keep-Downloaded-Packages "true";\n' > /etc/apt/apt.conf.d/90readme-check
	. /etc/os-release
	if [ "$VERSION_CODENAME" = trixie ]; then
		mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
		printf 'Types: deb\nURIs: %s\nSuites: trixie-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$mirror" > /etc/apt/sources.list.d/backports.sources
		suite=trixie-backports meta=linux-headers-amd64
	else
		suite=bookworm meta=linux-headers-6.12-amd64
	fi
	apt-get update -qq
	# the stand-in running kernel: the newest of that headers package
	ver=$(apt-cache -t "$suite" policy "$meta" | awk '/Candidate:/ { print $2 }')
	# (from 7.2 on, Depends names linux-base-* first)
	kver=$(apt-cache show "$meta=$ver" | sed -n 's/^Depends: .*linux-headers-\([^ ,]*\) .*/\1/p')
	[ -n "$ver" ] && [ -n "$kver" ] || { echo "no $meta in $suite" >&2; exit 1; }
	cat > /usr/local/bin/uname <<-UNAME
	#!/bin/sh
	case "\$1" in
	-r) echo "$kver" ;;
	-v) echo "#1 SMP PREEMPT_DYNAMIC Debian $ver (2026-01-01)" ;;
	*) exec /bin/uname "\$@" ;;
	esac
	UNAME
	chmod 755 /usr/local/bin/uname
	echo "--- running kernel (stand-in): $kver $ver"
	DEBIAN_FRONTEND=noninteractive INITRD=No bash block.sh
	echo "--- dkms status"
	dkms status -m lps001wp
	EOF
	(
		t=$(date +%s)
		mkdir -p "$cache/readme-$rel-archives"
		# apt locks the kept downloads: a second run on this machine (make
		# check in another clone) waits here, not fails in the block
		exec 9> "$cache/readme-$rel-archives.lock"
		flock 9
		tar -C "$work/$rel" -c lps001wp block.sh run.sh |
			CHROOT_APT_ARCHIVES=$cache/readme-$rel-archives bash "$root/tests/debian-chroot.sh" "$series" -- \
				sh -c 'mkdir -p /root && cd /root && tar -xf - && sh run.sh' > "$work/$rel.log" 2>&1 || true
		running=$(sed -n 's/^--- running kernel (stand-in): \([^ ]*\) .*/\1/p' "$work/$rel.log")
		installed=$(sed -n '/^--- dkms status$/,$p' "$work/$rel.log" | sed -n 's/^lps001wp\/[^,]*, \([^,]*\), [^:]*: installed.*/\1/p')
		if [ -n "$running" ] && grep -qxF "$running" <<< "$installed" && [ "$(wc -l <<< "$installed")" -ge 2 ]; then
			ok "$name" "$(printf '%s\n' "$block" | grep -c .) lines, installed for $(echo "$installed" | paste -sd, -) (running: $running), $(($(date +%s) - t)) s"
		else
			notok "$name" "running (stand-in): ${running:-none}; DKMS installed for: $(echo "$installed" | paste -sd, -); the log below"
			tail -n 40 "$work/$rel.log" >&2
		fi
	) > "$work/$rel.tap" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
if [ -n "${README_CHECK_LOGS:-}" ]; then
	for rel in "$@"; do
		[ ! -f "$work/$rel.log" ] || cp "$work/$rel.log" "$README_CHECK_LOGS/readme-$rel.log"
	done
fi
for rel in "$@"; do
	[ -f "$work/$rel.tap" ] && cat "$work/$rel.tap"
done
! grep -q '^not ok' "$work"/*.tap 2>/dev/null
