#!/bin/bash
# Lead, session 45, call 6 (bash .carry/s45g/call6.sh): the final main's tools (pack dc7e2b5) against fabtests'
# fi_rma_bw v1.22.0 like for like, both sides at once: gd_write_bw -b / gd_read_bw -b (the client's own part)
# against fi_rma_bw -o write / -o read, 8 B and 4 KiB, shm (CPUs 2 3) and tcp (CPUs 6 7, at the same time),
# libfabric 1.22 (the pack's lib/ofi-cuda) for both, 7 rounds, fabtests' A/A and gdperf's (--gd-control).
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; mkdir -p "$O"
rm -rf gdperf-gpu; tar xzf pack.tar.gz
G=$C/gdperf-gpu
{ date -u; head -1 "$G/README"; nvidia-smi -L; } > "$O/host6.txt" 2>&1
cd "$G"
run() { # provider pin port
	timeout -s KILL 330 scripts/bench-vs-libfabric.sh --providers "$1" --kinds bw --bw-ops "write read" \
		--sizes "8 4096" --pairs 7 --bw-iters "8:100000 4096:50000" --bindir "$G/tools" \
		--fabtests "$C/ft" --fi-bindir "$C/ft" --ld-library-path "$G/lib/ofi-cuda:$G/lib" --pin "$2" --gd-control \
		--timeout 30 --port-base "$3" --out "$O/bvl-$1" > "$O/bvl-$1.txt" 2>&1
	echo "rc $? $(date -u +%T)" >> "$O/bvl-$1.txt"
}
run shm "2 3" 31000 & a=$!
run tcp "6 7" 32000 & b=$!
wait $a $b
date -u >> "$O/host6.txt"
