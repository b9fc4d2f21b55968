#!/bin/bash
# the lead, session 41: scripts/bench-baseline.sh (main's, with s41/fleet6's spread lines) on the idle H200,
# tools from s41/seam6's pack (gd_check's judge is main's), libfabric = the pack's lib/ (Debian 1.17)
set -u
C=$(cd "$(dirname "$0")" && pwd)
R=$PWD
O=${OUT:-/tmp/out}; mkdir -p "$O"
cd "$C" && tar xzf gdperf-gpu.tar.gz && cd "$R"
G=$C/gdperf-gpu
export LD_LIBRARY_PATH=$G/lib PATH=$G/tools:$G/bin:$PATH top_builddir=$G
{ nproc; uname -r; date -u; head -1 "$G/README"; uptime; } > "$O/host.txt" 2>&1
t0=$SECONDS
GD_BENCH_PORT=32300 timeout 200 sh scripts/bench-baseline.sh 5 10 10 > "$O/bl-r1.txt" 2>&1; echo "rc=$? $((SECONDS-t0)) s" >> "$O/bl-r1.txt"
t0=$SECONDS
GD_BENCH_REPEAT=5 GD_BENCH_K='2.33 3 4' GD_BENCH_PORT=32700 timeout 280 sh scripts/bench-baseline.sh 5 10 10 > "$O/bl-r5.txt" 2>&1; echo "rc=$? $((SECONDS-t0)) s" >> "$O/bl-r5.txt"
tail -n 25 "$O/bl-r1.txt"; tail -n 25 "$O/bl-r5.txt"
