#!/bin/bash
# s36 probe (GPU machine): the GPU producer with GPU memory over libfabric shm,
# from scratch tools (gdperf-gpu/exp/tools/, the final libraries) whose
# choose_producer lets every op through, the kernels on their non-blocking stream. The client
# always uses GPU 0's memory; the server GPU 0's (both processes' CUDA work on
# one GPU) or host memory ("host": the target's side needs no CUDA copy).
# Prints one line per run: name, exit codes, wall seconds; outputs in $O/exp-*.
set -u
R=$(pwd) O=${OUT:-/tmp/out}
exp=$R/gdperf-gpu/exp
mkdir -p "$O"
export LD_LIBRARY_PATH=$R/gdperf-gpu/lib/ofi-cuda:$R/gdperf-gpu/lib
port=46100
x() { # NAME SERVER_MEM(0|host) TOOL ARGS...
	local name=$1 sm=() tool=$3 t0 sp crc src
	[ "$2" = host ] || sm=(--use_cuda="$2")
	shift 3
	port=$((port + 1))
	taskset -c 2 timeout -s KILL 40 "$exp/tools/gd_$tool" "$@" "${sm[@]}" -p $port >"$O/exp-$name.s" 2>&1 &
	sp=$!
	sleep 0.5
	t0=$(date +%s.%N)
	taskset -c 3-7 timeout -s KILL 40 "$exp/tools/gd_$tool" "$@" --use_cuda=0 -p $port 127.0.0.1 >"$O/exp-$name.c" 2>&1
	crc=$?
	wait $sp
	src=$?
	echo "$name: client $crc server $src $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s;" \
		"$(grep -h -m1 -oE '"(msg_rate_mpps|p50_usec)": ?[0-9.e+-]+' "$O/exp-$name.c")" | tee -a "$O/exp-summary.txt"
}
g="--fabric ofi --provider shm --initiator=proxy --producer gpu --validate --timeout 8 --json"
x atomic_bw-8-same 0 atomic_bw $g -n 2000
x atomic_bw-8-srvhost host atomic_bw $g -n 2000
x write_lat-8-same 0 write_lat $g -s 8 -n 300
x write_lat-8-srvhost host write_lat $g -s 8 -n 300
x write_lat-64k-same 0 write_lat $g -s 65536 -n 300
x read_lat-8-same 0 read_lat $g -s 8 -n 300
x send_lat-8-same 0 send_lat $g -s 8 -n 300
x send_lat-8-srvhost host send_lat $g -s 8 -n 300
x atomic_lat-same 0 atomic_lat $g -n 200
x atomic_lat-srvhost host atomic_lat $g -n 200
x write_bw-8-same 0 write_bw $g -s 8 -n 5000
x read_bw-8-same 0 read_bw $g -s 8 -n 5000
x send_bw-8-same 0 send_bw $g -s 8 -n 5000
x write_bw-4k-same 0 write_bw $g -s 4096 -n 2000
x write_bw-8k-same 0 write_bw $g -s 8192 -n 2000
x send_bw-8k-same 0 send_bw $g -s 8192 -n 2000
x write_lat-8k-same 0 write_lat $g -s 8192 -n 300
x write_bw-64k-same 0 write_bw $g -s 65536 -n 2000
x read_bw-64k-same 0 read_bw $g -s 65536 -n 2000
x send_bw-64k-same 0 send_bw $g -s 65536 -n 2000
# the control: host producers, same GPU memory
x write_lat-8-hostprod 0 write_lat ${g/--producer gpu/--producer host} -s 8 -n 300
x atomic_bw-8-hostprod 0 atomic_bw ${g/--producer gpu/--producer host} -n 2000
