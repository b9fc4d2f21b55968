#!/bin/bash
# Every page under man/ renders with `man -l` from the tree, with no message at all
# (groff's warnings on): a ".so" a checkout cannot resolve, a bad request or a
# table that troff cannot lay out fails. Run from an empty folder, so that nothing
# resolves against the tree's root by accident.
set -u
: "${top_srcdir:=.}"
command -v man > /dev/null || { echo "SKIP: no man (apt-get install man-db)"; exit 77; }
src=$(cd "$top_srcdir" && pwd)
T=$(mktemp -d) || exit 99
trap 'rm -rf "$T"' EXIT
status=0 n=0
for page in "$src"/man/*.[1-9]; do
	[ -e "$page" ] || { echo "FAIL: $page is a link to nothing"; status=1; continue; }
	n=$((n + 1))
	(cd "$T" && MANWIDTH=80 MAN_KEEP_FORMATTING= man --warnings -l "$page" > "$T/out" 2> "$T/err")
	rc=$?
	if [ $rc != 0 ] || [ -s "$T/err" ]; then
		echo "FAIL: man -l man/$(basename "$page") (exit $rc):"; sed 's/^/  /' "$T/err"; status=1
	elif ! grep -q '^NAME' "$T/out"; then
		echo "FAIL: man -l man/$(basename "$page") printed no NAME section"; status=1
	fi
done
[ $n = 0 ] && { echo "FAIL: no page under $src/man"; exit 1; }
echo "rendered $n pages"
exit $status
