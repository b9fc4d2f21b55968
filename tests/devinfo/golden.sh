#!/bin/sh
# gd_devinfo against the fixture trees: stdout, stderr and exit code of each
# case in tests/devinfo/cases must match tests/devinfo/golden/.
# Usage: golden.sh [--update]   (--update rewrites the golden files)
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
tool="$top_builddir/tools/gd_devinfo"
. "$top_srcdir/tests/lib/python.sh"
golden="$top_srcdir/tests/devinfo/golden"
update=no
[ "${1:-}" = --update ] && update=yes
[ -x "$tool" ] || { echo "SKIP: $tool not built"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset GDPERF_SYSFS_ROOT
cd "$top_srcdir/tests/fixtures/sysfs" || exit 1

fail=0 n=0
while read -r name rc args; do
	case "$name" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	# shellcheck disable=SC2086 # the arguments are words
	"$tool" $args >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$update" = yes ]; then
		cp "$tmp/out" "$golden/$name.out"
		cp "$tmp/err" "$golden/$name.err"
	fi
	if [ "$got" != "$rc" ]; then
		echo "FAIL $name: exit code $got, expected $rc (gd_devinfo $args)"
		cat "$tmp/err"
		fail=$((fail + 1))
		continue
	fi
	for s in out err; do
		if ! diff -u "$golden/$name.$s" "$tmp/$s" >"$tmp/diff"; then
			echo "FAIL $name: std$s differs from golden/$name.$s (gd_devinfo $args)"
			cat "$tmp/diff"
			fail=$((fail + 1))
		fi
	done
done <"$top_srcdir/tests/devinfo/cases"

# GDPERF_SYSFS_ROOT is the same as --sysfs-root
n=$((n + 1))
if ! GDPERF_SYSFS_ROOT=h20 "$tool" 2>&1 | diff -u "$golden/h20.out" - >"$tmp/diff"; then
	echo "FAIL env: GDPERF_SYSFS_ROOT=h20 differs from --sysfs-root h20"
	cat "$tmp/diff"
	fail=$((fail + 1))
fi
# a GDPERF_SYSFS_ROOT that is not a directory is a usage error naming the variable
n=$((n + 1))
GDPERF_SYSFS_ROOT=no-such-tree "$tool" >"$tmp/out" 2>"$tmp/err"
got=$?
if [ "$got" != 2 ] || [ -s "$tmp/out" ] || ! grep -q '^gd_devinfo: error: GDPERF_SYSFS_ROOT=no-such-tree: No such file or directory; .*unset it' "$tmp/err"; then
	echo "FAIL env-missing: exit $got, expected 2 and a message naming GDPERF_SYSFS_ROOT"
	cat "$tmp/err"
	fail=$((fail + 1))
fi
# a report that cannot be written is exit 3 with a message, not a silent 0
if [ -w /dev/full ]; then
	for fmt in "" --json; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # $fmt is an optional word
		"$tool" --sysfs-root h20 $fmt >/dev/full 2>"$tmp/err"
		got=$?
		if [ "$got" != 3 ] || ! grep -q "cannot write the report to standard output" "$tmp/err"; then
			echo "FAIL full-disk $fmt: exit $got, expected 3 and a message"
			cat "$tmp/err"
			fail=$((fail + 1))
		fi
	done
fi
# every JSON line parses and carries the schema version
for f in "$golden"/*-json.out; do
	n=$((n + 1))
	if command -v "$PY" >/dev/null 2>&1 &&
	   ! "$PY" -c 'import json,sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    assert r["schema"] == 1 and r["tool"] == "gd_devinfo" and r["type"] in ("device", "bond", "peer", "summary"), line' "$f"; then
		echo "FAIL json: $f is not valid gd_devinfo JSON Lines"
		fail=$((fail + 1))
	fi
done
echo "gd_devinfo golden: $n checks, $fail failed"
[ "$fail" = 0 ]
