#!/bin/bash
# Lead, session 46, call 3 (bash .carry/s46c/call3.sh): the final main's pack (87baa93):
# (T) the GPU tier, tests/gpu/run-all.sh, every script (bound TIER_S, default 290 s);
# (N) the noisiest like-for-like points over shm at 8 B with more rounds: writedata and -b write, 11 rounds of
#     200000 writes, fabtests' A/A (fi2) and gdperf's own A/A (gd2, --gd-control), CPUs 2 3 (bound 200 s).
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; T=/tmp/s46c; mkdir -p "$O" "$T"
rm -rf gdperf-gpu; tar xzf pack.tar.gz
G=$C/gdperf-gpu
{ date -u; head -1 "$G/README"; nvidia-smi -L; } > "$O/host3.txt" 2>&1
(cd "$G" && unset OUT LD_LIBRARY_PATH; GD_RESULTS=$T/tier timeout -s KILL "${TIER_S:-290}" tests/gpu/run-all.sh) > "$O/tier.txt" 2>&1
echo "tier rc $? $(date -u)" >> "$O/tier.txt"
tar czf "$O/tier-logs.tgz" -C $T tier 2>/dev/null
date -u >> "$O/host3.txt"
(cd "$G" && timeout -s KILL 200 scripts/bench-vs-libfabric.sh --providers shm --kinds bw --bw-ops "writedata write" \
	--sizes 8 --pairs 11 --bw-iters "8:200000" --bindir "$G/tools" --fabtests "$C/ft" --fi-bindir "$C/ft" \
	--ld-library-path "$G/lib/ofi-cuda:$G/lib" --pin "2 3" --gd-control --timeout 30 --port-base 36000 \
	--out "$O/noisy-shm") > "$O/noisy-shm.txt" 2>&1
echo "rc $? $(date -u +%T)" >> "$O/noisy-shm.txt"
date -u >> "$O/host3.txt"
