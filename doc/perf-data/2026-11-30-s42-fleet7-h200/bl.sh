#!/bin/bash
# s42/fleet7: scripts/bench-baseline.sh of s42/fleet7 (interleaved order; carried beside this
# file, main's copy is older) with that branch's GPU pack, libfabric = the pack's lib/ (Debian 1.17)
set -u
C=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
cd "$C" && tar xzf gdperf-gpu.tar.gz
G=$C/gdperf-gpu
export LD_LIBRARY_PATH=$G/lib PATH=$G/tools:$G/bin:$PATH top_builddir=$G
{ nproc; uname -r; date -u; head -1 "$G/README"; uptime; } > "$O/host.txt" 2>&1
BB=$C/bench-baseline.sh
go() { # NAME SECS ENV...: one benchmark, its output and exit to $O/NAME.txt
	n=$1 s=$2; shift 2
	t0=$SECONDS
	env "$@" timeout "$s" sh "$BB" 10 30 30 > "$O/$n.txt" 2>&1
	echo "rc=$? $((SECONDS-t0)) s" >> "$O/$n.txt"
	uptime >> "$O/host.txt"
}
go bl-interleave 85 GD_BENCH_PORT=21800 GD_BENCH_K='2.33 3 4'
go bl-interleave-pinned 85 GD_BENCH_PORT=21850 GD_BENCH_K='2.33 3 4' GD_BENCH_CPUS=2,3
go bl-blocks 85 GD_BENCH_PORT=21900 GD_BENCH_K='2.33 3 4' GD_BENCH_ORDER=blocks
for f in "$O"/bl-*.txt; do echo "== $f"; tail -n 16 "$f"; done
