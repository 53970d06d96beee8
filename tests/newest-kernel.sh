#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The newest Debian kernel a user can take: the newest linux-source-N.M
# series in trixie-backports (read with tests/aptfetch.sh's apt state in the
# cache), and whether one of the run's test-kernel lanes covers it. Part of
# `make check`.
#
#   newest-kernel.sh LANE...   LANE: the series of the run's lanes (6.1 ...)
#
# A series newer than every lane is news, not a broken driver: the line is
# then "ok ... # SKIP not covered", so the day Debian moves on is seen in
# the results without failing CI. A lookup that fails (no network, no such
# suite) is a "not ok": it says nothing about either.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
suite=trixie-backports
plan newest-kernel 1

what="newest-kernel: $suite' newest linux-source"
if ! avail=$(bash "$root/tests/aptfetch.sh" "$suite" list '^linux-source-[0-9]+[.][0-9]+$'); then
	echo "not ok - $what # apt lookup in $suite failed (see the log)"
	exit 1
fi
newest=$(sed -n 's/^linux-source-\([0-9.]*\) .*/\1/p' <<< "$avail" | sort -uV | tail -n1)
if [ -z "$newest" ]; then
	echo "not ok - $what # $suite lists no linux-source-N.M"
	exit 1
fi
for lane in "$@"; do
	if [ "$lane" = "$newest" ]; then
		echo "ok - $what is $newest, covered by a lane"
		exit 0
	fi
done
echo "ok - $what is $newest # SKIP not covered: the lanes are ${*:-none}"
