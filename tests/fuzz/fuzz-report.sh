#!/bin/sh
# run-fuzz.sh's failure report (issue 30, item 11: its report once said "tail: option used
# in invalid context" and the reproducer was not shown): a fuzz run made to fail on purpose
# (fuzz_wire alone, built to crash on an input holding GD_FUZZ_PLANT's bytes, here the
# message magic every seed starts with: libFuzzer writes that seed as wire-crash-*) must
# exit 1, name the target, show the end of its log, name the input, show its bytes escaped
# (od -c) and the command that reruns it. Takes ~40 s here (clang builds fuzz_wire).
set -u
: "${top_srcdir:=.}"
command -v clang >/dev/null 2>&1 || { echo "SKIP: clang not found"; exit 77; }
b=$(mktemp -d)
trap 'rm -rf "$b"' EXIT
out=$b/report
export top_srcdir
GD_FUZZ_TARGETS=wire GD_FUZZ_PLANT=GDPF top_builddir=$b sh "$top_srcdir/tests/fuzz/run-fuzz.sh" 4 >"$out" 2>&1
rc=$?
[ "$rc" = 77 ] && { tail -n 1 "$out"; exit 77; }
fail=0
ko() { echo "FAIL: $*"; fail=1; }
[ "$rc" = 1 ] || ko "run-fuzz.sh exited $rc with a failing target (expected 1)"
grep -q '^---- fuzz_wire: the end of fuzz-wire.log$' "$out" || ko "no log section for fuzz_wire"
grep -q 'deadly signal' "$out" || ko "the log's end does not show libFuzzer's finding"
grep -q 'option used in invalid context' "$out" && ko "the report's own command failed"
input=$(sed -n 's/^---- fuzz_wire: the input \(.*wire-crash-[0-9a-f]*\) ([0-9]* bytes), escaped:$/\1/p' "$out" | head -n 1)
if [ -z "$input" ] || [ ! -f "$input" ]; then
	ko "the report names no input that exists ('$input')"
else
	# the input's bytes, as od -c shows them, are in the report
	head -c 4096 "$input" | od -An -c >"$b/want"
	if [ ! -s "$b/want" ] || ! grep -qxF "$(head -n 1 "$b/want")" "$out"; then
		ko "the input's bytes are not shown"
	fi
	grep -qx "rerun: .*/fuzz_wire .*$input" "$out" || ko "no rerun line for $input"
fi
grep -q '^FAIL: a fuzzer found a problem' "$out" || ko "no closing FAIL line"
[ "$fail" = 0 ] || { echo "---- the report:"; cat "$out"; exit 1; }
echo "ok: a failing fuzz run reports fuzz_wire, its log, the input $(basename "$input") and its rerun line"
