#!/bin/sh
# gd_check's bring-up ladder, for real over libfabric's tcp provider on loopback (no RDMA
# device): a device the spec names and this machine lacks fails rung 2 (devices); the test
# above it (rung 5) and a gd_doctor check of rung 4 are SKIP "not run: rung 2 (devices)
# failed" in the table, JSON, JUnit and Prometheus, the summary names the rung, its first
# FAIL and the fix; --keep-going runs them. A failing test of rung 5 stops a test given
# 'rung: gpu-initiated'. SKIP (77) without libfabric's tcp provider. In a build without
# libfabric the ladder of rung 2 still runs (its test over libfabric is planned as one that
# cannot run, "bw: runs", and is not run either); the parts that run a test SKIP.
. "$(dirname "$0")/lib.sh"
if built_with libfabric; then
	ofi_need tcp
	BW="bw ofi:tcp loopback: min_bw"
else
	BW="bw: runs"
fi
tmp_dir
. "${top_srcdir:-.}/tests/lib/ports.sh"; test_ports
NOTRUN="not run: rung 2 (devices) failed"

cat >"$tmp/ladder.yaml" <<EOS
name: ladder
devices:
  - name: gd-absent0
    state: ACTIVE
doctor:
  must_pass: [gdr.registration]
tests:
  - name: bw
    op: write
    type: bw
    size: 64K
    iterations: 200
    fabric: ofi
    provider: tcp
    thresholds: {min_bw: 1 Mb/s}
EOS
"$GD_CHECK" -p "$port" --junit "$tmp/l.xml" --prom "$tmp/l.prom" "$tmp/ladder.yaml" >"$tmp/l.txt" 2>&1
rc=$?
port=$((port + 50))
[ $rc = 1 ] && grep -q "^devices   gd-absent0 present .* FAIL" "$tmp/l.txt" &&
	grep -q "^tests     $BW .* SKIP" "$tmp/l.txt" &&
	grep -q "^doctor    gdr.registration .* SKIP" "$tmp/l.txt" &&
	[ "$(grep -c "SKIP: $NOTRUN" "$tmp/l.txt")" = 2 ] &&
	ok "table: rung 2 fails, the doctor check (4) and the test (5) are SKIP '$NOTRUN', exit 1" ||
	{ fail "table: exit $rc"; cat "$tmp/l.txt"; }
grep -q "^ladder: rung 2 (devices) failed first: gd-absent0 present" "$tmp/l.txt" &&
	grep -q "^fix: bring the devices and links up first" "$tmp/l.txt" &&
	grep -q "^2 check(s) above rung 2 not run (--keep-going runs them)" "$tmp/l.txt" &&
	ok "table summary: the lowest failed rung, its first FAIL, the fix" ||
	{ fail "table summary"; cat "$tmp/l.txt"; }
grep -q "^gdperf_check_status{.*check=\"$BW\",rung=\"p2p\"} 2$" "$tmp/l.prom" &&
	grep -q "^gdperf_check_status{.*check=\"gd-absent0 present\",rung=\"devices\"} 1$" "$tmp/l.prom" &&
	grep -q "^gdperf_check_ladder_failed_rung{host=.*} 2$" "$tmp/l.prom" &&
	ok "Prometheus: SKIP (2) with its rung, gdperf_check_ladder_failed_rung 2" ||
	{ fail "Prometheus"; cat "$tmp/l.prom"; }
if have_junitparser; then
	junit_check "$tmp/l.xml" 3 1 2 && ok "JUnit: 3 tests, 1 failure, 2 skipped" || fail "JUnit counts"
	"$PY" - "$tmp/l.xml" "$NOTRUN" <<'PYEOF' && ok "JUnit: skipped messages and the ladder property" ||
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
msgs = [s.get("message") for s in root.iter("skipped")]
assert msgs == [sys.argv[2]] * 2, msgs
props = {p.get("name"): p.get("value") for p in root.iter("property")}
assert props["ladder_failed_rung"] == "2 (devices)", props
PYEOF
		{ fail "JUnit messages"; cat "$tmp/l.xml"; }
fi
"$GD_CHECK" -p "$port" --json "$tmp/ladder.yaml" >"$tmp/l.json" 2>/dev/null
port=$((port + 50))
"$PY" - "$tmp/l.json" "$NOTRUN" "$BW" <<'PYEOF' && ok "JSON: rung, SKIP message, nothing measured, summary ladder" ||
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
checks = {r["check"]: r for r in recs if r["type"] == "check"}
bw = checks[sys.argv[3]]
assert bw["status"] == "SKIP" and bw["message"] == sys.argv[2], bw
assert bw["rung"] == 5 and bw["rung_name"] == "p2p" and bw["measured"] is None, bw
assert checks["gd-absent0 present"]["rung"] == 2
lad = recs[-1]["ladder"]
assert lad["failed_rung"] == 2 and lad["failed_rung_name"] == "devices", lad
assert lad["first_failure"] == "gd-absent0 present" and lad["not_run"] == 2, lad
assert lad["fix"].startswith("bring the devices"), lad
PYEOF
	{ fail "JSON"; cat "$tmp/l.json"; }

# the rest runs tests: over libfabric tcp
needs_libfabric "--keep-going, a rung 5 FAIL before rung 6, all PASS (each runs a test over libfabric tcp)" || finish
# --keep-going: the test runs (and passes) above the failed rung; still exit 1
"$GD_CHECK" -p "$port" --keep-going "$tmp/ladder.yaml" >"$tmp/k.txt" 2>&1
rc=$?
port=$((port + 50))
[ $rc = 1 ] && grep -q "^tests     bw ofi:tcp loopback: min_bw .* PASS" "$tmp/k.txt" &&
	! grep -q "not run: rung" "$tmp/k.txt" && grep -q "^--keep-going: the rungs above it ran" "$tmp/k.txt" &&
	grep -q "^ladder: rung 2 (devices) failed first" "$tmp/k.txt" &&
	ok "--keep-going: the test above the failed rung runs and PASSes; exit 1 for the device" ||
	{ [ $rc = 1 ] && grep -q "^tests     bw ofi:tcp loopback: min_bw .* FAIL" "$tmp/k.txt" &&
	  grep -q "min_bw: measured .*, but the measurement should not be believed" "$tmp/k.txt" &&
	  doubt "--keep-going: the test above the failed rung PASSes"; } ||
	{ fail "--keep-going: exit $rc"; cat "$tmp/k.txt"; }

# a test that fails on rung 5 stops a test put on rung 6 with the rung key
cat >"$tmp/rung6.yaml" <<EOS
tests:
  - name: slow
    op: write
    size: 64K
    iterations: 200
    provider: tcp
    retries: 0
    thresholds: {min_bw: 100000 Gb/s}
  - name: later
    op: write
    size: 64K
    iterations: 200
    provider: tcp
    rung: gpu-initiated
EOS
"$GD_CHECK" -p "$port" "$tmp/rung6.yaml" >"$tmp/r6.txt" 2>&1
rc=$?
port=$((port + 50))
[ $rc = 1 ] && grep -q "^tests     slow ofi:tcp loopback: min_bw .* FAIL" "$tmp/r6.txt" &&
	grep -q "^tests     later ofi:tcp loopback: runs .* SKIP" "$tmp/r6.txt" &&
	grep -q "SKIP: not run: rung 5 (p2p) failed" "$tmp/r6.txt" &&
	grep -q "^ladder: rung 5 (p2p) failed first: slow ofi:tcp loopback: min_bw" "$tmp/r6.txt" &&
	ok "rung: gpu-initiated is not run after a FAIL on rung 5" || { fail "rung key: exit $rc"; cat "$tmp/r6.txt"; }

# nothing failed: no ladder line, JSON ladder null
sed -e '/^devices:/,/state: ACTIVE/d' -e '/^doctor:/,/must_pass/d' "$tmp/ladder.yaml" >"$tmp/ok.yaml"
"$GD_CHECK" -p "$port" --json "$tmp/ok.yaml" >"$tmp/ok.json" 2>/dev/null
rc=$?
[ $rc = 0 ] && "$PY" -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; assert r[-1]["ladder"] is None' "$tmp/ok.json" &&
	ok "all PASS: exit 0, JSON ladder null" ||
	{ [ $rc = 1 ] && doubted "$tmp/ok.json" && doubt "all PASS: exit 0"; } ||
	{ fail "all PASS: exit $rc"; cat "$tmp/ok.yaml" "$tmp/ok.json"; }
finish
