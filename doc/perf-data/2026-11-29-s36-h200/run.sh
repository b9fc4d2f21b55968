#!/bin/bash
# s36's one call on the GPU machine (run from the repository root, the packs
# gdperf-gpu/ carried, the probe's scratch pack in gdperf-gpu/exp/): the GPU tier of the final pack, the
# probe (exp.sh), the figures (perf.sh); each bounded so the call ends < 600 s.
set -u
O=${OUT:-/tmp/out}
d=doc/perf-data/2026-11-29-s36-h200
mkdir -p "$O"
nvidia-smi -L >"$O/machine.txt"; nproc >>"$O/machine.txt"; uname -r >>"$O/machine.txt"
t0=$(date +%s)
GD_RESULTS=$O/tier timeout -s KILL 300 gdperf-gpu/tests/gpu/run-all.sh >"$O/tier.txt" 2>&1
echo "tier: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$O/stages.txt"
t0=$(date +%s)
timeout -s KILL 110 bash $d/exp.sh >/dev/null 2>&1
echo "exp: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$O/stages.txt"
t0=$(date +%s)
timeout -s KILL 150 bash $d/perf.sh >/dev/null 2>&1
echo "perf: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$O/stages.txt"
tail -40 "$O/tier.txt"
cat "$O/exp-summary.txt" "$O/pvc-shm-host.txt" "$O/pvc-shm-cuda-64k.txt" "$O/proxy-threads.txt" 2>/dev/null
