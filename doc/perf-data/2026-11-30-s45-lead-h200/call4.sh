#!/bin/bash
# Lead, session 45, call 4 (bash .carry/s45/call4.sh), pack of main a481eab (the run's host buffer mapped for
# the IBGDA kernels): tests/gpu/run-all.sh ibgda-tool ibgda-gpu; then the double's rate, new (a481eab)
# against old (7b5c0bb, the double's own lifecycle), 5 rounds alternating, 8 B: 132 CTAs x 256 threads warp
# scope 132 QPs (-n 20000); 4 CTAs x 32 threads thread scope 4 QPs (-n 200000).
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; mkdir -p "$O"
rm -rf gdperf-gpu old; tar xzf pack-now.tar.gz; mkdir old && tar xzf old-tools-7b5c0bb.tar.gz -C old
G=$C/gdperf-gpu
{ date -u; head -1 "$G/README"; head -1 old/gdperf-gpu/README; nvidia-smi -L; } > "$O/host4.txt" 2>&1
cd "$G"
(unset OUT; timeout -s KILL 150 tests/gpu/run-all.sh ibgda-tool ibgda-gpu) > "$O/tier-ibgda.txt" 2>&1
echo "tier rc $? $(date -u)" >> "$O/tier-ibgda.txt"
export LD_LIBRARY_PATH=$G/lib GDPERF_IBGDA_NIC=software-test-double
rate() { # bindir label args...
	local b=$1 l=$2; shift 2
	timeout -s KILL 30 "$b/gd_write_bw" --initiator=ibgda -s 8 "$@" > "$O/r.out" 2>&1
	echo "$l rc $? $(grep -E '^ +[0-9]' "$O/r.out" | tail -1 | tr -s ' ')"
}
for r in 1 2 3 4 5; do
	o="new old"; [ $((r % 2)) = 0 ] && o="old new"
	for w in $o; do
		b=$G/tools; [ $w = old ] && b=$C/old/gdperf-gpu/tools
		rate "$b" "round $r $w q132" --ctas 132 --threads 256 --scope warp -q 132 -n 20000
		rate "$b" "round $r $w q4" --ctas 4 --threads 32 --scope thread -q 4 -n 200000
	done
done > "$O/ibgda-ab.txt" 2>&1
date -u >> "$O/host4.txt"
