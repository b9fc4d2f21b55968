#!/bin/sh
# gd_check --baseline and judging by robust distance (doc/check.md, "Baseline of good nodes").
# tests/check/baseline/report.json is a real 'gd_check --json' report of
# tests/check/baseline/spec.yaml over libfabric tcp on 127.0.0.1 (its rows FAIL: the noise
# guard doubted them on a 2-core host busier than its cores). Each node's report here is a copy
# of it, made at test time: another host name, its values and status set (a good node PASSes),
# or its manifest mutated. Five good nodes give a baseline; a node 10 % low FAILs naming the
# value, the distance and the baseline; a pristine node PASSes; the refusals exit 2 and write
# nothing; an odd node is named with the manifest field that differs.
. "$(dirname "$0")/lib.sh"
tmp_dir
tpl=$top_srcdir/tests/check/baseline/report.json

# node OUT HOST BW LAT [KEY=VALUE...]: a node's report; KEY a manifest field, spec_sha256,
# status (every row's), or drop=PREFIX (leave the rows of checks starting with it out)
node() {
	"$PY" - "$tpl" "$@" <<'PYEOF' || exit 99
import json, sys
src, out, host, bw, lat = sys.argv[1:6]
extra = dict(a.split("=", 1) for a in sys.argv[6:])
res = []
for r in map(json.loads, open(src)):
    if r["type"] == "check_run":
        r["host"] = host
        for k, v in extra.items():
            if k in r["manifest"]:
                r["manifest"][k] = int(v) if k in ("gpus", "nics") else v
            elif k == "spec_sha256":
                r[k] = v
    elif r["type"] == "check":
        if "drop" in extra and r["check"].startswith(extra["drop"]):
            continue
        v = float(bw) if r["unit"] == "Gb/s" else float(lat)
        r.update(value=v, measured="%.2f %s" % (v, r["unit"]), message="",
                 status=extra.get("status", "PASS"))
    res.append(r)
open(out, "w").write("".join(json.dumps(r) + "\n" for r in res))
PYEOF
}
grep -q '"manifest":{"gpus"' "$tpl" && grep -q '"size_bytes":65536' "$tpl" ||
	fail "the fixture report lacks the manifest or size_bytes"
node "$tmp/a.json" node-a 1.90 10.1
node "$tmp/b.json" node-b 1.95 10.3
node "$tmp/c.json" node-c 2.00 10.0
node "$tmp/d.json" node-d 1.93 10.4
node "$tmp/e.json" node-e 1.97 10.2
good="$tmp/a.json $tmp/b.json $tmp/c.json $tmp/d.json $tmp/e.json"
gold=$tmp/golden.yaml

# shellcheck disable=SC2086
"$GD_CHECK" --baseline "$gold" $good 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^  nodes: 5$' "$gold" && grep -q '^      median: 1.95$' "$gold" &&
	grep -q '^      median: 10.2$' "$gold" && grep -q '^      n: 5$' "$gold" &&
	grep -q '^  kernel: ' "$gold" && grep -q '^manifest:$' "$gold" &&
	ok "--baseline of 5 good nodes: medians, N, the manifest and the kernel in the golden file" ||
	{ fail "--baseline: exit $rc"; cat "$tmp/err" "$gold"; }
# the scaled MAD of 1.90 1.93 1.95 1.97 2.00: |x - 1.95| median 0.02, x 1.4826
grep -q '^      mad: 0.029652$' "$gold" && ok "the bandwidth's MAD is 0.02 x 1.4826" ||
	fail "the MAD: $(grep mad: "$gold")"

# judge J WHAT RC PATTERN REPORT...: offline, exit RC, PATTERN in a FAIL message ("" none)
judge() {
	what=$1 want=$2 pat=$3
	shift 3
	"$GD_CHECK" --json --golden "$gold" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	fl=$("$PY" -c '
import json, sys
for r in map(json.loads, open(sys.argv[1])):
    if r.get("type") == "check" and r["status"] == "FAIL":
        print(r["message"])' "$tmp/out" 2>/dev/null)
	if [ $rc -eq "$want" ] && { [ -z "$pat" ] && [ -z "$fl" ] ||
		{ [ -n "$pat" ] && printf '%s\n' "$fl" | grep -q -- "$pat"; }; }; then
		ok "$what: exit $rc${pat:+, FAIL names '$pat'}"
	else
		fail "$what: exit $rc (want $want), FAILs: $fl"
		cat "$tmp/err"
	fi
}
node "$tmp/low.json" node-low 1.755 10.2
judge "a node 10 % low" 1 \
	"node-low bw ofi:tcp loopback: min_bw: baseline: .*1.755 Gb/s is 6.6 MAD below the baseline median 1.95 Gb/s (N=5" \
	"$tmp/low.json"
printf '%s\n' "$fl" | grep -q "max_lat" && fail "a node 10 % low: its latency failed too: $fl"
node "$tmp/slow.json" node-slow 1.95 11.3
judge "a node 10 % slower in latency" 1 "11.3 us is .* MAD above the baseline median 10.2 us" \
	"$tmp/slow.json"
node "$tmp/ok.json" node-ok 1.95 10.2
judge "a pristine node" 0 "" "$tmp/ok.json"
grep -q '"check":"node-ok bw ofi:tcp loopback: min_bw: baseline","status":"PASS"' "$tmp/out" &&
	grep -q '"node":"node-ok"' "$tmp/out" &&
	ok "a pristine node: its baseline rows PASS, named by its node" ||
	{ fail "a pristine node's rows"; cat "$tmp/out"; }
# across a fleet the odd node is named with the field that differs
node "$tmp/fw.json" node-k 1.95 10.2 kernel=6.1.0-99
judge "a fleet with a node on another kernel" 1 "node node-k: kernel is '6.1.0-99'" \
	"$tmp/ok.json" "$tmp/fw.json"
printf '%s\n' "$fl" | grep -q "node-ok" && fail "the fleet: the good node was named: $fl"
node "$tmp/part.json" node-p 1.95 10.2 drop=lat
judge "a node that did not measure a check" 1 "node-p lat ofi:tcp loopback: max_lat: baseline: .*lacks the check" \
	"$tmp/part.json"
# --robust-k: wider, the 10 % low node passes (k is the user's, bounded)
"$GD_CHECK" --golden "$gold" --robust-k 7 "$tmp/low.json" >/dev/null 2>&1
[ $? -eq 0 ] && ok "--robust-k 7: 6.6 MAD below passes" || fail "--robust-k 7"
"$GD_CHECK" --golden "$gold" --robust-k 0.5 "$tmp/low.json" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "from 1 to 20" "$tmp/err" && ok "--robust-k 0.5: exit 2" ||
	{ fail "--robust-k 0.5"; cat "$tmp/err"; }
sed 's/^  k: 4$/  k: 50/' "$gold" >"$tmp/k50.yaml"
"$GD_CHECK" --golden "$tmp/k50.yaml" "$tmp/ok.json" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "k50.yaml:[0-9]*:[0-9]*: baseline: k must be a decimal number from 1 to 20" "$tmp/err" &&
	ok "k: 50 in the file: exit 2 with FILE:LINE:COLUMN" || { fail "k: 50"; cat "$tmp/err"; }

# refusals: exit 2, the cause named, nothing written
refuse() { # WHAT PATTERN REPORT...
	what=$1 pat=$2
	shift 2
	rm -f "$tmp/x.yaml"
	"$GD_CHECK" --baseline "$tmp/x.yaml" "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q -- "$pat" "$tmp/err" && [ ! -e "$tmp/x.yaml" ]; then
		ok "refused, $what: exit 2, '$pat', nothing written"
	else
		fail "refused, $what: exit $rc"; cat "$tmp/err"
	fi
}
refuse "two nodes" "at least 3 good nodes, got 2" "$tmp/a.json" "$tmp/b.json"
node "$tmp/a2.json" node-a 1.91 10.1
refuse "a node twice" "both of node node-a: a node is never compared with itself" \
	"$tmp/a.json" "$tmp/b.json" "$tmp/c.json" "$tmp/a2.json"
node "$tmp/g8.json" node-g 1.95 10.2 gpus=8
refuse "mixed SKUs" "more than one SKU: \[gpus=0 .*\]: node-a node-b node-c \[gpus=8 .*\]: node-g" \
	"$tmp/a.json" "$tmp/b.json" "$tmp/c.json" "$tmp/g8.json"
node "$tmp/sp.json" node-s 1.95 10.2 spec_sha256=0123456789abcdef
refuse "another spec" "ran different specs" "$tmp/a.json" "$tmp/b.json" "$tmp/sp.json"
refuse "other tests" "node node-a measured 'lat ofi:tcp loopback: max_lat', node node-p did not" \
	"$tmp/a.json" "$tmp/b.json" "$tmp/part.json"
node "$tmp/bad.json" node-f 1.95 10.2 status=FAIL
refuse "a check that failed" "node node-f: 'bw ofi:tcp loopback: min_bw' is FAIL" \
	"$tmp/a.json" "$tmp/b.json" "$tmp/bad.json"
refuse "a node off the fleet's manifest" "node node-k differs in its manifest: kernel is '6.1.0-99' where 3 of 4 nodes" \
	"$tmp/a.json" "$tmp/b.json" "$tmp/c.json" "$tmp/fw.json"
printf 'not json\n' >"$tmp/junk.json"
refuse "not a report" "line 1 is not JSON" "$tmp/a.json" "$tmp/b.json" "$tmp/junk.json"
"$GD_CHECK" --baseline "$tmp/a.json" $good >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "an input of this run" "$tmp/err" && cmp -s "$tmp/a.json" "$tmp/a.json" &&
	ok "--baseline over one of its reports: exit 2" || { fail "--baseline over an input"; cat "$tmp/err"; }
# the golden file is a spec: its baseline loads through include: (a dry run plans the spec)
printf 'include: %s\n' "$gold" >>"$tmp/spec.yaml"
cat "$top_srcdir/tests/check/baseline/spec.yaml" "$tmp/spec.yaml" >"$tmp/live.yaml"
"$GD_CHECK" -n "$tmp/live.yaml" >"$tmp/out" 2>&1
[ $? -eq 0 ] && ok "a spec including the golden file loads (dry run)" || { fail "include: the golden file"; cat "$tmp/out"; }
# live: a spec that includes a baseline judges its own runs (one bw run over libfabric tcp);
# a median far above anything loopback tcp reaches FAILs by distance (or, on a busy host, as
# doubted: FAIL either way); a check of the baseline the spec does not run is FAIL
if ! needs_libfabric "live baseline rows and repeat: 3 (runs over libfabric tcp)"; then
	:
elif command -v fi_info >/dev/null && fi_info -p tcp >/dev/null 2>&1; then
	. "$top_srcdir/tests/lib/ports.sh"; test_ports
	cat >"$tmp/far.yaml" <<EOS
version: 1
manifest: {gpus: 0}
baseline:
  nodes: 3
  checks:
    - {check: "bwlive ofi:tcp loopback: runs", size: 65536, unit: Gb/s, median: 100000, mad: 1, n: 3}
    - {check: "ghost ofi:tcp loopback: runs", size: 65536, unit: Gb/s, median: 1, mad: 0, n: 3}
EOS
	cat >"$tmp/live.yaml" <<EOS
version: 1
include: far.yaml
retries: 0
tests:
  - {name: bwlive, op: write, type: bw, size: 64K, iterations: 200, fabric: ofi, provider: tcp}
EOS
	"$GD_CHECK" -p "$port" --json "$tmp/live.yaml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	"$PY" - "$tmp/out" <<'PYEOF' && ok "live: the run's baseline row FAILs (distance or doubt), exit $rc; an unmeasured check FAILs" || { fail "live: exit $rc"; cat "$tmp/out" "$tmp/err"; }
import json, sys
rows = {r["check"]: r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "check"}
b = rows["bwlive ofi:tcp loopback: runs: baseline"]
assert b["status"] == "FAIL", b
assert "MAD below the baseline median 1e+05 Gb/s (N=3" in b["message"] or \
    "should not be believed" in b["message"], b
g = rows["ghost ofi:tcp loopback: runs: baseline"]
assert g["status"] == "FAIL" and "did not measure it" in g["message"], g
PYEOF
	[ $rc -eq 1 ] || fail "live: exit $rc, not 1"
	# repeat: 3 judges the median of three runs, and says so (a doubted median is a FAIL
	# naming the doubt, as every doubted figure)
	printf 'version: 1\nretries: 0\ntests:\n  - {name: rep, op: write, type: bw, size: 64K, iterations: 200, fabric: ofi, provider: tcp, repeat: 3, thresholds: {min_bw: 1 Mb/s}}\n' \
		>"$tmp/rep.yaml"
	"$GD_CHECK" -p "$port" --json "$tmp/rep.yaml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	"$PY" - "$tmp/out" $rc <<'PYEOF' && ok "repeat: 3: the threshold judged on the median of 3 runs, exit $rc" || { fail "repeat: 3: exit $rc"; cat "$tmp/out" "$tmp/err"; }
import json, sys
r = [r for r in map(json.loads, open(sys.argv[1])) if r.get("check") == "rep ofi:tcp loopback: min_bw"]
assert len(r) == 1, r
m = r[0]["message"]
if r[0]["status"] == "FAIL" and "should not be believed" in m:
    print("(the median was doubted: the host is busy)", m)
else:
    assert r[0]["status"] == "PASS" and sys.argv[2] == "0", r
    assert "; median of 3 runs" in m, m
PYEOF
else
	echo "skip: live baseline rows (no libfabric tcp provider)"
fi
printf 'version: 1\ntests:\n  - {name: rp, op: write, pairs: ring, repeat: 3}\n' >"$tmp/rp.yaml"
"$GD_CHECK" -n "$tmp/rp.yaml" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "test 'rp': repeat is for runs on one node" "$tmp/err" &&
	ok "repeat with pairs between hosts: exit 2" || { fail "repeat with pairs: ring"; cat "$tmp/err"; }
printf 'version: 1\nmanifest: {gpus: 0}\n' >"$tmp/nobl.yaml"
"$GD_CHECK" --golden "$tmp/nobl.yaml" "$tmp/ok.json" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no 'baseline:' section" "$tmp/err" && ok "--golden without a baseline: exit 2" ||
	{ fail "--golden without a baseline"; cat "$tmp/err"; }
finish
