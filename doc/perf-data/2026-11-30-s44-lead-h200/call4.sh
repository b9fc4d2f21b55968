#!/bin/bash
# Lead, session 44, call 4 on the H200 (bash .carry/s44/call4.sh): the final main's pack
# (gdperf-gpu-final.tar.gz). (T) the GPU tier, tests/gpu/run-all.sh, every script (bound TIER_S);
# (P) proxy threads over libfabric 1.22 (lib/ofi-cuda), one domain per thread (s44/dom9) against
#     gd_write_bw of ca836ef (old-tools.tar.gz: one FI_THREAD_SAFE domain): scripts/proxy-threads.sh
#     --ab, the GPU producer, 8 B, -q 4, 1/2/4 threads, shm, shm with FI_SHM_DISABLE_CMA=1, tcp.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; T=/tmp/s44; mkdir -p "$O" "$T"
rm -rf gdperf-gpu; tar xzf gdperf-gpu-final.tar.gz
G=$C/gdperf-gpu; FI=$C/fi_rma_bw; L122=$G/lib/ofi-cuda:$G/lib; LB=$L122
eval "$(sed -n '/^DRYF=/,/^partB() {/p' call1.sh | sed '$d')"
{ date -u; head -1 "$G/README"; nvidia-smi -L; } > "$O/host4.txt" 2>&1
(cd "$G" && unset OUT LD_LIBRARY_PATH; GD_RESULTS=$T/tier timeout -s KILL "${TIER_S:-330}" tests/gpu/run-all.sh ${TIER_NAMES:-}) > "$O/tier.txt" 2>&1
echo "tier rc $? $(date -u)" >> "$O/tier.txt"
tar czf "$O/tier-logs.tgz" -C $T tier 2>/dev/null
mkdir -p old && tar xzf old-tools.tar.gz -C old
(cd "$G" && LD_LIBRARY_PATH=lib/ofi-cuda:lib timeout -s KILL "${SECS_P:-230}" scripts/proxy-threads.sh --builddir . \
	--ab "$C/old/gdperf-gpu" --rounds "${ROUNDS_P:-5}" --producer gpu --port-base 29000) > "$O/P-threads.txt" 2>&1
echo "rc $?" >> "$O/P-threads.txt"
date -u >> "$O/host4.txt"
