#!/bin/bash
# Lead, session 45, call 1 (bash .carry/s45/call1.sh): proxy/cpu over libfabric 1.22 shm (lib/ofi-cuda), the
# GPU producer, with the A/A control (scripts/proxy-vs-cpu.sh --aa: the CPU initiator again in every pair,
# three runs rotating): host memory at 8 B, 4 KiB, 64 KiB (11 pairs), GPU memory at 64 KiB (9 pairs).
# Pack of main 7b5c0bb. Everything under $OUT.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; mkdir -p "$O"
rm -rf gdperf-gpu; tar xzf pack-7b5c0bb.tar.gz
G=$C/gdperf-gpu
{ date -u; head -1 "$G/README"; nvidia-smi -L; nproc; uptime; } > "$O/host1.txt" 2>&1
cd "$G"
export LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib
timeout -s KILL 330 scripts/proxy-vs-cpu.sh --builddir . --provider shm --producer gpu --pairs 11 --aa \
	--port-base 30000 > "$O/pvc-host.txt" 2> "$O/pvc-host.csv"; echo "rc $?" >> "$O/pvc-host.txt"
timeout -s KILL 150 scripts/proxy-vs-cpu.sh --builddir . --provider shm --producer gpu --pairs 9 --aa \
	--sizes 65536 --use_cuda 0 --port-base 31000 > "$O/pvc-gpu.txt" 2> "$O/pvc-gpu.csv"; echo "rc $?" >> "$O/pvc-gpu.txt"
date -u >> "$O/host1.txt"
