#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The tools' IBGDA entry without a GPU or a ConnectX (make check): every
# refusal has its exit code and names its cause and fix.
#   2: an unknown --ibgda_nic or GDPERF_IBGDA_NIC (its default; both valid
#      values named); --ibgda_nic without an IBGDA initiator; send tests
#      (the proxy named); -b/-D; -l/-Q; -R; the test double with
#      --use_hugepages, --use_cuda_bus_id or --use_cuda_dmabuf (gd_bench_check
#      refuses them, ibgda_check.c); threads not in whole warps; fewer warps than QPs
#   3: the software NIC test double where no CUDA driver loads (forced with
#      GDPERF_LIBCUDA), chosen by the option or the environment (the option
#      wins over a bad environment value), also for atomics and --use_cuda
#      buffers (both run on a GPU machine), or, built without nvcc, where no kernels exist; its
#      warning names the test double first
# The GPU tier (tests/gpu/ibgda-tool.sh) runs the data path itself.
set -u
b=${top_builddir:-$(cd "$(dirname "$0")/../.." && pwd)}
t=$b/tools
fail=0
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

check() { # rc pattern description env-and-command...
	want=$1 pat=$2 what=$3
	shift 3
	env GDPERF_LIBCUDA=/nonexistent/libcuda.so.1 "$@" > "$tmp/out" 2>&1 < /dev/null
	rc=$?
	if [ $rc -ne "$want" ]; then
		echo "FAIL: $what: exit $rc, want $want"; sed 's/^/  /' "$tmp/out"; fail=1
	elif ! grep -q -- "$pat" "$tmp/out"; then
		echo "FAIL: $what: output lacks '$pat'"; sed 's/^/  /' "$tmp/out"; fail=1
	else
		echo "ok: $what (exit $rc)"
	fi
}

sw=GDPERF_IBGDA_NIC=software-test-double
check 2 'software-test-double' "unknown GDPERF_IBGDA_NIC" GDPERF_IBGDA_NIC=cx9 "$t/gd_write_bw" --initiator=ibgda
check 2 'devx, software-test-double' "unknown --ibgda_nic" "$t/gd_write_bw" --initiator=ibgda --ibgda_nic=cx9
check 2 'belong to --initiator=ibgda' "--ibgda_nic with the CPU initiator" "$t/gd_write_bw" --ibgda_nic=devx
check 2 'initiator=proxy' "send over IBGDA" "$t/gd_send_bw" --initiator=ibgda
check 2 'drop -b, -D' "IBGDA with -b" "$t/gd_write_bw" --initiator=ibgda -b
check 2 'drop -b, -D' "IBGDA with -D" "$t/gd_read_bw" --initiator=ibgda -D 2
check 2 'post_list' "IBGDA with -l" "$t/gd_write_bw" --initiator=ibgda -l 4
check 2 'drop -R' "IBGDA with rdma_cm" "$t/gd_write_bw" --initiator=ibgda -R
check 2 'whole warps' "threads not in warps" "$t/gd_write_bw" --initiator=ibgda --scope thread --threads 48
check 2 'each QP needs its own warp' "fewer warps than QPs" "$t/gd_write_bw" --initiator=ibgda -q 4
check 2 'use_hugepages' "test double with hugepages" env $sw "$t/gd_write_bw" --initiator=ibgda --use_hugepages
check 2 'use_cuda_bus_id' "test double with a GPU by PCI address" env $sw "$t/gd_read_bw" --initiator=ibgda --use_cuda_bus_id 0000:18:00.0
check 2 'use_cuda_dmabuf' "test double with dma-buf" env $sw "$t/gd_write_lat" --initiator=ibgda --use_cuda=0 --use_cuda_dmabuf
# Built without nvcc there are no kernels to load: that refusal comes first
# (the tool's --version says which build this is).
if "$t/gd_write_bw" --version 2>&1 | grep -q 'cuda-kernels=yes'; then
	nocuda='no CUDA driver'
else
	nocuda='built without nvcc'
fi
check 3 "$nocuda" "atomics on the test double, no CUDA driver" env $sw "$t/gd_atomic_bw" --initiator=ibgda-cpudb
check 3 "$nocuda" "GPU buffers on the test double, no CUDA driver" env $sw "$t/gd_write_bw" --initiator=ibgda --use_cuda=0
check 3 "$nocuda" "atomic latency, no CUDA driver" env $sw "$t/gd_atomic_lat" --initiator=ibgda -A CMP_AND_SWAP
check 3 "$nocuda" "test double without a CUDA driver" env $sw "$t/gd_write_bw" --initiator=ibgda
check 3 'software NIC (test double)' "the warning names the test double" env $sw "$t/gd_read_lat" --initiator=ibgda-cpudb
check 3 "$nocuda" "--ibgda_nic=software-test-double, no CUDA driver" "$t/gd_write_bw" --initiator=ibgda --ibgda_nic=software-test-double
check 3 '--ibgda_nic=software-test-double' "the warning names the option" "$t/gd_write_bw" --initiator=ibgda --ibgda_nic=software-test-double
check 3 "$nocuda" "--ibgda_nic wins over the environment" GDPERF_IBGDA_NIC=cx9 "$t/gd_write_bw" --initiator=ibgda --ibgda_nic=software-test-double
exit $fail
