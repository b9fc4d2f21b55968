#!/bin/bash
# Lead, session 45, call 5 (bash .carry/s45f/call5.sh): the final main (pack.tar.gz; every s45 branch merged):
# (T) the GPU tier, tests/gpu/run-all.sh, every script (bound TIER_S, default 300 s);
# (B) GPU memory chosen by bus id (s45/small10): gd_write_bw --use_cuda_bus_id <GPU 0's> --validate over shm and
#     tcp (tcp 1.22 offers no FI_HMEM: refused), and the proxy's GPU producer on that buffer over shm (64 KiB);
# (P) proxy threads over libfabric 1.22, GPU producer, 8 B, -q 4, 1/2/4 threads, 5 rounds, this main against
#     main 0474871's gd_write_bw (main-tools.tar.gz): shm with FI_SHM_DISABLE_CMA=1 and tcp (the passive
#     side's progress threads on shm only, ab4cfe0). The A/A control of the same shape ran in call 2.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; T=/tmp/s45f; mkdir -p "$O" "$T"
rm -rf gdperf-gpu main; tar xzf pack.tar.gz; mkdir main && tar xzf main-tools.tar.gz -C main
G=$C/gdperf-gpu M=$C/main/gdperf-gpu
{ date -u; head -1 "$G/README"; "$M/tools/gd_write_bw" --version | head -1; nvidia-smi -L; } > "$O/host5.txt" 2>&1
(cd "$G" && unset OUT LD_LIBRARY_PATH; GD_RESULTS=$T/tier timeout -s KILL "${TIER_S:-300}" tests/gpu/run-all.sh) > "$O/tier.txt" 2>&1
echo "tier rc $? $(date -u)" >> "$O/tier.txt"
tar czf "$O/tier-logs.tgz" -C $T tier 2>/dev/null
export LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib
bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader -i 0 | head -1 | tr -d ' ')
port=30500
pair() { # label args...
	local l=$1 sp rc rs; shift
	port=$((port + 1))
	timeout -s KILL 40 "$G/tools/gd_write_bw" "$@" -p $port > "$T/b.s" 2>&1 & sp=$!
	sleep 0.5
	timeout -s KILL 40 "$G/tools/gd_write_bw" "$@" -p $port 127.0.0.1 > "$T/b.c" 2>&1; rc=$?
	wait $sp; rs=$?
	echo "$l: client exit $rc, server exit $rs; server: $(grep -m1 -i 'validation' "$T/b.s"); client: $(grep -m1 -i 'validation\|error' "$T/b.c")"
	[ $rc = 0 ] && [ $rs = 0 ] || tail -n 3 "$T/b.c" "$T/b.s" | sed 's/^/   # /'
}
{
	echo "GPU 0 bus id: $bus"
	pair "shm bus id 64 KiB" --fabric ofi --provider shm --use_cuda_bus_id "$bus" -s 65536 -n 2000 --validate --timeout 20
	pair "shm bus id 8 B" --fabric ofi --provider shm --use_cuda_bus_id "$bus" -s 8 -n 2000 --validate --timeout 20
	pair "tcp bus id 64 KiB" --fabric ofi --provider tcp --use_cuda_bus_id "$bus" -s 65536 -n 500 --validate --timeout 20
	pair "shm bus id proxy GPU producer 64 KiB" --fabric ofi --provider shm --use_cuda_bus_id "$bus" -s 65536 -n 2000 \
		--validate --timeout 20 --initiator=proxy --producer gpu
	pair "shm use_cuda auto 64 KiB" --fabric ofi --provider shm --use_cuda=auto -s 65536 -n 2000 --validate --timeout 20
} > "$O/busid.txt" 2>&1
for tr in shm-nocma tcp; do
	n=500000; [ $tr = tcp ] && n=50000
	(cd "$G" && timeout -s KILL 60 scripts/proxy-threads.sh --builddir . --ab "$M" --rounds 5 --transports $tr \
		--iters $n --producer gpu --port-base $((31000 + ${#tr} * 100))) > "$O/AB-$tr.txt" 2>&1
	echo "rc $? $(date -u +%T)" >> "$O/AB-$tr.txt"
done
date -u >> "$O/host5.txt"
