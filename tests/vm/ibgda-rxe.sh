#!/bin/sh
# IBGDA on Soft-RoCE (issue 13), inside the gd-vm guest: rxe is not an mlx5
# device, so
#   - gd_doctor's live ibgda.probe says IBGDA cannot run and names the proxy
#     initiator, with the probe step as evidence;
#   - --initiator=ibgda and --initiator=ibgda-cpudb exit 3 with the message
#     naming --initiator=proxy (when the tools have --initiator).
# Run it with  scripts/gd-vm -- env top_builddir=$PWD tests/vm/ibgda-rxe.sh
set -u
b=${top_builddir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/vm/lib.sh"
vm_require_guest
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

"$b/tools/gd_doctor" --check ibgda.probe > "$tmp/doc.txt" 2>&1
rc=$?
cat "$tmp/doc.txt"
[ $rc -ne 2 ] || vm_fail "gd_doctor --check ibgda.probe: usage error"
for want in '^WARN  ibgda.probe        rxe0: not an mlx5 device: IBGDA cannot run here; --initiator=proxy works' \
	    'IBGDA probe = device rxe0: not mlx5 (driver rdma_rxe (Soft-RoCE) over ' \
	    '^WARN  ibgda.probe        rxe_bond0: not an mlx5 device'; do
	if grep -q "$want" "$tmp/doc.txt"; then vm_ok "doctor: /$want/"; else vm_fail "doctor lacks /$want/"; fi
done

# The tools: only when they know --initiator (the proxy feature's option).
if "$b/tools/gd_write_bw" --help 2>&1 | grep -q -- '--initiator'; then
	for mode in ibgda ibgda-cpudb; do
		timeout 60 "$b/tools/gd_write_bw" -d rxe0 --initiator=$mode > "$tmp/out" 2>&1
		rc=$?
		cat "$tmp/out"
		[ $rc -eq 3 ] && vm_ok "--initiator=$mode exits 3" || vm_fail "--initiator=$mode exited $rc, not 3"
		grep -q 'needs a ConnectX (mlx5) NIC' "$tmp/out" && grep -q -- '--initiator=proxy' "$tmp/out" &&
			vm_ok "--initiator=$mode names the cause and the proxy" ||
			vm_fail "--initiator=$mode: message lacks the mlx5 cause or --initiator=proxy"
	done
else
	echo "note: gd_write_bw has no --initiator yet (the proxy feature's options): tool part not run"
fi
vm_exit
