#!/bin/bash
# Lead, session 46, call 4 (bash .carry/s46d/call4.sh): the pack of main 58f3e6d (a refused post waits a
# doubling pause before it is posted again):
# (N) 8 B writedata and -b write against b2f7a62's tools (gdb: posting again at once), fi_rma_bw v1.22.0 and
#     its A/A (fi2): shm (CPUs 2 3, 200000 writes) and tcp (CPUs 6 7, 50000) at once, 9 rounds (bound 200 s);
# (T) the GPU tier, tests/gpu/run-all.sh, every script (bound TIER_S, default 280 s).
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; T=/tmp/s46d; mkdir -p "$O" "$T"
rm -rf gdperf-gpu before; tar xzf pack.tar.gz; tar xzf before-tools.tar.gz
G=$C/gdperf-gpu
{ date -u; head -1 "$G/README"; head -1 before/README; nvidia-smi -L; } > "$O/host4.txt" 2>&1
part() { # provider pin port iters
	(cd "$G" && timeout -s KILL 200 scripts/bench-vs-libfabric.sh --providers "$1" --kinds bw \
		--bw-ops "writedata write" --sizes 8 --pairs 9 --bw-iters "8:$4" --bindir "$G/tools" \
		--fabtests "$C/ft" --fi-bindir "$C/ft" --ld-library-path "$G/lib/ofi-cuda:$G/lib" --pin "$2" \
		--gd-before "$C/before/tools" --timeout 30 --port-base "$3" --out "$O/n-$1") > "$O/n-$1.txt" 2>&1
	echo "rc $? $(date -u +%T)" >> "$O/n-$1.txt"
}
part shm "2 3" 37000 200000 & a=$!
part tcp "6 7" 38000 50000 & b=$!
wait $a $b
date -u >> "$O/host4.txt"
(cd "$G" && unset OUT LD_LIBRARY_PATH; GD_RESULTS=$T/tier timeout -s KILL "${TIER_S:-280}" tests/gpu/run-all.sh) > "$O/tier.txt" 2>&1
echo "tier rc $? $(date -u)" >> "$O/tier.txt"
tar czf "$O/tier-logs.tgz" -C $T tier 2>/dev/null
date -u >> "$O/host4.txt"
