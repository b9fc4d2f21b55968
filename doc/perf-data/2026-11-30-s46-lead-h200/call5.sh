#!/bin/bash
# Lead, session 46, call 5 (bash .carry/s46e/call5.sh): the pack of main 58f3e6d (a refused post waits a
# doubling pause) on the other shm writedata sizes, where a full command queue may refuse posts too:
# 4 KiB, 64 KiB, 1 MiB against b2f7a62's tools (gdb), fi_rma_bw v1.22.0 and its A/A, 7 rounds, CPUs 2 3.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; mkdir -p "$O"
rm -rf gdperf-gpu before; tar xzf pack.tar.gz; tar xzf before-tools.tar.gz
G=$C/gdperf-gpu
{ date -u; head -1 "$G/README"; head -1 before/README; } > "$O/host5.txt" 2>&1
(cd "$G" && timeout -s KILL 150 scripts/bench-vs-libfabric.sh --providers shm --kinds bw \
	--bw-ops writedata --sizes "4096 65536 1048576" --pairs 7 --bw-iters "4096:100000 65536:20000 1048576:2000" \
	--bindir "$G/tools" --fabtests "$C/ft" --fi-bindir "$C/ft" --ld-library-path "$G/lib/ofi-cuda:$G/lib" \
	--pin "2 3" --gd-before "$C/before/tools" --timeout 30 --port-base 39000 --out "$O/wd-shm") > "$O/wd-shm.txt" 2>&1
echo "rc $? $(date -u +%T)" >> "$O/wd-shm.txt"
date -u >> "$O/host5.txt"
