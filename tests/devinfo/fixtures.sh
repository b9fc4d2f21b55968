#!/bin/sh
# The committed fixture trees are exactly what tests/fixtures/mksysfs.py makes.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib/python.sh"
command -v "$PY" >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$PY" "$top_srcdir/tests/fixtures/mksysfs.py" "$tmp" || exit 1
if ! diff -r --no-dereference "$top_srcdir/tests/fixtures/sysfs" "$tmp"; then
	echo "FAIL: tests/fixtures/sysfs differs from what mksysfs.py generates;"
	echo "      run tests/fixtures/mksysfs.py and commit the result"
	exit 1
fi
echo "fixture trees match mksysfs.py"
