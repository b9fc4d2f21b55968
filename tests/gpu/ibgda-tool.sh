#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The benchmark tools' IBGDA data path on the GPU machine (issue 13): no
# ConnectX there, so GDPERF_IBGDA_NIC=software-test-double (the tools'
# default for --ibgda_nic; a few cells give the option itself) selects the
# SOFTWARE NIC TEST DOUBLE: a CPU thread executes the WQEs the GPU kernels
# write, on this side's buffer: the engine's run over its loopback fabric
# (bench_loopback.c: one process, no device, no peer; this side is its own
# target, and --validate is the engine's, once after the last size).
#   gd_write_bw / gd_read_bw / gd_write_lat --initiator=ibgda and ibgda-cpudb:
#   --validate at every scope, --json (fields checked), --dump_wqes 4 (four
#   decoded WQEs), an injected error CQE (syndrome named, exit 1), a stalled
#   test double (the GPU's %globaltimer deadline fires with the indices,
#   exit 1), and the refusals (exit 2).
#   gd_atomic_bw / gd_atomic_lat (issue 22): FETCH_AND_ADD and CMP_AND_SWAP,
#   both doorbells, host and --use_cuda=0 buffers, --validate (the counters
#   sum to the operations; the latency kernel checks every fetched value),
#   fetched results in host order and big-endian (GDPERF_IBGDA_SWNIC_ATOMIC_BE).
#   --use_cuda=0 write/read cells (the test double copies through the
#   driver), and --use_cuda=1 where a second GPU exists (run and reported
#   on GPU 1). One "CELL" line per run says what ran and its result line.
# Figures (Mpps through the test double) are printed, never asserted. Exits
# 77 without a GPU or without kernels (no nvcc at build time). Run from the
# build tree or the folder `make gpu-pack` makes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
b=${top_builddir:-$here/../..}
t=$b/tools
[ -x "$t/gd_write_bw" ] || { echo "SKIP: $t/gd_write_bw not built"; exit 77; }
GDPERF_IBGDA_NIC=software-test-double
export GDPERF_IBGDA_NIC
fail=0
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

run() { # expected-rc, description, tool, args...
	want=$1; what=$2; shift 2
	echo "== $what: $*"
	t0=$(date +%s%N)
	timeout 120 "$t/$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	echo "   (exit $rc, $(( ($(date +%s%N) - t0) / 1000000 )) ms)"
	cat "$tmp/out" "$tmp/err" | sed 's/^/   /'
	if [ $rc -eq 3 ] && grep -Eq 'no CUDA driver|no CUDA-capable|built without nvcc|CUDA_ERROR_NO_DEVICE' "$tmp/err"; then
		echo "SKIP: no CUDA GPU or no kernels here"; exit 77
	fi
	fig=$(grep -E '^ +[0-9]' "$tmp/out" | tail -1 | tr -s ' ')
	if [ $rc -ne "$want" ]; then
		echo "FAIL: $what exited $rc, expected $want"; fail=1
		echo "CELL | $what | FAILED (exit $rc, expected $want)"; return 1
	fi
	echo "CELL | $what | ok (exit $rc)${fig:+ |$fig}"
	return 0
}
ko() { echo "FAIL: $*"; fail=1; }
. "$(dirname "$0")/../lib/expect.sh" # expect_in

# write bw, every scope, both doorbells, validated payload
for mode in ibgda ibgda-cpudb; do
	for scope in thread warp block; do
		run 0 "write bw $mode scope $scope" gd_write_bw --initiator=$mode --scope $scope \
			--ctas 8 --threads 128 -q 4 -s 64 -n 8192 --validate || continue
		expect_in "header names the GPU producer" "$tmp/out" "Initiator       : $mode, producer "
		expect_in "header names the test double" "$tmp/out" "IBGDA           : NIC software NIC \(test double\)"
		expect_in "header device" "$tmp/out" "Device         : swnic \(test double\)"
		expect_in "result line (64 B, 8192 x 4 messages)" "$tmp/out" "^ 64 *32768 "
		# the engine checks the span the last size wrote: every QP's messages rotate
		# through the 64-byte slots of QP 0's 64 KiB halves (ibgda_loop.c)
		expect_in "validation ran" "$tmp/out" "^ validation: passed \(65536 bytes checked\)"
	done
done

# read bw and write/read lat
run 0 "read bw ibgda" gd_read_bw --initiator=ibgda --ctas 4 --threads 64 -q 2 -s 4096 -n 4096 --validate &&
	{ expect_in "read result line" "$tmp/out" "^ 4096 *8192 "; expect_in "read validation" "$tmp/out" "^ validation: passed \(65536 bytes checked\)"; }
run 0 "write lat ibgda" gd_write_lat --initiator=ibgda -s 8 -n 2000 --validate &&
	expect_in "write latency line" "$tmp/out" "^ 8 *2000 "
run 0 "read lat ibgda-cpudb" gd_read_lat --initiator=ibgda-cpudb -s 64 -n 1000 --validate &&
	expect_in "read latency line" "$tmp/out" "^ 64 *1000 "

# a size sweep
run 0 "write bw -a" gd_write_bw --initiator=ibgda -a -n 64 --ctas 2 --threads 32 --validate &&
	{ expect_in "first size" "$tmp/out" "^ 2 *64 "; expect_in "last size" "$tmp/out" "^ 8388608 *64 "; }

# --json: the result record and its IBGDA fields
if run 0 "write bw --json" gd_write_bw --initiator=ibgda --json -s 256 -n 4096 --ctas 4 \
	--threads 64 -q 2 --scope warp; then
	if command -v python3 >/dev/null 2>&1; then
		python3 - "$tmp/out" <<'PY' || { echo "FAIL: JSON fields"; fail=1; }
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
r = [x for x in recs if x.get("type") == "bw_result"]
assert len(r) == 1, recs
r = r[0]
assert r["initiator"] == "ibgda" and r["scope"] == "warp" and r["qps"] == 2, r
assert r["producer"].startswith("NVIDIA"), r["producer"]
assert r["ibgda_nic"] == "software-test-double", r.get("ibgda_nic")
g = r["ibgda"]
assert g["nic_is_test_double"] is True and "test double" in g["nic"], g
assert g["doorbell"] == "GPU" and g["ring_every"] > 0, g
res = r["results"]
assert res["size_bytes"] == 256 and res["iterations"] == 8192, res
assert res["msg_rate_mpps"] > 0 and res["bw_avg_gbit_per_s"] > 0, res
print("   JSON ok: %.2f Mpps, %.2f Gb/s through the test double" % (res["msg_rate_mpps"], res["bw_avg_gbit_per_s"]))
PY
	else
		expect_in "JSON test-double flag" "$tmp/out" '"nic_is_test_double":true'
	fi
fi

# --dump_wqes 4: four decoded WQEs of QP 0
run 0 "write bw --dump_wqes 4" gd_write_bw --initiator=ibgda --dump_wqes 4 -s 8 -n 256 &&
	{ expect_in "dump title" "$tmp/out" "^--dump_wqes: QP 0x";
	  # slot 0 may hold the quiet's signalled NOP (the ring wrapped)
	  n=$(grep -c '^wqe .* qpn 0x005100 ds ' "$tmp/out"); [ "$n" -eq 4 ] ||
		{ echo "FAIL: --dump_wqes 4 printed $n WQE lines"; fail=1; }
	  expect_in "a decoded RDMA WRITE" "$tmp/out" '^wqe .*RDMA_WRITE .*rkey 0x5e001 laddr .* len 8$'; }

# faults of the test double: an error CQE, a stalled NIC
GDPERF_IBGDA_SWNIC_ERR_AT=100 run 1 "injected error CQE at WQE 100" gd_write_bw --initiator=ibgda \
	-s 64 -n 1024 --validate &&
	{ expect_in "error CQE named" "$tmp/err" "error CQE on QP 0x"; expect_in "syndrome named" "$tmp/err" "REMOTE_ACCESS_ERR"; }
GDPERF_IBGDA_SWNIC_STALL_AT=100 run 1 "stalled test double at WQE 100" gd_write_bw --initiator=ibgda \
	-s 64 -n 4096 --timeout 2 &&
	{ expect_in "deadline fired" "$tmp/err" "deadline passed"; expect_in "indices printed" "$tmp/err" "cons_idx"; }
GDPERF_IBGDA_SWNIC_STALL_AT=100 run 1 "stalled test double, ibgda-cpudb" gd_write_bw \
	--initiator=ibgda-cpudb -s 64 -n 4096 --timeout 2 && expect_in "cpudb deadline" "$tmp/err" "deadline passed"

# atomics: every type, doorbell and memory; --validate (issue 22)
for mode in ibgda ibgda-cpudb; do
	for at in FETCH_AND_ADD CMP_AND_SWAP; do
		for mem in host cuda; do
			m=; n=4096; [ $mem = cuda ] && { m=--use_cuda=0; n=512; }
			run 0 "atomic bw $mode $at $mem" gd_atomic_bw --initiator=$mode -A $at $m \
				--ctas 8 --threads 128 --scope warp -q 4 -n $n --validate &&
				expect_in "$at counters" "$tmp/out" "^ validation: passed \($((n * 4)) atomics checked\)"
			run 0 "atomic lat $mode $at $mem" gd_atomic_lat --initiator=$mode -A $at $m \
				-n 500 --validate &&
				{ expect_in "atomic latency line" "$tmp/out" "^ 8 *500 ";
				  expect_in "$at lat counter" "$tmp/out" "^ validation: passed \(500 atomics checked\)"; }
		done
	done
done
# thread scope (coalesced groups on shared QPs): CMP_AND_SWAP in WQE order
run 0 "atomic bw CMP_AND_SWAP scope thread" gd_atomic_bw --initiator=ibgda -A CMP_AND_SWAP \
	--scope thread --ctas 4 --threads 64 -q 2 -n 4096 --validate &&
	expect_in "thread-scope CAS counters" "$tmp/out" "^ validation: passed \(8192 atomics checked\)"
# a device that answers 8-byte fetches big-endian: decoded as the PRM says
GDPERF_IBGDA_SWNIC_ATOMIC_BE=1 run 0 "atomic lat, big-endian fetched results" gd_atomic_lat \
	--initiator=ibgda -A FETCH_AND_ADD -n 500 --validate
GDPERF_IBGDA_SWNIC_ATOMIC_BE=1 run 0 "atomic lat CAS, big-endian fetched results, GPU memory" \
	gd_atomic_lat --initiator=ibgda -A CMP_AND_SWAP --use_cuda=0 -n 200 --validate

# GPU-memory data through the test double
run 0 "write bw --use_cuda=0" gd_write_bw --initiator=ibgda --use_cuda=0 --ctas 4 --threads 64 \
	-q 2 -s 4096 -n 256 --validate &&
	{ expect_in "GPU memory in the header" "$tmp/out" "Memory          : cuda: GPU 0 "; expect_in "validated" "$tmp/out" "^ validation: passed \(65536 bytes checked\)"; }
run 0 "read lat ibgda-cpudb --use_cuda=0" gd_read_lat --initiator=ibgda-cpudb --use_cuda=0 -s 64 \
	-n 300 --validate
# the GPU that holds the data is the one that runs (F7 of the desk review)
if [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')" -ge 2 ]; then
	run 0 "write bw --use_cuda=1 (second GPU)" gd_write_bw --initiator=ibgda --use_cuda=1 \
		--ctas 4 --threads 64 -q 2 -s 64 -n 1024 --validate &&
		{ expect_in "data on GPU 1" "$tmp/out" "Memory          : cuda: GPU 1 "; expect_in "producer is GPU 1" "$tmp/out" "\(CUDA 1\)"; }
else
	echo "CELL | write bw --use_cuda=1 (second GPU) | not run: one GPU here"
fi

# --ibgda_nic, the option (the environment is only its default): the header names it
# (set and restored in plain steps: a prefix assignment to a shell function may stay)
unset GDPERF_IBGDA_NIC
run 0 "write bw --ibgda_nic=software-test-double (no environment)" \
	gd_write_bw --initiator=ibgda --ibgda_nic=software-test-double -s 64 -n 1024 --validate &&
	expect_in "header names the backend" "$tmp/out" "Initiator .*NIC software-test-double"
GDPERF_IBGDA_NIC=bogus
export GDPERF_IBGDA_NIC
run 0 "--ibgda_nic wins over the environment" \
	gd_write_bw --initiator=ibgda --ibgda_nic=software-test-double -s 64 -n 1024
GDPERF_IBGDA_NIC=software-test-double

# refusals
run 2 "unknown --ibgda_nic" gd_write_bw --initiator=ibgda --ibgda_nic=cx9 &&
	expect_in "names the valid values" "$tmp/err" "software-test-double"
GDPERF_IBGDA_NIC=bogus run 2 "unknown GDPERF_IBGDA_NIC" gd_write_bw --initiator=ibgda &&
	expect_in "names the valid values" "$tmp/err" "software-test-double"
run 2 "test double with --use_hugepages" gd_write_bw --initiator=ibgda --use_hugepages
run 2 "send over IBGDA" gd_send_bw --initiator=ibgda && expect_in "names the proxy" "$tmp/err" "initiator=proxy"

# a figure: many QPs through the test double (its CPU thread is the bottleneck)
run 0 "rate figure: 132 CTAs x 256 threads, 132 QPs, 8 B" gd_write_bw --initiator=ibgda \
	--ctas 132 --threads 256 --scope warp -q 132 -s 8 -n 20000

[ $fail -eq 0 ] && echo "PASS: ibgda-tool" || echo "FAIL: ibgda-tool"
exit $fail
