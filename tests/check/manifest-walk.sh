#!/bin/sh
# manifest-walk.sh DIR: the files of an unpacked gd_check bundle (DIR/gd_check-bundle) against
# its MANIFEST, both ways: every file in DIR has a line naming it first, and every line names
# a file that is there ('#' lines are comments). Prints each mismatch; exit 0 when they agree,
# 1 when not, 2 without a MANIFEST. A helper of tests/check/*.sh and tests/vm/*.sh, not a test.
set -u
d=${1:?usage: manifest-walk.sh BUNDLE_DIR}
[ -f "$d/MANIFEST" ] || { echo "no MANIFEST in $d"; exit 2; }
bad=0
for f in "$d"/* "$d"/.[!.]*; do
	[ -e "$f" ] || continue
	n=${f##*/}
	[ "$n" = MANIFEST ] && continue
	[ -f "$f" ] || { echo "not a plain file: $n"; bad=1; continue; }
	awk -v n="$n" '$1 == n { found = 1 } END { exit !found }' "$d/MANIFEST" ||
		{ echo "in the bundle, not in the MANIFEST: $n"; bad=1; }
done
for n in $(awk '!/^#/ && NF { print $1 }' "$d/MANIFEST"); do
	[ -f "$d/$n" ] || { echo "in the MANIFEST, not in the bundle: $n"; bad=1; }
done
dups=$(awk '!/^#/ && NF { print $1 }' "$d/MANIFEST" | sort | uniq -d)
[ -z "$dups" ] || { echo "named twice in the MANIFEST: $dups"; bad=1; }
exit $bad
