#!/bin/bash
# the lead, session 41: proxy/cpu over shm with 11 alternating pairs (s41/seam6 had 5), GPU producer,
# host memory at 8 B, 4 KiB, 64 KiB, then GPU memory at 64 KiB (libfabric 1.22 built with CUDA,
# the pack's lib/ofi-cuda); tools: s41/seam6's pack (bba6ad2: the proxy and fabric code of main 3094f02)
set -u
C=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
cd "$C" && tar xzf gdperf-gpu.tar.gz
G=$C/gdperf-gpu
{ nproc; uname -r; date -u; head -1 "$G/README"; uptime; nvidia-smi -L; } > "$O/pc-host.txt" 2>&1
{
	echo "== GPU producer, host memory"
	LD_LIBRARY_PATH=$G/lib timeout 300 bash "$G/scripts/proxy-vs-cpu.sh" --builddir "$G" --provider shm \
		--producer gpu --pairs 11 --port-base 22500
	echo "== GPU producer, GPU memory (libfabric 1.22 with CUDA), 64 KiB"
	LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib timeout 200 bash "$G/scripts/proxy-vs-cpu.sh" --builddir "$G" --provider shm \
		--producer gpu --pairs 11 --sizes 65536 --use_cuda 0 --port-base 22700
} > "$O/pc.txt" 2>&1
date -u >> "$O/pc-host.txt"
grep -v '^csv' "$O/pc.txt"
