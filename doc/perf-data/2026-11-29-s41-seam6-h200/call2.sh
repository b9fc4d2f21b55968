#!/bin/bash
# s41/seam6 call 2: the GPU tier (tests/gpu/run-all.sh) from this branch's pack: TIER_NAMES (default: all) from the pack.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; T=/tmp/s41t; mkdir -p "$O" "$T"
tar xzf gdperf-gpu.tar.gz
G=$C/gdperf-gpu
{ nproc; uname -r; date -u; head -3 "$G/README" 2>/dev/null; } > "$O/host.txt" 2>&1
(cd "$G" && env -u OUT GD_RESULTS=$T/tier timeout -s KILL ${TIER_S:-520} tests/gpu/run-all.sh ${TIER_NAMES:-}) > "$O/tier.txt" 2>&1
echo "tier rc $?" >> "$O/tier.txt"
tar czf "$O/tier-logs.tgz" -C $T tier 2>/dev/null
date -u >> "$O/host.txt"
