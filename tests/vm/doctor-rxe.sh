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
# the benchmark tools with GPU buffers, no GPU here: the NIC opens, the GPU
# buffer does not; both sides say why and exit 3
for extra in "" "--gpu_staging" "--use_cuda_dmabuf"; do
	timeout 60 "$b/tools/gd_write_bw" -d rxe0 -x 1 --use_cuda=0 $extra -D 1 \
		> "$tmp/srv.out" 2> "$tmp/srv.err" &
	srv=$!
	# the server's head start: 2 s at most, less once it has ended (it refuses the GPU
	# buffer before it listens: a fixed 2 s was 6 s of the test's ~12)
	for _ in $(seq 20); do kill -0 $srv 2>/dev/null || break; sleep 0.1; done
	timeout 60 "$b/tools/gd_write_bw" -d rxe0 -x 1 --use_cuda=0 $extra -D 1 "$GD_VM_IP" \
		> "$tmp/cli.out" 2> "$tmp/cli.err"
	crc=$?
	wait $srv
	src=$?
	echo "gd_write_bw --use_cuda=0 $extra: client exit $crc, server exit $src"
	cat "$tmp/cli.err"
	[ $crc -eq 3 ] && grep -q "no CUDA driver: libcuda.so.1 not found" "$tmp/cli.err" ||
		{ echo "FAIL: client with --use_cuda=0 $extra"; fail=1; }
	[ $src -ne 0 ] || { echo "FAIL: server with --use_cuda=0 $extra exited 0"; fail=1; }
done

[ $fail = 0 ] && echo "doctor-rxe: PASS"
exit $fail
