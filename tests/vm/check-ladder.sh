#!/bin/bash
# gd_check's ladder in the Soft-RoCE guest with a link taken down: rxe0's veth0 down makes
# its port leave ACTIVE, the devices rung (2) fails and the loopback test above it (rung 5)
# is SKIP "not run: rung 2 (devices) failed" in the table, JSON, JUnit and Prometheus, the
# summary naming the rung, its first FAIL and the fix; --keep-going runs the test anyway;
# the link up again: every rung runs and passes. The test expects the path it runs
# (registration host, fabric verbs), as the engine reports it.
#   scripts/gd-vm-tests --builddir $PWD tests/vm/check-ladder.sh
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}" "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/vm/lib.sh"
vm_require_guest
ck=$top_builddir/tools/gd_check
py=/usr/bin/python3
tmp=$(mktemp -d)
state=/sys/class/infiniband/rxe0/ports/1/state
trap 'ip link set veth0 up; rm -rf "$tmp"' EXIT
NOTRUN="not run: rung 2 (devices) failed"

cat >"$tmp/ladder.yaml" <<'EOS'
name: rxe0 ladder
devices:
  - name: rxe0
    state: ACTIVE
tests:
  - name: bw
    op: write
    size: 64K
    iterations: 200
    device: rxe0
    retries: 0
    expect: {registration: host, fabric: verbs, initiator: cpu}
    thresholds: {min_bw: 1 Mb/s}
EOS

# the link up: every rung runs; the path is the one expected
"$ck" "$tmp/ladder.yaml" >"$tmp/up" 2>&1
rc=$?
cat "$tmp/up"
vm_check "link up: exit 0" test $rc -eq 0
vm_check "link up: the test ran and PASSed" grep -q "^tests  *bw rxe0 host: min_bw  *PASS" "$tmp/up"
vm_check "link up: path used PASS (registration host, initiator cpu, fabric verbs)" \
	grep -q "^tests  *bw rxe0 host: path used  *PASS  *registration host, initiator cpu, fabric verbs" "$tmp/up"
vm_check "link up: no ladder line" bash -c "! grep -q '^ladder:' '$tmp/up'"

ip link set veth0 down
for _ in $(seq 50); do grep -q ACTIVE "$state" || break; sleep 0.1; done
vm_check "veth0 down: rxe0 port 1 left ACTIVE ($(cat $state))" bash -c "! grep -q ACTIVE $state"
"$ck" --junit "$tmp/down.xml" --prom "$tmp/down.prom" "$tmp/ladder.yaml" >"$tmp/down" 2>&1
rc=$?
cat "$tmp/down"
vm_check "link down: exit 1" test $rc -eq 1
vm_check "link down: the port state FAILs" grep -q "^devices  *rxe0 port 1 state  *FAIL" "$tmp/down"
vm_check "link down: the test is SKIP, not run" grep -q "^tests  *bw rxe0 host: min_bw  *SKIP" "$tmp/down"
vm_check "link down: '$NOTRUN' for the test's items" \
	test "$(grep -c "SKIP: $NOTRUN" "$tmp/down")" -eq 2
vm_check "link down: the summary names rung 2 and its fix" \
	grep -q "^ladder: rung 2 (devices) failed first: rxe0 port 1 state" "$tmp/down"
vm_check "link down: JUnit skipped with the message" "$py" - "$tmp/down.xml" "$NOTRUN" <<'PYEOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert [s.get("message") for s in root.iter("skipped")] == [sys.argv[2]] * 2
assert len(list(root.iter("failure"))) == 1
PYEOF
vm_check "link down: Prometheus SKIP and gdperf_check_ladder_failed_rung 2" bash -c \
	"grep -q 'check=\"bw rxe0 host: min_bw\",rung=\"p2p\"} 2\$' '$tmp/down.prom' &&
	 grep -q '^gdperf_check_ladder_failed_rung{.*} 2\$' '$tmp/down.prom'"
"$ck" --json "$tmp/ladder.yaml" >"$tmp/down.json" 2>/dev/null
vm_check "link down: JSON SKIP items and the summary's ladder" "$py" - "$tmp/down.json" "$NOTRUN" <<'PYEOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
tests = [r for r in recs if r["type"] == "check" and r["section"] == "tests"]
assert len(tests) == 2 and all(r["status"] == "SKIP" and r["message"] == sys.argv[2] for r in tests)
lad = recs[-1]["ladder"]
assert lad["failed_rung"] == 2 and lad["first_failure"] == "rxe0 port 1 state", lad
PYEOF

# --keep-going: the test runs although the devices rung failed (what it measures on a
# link that is down is its own business: not SKIP)
"$ck" --keep-going "$tmp/ladder.yaml" >"$tmp/keep" 2>&1
rc=$?
cat "$tmp/keep"
vm_check "--keep-going: exit 1 or 3" test $rc -eq 1 -o $rc -eq 3
vm_check "--keep-going: the test was run, not SKIP" \
	bash -c "grep -q '^tests  *bw rxe0 host: min_bw ' '$tmp/keep' && ! grep -q 'not run: rung' '$tmp/keep'"
ip link set veth0 up
for _ in $(seq 100); do grep -q ACTIVE "$state" && break; sleep 0.1; done
vm_exit
