#!/bin/bash
# gd_check --rails all over verbs in the Soft-RoCE guest (issue 33 item 1): the guest's two rxe
# devices, rxe0 (over veth0) and rxe_bond0 (over bond0), each on its own netdev, are a node's two
# rails; a spec with no device: runs each node pair on both at once, rail i with rail i (a rank
# pair on one guest is a loopback on each device: two rxe devices of one guest talking to each
# other hang). Two ranks under mpirun: 1 node pair x 2 rails = 2 NIC pairs in 1 round, each item
# named by its NIC, each with a bandwidth above 0, and traffic on both devices (their hw_counters
# sent_pkts, read before and after, each moved by at least the writes' packets). A rail that ran
# nothing, or both pairs on one device, fails it. The same over libfabric's verbs;ofi_rxm
# (issue 33 item 2: its domains rxe0 and rxe_bond0 are the rails), skipped where fi_info lists
# no verbs domain of both devices, or where its endpoints cannot be set up (exit 3: said, not passed).
#   flock /tmp/gd-vm.lock scripts/gd-vm-tests --builddir $PWD tests/vm/check-rails.sh
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}" "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/mpi-lib.sh"
vm_require_guest
ck=$top_builddir/tools/gd_check
mpi_need "$ck"
for d in rxe0 rxe_bond0; do
	[ -r "/sys/class/infiniband/$d/ports/1/hw_counters/sent_pkts" ] ||
		{ echo "SKIP: no $d with hw_counters/sent_pkts in this guest (scripts/gd-vm makes rxe0 and rxe_bond0)"; exit 77; }
done
rails=$(cd /sys/class/infiniband && echo *)
[ "$rails" = "rxe0 rxe_bond0" ] ||
	{ echo "SKIP: the guest's RDMA devices are '$rails', not rxe0 and rxe_bond0 alone"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# 200 writes of 64 KiB a rail: 13 MB, some 3,300 packets at rxe's 4 KiB MTU (a bound from below:
# a 1 KiB MTU sends more)
# outlier 90 %: under TCG two pairs at once differ by 2-4x (0.08 against 0.30 Gb/s, seen); a rail
# that carried almost nothing still FAILs
cat >"$tmp/rails.yaml" <<'EOF'
version: 1
fleet:
  outlier: 90%
tests:
  - name: rails
    op: write
    size: 64K
    iterations: 200
    pairs: all-pairs
EOF
sent() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/sent_pkts"; }
# rails_run LABEL SPEC OUT: 2 ranks of gd_check --rails all --json SPEC, its output in OUT.json
# and OUT.err; sets rc (mpirun's exit) and d0, d1: rxe0's and rxe_bond0's sent_pkts over the run
rails_run() {
	local a0 b0 t0=$SECONDS
	a0=$(sent rxe0) b0=$(sent rxe_bond0)
	mpi 2 "$ck" --rails all --json "$2" >"$3.json" 2>"$3.err"
	rc=$?
	d0=$(($(sent rxe0) - a0)) d1=$(($(sent rxe_bond0) - b0))
	echo "$1, 2 ranks, --rails all: exit $rc in $((SECONDS - t0)) s; sent_pkts rxe0 +$d0, rxe_bond0 +$d1"
	cat "$3.json" "$3.err"
}
# rails_items LABEL JSON RUNS BW: one runs item a rail (the item whose name holds RUNS with the
# device for each %s), 2 runs items in all, and each rail's Gb/s items (names holding BW so) above 0
rails_items() {
	vm_check "$1: one runs item a rail, each named by its NIC, each above 0 Gb/s" "$py" - "${@:2}" <<'PYEOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
runs = [r["check"] for r in recs if r.get("type") == "check" and r["check"].endswith(": runs")]
bw = [r for r in recs if r.get("type") == "check" and r.get("unit") == "Gb/s"]
for d in ("rxe0", "rxe_bond0"):
    assert len([c for c in runs if sys.argv[2].replace("%s", d) in c]) == 1, (d, runs)
    v = [r["value"] for r in bw if sys.argv[3].replace("%s", d) in r["check"]]
    assert v and all(x > 0 for x in v), (d, v)
assert len(runs) == 2, runs
PYEOF
}
# rails_traffic LABEL: each device sent at least the writes' packets over the last rails_run
rails_traffic() {
	vm_check "$1: traffic on rxe0: sent_pkts +$d0 >= 3200" test "$d0" -ge 3200
	vm_check "$1: traffic on rxe_bond0: sent_pkts +$d1 >= 3200" test "$d1" -ge 3200
}

rails_run verbs "$tmp/rails.yaml" "$tmp/verbs"
vm_check "verbs: exit 0 (every rail's pair ran and passed)" test "$rc" -eq 0
rails_items verbs "$tmp/verbs.json" 'rails rank0(%s)->rank1(%s): runs' '(%s)->'
rails_traffic verbs

# the same over libfabric verbs;ofi_rxm (its RDM domains: the two devices)
doms=$(fi_info -p 'verbs;ofi_rxm' -t FI_EP_RDM 2>/dev/null | sed -n 's/^ *domain: //p' | sort -u | tr '\n' ' ')
if [ "$doms" != "rxe0 rxe_bond0 " ]; then
	echo "skip: libfabric verbs;ofi_rxm RDM domains here: '$doms' (want rxe0 and rxe_bond0)"
else
	sed 's/^    pairs:/    fabric: ofi\n    provider: verbs;ofi_rxm\n    pairs:/' "$tmp/rails.yaml" >"$tmp/rxm.yaml"
	rails_run 'verbs;ofi_rxm' "$tmp/rxm.yaml" "$tmp/rxm"
	if [ "$rc" -eq 3 ] && grep -q 'endpoint setup .* failed on provider verbs;ofi_rxm' "$tmp/rxm.err"; then
		# seen 30 Nov 2026 (Debian's libfabric 1.17, rxe): fi_ep_bind/fi_enable EINVAL on both ranks,
		# every runs item ERROR, exit 3: the environment cannot run it; not a pass
		echo "skip: verbs;ofi_rxm cannot run here: $(grep -m1 'endpoint setup' "$tmp/rxm.err")"
	else
		vm_check "verbs;ofi_rxm: exit 0" test "$rc" -eq 0
		rails_items 'verbs;ofi_rxm' "$tmp/rxm.json" '@%s)->' '@%s)->'
		rails_traffic 'verbs;ofi_rxm'
	fi
fi
vm_exit
