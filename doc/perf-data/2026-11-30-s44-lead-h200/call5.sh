#!/bin/bash
# Lead, session 44, call 5 (bash .carry/s44/call5.sh): GPU memory registered in several domains
# (s44/dom9: one domain per proxy thread), never run before: gd_write_bw / gd_read_bw --initiator=proxy
# --use_cuda 0 --validate over libfabric 1.22 shm (lib/ofi-cuda), -q 4, 1/2/4 proxy threads:
# host producers at 8 B and 64 KiB, the GPU producer at 64 KiB (smaller GPU-memory writes with the GPU
# producer stay refused without MPS). Each run: both exits and the client's validation line.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; T=/tmp/s44; mkdir -p "$O" "$T"
rm -rf gdperf-gpu; tar xzf gdperf-gpu-final.tar.gz
G=$C/gdperf-gpu; export LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib
port=30000
one() { # tool threads size producer
	local tool=$1 t=$2 s=$3 prod=$4 a sp rs rc
	a=(--fabric ofi --provider shm --use_cuda 0 -q 4 -s "$s" -n 2000 --validate --initiator=proxy
	   --producer "$prod" --proxy_threads "$t" --timeout 30)
	[ "$prod" = host ] && a+=(--ctas 4) || a+=(--scope warp --ctas 4 --threads 32)
	port=$((port + 1))
	taskset -c 2-5 timeout -s KILL 90 "$G/tools/$tool" "${a[@]}" -p $port > "$T/s5" 2>&1 & sp=$!
	sleep 0.5
	taskset -c 6-13 timeout -s KILL 90 "$G/tools/$tool" "${a[@]}" -p $port 127.0.0.1 > "$T/c5" 2>&1; rc=$?
	wait $sp; rs=$?
	echo "$tool threads $t size $s producer $prod: client exit $rc, server exit $rs; $(grep -i -m1 'validat' "$T/c5")"
	[ $rc = 0 ] && [ $rs = 0 ] || tail -n 5 "$T/c5" "$T/s5" | sed 's/^/   # /'
}
{
	for t in 1 2 4; do
		one gd_write_bw $t 8 host
		one gd_write_bw $t 65536 host
		one gd_read_bw $t 8 host
		one gd_write_bw $t 65536 gpu
	done
	date -u
} > "$O/E-gpumem-domains.txt" 2>&1
