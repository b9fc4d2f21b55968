#!/bin/bash
# s36's second call (same layout as run.sh): the GPU tier of the final pack
# (gpu_producer_refused by size) and the probe again, each folder as one
# tarball in $OUT (the device returns at most 8 files).
set -u
O=${OUT:-/tmp/out}
d=doc/perf-data/2026-11-29-s36-h200
mkdir -p "$O/tier" "$O/exp"
t0=$(date +%s)
GD_RESULTS=$O/tier timeout -s KILL 330 gdperf-gpu/tests/gpu/run-all.sh >"$O/tier/tier.txt" 2>&1
echo "tier: exit $? in $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
OUT=$O/exp timeout -s KILL 100 bash $d/exp.sh >/dev/null 2>&1
echo "exp: exit $? in $(( $(date +%s) - t0 )) s"
tar -C "$O" -czf "$O/tier.tgz" tier && tar -C "$O" -czf "$O/exp.tgz" exp && rm -rf "$O/tier" "$O/exp"
grep -E '^(gd_|cells|GPU tier)' <(tar -xzOf "$O/tier.tgz" tier/tier.txt) | grep -E 'cuda +ofi/shm|gpu-pt|cells|GPU tier'
tar -xzOf "$O/exp.tgz" exp/exp-summary.txt
