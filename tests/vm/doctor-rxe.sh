#!/bin/sh
# The Soft-RoCE tier for gd_doctor and the GPU paths: inside the gd-vm guest
# (rxe0 over veth0, rxe_bond0 over bond0, no GPU). Run it with
#   scripts/gd-vm -- tests/vm/doctor-rxe.sh
# Outside the guest it skips (77).
set -u
b=${top_builddir:-$(cd "$(dirname "$0")/../.." && pwd)}
doctor=$b/tools/gd_doctor
gpumem=$b/tests/gpu/gd_gpumem_test
[ "${GD_VM:-0}" = 1 ] || { echo "SKIP: not in the gd-vm guest"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

"$doctor" > "$tmp/out.txt" 2> "$tmp/err.txt"
rc=$?
cat "$tmp/out.txt"
# no NVIDIA driver here: a FAIL, so exit 1
[ $rc -eq 1 ] || { echo "FAIL: exit $rc, expected 1 (no GPU)"; fail=1; }
for want in '^PASS  rdma.port          rxe0 port 1: ACTIVE' \
	    '^PASS  rdma.port          rxe_bond0 port 1: ACTIVE' \
	    '^PASS  rdma.gid           rxe0 port 1: RoCE v2 IPv4 GID at index [0-9]* (10.0.0.1 on veth0)' \
	    '^PASS  rdma.bond          bond0 (rxe_bond0): 2 slave(s) up' \
	    '^WARN  ibgda.devx         rxe0: not an mlx5 device' \
	    '^PASS  dev.infiniband     2 uverbs device(s) accessible' \
	    '^FAIL  nvidia.driver' '^FAIL  cuda.driver .*no CUDA driver'; do
	grep -q "$want" "$tmp/out.txt" || { echo "FAIL: missing /$want/"; fail=1; }
done
# the MTU verbs reports must be the one derived from the netdev MTU
mtu=$(cat /sys/class/net/veth0/mtu)
grep -A3 '^[A-Z]*  rdma.mtu           rxe0' "$tmp/out.txt" | grep -q "active_mtu" ||
	{ echo "FAIL: no verbs active_mtu evidence"; fail=1; }
echo "veth0 mtu $mtu"

# GPU buffers without a GPU: a clear message and exit 3
"$gpumem" > /dev/null 2> "$tmp/err.txt"
rc=$?
[ $rc -eq 3 ] && grep -q "no CUDA driver: libcuda.so.1 not found" "$tmp/err.txt" ||
	{ echo "FAIL: gd_gpumem_test exit $rc"; cat "$tmp/err.txt"; fail=1; }
[ $fail = 0 ] && echo "doctor-rxe: PASS"
exit $fail
