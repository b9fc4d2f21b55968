#!/bin/sh
# The GPU tier of IBGDA (issue 13). The GPU machine has no NIC: CUDA kernels
# drive the IBGDA protocol against the SOFTWARE NIC TEST DOUBLE (a CPU
# thread) through mapped host memory.
#   (a) the shared encoders in a kernel give the CPU's bytes
#   (b) the whole protocol with --validate at every scope, collapsed and
#       normal CQ, CPU doorbell; an error CQE (bad rkey) decoded to its
#       syndrome name; a stalled NIC caught by the %globaltimer deadline
#   (c) rate: the double only advances the consumer index; WQEs/s vs scope,
#       CTAs, QPs and doorbell batching (goal >= 370 M WQE/s per GPU), and
#       the single-WQE post-to-doorbell latency
# Figures are printed, never asserted. Exits 77 without a GPU. Every run is
# bounded (timeout, and the kernels' own deadlines). Run from the build tree,
# or with GD_BIN naming a folder that holds gd_ibgda_gpu.
# IBGDA_QUICK=1 runs a shorter rate table.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${GD_BIN:-}" ]; then
	prog=$GD_BIN/gd_ibgda_gpu
else
	prog=${top_builddir:-$here/../..}/tests/gpu/gd_ibgda_gpu
fi
[ -x "$prog" ] || { echo "SKIP: $prog not built (configure found no nvcc)"; exit 77; }
fail=0
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

run() { # expected-rc, description, args...
	want=$1; what=$2; shift 2
	echo "== $what: gd_ibgda_gpu $*"
	timeout 180 "$prog" "$@" > "$tmp/out" 2>&1
	rc=$?
	cat "$tmp/out"
	if [ $rc -eq 77 ]; then echo "SKIP: no CUDA GPU here"; exit 77; fi
	if [ $rc -ne "$want" ]; then echo "FAIL: $what exited $rc, expected $want"; fail=1; return 1; fi
	return 0
}
ko() { echo "FAIL: $*"; fail=1; }
. "$(dirname "$0")/../lib/expect.sh" # expect_in

# (a) encoders
run 0 "encoders GPU == CPU" encode --n 1048576 && expect_in "encode" "$tmp/out" " 0 differ"

# (b) protocol, validated data
for scope in thread warp cta; do
	run 0 "protocol $scope, collapsed CQ" protocol --validate --scope $scope --ctas 8 \
		--threads 128 --qps 4 --iters 32 --nwqe 512 --ring_every 32 --sig_every 64 --dump_wqes 3 &&
		expect_in "validate $scope" "$tmp/out" "0 wrong"
done
run 0 "protocol warp, normal CQ" protocol --validate --scope warp --ctas 4 --threads 64 \
	--qps 8 --iters 64 --nwqe 256 --ring_every 32 --sig_every 64 --normal_cq && expect_in "normal CQ" "$tmp/out" "0 wrong"
run 0 "protocol warp, ibgda-cpudb (CPU rings)" protocol --validate --scope warp --ctas 4 \
	--threads 128 --qps 4 --iters 64 --cpudb && expect_in "cpudb" "$tmp/out" "0 wrong"
run 0 "protocol, one QP shared by all warps" protocol --validate --scope warp --ctas 16 \
	--threads 256 --qps 1 --iters 16 --nwqe 1024
# an error CQE: WQE of item 5000 carries a wrong rkey
run 1 "injected error CQE (bad rkey)" protocol --validate --scope warp --ctas 4 --threads 128 \
	--qps 2 --iters 32 --bad_rkey_at 5000 &&
	{ expect_in "error CQE" "$tmp/out" "REMOTE_ACCESS_ERR"; expect_in "error CQE" "$tmp/out" "error CQE on QP 0x"; }
run 1 "injected error CQE, normal CQ" protocol --validate --scope thread --ctas 2 --threads 64 \
	--qps 2 --iters 16 --nwqe 256 --sig_every 64 --normal_cq --bad_rkey_at 77 && expect_in "error CQE" "$tmp/out" "REMOTE_ACCESS_ERR"
# a stalled NIC: stops at WQE 300 of every QP; the deadline must fire with indices
run 1 "stalled NIC" protocol --scope warp --ctas 4 --threads 128 --qps 2 --iters 64 --nwqe 256 \
	--sig_every 64 --stall_at 300 --timeout_ms 500 &&
	{ expect_in "stall" "$tmp/out" "deadline passed on QP 0x"; expect_in "stall" "$tmp/out" "cons_idx"; }

# (c) rate: WQEs written and published per second of the GPU's own window
# (%globaltimer, first reserve .. last post), GPU send queues, the NIC
# advances the consumer index only. A run that fails ends with the
# kernel's own record (deadline, run budget) well before the host's kill.
rate() { # scope ctas qps ring_every [nwqe]
	timeout 120 "$prog" rate --scope $1 --ctas $2 --threads 256 --qps $3 --iters 256 \
		--nwqe ${5:-8192} --ring_every $4 --sig_every 1024 --sq gpu --reps 5 --timeout_ms 3000 ||
		{ echo "FAIL: rate $*"; fail=1; }
}
echo "== rate table (figures only; goal >= 370 M WQE/s per GPU); 256 threads per CTA"
echo "-- scope (132 CTAs, 132 QPs, ring every 32)"
for scope in thread warp cta; do rate $scope 132 132 32; done
echo "-- doorbell batching (warp scope, 132 CTAs, 132 QPs)"
for re in 1 128 512; do rate warp 132 132 $re; done
echo "-- QPs and CTAs (warp scope, ring every 128; 1 QP and 264 CTAs failed in run 1)"
for q in 1 32 264; do rate warp 132 $q 128; done
rate warp 264 132 128
rate thread 132 132 128
if [ "${IBGDA_QUICK:-0}" != 1 ]; then
	for c in 33 66; do rate warp $c 132 128; done
	for q in 8 66; do rate warp 132 $q 128; done
	rate warp 132 132 128 4096
	rate warp 132 132 128 16384
	rate cta 132 132 256
	rate cta 264 132 256
fi
echo "== rate with the CPU ringing (ibgda-cpudb)"
timeout 300 "$prog" rate --scope warp --ctas 132 --threads 256 --qps 32 --iters 256 --nwqe 8192 \
	--ring_every 128 --sig_every 1024 --sq gpu --cpudb --reps 5 --timeout_ms 3000 || { echo "FAIL: rate cpudb"; fail=1; }
run 0 "latency, normal CQ" latency --iters 2000 --normal_cq --scope thread --ctas 1 --threads 32
run 0 "latency, collapsed CQ" latency --iters 2000 --scope thread --ctas 1 --threads 32
run 0 "latency, CPU doorbell" latency --iters 2000 --cpudb --scope thread --ctas 1 --threads 32

[ $fail -eq 0 ] && echo "PASS: ibgda GPU tier" || echo "FAIL: ibgda GPU tier"
exit $fail
