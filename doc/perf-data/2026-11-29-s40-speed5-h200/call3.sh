#!/bin/bash
# s40/speed5 call 3 (NOT RUN by speed5: its 700 s device budget was spent by calls 1 and 2).
# For the lead: from the repository root on the H200,
#   run: cd .carry/speed5 && bash call3.sh      carry: [".carry/speed5"]   (~5 min)
# (G) proxy/cpu over shm, GPU producer, host memory at 8 B, 4 KiB, 64 KiB, and GPU memory at
# 64 KiB (libfabric 1.22 with CUDA), 5 alternating pairs; (H) the GPU tier, whole, from the pack
# of s40/speed5 (gdperf-gpu.tar.gz: the branch's code is main b1edc3d's). Calls 1 and 2's
# proxy/cpu runs all failed: call 1 ran the script outside its tree (tests/lib/net.sh missing),
# call 2 without the pack's lib/ in LD_LIBRARY_PATH (the tools need its json-c).
set -u
C=$(cd "$(dirname "$0")" && pwd)
cd "$C"
O=${OUT:-/tmp/out}
T=/tmp/s40c3; mkdir -p "$O" "$T"
tar xzf gdperf-gpu.tar.gz
G=$C/gdperf-gpu
{ nproc; uname -r; date -u; head -1 "$G/README"; } > "$O/host.txt" 2>&1
{
	LD_LIBRARY_PATH=$G/lib bash "$G/scripts/proxy-vs-cpu.sh" --builddir "$G" --provider shm \
		--producer gpu --pairs 5 --port-base 22500
	echo "== GPU memory (libfabric 1.22 with CUDA), 64 KiB"
	LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib bash "$G/scripts/proxy-vs-cpu.sh" --builddir "$G" --provider shm \
		--producer gpu --pairs 5 --sizes 65536 --use_cuda 0 --port-base 22600
} > "$O/proxy-cpu.txt" 2>&1
date -u >> "$O/host.txt"
(cd "$G" && env -u OUT GD_RESULTS=$T/tier timeout -s KILL ${TIER_S:-400} tests/gpu/run-all.sh) > "$O/tier.txt" 2>&1
echo "tier rc $?" >> "$O/tier.txt"
tar czf "$O/tier-logs.tgz" -C $T tier 2>/dev/null
date -u >> "$O/host.txt"
