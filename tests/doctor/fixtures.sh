#!/bin/sh
# gd_doctor on every fixture tree under tests/fixtures/doctor: text and JSON
# output must match the golden files, and the exit code the .rc file.
# GD_REGEN=1 rewrites the golden files instead (review the diff!).
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${top_builddir:-$src}
. "$src/tests/lib/python.sh"
doctor=$build/tools/gd_doctor
golden=$src/tests/doctor/golden
fixtures=$src/tests/fixtures/doctor
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

[ -x "$doctor" ] || { echo "no $doctor"; exit 99; }
unset GDPERF_SYSFS_ROOT

check() { # name, expected, actual
	if [ "${GD_REGEN:-0}" = 1 ]; then
		cp "$3" "$2"
	elif ! diff -u "$2" "$3"; then
		echo "FAIL: $1 differs from $2"
		fail=1
	fi
}

for tree in "$fixtures"/*/; do
	name=$(basename "$tree")
	"$doctor" --sysfs-root "$tree" > "$tmp/$name.txt" 2> "$tmp/$name.err"
	echo $? > "$tmp/$name.rc"
	"$doctor" --sysfs-root "$tree" --json > "$tmp/$name.json" 2>> "$tmp/$name.err"
	echo $? >> "$tmp/$name.rc"
	check "$name text" "$golden/$name.txt" "$tmp/$name.txt"
	check "$name json" "$golden/$name.json" "$tmp/$name.json"
	check "$name exit codes" "$golden/$name.rc" "$tmp/$name.rc"
	if [ -s "$tmp/$name.err" ]; then
		echo "FAIL: $name wrote to stderr:"; cat "$tmp/$name.err"; fail=1
	fi
done

# every JSON line is an object with the schema version
if command -v "$PY" > /dev/null; then
	cat "$tmp"/*.json | "$PY" -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    assert r["schema"] == 1 and r["tool"] == "gd_doctor", r
    assert r["type"] in ("check", "summary"), r
    if r["type"] == "check":
        assert r["status"] in ("PASS", "WARN", "FAIL", "SKIP"), r
' || { echo "FAIL: JSON records malformed"; fail=1; }
fi

# the environment variable is the same as --sysfs-root
GDPERF_SYSFS_ROOT=$fixtures/acs-on "$doctor" > "$tmp/env.txt"
[ $? -eq 1 ] || { echo "FAIL: GDPERF_SYSFS_ROOT acs-on should exit 1"; fail=1; }
cmp -s "$tmp/env.txt" "$tmp/acs-on.txt" || { echo "FAIL: GDPERF_SYSFS_ROOT output differs"; fail=1; }

# one check, by prefix
"$doctor" --sysfs-root "$fixtures/bond-slave-down" --check rdma.bond > "$tmp/one.txt"
[ $? -eq 1 ] && grep -q '^FAIL  rdma.bond ' "$tmp/one.txt" && [ "$(grep -c '^[A-Z]\{4\}  ' "$tmp/one.txt")" = 1 ] ||
	{ echo "FAIL: --check rdma.bond"; cat "$tmp/one.txt"; fail=1; }
"$doctor" --sysfs-root "$fixtures/good" --check rdma > /dev/null || { echo "FAIL: --check rdma on good"; fail=1; }

# -d: only that device (the mismatch needs two ports, so mlx5_1 alone only warns)
"$doctor" --sysfs-root "$fixtures/mtu-mismatch" --check rdma.mtu -d mlx5_1 > "$tmp/dev.txt"
[ $? -eq 0 ] && grep -q '^WARN  rdma.mtu           mlx5_1 port 1: RoCE path MTU 1024' "$tmp/dev.txt" &&
	! grep -q mlx5_0 "$tmp/dev.txt" || { echo "FAIL: -d mlx5_1"; cat "$tmp/dev.txt"; fail=1; }

# usage errors exit 2
"$doctor" --check no.such.check --sysfs-root "$fixtures/good" > /dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: unknown --check should exit 2"; fail=1; }
"$doctor" --sysfs-root "$tmp/does-not-exist" > /dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: missing --sysfs-root should exit 2"; fail=1; }
"$doctor" --bogus > /dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: unknown option should exit 2"; fail=1; }
"$doctor" --list | grep -q '^pcie.acs ' || { echo "FAIL: --list"; fail=1; }

[ $fail = 0 ] && echo "gd_doctor fixtures: all match"
exit $fail
