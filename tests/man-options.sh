#!/bin/bash
# The OPTIONS section of man/gd_bench.1 is the one src/bench/man-options writes from
# the bench tools' option tables and their parameter list (src/bench/bench_params.c):
# a page edited there by hand, or an entry changed without `make man-update`, fails.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
gen=$top_builddir/src/bench/man-options
[ -x "$gen" ] || { echo "SKIP: $gen is not built (make check builds it)"; exit 77; }
T=$(mktemp -d) || exit 99
trap 'rm -rf "$T"' EXIT
if ! "$gen" > "$T/want" 2> "$T/err"; then
	echo "FAIL: src/bench/man-options refused the list:"; sed 's/^/  /' "$T/err"; exit 1
fi
awk '/^\.SH / { on = ($0 == ".SH OPTIONS") } on' "$top_srcdir/man/gd_bench.1" > "$T/have"
if ! diff -u "$T/have" "$T/want" > "$T/diff"; then
	echo "FAIL: the OPTIONS of man/gd_bench.1 (-) differ from what the parameter list" \
		"writes (+): edit the option's entry in src/bench/bench_params.c (or its place" \
		"in src/bench/man_options.c), not the page, then run make man-update"
	cat "$T/diff"
	exit 1
fi
echo "man/gd_bench.1: the $(grep -c '^\.TP' "$T/want") options of OPTIONS are the list's"
