#!/bin/bash
# Lead, session 46, call 2 (bash .carry/s46b/call2.sh): the whole like-for-like table again with the
# final write rule (pack of main 8444952 or later, see host2.txt), libfabric 1.22 with CUDA (the pack's
# lib/ofi-cuda) for every tool, fabtests fi_rma_bw v1.22.0 and libfabric 1.22's fi_pingpong (ft/).
# writedata and -b write with gdb (c9b201a's tools, --gd-before) and fabtests' A/A; -b read and send
# latency with fabtests' A/A; 8 B, 4 KiB, 64 KiB, 1 MiB; 7 rounds; shm (CPUs 2 3) and tcp (6 7) at once,
# each part bounded (SECS, default 200) so that its table comes back.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; mkdir -p "$O"
rm -rf gdperf-gpu before; tar xzf pack.tar.gz; tar xzf before-tools.tar.gz
G=$C/gdperf-gpu S=${SECS:-200}
{ date -u; head -1 "$G/README"; head -1 before/README; nproc; uname -r; } > "$O/host2.txt" 2>&1
part() { # provider pin port-base bw-iters lat-iters name kinds ops extra...
	local p=$1 pin=$2 pb=$3 bi=$4 li=$5 name=$6 kinds=$7 ops=$8
	shift 8
	timeout -s KILL "$S" bash "$G/scripts/bench-vs-libfabric.sh" --providers "$p" --pairs "${PAIRS:-7}" \
		--sizes "8 4096 65536 1048576" --kinds "$kinds" --bw-ops "$ops" --pin "$pin" \
		--port-base "$pb" --bindir "$G/tools" --fi-bindir "$C/ft" --fabtests "$C/ft" \
		--ld-library-path "$G/lib/ofi-cuda:$G/lib" --timeout 30 --bw-iters "$bi" --lat-iters "$li" \
		--out "$O/$name-$p" "$@" > "$O/$name-$p.txt" 2>&1
	echo "rc $? $(date -u +%T)" >> "$O/$name-$p.txt"
}
half() {
	part "$@" w bw "writedata write" --gd-before "$C/before/tools"
	part "$1" "$2" $(($3 + 2000)) "$4" "$5" rl "bw lat" read
}
half shm "2 3" 21600 "8:200000 4096:100000 65536:20000 1048576:2000" "8:20000 4096:20000 65536:5000 1048576:1000" &
half tcp "6 7" 26000 "8:50000 4096:50000 65536:10000 1048576:1000" "8:5000 4096:5000 65536:2000 1048576:500" &
wait
date -u >> "$O/host2.txt"
