#!/bin/bash
# doc/json.md documents every field the fixture-driven tools print, and every
# documented field of those tools is printed on some fixture (schema_check.py).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top_srcdir/tests/json/collect-fixtures.sh" "$tmp"
n=$(cat "$tmp"/*.jsonl | wc -l)
[ "$n" -gt 100 ] || { echo "FAIL: only $n records collected"; exit 1; }
echo "checking $n records from $(ls "$tmp" | wc -l) fixture runs against doc/json.md"
# gd_devinfo --fabric ofi's records need libfabric (built in and a provider here)
ofi=()
[ -s "$tmp/devinfo-ofi.jsonl" ] || { ofi=(--exempt libfabric); echo "libfabric records exempt: no gd_devinfo --fabric ofi here"; }
python3 "$top_srcdir/tests/json/schema_check.py" --complete gd_devinfo,gd_topo,gd_doctor,gd_check \
	--exempt "guest only" --exempt "run only" "${ofi[@]}" \
	"$top_srcdir/doc/json.md" "$tmp"/*.jsonl
