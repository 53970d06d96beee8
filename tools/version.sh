#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the driver's version: the base version in Kbuild plus, in a git
# clone, the number of commits (0.1 with 85 commits is 0.1.85). Every
# commit raises it, without tags (CI clones have none), so a package or
# DKMS tree built after `git pull` replaces the one before it. A tree
# without git (a release tarball, a copy of the sources) is the base alone.
#
#   tools/version.sh [DIR]     DIR: the source tree (default: this script's)
set -eu

dir=${1:-$(dirname "$0")/..}
base=$(sed -n 's/^lps001wp-base-version := *\([0-9][0-9.]*\)$/\1/p' "$dir/Kbuild")
if [ -z "$base" ]; then
	echo "version.sh: no lps001wp-base-version in $dir/Kbuild" >&2
	exit 1
fi

# Only DIR's own clone counts: a copy of the sources inside another
# repository (a build directory) is not a commit of this one.
# In a root shell (sudo -i, su) the clone belongs to another user and git
# refuses it ("dubious ownership"); these calls only read, and root that
# runs make here runs this clone's Makefile anyway, so DIR is declared safe
# for them.
real=$(cd "$dir" && pwd -P)
rgit() {
	git -c safe.directory="$real" -C "$dir" "$@"
}
top=$(rgit rev-parse --show-toplevel 2>/dev/null || true)
if [ -z "$top" ] || [ "$(cd "$top" && pwd -P)" != "$real" ]; then
	# Loud: a clone that git cannot read would otherwise build a package
	# that every earlier one counts as newer
	echo "version.sh: $real is not the top of a git clone git can read: version $base, without the commit count" >&2
	echo "$base"
	exit 0
fi
if [ "$(rgit rev-parse --is-shallow-repository)" = true ]; then
	echo "version.sh: shallow clone: the commit count, and so the version, is too low; run git fetch --unshallow" >&2
fi
echo "$base.$(rgit rev-list --count HEAD)"
