#!/bin/sh
# Every node's NIC x GPU matrix under mpirun, not rank 0's alone (issue 33 item 5): 4 ranks
# on this host stand for 4 nodes, each on its own copy of the H20 fixture (--sysfs-root: its
# host is "fixture:ROOT"), rank 2's topology without GPU 7 (0000:db:00.0). Each node's leader
# runs its own matrix (its runs fail here: no RDMA device, so every cell is 'failed', which is
# what this test needs: the cells, not their bandwidth), and rank 0's report has every node's
# cells attributed to it: JSON matrix_cell records with 'node' (40 per node, 36 and no GPU7 on
# rank 2's), the text a table and a grid per node, --plot one heatmap. Before: rank 0's 40
# cells alone, no node. Then 8 ranks as 8 nodes (issue 33's 'mpirun with 4 and 8 ranks'),
# rank 5 without GPU 7: JSON only, 40 cells per node, 36 on rank 5's. Each host's loopbacks
# probe ports from -p + 256 x its index (five port blocks: 2500 ports).
. "$(dirname "$0")/lib.sh"
mpi_need
tmp_dir
. "${top_srcdir:-.}/tests/lib/ports.sh"; test_ports 5 # 8 hosts x 256 ports
for n in 0 1 2 3 4 5 6 7; do
	mkdir -p "$tmp/node$n" && cp -a "$H20_SYSFS/." "$tmp/node$n/" || exit 99
done
sed '/pci_busid="0000:db:00.0" pci_type="0302/d' "$H20_XML" >"$tmp/lost-gpu7.xml" || exit 99
[ "$(grep -c 'pci_type="0302' "$tmp/lost-gpu7.xml")" = 7 ] || { echo "fixture: GPU 7 not removed"; exit 99; }
printf 'version: 1\nretries: 0\ntests:\n  - {name: mx, op: write, type: bw, size: 4K, iterations: 10, pairs: nic-gpu-matrix}\n' >"$tmp/mx.yaml"
# mpin N LOST OUT [ARGS...]: N ranks, rank R on $tmp/nodeR, rank LOST with the topology that
# lost GPU 7
mpin() {
	np=$1 lost=$2 out=$3; shift 3
	mpirun_here 240 -np "$np" sh -c \
		"r=\$OMPI_COMM_WORLD_RANK; x='$H20_XML'; [ \$r = $lost ] && x='$tmp/lost-gpu7.xml'
		 exec '$GD_CHECK' --topology \"\$x\" --sysfs-root '$tmp/node'\$r -p $port $* '$tmp/mx.yaml'" \
		>"$out" 2>"$out.err"
	rc=$?
}
mpi4() { # OUT [ARGS...]: 4 ranks, rank 2 without GPU 7
	mpin 4 2 "$@"
}
mpi4 "$tmp/json" --json
[ $rc -ne 0 ] && [ $rc -ne 2 ] && [ $rc -lt 124 ] && ok "4 ranks ran (exit $rc: no RDMA device for the runs)" ||
	{ fail "mpirun --json: exit $rc"; tail -20 "$tmp/json.err"; }
# cells JSON N LOST: each of N nodes' cells under its host, 36 and no GPU7 on node LOST's
cells() {
	"$PY" - "$1" "$tmp" "$2" "$3" <<'PYEOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
cells = [r for r in recs if r.get("type") == "matrix_cell"]
n, lost = int(sys.argv[3]), int(sys.argv[4])
by = {}
for c in cells:
    by.setdefault(c.get("node"), []).append(c)
want = {"fixture:%s/node%d" % (sys.argv[2], k): (36 if k == lost else 40) for k in range(n)}
got = {k: len(v) for k, v in by.items()}
if got != want:
    sys.exit("cells per node: %s, expected %s" % (got, want))
for node, v in by.items():
    gpu7 = [c for c in v if c["memory"] == "GPU7"]
    if node.endswith("/node%d" % lost) != (not gpu7):
        sys.exit("%s: %d GPU7 cells" % (node, len(gpu7)))
    if len({(c["nic"], c["memory"]) for c in v}) != len(v):
        sys.exit("%s: a cell twice" % node)
PYEOF
}
cells "$tmp/json" 4 2 && ok "JSON: each node's cells under its host (40, 40, 36 without GPU7, 40)" || fail "JSON cells"
grep '^{' "$tmp/json" >"$tmp/records.jsonl"
"$PY" "$top_srcdir/tests/json/schema_check.py" "$top_srcdir/doc/json.md" "$tmp/records.jsonl" &&
	ok "JSON records as doc/json.md says (matrix_cell's node)" || fail "JSON schema"
mpi4 "$tmp/text" --plot "$tmp/mx.png"
for n in 0 1 2 3; do
	grep -q "^NIC x memory bandwidth (loopback, Gb/s) of fixture:$tmp/node$n\$" "$tmp/text" ||
		{ fail "text: no table of node $n"; break; }
done
[ "$(grep -c '^NIC x memory bandwidth' "$tmp/text")" = 4 ] && ok "text: one table and grid per node" ||
	{ fail "text tables"; grep -n 'NIC x memory' "$tmp/text"; }
# rank 2's grid (the third) has no GPU7 row; the others have one
[ "$(awk '/^NIC x memory bandwidth/ { n++ } /^GPU7 / { g[n]++ } END { print g[1] + 0, g[2] + 0, g[3] + 0, g[4] + 0 }' "$tmp/text")" = "1 1 0 1" ] &&
	ok "text: node 2's grid has no GPU7 row" ||
	{ fail "text: GPU7 rows"; grep -n '^GPU7\|^NIC x' "$tmp/text"; }
# --plot: one heatmap on rank 0, each node's NICs its own columns (4 nodes x 4 NICs)
[ -s "$tmp/mx.png" ] && ! grep -q 'the NIC x memory grid shows the first' "$tmp/text.err" &&
	ok "--plot: rank 0 drew every node's matrix" || { fail "--plot"; tail -5 "$tmp/text.err"; }

# 8 ranks as 8 nodes, rank 5 without GPU 7: every node's cells at rank 0
mpin 8 5 "$tmp/json8" --json
[ $rc -ne 0 ] && [ $rc -ne 2 ] && [ $rc -lt 124 ] && ok "8 ranks ran (exit $rc: no RDMA device for the runs)" ||
	{ fail "mpirun -np 8 --json: exit $rc"; tail -20 "$tmp/json8.err"; }
cells "$tmp/json8" 8 5 && ok "8 ranks, JSON: each of 8 nodes' cells under its host (40 each, 36 without GPU7 on node 5)" ||
	fail "8 ranks: JSON cells"
finish
