#!/bin/sh
# gd_check's retries and the path a test used, for real over libfabric's tcp provider on
# loopback: a threshold no run can meet is tried 1 + retries times (default 2, the spec's
# or the test's key) and every attempt is in the table, JSON and JUnit; a run that could not
# run (an unknown provider: ERROR, exit 3) is tried once and never becomes a FAIL. Every
# test item's JSON says how it ran ('ran'); 'expect:' that matches PASSes, one that does not
# (another provider, verbs where the rule chose libfabric) is a FAIL with what was expected
# and what ran. SKIP (77) without libfabric's tcp provider.
. "$(dirname "$0")/lib.sh"
ofi_need tcp
tmp_dir
. "${top_srcdir:-.}/tests/lib/ports.sh"; test_ports

spec() { # FILE TOP-LEVEL-LINE TEST-LINES...
	f=$1 top=$2
	shift 2
	{
		[ -n "$top" ] && echo "$top"
		printf 'tests:\n  - name: bw\n    op: write\n    size: 64K\n    iterations: 200\n'
		printf '    fabric: ofi\n'
		for l in "$@"; do printf '    %s\n' "$l"; done
	} >"$f"
}
run() { # NAME ARGS...: exit code in rc, output in $tmp/NAME.*
	n=$1
	shift
	"$GD_CHECK" -p "$port" "$@" >"$tmp/$n.out" 2>"$tmp/$n.err"
	rc=$?
	port=$((port + 50))
}
attempts() { # JSON CHECK: the statuses of its attempts, space-separated
	"$PY" - "$1" "$2" <<'PYEOF'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("check") == sys.argv[2]:
        print(" ".join(a["status"] for a in r.get("attempts", [])))
PYEOF
}
MIN="bw ofi:tcp loopback: min_bw"

spec "$tmp/miss.yaml" "" "thresholds: {min_bw: 100000 Gb/s}"
run miss --junit "$tmp/miss.xml" "$tmp/miss.yaml"
if grep -q "built without libfabric" "$tmp/miss.out" "$tmp/miss.err"; then
	echo "SKIP: this gd_check was built without libfabric"; exit 77
fi
[ $rc = 1 ] && grep -q "^ *attempts: 1 FAIL .*; 2 FAIL .*; 3 FAIL " "$tmp/miss.out" &&
	ok "a missed threshold: 3 attempts (retries default 2) in the table, exit 1" ||
	{ fail "default retries: exit $rc"; cat "$tmp/miss.out" "$tmp/miss.err"; }
grep -q "^attempt 3: FAIL" "$tmp/miss.xml" && ok "JUnit system-out lists the attempts" ||
	{ fail "JUnit attempts"; cat "$tmp/miss.xml"; }
run missj --json "$tmp/miss.yaml"
[ "$(attempts "$tmp/missj.out" "$MIN")" = "FAIL FAIL FAIL" ] && ok "JSON: attempts FAIL FAIL FAIL" ||
	{ fail "JSON attempts"; cat "$tmp/missj.out"; }

spec "$tmp/once.yaml" "" "retries: 0" "thresholds: {min_bw: 100000 Gb/s}"
run once --json "$tmp/once.yaml"
[ $rc = 1 ] && [ "$(attempts "$tmp/once.out" "$MIN")" = "FAIL" ] &&
	ok "retries: 0 on the test: one attempt" || { fail "retries 0: exit $rc"; cat "$tmp/once.out"; }
spec "$tmp/top.yaml" "retries: 1" "thresholds: {min_bw: 100000 Gb/s}"
run top --json "$tmp/top.yaml"
[ $rc = 1 ] && [ "$(attempts "$tmp/top.out" "$MIN")" = "FAIL FAIL" ] &&
	ok "retries: 1 for the spec: two attempts" || { fail "spec retries 1: exit $rc"; cat "$tmp/top.out"; }

# could not run: tried once, ERROR, exit 3, never FAIL
spec "$tmp/err.yaml" "" "provider: gd-no-such-provider" "thresholds: {min_bw: 100000 Gb/s}"
run err --json "$tmp/err.yaml"
[ $rc = 3 ] && [ "$(attempts "$tmp/err.out" "bw ofi:gd-no-such-provider loopback: min_bw")" = "ERROR" ] &&
	! grep -q '"status":"FAIL"' "$tmp/err.out" &&
	ok "could not run: one attempt, ERROR, exit 3, no FAIL" || { fail "ERROR: exit $rc"; cat "$tmp/err.out"; }

# the path used: matched ...
spec "$tmp/path.yaml" "" "expect: {registration: host, staging: false, initiator: cpu, fabric: ofi, provider: tcp}"
run path --json "$tmp/path.yaml"
[ $rc = 0 ] && "$PY" - "$tmp/path.out" <<'PYEOF' && ok "expect met: PASS; JSON 'ran' says how every item ran" ||
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if '"type":"check"' in l]
assert [r["check"] for r in recs] == ["bw ofi:tcp loopback: path used", "bw ofi:tcp loopback: runs"], recs
assert all(r["status"] == "PASS" for r in recs), recs
want = {"registration": "host", "path_class": "N/A", "staging": False, "initiator": "cpu",
        "producer": None, "fabric": "ofi", "provider": "tcp", "size_bytes": 65536}
assert all(r["ran"] == want for r in recs), recs
PYEOF
	{ fail "expect met: exit $rc"; cat "$tmp/path.out" "$tmp/path.err"; }
# ... and not: another provider than the one that ran
spec "$tmp/shm.yaml" "" "expect: {provider: shm}"
run shm --junit "$tmp/shm.xml" "$tmp/shm.yaml"
[ $rc = 1 ] && grep -q "^tests     bw ofi:tcp loopback: path used .* FAIL .*provider tcp .*provider shm" "$tmp/shm.out" &&
	grep -q "a silent fallback: expected provider shm, ran tcp" "$tmp/shm.out" &&
	grep -q 'message=".*a silent fallback: expected provider shm, ran tcp' "$tmp/shm.xml" &&
	ok "expect provider shm, ran tcp: FAIL with the evidence (table, JUnit), exit 1" ||
	{ fail "expect shm: exit $rc"; cat "$tmp/shm.out" "$tmp/shm.err"; }
# verbs expected where the machine's rule chose libfabric (no RDMA device here)
if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	printf 'tests:\n  - name: auto\n    op: write\n    iterations: 200\n    expect: {fabric: verbs}\n' >"$tmp/auto.yaml"
	run auto "$tmp/auto.yaml"
	[ $rc = 1 ] && grep -q "a silent fallback: expected fabric verbs, ran ofi" "$tmp/auto.out" &&
		ok "expect fabric verbs on a machine without RDMA: FAIL, ran ofi" ||
		{ fail "expect verbs: exit $rc"; cat "$tmp/auto.out" "$tmp/auto.err"; }
fi
finish
