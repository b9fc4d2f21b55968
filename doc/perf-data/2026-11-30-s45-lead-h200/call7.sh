#!/bin/bash
# Lead, session 45, call 7 (bash .carry/s45h/call7.sh): -b write over libfabric 1.22 after the moderation writes
# ask transmit completion (pack of main with it) against the build before it (dc7e2b5's tools, --gd-before) and
# fi_rma_bw -o write v1.22.0, with fabtests' A/A: 8 B and 4 KiB, shm (CPUs 2 3) and tcp (CPUs 6 7) at once, 7
# rounds. Also writedata (one-way) 8 B, which asks the same flags for its signalled writes over tcp.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; mkdir -p "$O"
rm -rf gdperf-gpu before; tar xzf pack.tar.gz; tar xzf before-tools.tar.gz
G=$C/gdperf-gpu
{ date -u; head -1 "$G/README"; head -1 before/README; nvidia-smi -L; } > "$O/host7.txt" 2>&1
cd "$G"
run() { # provider pin port
	timeout -s KILL 300 scripts/bench-vs-libfabric.sh --providers "$1" --kinds bw --bw-ops "write writedata" \
		--sizes "8 4096" --pairs 7 --bw-iters "8:100000 4096:50000" --bindir "$G/tools" \
		--fabtests "$C/ft" --fi-bindir "$C/ft" --ld-library-path "$G/lib/ofi-cuda:$G/lib" --pin "$2" \
		--gd-before "$C/before/tools" --timeout 30 --port-base "$3" --out "$O/bvl-$1" > "$O/bvl-$1.txt" 2>&1
	echo "rc $? $(date -u +%T)" >> "$O/bvl-$1.txt"
}
run shm "2 3" 31000 & a=$!
run tcp "6 7" 32000 & b=$!
wait $a $b
date -u >> "$O/host7.txt"
