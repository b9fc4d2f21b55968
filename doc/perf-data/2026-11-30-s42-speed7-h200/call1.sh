#!/bin/bash
# s42/speed7 call 1 on the H200 (run from the carried folder: cd .carry/speed7 && bash call1.sh):
# like for like, libfabric 1.22 (v1.22.0, outside the tree: lib122/) for every tool; fabtests
# v1.22.0 fi_rma_bw (ft122/) and libfabric 1.22's fi_pingpong (ft122/); scripts/bench-vs-libfabric.sh
# of this branch, 5 rounds a point, each round gd (this branch's pack), fi, fi2 (fabtests' A/A),
# gd2 (gdperf's A/A, --gd-control) and gdb (main 06142d3's tools, --gd-before) in rotating
# order for the writes (writedata, -b write: the points this branch's change touches); then
# -b read and latency with gd, fi, fi2 only (the device time was short):
# writedata (gd_write_bw --write_with_imm), -b write, -b read, send latency (gd_send_lat vs
# fi_pingpong) at 8 B, 4 KiB, 64 KiB and 1 MiB. shm (server CPU 2, client CPU 3) and tcp
# (6, 7) at the same time, each half under its own bound so that its table comes back.
# SECS (default 130) bounds each part; a half cut short keeps its runs.csv (--summarize it).
# BW_ITERS_SHM, LAT_ITERS_SHM, BW_ITERS_TCP, LAT_ITERS_TCP, PAIRS, SIZES, PIN_SHM, PIN_TCP: for a dry run.
set -u
C=$(cd "$(dirname "$0")" && pwd)
cd "$C"
O=${OUT:-/tmp/out}
mkdir -p "$O"
tar xzf gdperf-gpu.tar.gz
G=$C/gdperf-gpu
S=${SECS:-130}
{ nproc; uname -r; date -u; head -1 "$G/README"; lscpu -e 2>/dev/null | head -12; } > "$O/host.txt" 2>&1
part() { # provider pin port-base bw-iters lat-iters name kinds ops extra...
	local p=$1 pin=$2 pb=$3 bi=$4 li=$5 name=$6 kinds=$7 ops=$8
	shift 8
	timeout -s TERM "$S" bash "$G/scripts/bench-vs-libfabric.sh" --providers "$p" --pairs "${PAIRS:-5}" \
		--sizes "${SIZES:-8 4096 65536 1048576}" --kinds "$kinds" --bw-ops "$ops" --pin "$pin" \
		--port-base "$pb" --bindir "$G/tools" --fi-bindir "$C/ft122" --fabtests "$C/ft122" \
		--ld-library-path "$C/lib122:$G/lib" --timeout 60 --bw-iters "$bi" --lat-iters "$li" \
		--out "$O/$name-$p" "$@" > "$O/$name-$p.txt" 2>&1
	echo "rc $?" >> "$O/$name-$p.txt"
}
half() { # provider pin port-base bw-iters lat-iters: the writes with gd2 and gdb, then reads and latency
	part "$@" w bw "writedata write" --gd-control --gd-before "$C/gdm"
	part "$1" "$2" $(($3 + 2000)) "$4" "$5" rl "bw lat" read
}
half shm "${PIN_SHM:-2 3}" 21600 "${BW_ITERS_SHM:-8:200000 4096:100000 65536:20000 1048576:2000}" \
	"${LAT_ITERS_SHM:-8:20000 4096:20000 65536:5000 1048576:1000}" &
half tcp "${PIN_TCP:-6 7}" 26000 "${BW_ITERS_TCP:-8:50000 4096:50000 65536:10000 1048576:1000}" \
	"${LAT_ITERS_TCP:-8:5000 4096:5000 65536:2000 1048576:500}" &
wait
date -u >> "$O/host.txt"
