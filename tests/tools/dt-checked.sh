#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dt-checked.sh SCHEMA DTB COMPATIBLE: exit 0 when dt-validate checks the
# nodes of DTB whose compatible is COMPATIBLE against a binding in SCHEMA
# (dt-mk-schema's output), 1 when no binding looks at them.
#
# A node that no binding matches passes dt-validate without a word, so a
# clean run proves nothing. dt-schema 2022 could list the matches (-M);
# later versions (Debian 13's) cannot. So a copy of DTB whose matching
# nodes carry a property no binding allows must fail, naming that property.
set -euo pipefail

schema=${1:?usage: dt-checked.sh SCHEMA DTB COMPATIBLE}
dtb=${2:?usage: dt-checked.sh SCHEMA DTB COMPATIBLE}
compat=${3:?usage: dt-checked.sh SCHEMA DTB COMPATIBLE}
canary=lps001wp-binding-canary

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$dtb" "$tmp/canary.dtb"

# The path of every node with that compatible, from the decompiled tree
paths=$(dtc -q -I dtb -O dts "$dtb" | awk -v c="\"$compat\"" '
	/\{$/ {
		n = $1
		if (n ~ /:$/)
			n = $2
		path[depth] = depth == 0 ? "" : path[depth - 1] "/" n
		depth++
		next
	}
	/^[ \t]*};/ { depth--; next }
	/^[ \t]*compatible = / && index($0, c) {
		print depth == 1 ? "/" : path[depth - 1]
	}')
[ -n "$paths" ] || { echo "dt-checked: no node with compatible $compat in $dtb" >&2; exit 1; }
while read -r p; do
	fdtput -t u "$tmp/canary.dtb" "$p" "$canary" 1
done <<<"$paths"

dt-validate -s "$schema" "$tmp/canary.dtb" >"$tmp/out" 2>&1 || true
grep -F "$canary" "$tmp/out" >/dev/null
