#!/bin/bash
# Lead, session 46, call 1 (bash .carry/s46a/call1.sh): -b write and writedata over libfabric 1.22 after the
# moderation writes ask inject completion (pack of main 8444952) against the build before it (c9b201a's
# tools, --gd-before) and fi_rma_bw v1.22.0 with fabtests' A/A; 8 B and 4 KiB, shm (CPUs 2 3) and tcp (CPUs 6 7)
# at once, 9 rounds. Then -b write 8 B at 1M writes a run (shm and tcp at once, 7 rounds), and perf of
# both tools' clients over shm at 8 B.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; mkdir -p "$O"
rm -rf gdperf-gpu before perf; tar xzf pack.tar.gz; tar xzf before-tools.tar.gz; tar xzf perf.tar.gz
G=$C/gdperf-gpu
{ date -u; head -1 "$G/README"; head -1 before/README; nvidia-smi -L; nproc; uname -r; } > "$O/host1.txt" 2>&1
cd "$G"
run() { # provider pin port out iters pairs ops sizes
	timeout -s KILL 280 scripts/bench-vs-libfabric.sh --providers "$1" --kinds bw --bw-ops "$7" \
		--sizes "$8" --pairs "$6" --bw-iters "$5" --bindir "$G/tools" \
		--fabtests "$C/ft" --fi-bindir "$C/ft" --ld-library-path "$G/lib/ofi-cuda:$G/lib" --pin "$2" \
		--gd-before "$C/before/tools" --timeout 60 --port-base "$3" --out "$O/$4" > "$O/$4.txt" 2>&1
	echo "rc $? $(date -u +%T)" >> "$O/$4.txt"
}
run shm "2 3" 31000 bvl-shm "8:100000 4096:50000" 9 "write writedata" "8 4096" & a=$!
run tcp "6 7" 32000 bvl-tcp "8:100000 4096:50000" 9 "write writedata" "8 4096" & b=$!
wait $a $b
date -u >> "$O/host1.txt"
run shm "2 3" 33000 long-shm "8:1000000" 7 "write" "8" & a=$!
run tcp "6 7" 34000 long-tcp "8:1000000" 5 "write" "8" & b=$!
wait $a $b
date -u >> "$O/host1.txt"
# perf of the clients, shm, -b write 8 B, 1M writes, 2 runs each tool
export LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib
P() { LD_LIBRARY_PATH=$C/perf/lib "$C/perf/perf" "$@"; }
for i in 1 2; do
	taskset -c 2 tools/gd_write_bw --fabric ofi --provider shm -b -p 35001 -s 8 -n 1000000 > "$O/p-gd-srv$i.txt" 2>&1 & sleep 0.3
	P record -q -e cpu-clock -o "$O/gd$i.data" -- taskset -c 3 tools/gd_write_bw --fabric ofi --provider shm -b -p 35001 -s 8 -n 1000000 --json 127.0.0.1 > "$O/p-gd-cli$i.json" 2>&1; wait
	taskset -c 2 "$C/ft/fi_rma_bw" -p shm -e rdm -o write -I 1000000 -S 8 -s 127.0.0.1 -B 35002 > "$O/p-fi-srv$i.txt" 2>&1 & sleep 0.3
	P record -q -e cpu-clock -o "$O/fi$i.data" -- taskset -c 3 "$C/ft/fi_rma_bw" -p shm -e rdm -o write -I 1000000 -S 8 -s 127.0.0.1 -P 35002 127.0.0.1 > "$O/p-fi-cli$i.txt" 2>&1; wait
	for t in gd fi; do P report -i "$O/$t$i.data" --stdio --sort dso,sym 2>/dev/null | grep -v '^#' | head -60 > "$O/p-$t-rep$i.txt"; rm -f "$O/$t$i.data"; done
done
date -u >> "$O/host1.txt"
