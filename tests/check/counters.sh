#!/bin/sh
# gd_check judges a run's port counters (doc/check.md, "Port counters"), over libfabric tcp on
# 127.0.0.1 for real, with the RDMA port read from a copy of the rxe fixture (--sysfs-root):
# the test's counters_port names rxe0:1, whose hw_counters/rcvd_seq_err (an error counter) is
# bound to the live loopback's tx_packets, which the run's own traffic moves. The run FAILs its
# counters item naming the counter, the port and the change (exit 1) with no threshold at all;
# tolerate: with a bound above the change PASSes it; a counter that stays still PASSes; a tcp
# run without counters_port has no counters item; a counters_port this machine lacks FAILs;
# tolerating a counter that is not an error is exit 2 with FILE:LINE:COL; the netdev's
# ethtool statistics (ROOT/ethtool/veth0/): PFC pauses are reported as congestion, a pause
# storm FAILs. Under mpirun (2 ranks, pairs: pairwise) each side's port is judged on its
# rank: two counters items, both FAIL naming the counter (skipped without mpirun or a gd_check built without MPI).
# SKIP (77) without libfabric's tcp provider or a loopback with statistics.
. "$(dirname "$0")/lib.sh"
ofi_need tcp
lo=/sys/class/net/lo/statistics/tx_packets
[ -r "$lo" ] || { echo "SKIP: $lo is not here"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
. "${top_srcdir:-.}/tests/lib/ports.sh"; test_ports
cp -a "$top_srcdir/tests/fixtures/sysfs/rxe/." "$tmp/root/" 2>/dev/null ||
	{ mkdir -p "$tmp/root" && cp -a "$top_srcdir/tests/fixtures/sysfs/rxe/." "$tmp/root/"; } || exit 99
hw=$tmp/root/sys/devices/virtual/infiniband/rxe0/ports/1/hw_counters
mkdir -p "$hw" && echo 5 >"$hw/sent_pkts" && ln -s "$lo" "$hw/rcvd_seq_err" || exit 99

spec() { # FILE EXTRA-KEY-LINES...
	f=$1; shift
	{ printf 'name: counters\ntests:\n  - name: bw-tcp\n    op: write\n    type: bw\n'
	  printf '    size: 64K\n    iterations: 200\n    provider: tcp\n'
	  for l; do printf '    %s\n' "$l"; done; } >"$f"
}
run() { # NAME SPEC: JSON in $tmp/NAME.json, stderr in $tmp/NAME.err, exit code in rc
	"$GD_CHECK" --sysfs-root "$tmp/root" -p "$port" --json "$2" >"$tmp/$1.json" 2>"$tmp/$1.err"
	rc=$?
	port=$((port + 20))
	if grep -q "built without libfabric" "$tmp/$1.json" "$tmp/$1.err"; then
		echo "SKIP: this gd_check was built without libfabric"; exit 77
	fi
}
# item NAME STATUS PYTHON-ASSERTION: the counters item of run NAME
item() {
	"$PY" - "$tmp/$1.json" "$2" "$3" <<'PYEOF'
import json, sys
recs = [r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "check"]
c = [r for r in recs if r["check"] == "bw-tcp ofi:tcp loopback: counters"]
assert len(c) == 1, recs
c = c[0]
assert c["status"] == sys.argv[2], c
ctr, msg = c["counters"], c["message"]
assert ctr["device"] == "rxe0" and ctr["port"] == 1 and ctr["netdev"] == "veth0", ctr
assert eval(sys.argv[3]), c
PYEOF
}

spec "$tmp/moved.yaml" "counters_port: rxe0:1"
run moved "$tmp/moved.yaml"
[ $rc = 1 ] && ok "an error counter that moved: exit 1 without any threshold" ||
	{ fail "moved: exit $rc"; cat "$tmp/moved.json" "$tmp/moved.err"; }
item moved FAIL '[m for m in ctr["moved"] if m["counter"] == "rcvd_seq_err" and m["class"] == "error" and m["source"] == "hw_counters" and m["delta"] > 0 and m["tolerated"] is None] and "rxe0 port 1 rcvd_seq_err +%d during bw-tcp (write bw, 65536 bytes)" % ctr["moved"][0]["delta"] in msg' &&
	ok "the counters item FAILs naming rxe0 port 1 rcvd_seq_err, its change and the run; JSON has the delta" ||
	fail "moved: the counters item"
grep '"status":"FAIL"' "$tmp/moved.json" | grep -qv 'counters"' &&
	{ fail "moved: another item failed"; grep '"status":"FAIL"' "$tmp/moved.json"; }

spec "$tmp/tol.yaml" "counters_port: rxe0:1" "tolerate: {rcvd_seq_err: 1000000000}"
run tol "$tmp/tol.yaml"
[ $rc = 0 ] && item tol PASS '"rcvd_seq_err +" in msg and "(tolerated)" in msg and ctr["moved"][0]["tolerated"] == 1000000000 and "rcvd_seq_err <= 1000000000" in c["expected"]' &&
	ok "tolerate: a bound above the change: PASS, exit 0, reported as tolerated" ||
	{ fail "tolerate: exit $rc"; cat "$tmp/tol.json" "$tmp/tol.err"; }

rm "$hw/rcvd_seq_err" && echo 0 >"$hw/rcvd_seq_err"
run still "$tmp/moved.yaml"
[ $rc = 0 ] && item still PASS 'ctr["moved"] == [] and ctr["sampled"] >= 2 and c["measured"] == "no error counter moved"' &&
	ok "no counter moved: the counters item PASSes, exit 0" ||
	{ fail "still: exit $rc"; cat "$tmp/still.json" "$tmp/still.err"; }

# the netdev's ethtool statistics (a fixture's ROOT/ethtool/IF/, one file a statistic): a PFC
# pause counter is congestion, reported; a pause storm's error event FAILs naming the netdev
eth=$tmp/root/ethtool/veth0
mkdir -p "$eth" && ln -s "$lo" "$eth/rx_prio3_pause" && ln -s "$lo" "$eth/tx_pause_storm_error_events" || exit 99
run storm "$tmp/moved.yaml"
[ $rc = 1 ] && item storm FAIL '"rxe0 port 1 veth0 tx_pause_storm_error_events +" in msg and "a PFC pause storm" in msg and "rcvd_seq_err" not in msg and [m for m in ctr["moved"] if m["counter"] == "rx_prio3_pause" and m["class"] == "congestion" and m["source"] == "ethtool" and m["netdev"] == "veth0" and m["delta"] > 0] and "rx_prio3_pause +" in msg' &&
	ok "ethtool statistics: a pause storm FAILs naming veth0, PFC pauses reported as congestion" ||
	{ fail "storm: exit $rc"; cat "$tmp/storm.json" "$tmp/storm.err"; }
"$PY" "$top_srcdir/tests/json/schema_check.py" "$top_srcdir/doc/json.md" "$tmp/storm.json" &&
	ok "its JSON as doc/json.md says (moved[].netdev, class congestion)" || fail "storm: JSON schema"
rm -r "$eth"

spec "$tmp/none.yaml"
run none "$tmp/none.yaml"
[ $rc = 0 ] && ! grep -q 'counters"' "$tmp/none.json" &&
	ok "tcp without counters_port crosses no port gd_check can name: no counters item" ||
	{ fail "none: exit $rc or a counters item"; cat "$tmp/none.json"; }

spec "$tmp/absent.yaml" "counters_port: rxe9:1"
run absent "$tmp/absent.yaml"
[ $rc = 1 ] && grep '"status":"FAIL"' "$tmp/absent.json" | grep -q 'rxe9 port 1: no such RDMA device or port here' &&
	ok "a counters_port this machine lacks: FAIL naming it" ||
	{ fail "absent: exit $rc"; cat "$tmp/absent.json"; }

spec "$tmp/bad.yaml" "counters_port: rxe0:1" "tolerate: {sent_pkts: 3}"
"$GD_CHECK" --sysfs-root "$tmp/root" "$tmp/bad.yaml" >"$tmp/bad.out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "bad.yaml:10:16: tolerate: 'sent_pkts' is not an error counter" "$tmp/bad.out" &&
	ok "tolerating a counter that is not an error: exit 2 with FILE:LINE:COL" ||
	{ fail "bad: exit $rc"; cat "$tmp/bad.out"; }

if command -v mpirun >/dev/null 2>&1 && ldd "$GD_CHECK" | grep -q libmpi; then
	# the counter moves again: bound to the loopback's tx_packets
	rm "$hw/rcvd_seq_err" && ln -s "$lo" "$hw/rcvd_seq_err" || exit 99
	spec "$tmp/mpi.yaml" "counters_port: rxe0:1" "pairs: pairwise"
	mpirun_here 120 -np 2 "$GD_CHECK" --sysfs-root "$tmp/root" \
		-p "$port" --json "$tmp/mpi.yaml" >"$tmp/mpi.json" 2>"$tmp/mpi.err"
	rc=$?
	"$PY" - "$tmp/mpi.json" <<'PYEOF' && ok "mpirun, 2 ranks: each side's port judged on its rank, both FAIL naming rxe0 port 1 rcvd_seq_err" ||
import json, sys
recs = [r for r in map(json.loads, (l for l in open(sys.argv[1]) if l.startswith("{"))) if r.get("type") == "check"]
c = {r["check"]: r for r in recs if ": counters rank" in r["check"]}
assert sorted(c) == ["bw-tcp rank0(ofi:tcp)->rank1(ofi:tcp): counters rank0",
                     "bw-tcp rank0(ofi:tcp)->rank1(ofi:tcp): counters rank1"], sorted(c)
for side, r in zip(("server", "client"), sorted(c.values(), key=lambda r: r["check"])):
    assert r["status"] == "FAIL" and "rank%s (%s)" % (r["check"][-1], side) in r["message"], r
    assert "rxe0 port 1 rcvd_seq_err +" in r["message"], r
    assert r["counters"]["moved"][0]["counter"] == "rcvd_seq_err", r
PYEOF
		{ fail "mpirun: the counters items (exit $rc)"; cat "$tmp/mpi.json" "$tmp/mpi.err"; }
else
	echo "skip: no mpirun or gd_check built without MPI: the pairs between ranks are not shown"
fi
finish
