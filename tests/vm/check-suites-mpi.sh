#!/bin/bash
# Every built-in suite of gd_check under a launcher in the Soft-RoCE guest (rxe0 on a veth,
# rxe_bond0 on a bond): mpirun with 2 ranks, then with 4 ranks and under srun (a one-node
# Slurm cluster, tests/vm/slurm-lib.sh) the ring's suite and one more. The ranks are put on two host names by rank parity (node-a: ranks
# 0 and 2, node-b: 1 and 3; unshare -u, a UTS namespace each), so every launch spans two
# "hosts": the lowest rank of each checks its node (rungs 1-6) and rank 0 gathers both
# (check_nodes.c). For each run: the exit code the suite has on this guest (gpudirect FAILs:
# no GPU), every check of node-a also reached rank 0 from node-b, once each (ranks 2 and 3 are
# not leaders), named "HOST: check" with its node in JSON and JUnit, and the suite's sections.
# `full` runs through 'include: full' with shorter loopbacks and a ring between the ranks
# on rxe_bond0 (rung 7: every rank's pair reached rank 0's fleet view).
# Then a link taken down (veth0, under both host names): the devices rung FAILs on both
# nodes and the ring between the ranks is SKIP "not run" in the table, JSON and JUnit.
# Under TCG one launch costs 12-45 s (9p exec, discovery, the suite written by each rank):
# the whole test takes minutes, not seconds.
# Needs gd_check built with MPI (skips otherwise); the srun part skips without Slurm.
#   scripts/gd-vm-tests --builddir $PWD tests/vm/check-suites-mpi.sh
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}" "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/mpi-lib.sh"
. "$top_srcdir/tests/vm/slurm-lib.sh"
ck=$top_builddir/tools/gd_check
vm_require_guest
mpi_need "$ck"
command -v unshare >/dev/null || { echo "SKIP: no unshare (util-linux)"; exit 77; }
tmp=$(mktemp -d)
trap 'slurm_stop; ip link set veth0 up; rm -rf "$tmp"' EXIT
t0=$SECONDS

# as-node CMD...: CMD on host node-a (even rank) or node-b (odd rank), in its own UTS namespace
cat >"$tmp/as-node" <<'SH'
#!/bin/bash
r=${OMPI_COMM_WORLD_RANK:-${SLURM_PROCID:-0}}
h=node-a; [ $((r % 2)) = 1 ] && h=node-b
exec unshare -u /bin/bash -c 'hostname "$0" && exec "$@"' "$h" "$@"
SH
chmod +x "$tmp/as-node"

cat >"$tmp/full.yaml" <<'EOS'
# the full suite, its loopbacks shorter, and a ring between the ranks over the bond
version: 1
include: full
fleet: {outlier: off}
tests:
  - {name: write-bw, op: write, type: bw, size: 64K, duration: 1s, pairs: each-nic-loopback,
     thresholds: {min_bw: 0.01 Gb/s}}
  - {name: write-lat, op: write, type: lat, size: 2, iterations: 200, pairs: each-nic-loopback,
     thresholds: {max_lat: 10 ms}}
  - {name: ring, op: write, size: 4K, iterations: 200, device: rxe_bond0, pairs: ring}
EOS

# check.py JSON SUITE N XML: one python start per launch (about a second each under TCG)
# for its two verdicts, each printed on its own line ("json: ok", "junit: ok", else the
# assertion that failed): the per-node records of both hosts, the sections and the ring in
# JSON (judged through the noise guard), and node-b's checks as testcases of rank 0's JUnit
cat >"$tmp/check.py" <<'PYEOF'
import json, sys, traceback
import xml.etree.ElementTree as ET
path, suite, n, xml = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def check_json():
  recs = [json.loads(l) for l in open(path) if l.startswith('{')]
  checks = [r for r in recs if r['type'] == 'check']
  nodes = {}
  for r in checks:
      if 'node' not in r:  # made on rank 0 after the gather: the tests between ranks
          assert r['rung'] == 7, r
          continue
      pre = r['node'] + ': '
      assert r['check'].startswith(pre), r
      nodes.setdefault(r['node'], []).append((r['section'], r['check'][len(pre):]))
  assert sorted(nodes) == ['node-a', 'node-b'], sorted(nodes)
  a, b = nodes['node-a'], nodes['node-b']
  assert len(set(a)) == len(a) and len(set(b)) == len(b), 'a node checked twice'
  assert set(a) == set(b), set(a) ^ set(b)
  want = {'quick': {'doctor', 'devices', 'topology'},
          'connectx-selftest': {'devices', 'topology', 'tests'}}.get(
              suite, {'doctor', 'devices', 'topology', 'tests'})
  assert {s for s, _ in a} == want, ({s for s, _ in a}, want)
  summ = [r for r in recs if r['type'] == 'check_summary'][-1]
  if suite == 'gpudirect':  # no GPU here: its tests name what is missing, rung 4 fails
      assert summ['ladder']['failed_rung'] == 4, summ
      assert summ['ladder']['first_failure'] == 'node-a: gpudirect-write-bw: runs', summ
  if suite == 'full':  # the ring: every rank's pair measured, gathered by rank 0
      f = [r for r in recs if r['type'] == 'check_fleet']
      assert len(f) == 1 and f[0]['pairs'] == (1 if n == 2 else n), f
      ring = [r for r in checks if r['check'].startswith('ring')]
      assert ring and all(r['status'] in ('PASS', 'SKIP') for r in ring), ring
  return '%s, %d ranks: %d checks from each of node-a and node-b' % (suite, n, len(a))

def check_junit():
  names = [c.get('name') for c in ET.parse(xml).getroot().iter('testcase')]
  assert any(n.startswith('node-a: ') for n in names) and any(n.startswith('node-b: ') for n in names), names
  return 'both nodes in the JUnit'

for what, f in (('json', check_json), ('junit', check_junit)):
  try:
    print('note:', f())
    print(what + ': ok')
  except Exception:
    print(what + ': failed:', traceback.format_exc().strip().replace('\n', ' | '))
PYEOF

declare -A want_rc=([quick]=0 [full]=0 [gpudirect]=1 [gpu-initiated]=0 [connectx-selftest]=0)
suites="quick full gpudirect gpu-initiated connectx-selftest"

# one_run LAUNCHER N SUITE: run SUITE under LAUNCHER with N ranks; every check above
one_run() {
	local how=$1 n=$2 s=$3 what args out=$tmp/$1-$2-$3 rc t=$SECONDS
	what="$how -n $n $s"
	if [ "$s" = full ]; then args=("$tmp/full.yaml"); else args=(--suite "$s"); fi
	if [ "$how" = mpirun ]; then
		mpi "$n" "$tmp/as-node" "$ck" --json --junit "$out.xml" "${args[@]}" >"$out.json" 2>"$out.err"
	else
		srun_run -n "$n" "$tmp/as-node" "$ck" --json --junit "$out.xml" "${args[@]}" >"$out.json" 2>"$out.err"
	fi
	rc=$?
	echo "--- $what: exit $rc in $((SECONDS - t)) s"
	# (a doubted measurement FAILs its rung and leaves the ring unrun: under TCG the
	# two "nodes" share 2 vCPUs; those two assertions then skip, vm_check_trusted)
	vm_check_trusted "$what: exit ${want_rc[$s]}" "$out.json" test $rc -eq "${want_rc[$s]}"
	[ $rc -eq "${want_rc[$s]}" ] || { cat "$out.err"; tail -n 5 "$out.json"; }
	"$py" "$tmp/check.py" "$out.json" "$s" "$n" "$out.xml" >"$out.verdict" 2>&1
	cat "$out.verdict"
	vm_check_trusted "$what: both nodes' checks reached rank 0, once each, with the suite's sections" "$out.json" \
		grep -qx 'json: ok' "$out.verdict"
	vm_check "$what: JUnit has both nodes' testcases" grep -qx 'junit: ok' "$out.verdict"
	launches+=("$out.json")
}
# every_record_documented: every record of every launch as doc/json.md documents it (node
# included), in one schema_check run (a python start costs a second or more under TCG; each
# problem it prints names its file and line)
launches=()
every_record_documented() {
	vm_check "every record of the ${#launches[@]} launches as doc/json.md documents it (node included)" \
		"$py" "$top_srcdir/tests/json/schema_check.py" "$top_srcdir/doc/json.md" "${launches[@]}"
}

# Every suite under mpirun with 2 ranks; with 4 ranks (two per node: the non-leaders stay
# quiet) the suite that has the ring between the ranks and the shortest one. What a suite
# checks does not depend on the rank count, and each launch costs 12-45 s under TCG: the
# whole matrix (15 launches) took 363 s, most of the guest tier's slowest test.
for s in $suites; do
	one_run mpirun 2 "$s"
done
for s in full quick; do
	one_run mpirun 4 "$s"
done

# a link taken down under the launch: rung 2 FAILs on both nodes, the ring is not run
NOTRUN="not run: rung 2 (devices) failed"
state=/sys/class/infiniband/rxe0/ports/1/state
cat >"$tmp/down.yaml" <<'EOS'
version: 1
devices:
  - {name: rxe0, state: ACTIVE}
tests:
  - {name: ring, op: write, size: 4K, iterations: 200, device: rxe0, pairs: ring}
EOS
ip link set veth0 down
for _ in $(seq 50); do grep -q ACTIVE "$state" || break; sleep 0.1; done
mpi 2 "$tmp/as-node" "$ck" --junit "$tmp/down.xml" "$tmp/down.yaml" >"$tmp/down" 2>&1
rc=$?
cat "$tmp/down"
mpi 2 "$tmp/as-node" "$ck" --json "$tmp/down.yaml" >"$tmp/down.json" 2>/dev/null
rc2=$?
ip link set veth0 up
vm_check "link down, 2 ranks: exit 1 (text and JSON runs)" test $rc -eq 1 -a $rc2 -eq 1
vm_check "link down, text: one report (rank 0 only)" test "$(grep -c '^gd_check ' "$tmp/down")" = 1
vm_check "link down: rxe0's state FAILs on both nodes" bash -c \
	"grep -q '^devices  *node-a: rxe0 port 1 state  *FAIL' '$tmp/down' &&
	 grep -q '^devices  *node-b: rxe0 port 1 state  *FAIL' '$tmp/down'"
vm_check "link down: the ring between the ranks is SKIP, $NOTRUN" \
	grep -q "^tests  *ring: runs  *SKIP" "$tmp/down"
vm_check "link down: the summary names rung 2" \
	grep -q "^ladder: rung 2 (devices) failed first: node-a: rxe0 port 1 state" "$tmp/down"
vm_check "link down: JSON: the ring SKIP, the ladder at rung 2" "$py" - "$tmp/down.json" "$NOTRUN" <<'PYEOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
ring = [r for r in recs if r['type'] == 'check' and r['check'] == 'ring: runs']
assert len(ring) == 1 and ring[0]['status'] == 'SKIP' and ring[0]['message'] == sys.argv[2], ring
assert recs[-1]['ladder']['failed_rung'] == 2, recs[-1]
PYEOF
vm_check "link down: JUnit: the ring skipped with the message" "$py" - "$tmp/down.xml" "$NOTRUN" <<'PYEOF'
import sys, xml.etree.ElementTree as ET
c = [c for c in ET.parse(sys.argv[1]).getroot().iter('testcase') if c.get('name') == 'ring: runs']
assert len(c) == 1 and [s.get('message') for s in c[0].iter('skipped')] == [sys.argv[2]], c
PYEOF
for _ in $(seq 100); do grep -q ACTIVE "$state" && break; sleep 0.1; done

# srun: the suites again under Slurm (2 ranks), where Slurm runs in the guest
srun_run() { timeout -k 10 300 srun --mpi=pmix -O "$@"; }
why=''
for c in slurmctld slurmd srun sinfo; do
	command -v $c >/dev/null || why="no $c (apt-get install slurmctld slurmd slurm-client)"
done
if [ -z "$why" ] && ! slurm_start "$tmp/slurm"; then
	vm_fail "a one-node Slurm cluster (slurmctld + slurmd) came up"
	why=failed
fi
if [ -z "$why" ]; then
	export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none \
		OMPI_MCA_mpi_yield_when_idle=1
	# under srun: the ring (exit 0) and a suite that fails (exit 1 reaches srun's caller)
	for s in full gpudirect; do
		one_run srun 2 "$s"
	done
	slurm_stop
elif [ "$why" != failed ]; then
	echo "SKIP (srun part): $why"
fi
every_record_documented
echo "check-suites-mpi: $((SECONDS - t0)) s"
vm_exit
