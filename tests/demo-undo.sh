#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo's undo line when the demo fails part way (part of make check's
# demo stage, after demo.sh --build has fetched the kernel): the demo runs
# with a build directory that holds a package of make deb and, where the
# demo builds the driver, a file, so its build fails. It must still print
# the one command that removes what it left, and that command must remove
# nothing of the build directory but what the demo makes there.
#
#   demo-undo.sh     prints TAP lines "ok - demo-undo: ..."
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/hostlib.sh
. "$root/tests/hostlib.sh"
plan demo-undo 2

b=$(mktemp -d /tmp/lps001wp-demo-undo.XXXXXX)
trap '[ -n "${DEMO_UNDO_KEEP:-}" ] || rm -rf "$b" "$b.out" "$b.err"' EXIT
deb=$b/lps001wp-dkms_1.0_all.deb
echo "what make deb left" > "$deb"
echo "a file where the demo builds the driver" > "$b/demo-modules"

rc=0
BENCH_BUILD=$b bash "$root/tests/demo.sh" > "$b.out" 2> "$b.err" || rc=$?
undo=$(sed -n 's/^demo: undo with: //p' "$b.err")
name="a make demo that fails part way prints its undo line"
if [ "$rc" = 0 ]; then
	echo "not ok - demo-undo: $name # the demo did not fail (exit 0)"
elif ! grep -q "^demo: driver and simulator build against Debian's headers failed" "$b.err"; then
	echo "not ok - demo-undo: $name # it failed elsewhere: $(grep -m1 '^demo: .*failed' "$b.err")"
elif [ -z "$undo" ]; then
	echo "not ok - demo-undo: $name # exit $rc, no 'demo: undo with:' line; its last lines: $(tail -n 3 "$b.err" | tr '\n' '|')"
else
	echo "ok - demo-undo: $name # exit $rc"
fi

# The undo's rm -rf, run for what it names in the build directory (the
# cache it names is make check's too, and stays).
name="the undo removes the demo's files in build/, not make deb's package"
rm_args=$(sed -n 's/.*sudo rm -rf \([^;]*\);.*/\1/p' <<< "$undo")
ran=
for p in $rm_args; do
	case $p in
	"$b" | "$b"/*) rm -rf "$p"; ran="$ran ${p#"$b"}" ;;
	esac
done
if [ -z "$undo" ]; then
	echo "not ok - demo-undo: $name # no undo line"
elif [ ! -f "$deb" ]; then
	echo "not ok - demo-undo: $name # the package is gone; it ran rm -rf$ran"
elif [ -e "$b/demo-modules" ]; then
	echo "not ok - demo-undo: $name # demo-modules is left; it ran rm -rf$ran"
else
	echo "ok - demo-undo: $name # rm -rf$ran"
fi
