#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# No function over 80 lines in src/ and tools/ (the project's rule), counted
# by scripts/func-length from the opening brace to the closing one. The
# checker is first shown a function of 81 lines (it must complain) and one
# of 80 (it must not), so that a checker that sees nothing cannot pass.
set -u
: "${top_srcdir:=.}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fl=$top_srcdir/scripts/func-length

body() { # n: a function whose braces span n lines
	printf 'static int f%s(void)\n{\n' "$1"
	i=2
	while [ $i -lt "$1" ]; do printf '\tx++;\n'; i=$((i + 1)); done
	printf '}\n'
}
mkdir "$tmp/long" "$tmp/ok"
body 81 > "$tmp/long/a.c"
body 80 > "$tmp/ok/a.c"
if sh "$fl" "$tmp/long" > "$tmp/out" || ! grep -q '^81 .*a.c:2 f81$' "$tmp/out"; then
	echo "FAIL: the checker missed a function of 81 lines:"; cat "$tmp/out"; exit 1
fi
sh "$fl" "$tmp/ok" > "$tmp/out" || { echo "FAIL: the checker flagged 80 lines:"; cat "$tmp/out"; exit 1; }

cd "$top_srcdir" || exit 99
sh scripts/func-length src tools
