#!/bin/bash
# Lead, session 44, call 3 (after call2.sh, same folder): call 2's (C) profiles again with
# FI_SHM_DISABLE_CMA=1 (shm's writes through its command queue): GPU producer 1, 2 and 4 proxy threads,
# and host producers (--ctas 4) with 4 threads; where the 4-thread run spends its time on both sides.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; T=/tmp/s44; mkdir -p "$O" "$T"
[ -d gdperf-gpu ] || tar xzf gdperf-gpu.tar.gz
[ -x perf ] || tar xJf perf.tar.xz
G=$C/gdperf-gpu; FI=$C/fi_rma_bw; L122=$G/lib/ofi-cuda:$G/lib; LB=$L122
eval "$(sed -n '/^DRYF=/,/^partB() {/p' call1.sh | sed '$d')"
eval "$(sed -n '/^PR=/,/^}$/p' call2.sh)"
echo 28000 > $T/port
export FI_SHM_DISABLE_CMA=1
{
	for t in 1 2 4; do
		prof nc-pg$t 2-5 6-13 --provider shm -n 2000000 -q 4 --initiator=proxy --producer gpu --scope warp --ctas 4 --threads 32 --proxy_threads $t
	done
	prof nc-ph4 2-5 6-13 --provider shm -n 2000000 -q 4 --initiator=proxy --producer host --ctas 4 --proxy_threads 4
} > "$O/E-nocma-perf.txt" 2>&1
date -u >> "$O/E-nocma-perf.txt"
