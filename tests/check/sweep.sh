#!/bin/sh
# A sweep spec (sweep: [4K, 16K]) over libfabric shm, for real: the text has a table of its
# own with a row per message size (SIZE 4K 8K 16K, BYTES, PEAK, AVG) under a heading that
# names the provider and the memory (newcomer 49: a "NIC x memory" table with an empty NIC
# and only the last size), JSON one sweep_point record per size (only the largest judged)
# and no matrix_cell for a test that is not a matrix, as doc/json.md says.
. "$(dirname "$0")/lib.sh"
ofi_need shm
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
. "${top_srcdir:-.}/tests/lib/ports.sh"; test_ports

cat >"$tmp/sweep.yaml" <<'EOS'
tests:
  - name: sw
    op: write
    type: bw
    sweep: [4K, 16K]
    iterations: 50
    fabric: ofi
    provider: shm
    retries: 0
    thresholds: {min_bw: 1 Mb/s}
EOS
"$GD_CHECK" -p "$port" "$tmp/sweep.yaml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -le 1 ] || { fail "exit $rc"; cat "$tmp/out" "$tmp/err"; finish; }
awk '/^sw on ofi:shm host: bandwidth per message size/ { t = 1; next }
	t && /^SIZE +BYTES +PEAK +AVG$/ { h = 1; next }
	t && h && /^[0-9]+[KMG]? +[0-9]+ +([0-9.]+|-) +[0-9.]+$/ { s = s " " $1 ":" $2; next }
	t { t = 0 }
	END { exit s != " 4K:4096 8K:8192 16K:16384" }' "$tmp/out" &&
	ok "text: a row per size under 'sw on ofi:shm host'" ||
	{ fail "text: no per-size table"; cat "$tmp/out"; }
grep -q '^NIC x memory' "$tmp/out" && fail "text: a NIC x memory table for a test that is not a matrix"
port=$((port + 50))
"$GD_CHECK" -p "$port" --json "$tmp/sweep.yaml" >"$tmp/json" 2>"$tmp/err"
rc=$?
[ $rc -le 1 ] || { fail "--json: exit $rc"; cat "$tmp/err"; finish; }
"$PY" - "$tmp/json" <<'PYEOF' && ok "JSON: a sweep_point per size, the largest judged, no matrix_cell" ||
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
pts = [r for r in recs if r["type"] == "sweep_point"]
assert [p["size_bytes"] for p in pts] == [4096, 8192, 16384], pts
assert [p["judged"] for p in pts] == [False, False, True], pts
assert all(p["nic"] == "ofi:shm" and p["memory"] == "host" and p["bw_avg_gbps"] > 0 for p in pts), pts
assert not [r for r in recs if r["type"] == "matrix_cell"], recs
PYEOF
	{ fail "JSON records"; grep -v '"type":"check"' "$tmp/json"; }
"$PY" "$top_srcdir/tests/json/schema_check.py" "$top_srcdir/doc/json.md" "$tmp/json" &&
	ok "JSON records as doc/json.md says" || fail "JSON schema"
finish
