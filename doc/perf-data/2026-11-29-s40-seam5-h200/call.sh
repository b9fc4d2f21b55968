#!/bin/bash
# s40/seam5 on the GPU machine: proxy threads 1/2/4 over libfabric shm and tcp,
# gd_write_bw 8 B, GPU producer (s39's command), before (main b1edc3d: all
# proxy threads poll one send CQ) and after (s40/seam5 3b5adc5: one send CQ
# per proxy thread), alternating, ROUNDS rounds; then perf of 4 threads over shm.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; T=/tmp/s40; mkdir -p "$O" "$T"
ROUNDS=${ROUNDS:-3}
tar xzf gdperf-gpu.tar.gz && tar xJf perf.tar.xz
G=$C/gdperf-gpu L=$C/gdperf-gpu/lib
{ nproc; uname -r; date -u; nvidia-smi -L; } > "$O/host.txt" 2>&1
port=21600
run() { # bin args... ; server CPUs 2-3, client 4-15
	local bin=$1 ps=$2 pc=$3 sp; shift 3; port=$((port + 1))
	LD_LIBRARY_PATH=$L:$C/plib $ps taskset -c 2-3 timeout -s KILL 40 $bin "$@" -p $port > "$T/s" 2>&1 &
	sp=$!; sleep 0.4
	LD_LIBRARY_PATH=$L:$C/plib $pc taskset -c 4-15 timeout -s KILL 40 $bin "$@" -p $port 127.0.0.1 > "$T/c" 2>&1 ||
		kill $sp 2>/dev/null
	wait
}
pt() { # round variant provider threads [perf]
	local n=400000 bin=$G/tools/gd_write_bw a rate ps= pc=
	[ $3 = tcp ] && n=50000
	[ $2 = before ] && bin=$C/before/gd_write_bw
	[ -n "${5:-}" ] && pc="$C/perf record -q -e cpu-clock -F 2000 -o $T/perf.c --"
	a="--fabric ofi --provider $3 -s 8 -n $n -q 4 --json --initiator=proxy --producer gpu --scope warp --ctas 4 --threads 32 --proxy_threads $4"
	run $bin "" "$pc" $a
	rate=$(grep -m1 -oE '"msg_rate_mpps": ?[0-9.e+-]+' "$T/c" | grep -oE '[0-9.e+-]+$')
	echo "round $1 $2 $3 proxy_threads $4 msg_rate_mpps ${rate:-failed}"
	[ -n "$rate" ] || tail -n 3 "$T/c" "$T/s" | sed 's/^/   # /'
}
rot() { local k=$1 a; shift; a=("$@"); k=$((k % ${#a[@]})); echo "${a[@]:k}" "${a[@]:0:k}"; }
{
for r in $(seq 1 $ROUNDS); do for tp in shm tcp; do for k in $(rot $r 1 2 4); do
	for v in $(rot $r before after); do pt $r $v $tp $k; done
done; done; done
} > "$O/proxy-threads.txt" 2>&1
date -u >> "$O/host.txt"
{
for v in before after; do
	pt p $v shm 4 perf
	echo "## $v shm proxy_threads 4 client"
	LD_LIBRARY_PATH=$C/plib "$C/perf" report -i $T/perf.c --stdio --no-children --sort comm,dso,sym 2>/dev/null |
		grep -v '^#' | grep -v '^$' | head -n 30
done
} > "$O/perf-4threads.txt" 2>&1
date -u >> "$O/host.txt"
