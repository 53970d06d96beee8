#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Quality gates (`make lint`, also part of `make check`). Each gate prints one
# TAP line on stdout:
#   ok - lint: <gate>
#   not ok - lint: <gate> # <short reason>
# Details go to stderr and to the log directory named at the end. The exit
# status is non-zero when any gate failed.
#
# Gates, one file per group in tests/lint/: checkpatch, sparse, W=1,
# coccicheck (c.sh); codespell, shellcheck, helpers (text.sh); binding,
# overlay (dt.sh); abi, the kernel's ABI validator (abi.sh). Each must
# report zero findings; the only way to waive one is an entry with a reason
# in tests/lint-exceptions.
#
# The work tree is never modified: builds run in a scratch copy under /tmp.
# The kernel sources the gates need (checkpatch, coccicheck, the binding
# .yamllint and dt-bindings headers) are extracted once from Debian's
# linux-source-6.1 (tests/kernel/source.sh: the host's package, or fetched
# on a release without it) into /var/cache/lps001wp/lint-src-<version>.
#
# Environment:
#   LINT_KVER      Debian headers to build against (default: the version
#                  linux-headers-amd64 depends on, e.g. 6.1.0-57-amd64)
#   LINT_KDIR      kernel build dir (default /lib/modules/$LINT_KVER/build)
#   LINT_GATES     space-separated subset of gates to run (default: all)
#   LPS001WP_CACHE cache directory (default /var/cache/lps001wp)
set -euo pipefail

# Debian packages the gates need; missing ones are installed with apt-get
# (ocaml-nox and libpython3-dev: spatch runs its scripted coccicheck rules
# only with them, as tests/deps.sh says).
LINT_PACKAGES="linux-headers-amd64 build-essential bc perl sparse coccinelle ocaml-nox libpython3-dev codespell shellcheck yamllint dt-schema device-tree-compiler"

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
cache=${LPS001WP_CACHE:-/var/cache/lps001wp}
exceptions=$root/tests/lint-exceptions
all_gates="checkpatch sparse W=1 coccicheck codespell shellcheck binding overlay helpers abi"
gates=${LINT_GATES:-$all_gates}
jobs=$(nproc)

log() { echo "lint: $*" >&2; }

# One TAP line per gate asked for (check.sh's run_stage counts them): a
# gate that stops early, or a run that never reaches the gates, fails.
# shellcheck disable=SC2086 # one word per gate
set -- $gates
plan lint $#

# ---------------------------------------------------------------- packages
missing=()
for p in $LINT_PACKAGES; do
	if [ "$(dpkg-query -W -f '${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
		missing+=("$p")
	fi
done
if [ "${#missing[@]}" -gt 0 ]; then
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y --no-install-recommends "${missing[@]}" >&2; then
		apt-get update >&2
		apt-get install -y --no-install-recommends "${missing[@]}" >&2
	fi
fi

read -r lint_tarball lint_srcver < <(bash "$root/tests/kernel/source.sh" 6.1) ||
	{ log "no linux-source-6.1 (see tests/kernel/source.sh)"; exit 1; }

kver=${LINT_KVER:-$(dpkg-query -W -f '${Depends}' linux-headers-amd64 |
	sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p')}
kdir=${LINT_KDIR:-/lib/modules/$kver/build}
[ -d "$kdir" ] || kdir=/usr/src/linux-headers-$kver

# ---------------------------------------------------------------- scratch
# Logs of earlier runs are kept for a day.
find /tmp -maxdepth 1 -name 'lps001wp-lint.*' -mtime +0 -exec rm -rf {} + 2>/dev/null || true
work=$(mktemp -d /tmp/lps001wp-lint.XXXXXX)
logs=$work/log
mkdir -p "$logs"
# On exit keep the logs, drop the scratch copies.
trap 'find "$work" -mindepth 1 -maxdepth 1 ! -name log -exec rm -rf {} +' EXIT

# A copy of the work tree without git metadata or build products; not
# build/, which the stages beside this one write into (the package stage's
# chroot has /proc mounted there).
src=$work/src
mkdir -p "$src"
tar -C "$root" --exclude=./.git --exclude=./build --exclude='*.o' --exclude='*.ko' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' \
	--exclude='*.a' --exclude=modules.order --exclude=Module.symvers \
	--exclude='*.dtbo' --exclude='*.dtb' -cf - . | tar -C "$src" -xf -
# Its files, before the W=1 and sparse gates build in it
(cd "$src" && find . -type f | sort) > "$work/files"

# ---------------------------------------------------------------- helpers
failed=0
ok() { echo "ok - lint: $1"; }
notok() {
	echo "not ok - lint: $1 # $2"
	failed=1
}
# Show a log's first lines on stderr under a header.
show() {
	local name=$1 file=$2
	[ -s "$file" ] || return 0
	echo "---- lint $name ($file)" >&2
	head -n 60 "$file" >&2
}

# Exceptions: "<gate> <value>  # <reason>"; lines starting with # are comments.
# Prints the values for GATE; an entry without a reason fails the gate.
exceptions_for() {
	local gate=$1 line g v reason
	[ -f "$exceptions" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		case "$line" in '' | '#'*) continue ;; esac
		read -r g v _ <<<"$line"
		reason=${line#*#}
		if [ "$reason" = "$line" ] || [ -z "${reason// /}" ]; then
			echo "lint-exceptions: no reason given: $line" >&2
			return 1
		fi
		[ "$g" = "$gate" ] && echo "$v"
	done <"$exceptions"
	return 0
}

# Kernel sources for checkpatch, coccicheck and the binding checks.
lint_src() {
	local dir
	dir=$cache/lint-src-$lint_srcver
	if [ ! -f "$dir/.extracted" ]; then
		mkdir -p "$cache"
		(
			flock 9
			if [ ! -f "$dir/.extracted" ]; then
				log "extracting linux-source-6.1 $lint_srcver to $dir"
				rm -rf "$dir.tmp"
				mkdir -p "$dir.tmp"
				tar -xf "$lint_tarball" -C "$dir.tmp" --strip-components=1
				rm -rf "$dir"
				mv "$dir.tmp" "$dir"
				touch "$dir/.extracted"
			fi
		) 9>"$cache/.lint-src.lock"
	fi
	echo "$dir"
}

# ---------------------------------------------------------------- gates
# One file per group; each defines gate_<name> functions.
# shellcheck source=tests/lint/c.sh
. "$root/tests/lint/c.sh"
# shellcheck source=tests/lint/text.sh
. "$root/tests/lint/text.sh"
# shellcheck source=tests/lint/dt.sh
. "$root/tests/lint/dt.sh"
# shellcheck source=tests/lint/abi.sh
. "$root/tests/lint/abi.sh"

# ---------------------------------------------------------------- run
for g in $gates; do
	t0=$SECONDS
	case "$g" in
	checkpatch) gate_checkpatch ;;
	sparse) gate_sparse ;;
	W=1) gate_w1 ;;
	coccicheck) gate_coccicheck ;;
	codespell) gate_codespell ;;
	shellcheck) gate_shellcheck ;;
	binding) gate_binding ;;
	overlay) gate_overlay ;;
	helpers) gate_helpers ;;
	abi) gate_abi ;;
	*) notok "$g" "unknown gate (known: $all_gates)" ;;
	esac
	log "$g: $((SECONDS - t0))s"
done

log "logs in $logs"
exit "$failed"
