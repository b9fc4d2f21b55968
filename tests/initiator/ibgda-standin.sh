#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The tools' IBGDA data path in make check, on two test doubles: the
# software NIC test double (--ibgda_nic=software-test-double) executes the
# WQEs, and the HOST STAND-IN FOR THE GPU SIDE (GDPERF_TEST_IBGDA_GPU=host,
# ibgda_gpu_host.h) posts them: host threads running the kernels' own code
# (ibgda_work.h) over the producer protocol (ibgda_dev.h). No GPU, no NIC.
#   0: gd_write_bw at every scope with both doorbells, gd_read_bw,
#      gd_write_lat, gd_read_lat, gd_atomic_bw and gd_atomic_lat (both
#      types), a size sweep, all with --validate: the header lines
#      tests/gpu/ibgda-tool.sh greps, the result line, the engine's
#      validation line (the run is the engine's, over its loopback fabric:
#      the bytes the last size wrote, each message in a slot of its own);
#      every output names the stand-in (header producer, JSON "producer", a
#      warning)
#   1: an injected error CQE (syndrome named), a stalled test double (the
#      protocol's deadline fires with the indices)
#   2: the stand-in with --ibgda_nic=devx (a ConnectX needs a GPU), an
#      unknown GDPERF_TEST_IBGDA_GPU value
#   3: without the switch a run without a GPU is refused as always; --use_cuda
#      (the engine's buffer is real GPU memory: the stand-in does not stand
#      in for it, tests/gpu/ibgda-tool.sh runs it)
# Figures are never asserted. A write the test double loses fails the
# validation (checked by hand on a mutated ibgda_swnic.c, s45/stand10). The
# stand-in refuses what a GPU could not reach: the atomic lat cells read each
# fetched result in the engine's buffer, and without ibgda_loop.c's
# gd_ibgda_gpu_map of it they exit 1 naming the fetch word (checked by hand
# on a mutated ibgda_loop.c, s45/reach10).
set -u
b=${top_builddir:-$(cd "$(dirname "$0")/../.." && pwd)}
t=$b/tools
[ -x "$t/gd_write_bw" ] || { echo "SKIP: $t/gd_write_bw not built"; exit 77; }
fail=0 n=0
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
unset GDPERF_IBGDA_NIC GDPERF_IBGDA_SWNIC_ERR_AT GDPERF_IBGDA_SWNIC_STALL_AT GDPERF_IBGDA_SWNIC_ATOMIC_BE
sw=--ibgda_nic=software-test-double

ko() { echo "FAIL: $*"; fail=1; }
# run RC WHAT [VAR=VALUE...] TOOL ARGS...: the tool under the stand-in, a
# deadline of 120 s (env, not a prefix assignment: one to a function may stay)
run() {
	want=$1 what=$2
	shift 2
	n=$((n + 1))
	timeout 120 env GDPERF_TEST_IBGDA_GPU=host "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
	rc=$?
	if [ $rc -ne "$want" ]; then
		ko "$what: exit $rc, want $want ($*)"; sed 's/^/    /' "$tmp/out" "$tmp/err" | tail -n 8
		return 1
	fi
	echo "ok: $what (exit $rc)"
}
# has FILE REGEX WHAT
has() {
	grep -Eq -- "$2" "$tmp/$1" || { ko "$3: no '$2' in std$1"; sed 's/^/    /' "$tmp/$1" | tail -n 8; }
}
named() { # every run names the stand-in: the header's producer and a warning
	has out "^ Initiator +: $1, producer host stand-in for the GPU \(test double\), " "header names the stand-in"
	has err "warning: GDPERF_TEST_IBGDA_GPU=host: the GPU side of IBGDA is a host stand-in" "the warning"
	has out "^ IBGDA +: NIC software NIC \(test double\)" "header names the test double"
	has out "Device +: swnic \(test double\)" "header device"
}

for mode in ibgda ibgda-cpudb; do
	for scope in thread warp block; do
		run 0 "write bw $mode scope $scope" "$t/gd_write_bw" --initiator=$mode $sw --scope $scope \
			--ctas 2 --threads 64 -q 2 -s 64 -n 512 --validate || continue
		named $mode
		# 512 x 2 messages fill the 1024 slots once: a write lost shows
		has out "^ 64 +1024 " "result line (64 B, 512 x 2 messages)"
		has out "^ validation: passed \(65536 bytes checked\)" "validation"
	done
done
run 0 "read bw" "$t/gd_read_bw" --initiator=ibgda $sw --ctas 2 --threads 64 -q 2 -s 4096 -n 256 --validate &&
	{ named ibgda; has out "^ 4096 +512 " "read result line"; has out "^ validation: passed \(65536 bytes checked\)" "read validation"; }
run 0 "write lat" "$t/gd_write_lat" --initiator=ibgda $sw -s 8 -n 300 --validate &&
	{ named ibgda; has out "^ 8 +300 " "write latency line"; has out "^ validation: passed \(2400 bytes checked\)" "lat validation"; }
run 0 "read lat ibgda-cpudb" "$t/gd_read_lat" --initiator=ibgda-cpudb $sw -s 64 -n 200 --validate &&
	{ named ibgda-cpudb; has out "^ 64 +200 " "read latency line"; has out "^ validation: passed \(12800 bytes checked\)" "validation"; }
for at in FETCH_AND_ADD CMP_AND_SWAP; do
	run 0 "atomic bw $at scope thread" "$t/gd_atomic_bw" --initiator=ibgda $sw -A $at --scope thread \
		--ctas 2 --threads 64 -q 2 -n 512 --validate &&
		has out "^ validation: passed \(1024 atomics checked\)" "$at counters"
	run 0 "atomic lat $at" "$t/gd_atomic_lat" --initiator=ibgda-cpudb $sw -A $at -n 200 --validate &&
		{ has out "^ 8 +200 " "atomic latency line"; has out "^ validation: passed \(200 atomics checked\)" "$at lat"; }
done
run 3 "write bw --use_cuda=0: the engine's GPU buffer needs a GPU" "$t/gd_write_bw" --initiator=ibgda $sw \
	--use_cuda=0 -s 4096 -n 128 --validate && has err "GPU memory needs the CUDA driver" "names the cause"
run 0 "write bw -a (-n 8: a whole round of the 32-thread grid)" "$t/gd_write_bw" --initiator=ibgda $sw -a -n 8 \
	--validate && { has out "^ 2 +32 " "first size"; has out "^ 8388608 +32 " "last size"; }
if run 0 "write bw --json" "$t/gd_write_bw" --initiator=ibgda $sw --json -s 256 -n 512 -q 2 --ctas 2 --validate; then
	has out '"producer":"host stand-in for the GPU \(test double\)"' "JSON producer names the stand-in"
	has out '"nic_is_test_double":true' "JSON names the test double"
fi

# big-endian fetched results, decoded (the double's own validation line on
# stderr, or the engine's on stdout once the double runs in its lifecycle)
if run 0 "atomic lat, big-endian fetched results" GDPERF_IBGDA_SWNIC_ATOMIC_BE=1 "$t/gd_atomic_lat" \
	--initiator=ibgda $sw -A CMP_AND_SWAP -n 200 --validate; then
	cat "$tmp/out" "$tmp/err" | grep -Eq "validate: CMP_AND_SWAP: the 1 counters hold 200,|^ validation: passed \(200 atomics checked\)" ||
		ko "big-endian fetches: no validation line"
fi
# --dump_wqes 4: four decoded WQEs of QP 0
run 0 "write bw --dump_wqes 4" "$t/gd_write_bw" --initiator=ibgda $sw --dump_wqes 4 -s 8 -n 256 && {
	has out "^--dump_wqes: QP 0x" "dump title"
	has out '^wqe .*RDMA_WRITE .*rkey 0x5e00[0-9a-f] laddr .* len 8$' "a decoded RDMA WRITE"
	[ "$(grep -c '^wqe .* qpn 0x005100 ds ' "$tmp/out")" -eq 4 ] || ko "--dump_wqes 4: not 4 WQE lines"
}
# faults of the software NIC test double
run 1 "injected error CQE at WQE 100" GDPERF_IBGDA_SWNIC_ERR_AT=100 "$t/gd_write_bw" --initiator=ibgda $sw \
	-s 64 -n 1024 --validate && { has err "error CQE on QP 0x" "error CQE named"; has err "REMOTE_ACCESS_ERR" "syndrome"; }
run 1 "stalled test double at WQE 100" GDPERF_IBGDA_SWNIC_STALL_AT=100 "$t/gd_write_bw" --initiator=ibgda $sw \
	-s 64 -n 1024 --timeout 1 && { has err "deadline passed" "deadline fired"; has err "cons_idx" "indices"; }

# refusals: a test double for the test double only; never a silent fallback
run 2 "the stand-in with a ConnectX" "$t/gd_write_bw" --initiator=ibgda --ibgda_nic=devx &&
	has err "GDPERF_TEST_IBGDA_GPU=host .*serves --ibgda_nic=software-test-double only" "names the switch and the fix"
run 2 "an unknown GDPERF_TEST_IBGDA_GPU" GDPERF_TEST_IBGDA_GPU=gpu "$t/gd_write_bw" --initiator=ibgda $sw &&
	has err "GDPERF_TEST_IBGDA_GPU takes one value, host" "names the value"
if run 3 "no switch, no GPU: refused as always" GDPERF_TEST_IBGDA_GPU= \
	GDPERF_LIBCUDA=/nonexistent/libcuda.so.1 "$t/gd_write_bw" --initiator=ibgda $sw; then
	grep -q "stand-in" "$tmp/out" "$tmp/err" && ko "a run without the switch mentions the stand-in"
fi

echo "$n runs"
[ $fail -eq 0 ] && echo "PASS: ibgda-standin" || echo "FAIL: ibgda-standin"
exit $fail
