#!/bin/bash
# Lead, session 45, call 3 (bash .carry/s45/call3.sh), pack of main e8bae07 (s45/stand10, life10, pvc10 merged):
# (A) proxy/cpu over libfabric 1.22 shm with the A/A control, as call 1 (the proxy now signals one chain in
#     -Q's requests, s45/pvc10): host memory 8 B/4 KiB/64 KiB (11 pairs), GPU memory 64 KiB (9 pairs);
# (B) the IBGDA tier after the test double moved into the engine's lifecycle (s45/life10):
#     tests/gpu/ibgda-tool.sh and ibgda-gpu.sh;
# (C) the double's rate, new (e8bae07) against old (7b5c0bb's tools, the double's own lifecycle), 5 rounds
#     alternating, 8 B: 132 CTAs x 256 threads warp scope 132 QPs; 4 CTAs thread scope 4 QPs.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; mkdir -p "$O"
rm -rf gdperf-gpu old; tar xzf pack-e8bae07.tar.gz; mkdir old && tar xzf old-tools-7b5c0bb.tar.gz -C old
G=$C/gdperf-gpu
{ date -u; head -1 "$G/README"; head -1 old/gdperf-gpu/README; nvidia-smi -L; nproc; uptime; } > "$O/host3.txt" 2>&1
cd "$G"
(export LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib
timeout -s KILL 170 scripts/proxy-vs-cpu.sh --builddir . --provider shm --producer gpu --pairs 11 --aa \
	--port-base 30000 > "$O/pvc-host.txt" 2> "$O/pvc-host.csv"; echo "rc $?" >> "$O/pvc-host.txt"
timeout -s KILL 80 scripts/proxy-vs-cpu.sh --builddir . --provider shm --producer gpu --pairs 9 --aa \
	--sizes 65536 --use_cuda 0 --port-base 31000 > "$O/pvc-gpu.txt" 2> "$O/pvc-gpu.csv"; echo "rc $?" >> "$O/pvc-gpu.txt")
(unset OUT; timeout -s KILL 120 tests/gpu/run-all.sh ibgda-tool ibgda-gpu) > "$O/tier-ibgda.txt" 2>&1
echo "tier rc $? $(date -u)" >> "$O/tier-ibgda.txt"
export LD_LIBRARY_PATH=$G/lib GDPERF_IBGDA_NIC=software-test-double
rate() { # bindir label args...
	local b=$1 l=$2; shift 2
	timeout -s KILL 30 "$b/gd_write_bw" --initiator=ibgda -s 8 "$@" > "$O/r.out" 2>&1
	echo "$l rc $? $(grep -E '^ +[0-9]' "$O/r.out" | tail -1 | tr -s ' ')"
}
for r in 1 2 3 4 5; do
	for w in new old; do
		[ $((r % 2)) = 0 ] && w=$([ $w = new ] && echo old || echo new)
		b=$G/tools; [ $w = old ] && b=$C/old/gdperf-gpu/tools
		rate "$b" "round $r $w q132" --ctas 132 --threads 256 --scope warp -q 132 -n 20000
		rate "$b" "round $r $w q4" --ctas 4 --threads 1 --scope thread -q 4 -n 200000
	done
done > "$O/ibgda-ab.txt" 2>&1
date -u >> "$O/host3.txt"
