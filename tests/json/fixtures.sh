#!/bin/bash
# doc/json.md documents every field the fixture-driven tools print, and every
# documented field of those tools is printed on some fixture (schema_check.py).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/lib/python.sh"
command -v "$PY" >/dev/null || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top_srcdir/tests/json/collect-fixtures.sh" "$tmp"
n=$(cat "$tmp"/*.jsonl | wc -l)
[ "$n" -gt 100 ] || { echo "FAIL: only $n records collected"; exit 1; }
echo "checking $n records from $(ls "$tmp" | wc -l) fixture runs against doc/json.md"
# gd_devinfo --fabric ofi's records need libfabric (built in and a provider here); so does
# the one run a sweep takes here (its sweep_point records: no RDMA device on a fixture)
. "$top_srcdir/tests/lib/features.sh" # needs_libfabric, lf_skip_exit
ofi=()
if ! needs_libfabric "gd_devinfo --fabric ofi's records, gd_check's sweep_point records (a run over libfabric tcp)"; then
	ofi=(--exempt libfabric --exempt-record "gd_check sweep_point")
elif [ ! -s "$tmp/devinfo-ofi.jsonl" ]; then
	ofi=(--exempt libfabric); echo "libfabric records exempt: no gd_devinfo --fabric ofi here"
fi
"$PY" "$top_srcdir/tests/json/schema_check.py" --complete gd_devinfo,gd_topo,gd_doctor,gd_check \
	--exempt "guest only" --exempt "run only" "${ofi[@]}" \
	"$top_srcdir/doc/json.md" "$tmp"/*.jsonl || exit 1
# every gd_check check record has its own time: when it began (UTC, ISO 8601, not before
# its run's check_run) and the seconds it took (issue 30: the records carried none)
"$PY" - "$tmp"/*.jsonl <<'PYEOF' || { echo "FAIL: a gd_check check record without its own started/elapsed_s"; exit 1; }
import json, re, sys
recs = [json.loads(l) for f in sys.argv[1:] for l in open(f) if l.startswith("{")]
checks = [r for r in recs if r.get("tool") == "gd_check" and r.get("type") == "check"]
assert checks, "no gd_check check records"
for r in checks:
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", r.get("started", "")), r
    assert isinstance(r.get("elapsed_s"), (int, float)) and r["elapsed_s"] >= 0, r
print("ok: %d gd_check check records, each with started and elapsed_s" % len(checks))
PYEOF
lf_skip_exit
