#!/bin/sh
# gd_check --plot with the real gnuplot: the H20 fixture's dry-run matrix as a heatmap of
# path classes (4 NICs x 10 memories = 720x600 pixels), checked by its size and by its
# pixels (the SYS cells red, the 4 PIX cells green) with a PNG decoder of our own
# (tests/check/pngprobe.py, no PIL); without gnuplot, --plot exits 3 naming the package.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "SKIP: gnuplot is not installed (apt-get install gnuplot-nox)"
	exit 77
fi
"$GD_CHECK" --matrix --dry-run --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --plot "$tmp/m.png" \
	>/dev/null 2>"$tmp/err" || { fail "--plot: exit $?"; cat "$tmp/err"; finish; }
size=$(wc -c <"$tmp/m.png")
[ "$size" -gt 10000 ] && ok "PNG written ($size bytes)" || fail "PNG of $size bytes"
"$PY" "$top_srcdir/tests/check/pngprobe.py" "$tmp/m.png" 720 600 red:20 green:2 &&
	ok "720x600, red SYS and green PIX cells" || fail "pixel probe"
# without gnuplot on PATH
mkdir "$tmp/bin"
PATH=$tmp/bin "$GD_CHECK" --matrix --dry-run --topology "$H20_XML" --sysfs-root "$H20_SYSFS" \
	--plot "$tmp/x.png" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "gnuplot-nox" "$tmp/err" && ok "no gnuplot: exit 3, names the package" ||
	{ fail "no gnuplot: exit $rc"; cat "$tmp/err"; }
finish
