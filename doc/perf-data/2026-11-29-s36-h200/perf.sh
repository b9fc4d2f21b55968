#!/bin/bash
# s36 figures (GPU machine), final pack gdperf-gpu/: proxy/cpu over shm with
# host memory (GPU producer), GPU producer + GPU memory vs the cpu initiator
# + GPU memory at 64 KiB, and 1/2/4 proxy threads over shm and tcp.
set -u
R=$(pwd) O=${OUT:-/tmp/out}
fin=$R/gdperf-gpu
mkdir -p "$O"
export LD_LIBRARY_PATH=$fin/lib
scripts/proxy-vs-cpu.sh --builddir "$fin" --provider shm --producer gpu --pairs 5 \
	>"$O/pvc-shm-host.txt" 2>"$O/pvc-shm-host.csv"
LD_LIBRARY_PATH=$fin/lib/ofi-cuda:$fin/lib scripts/proxy-vs-cpu.sh --builddir "$fin" --provider shm \
	--producer gpu --use_cuda 0 --sizes 65536 --iters 65536:20000 --pairs 5 \
	>"$O/pvc-shm-cuda-64k.txt" 2>"$O/pvc-shm-cuda-64k.csv"
# proxy threads: write_bw 8 B, -q 4, GPU producer (4 warps), host memory, 3 rounds
port=46500
for r in 1 2 3; do
	for tp in shm tcp; do
		n=400000
		[ $tp = tcp ] && n=50000
		for pt in 1 2 4; do
			port=$((port + 1))
			a="--fabric ofi --provider $tp -s 8 -n $n -q 4 --initiator=proxy --producer gpu --scope warp --ctas 4 --threads 32 --proxy_threads $pt --json"
			taskset -c 2-3 timeout -s KILL 60 "$fin/tools/gd_write_bw" $a -p $port >"$O/pt.s" 2>&1 &
			sp=$!
			sleep 0.5
			rate=$(taskset -c 4-15 timeout -s KILL 60 "$fin/tools/gd_write_bw" $a -p $port 127.0.0.1 2>&1 |
				grep -m1 -oE '"msg_rate_mpps": ?[0-9.e+-]+' | grep -oE '[0-9.e+-]+$')
			wait $sp
			echo "round $r $tp proxy_threads $pt msg_rate_mpps ${rate:-failed}" | tee -a "$O/proxy-threads.txt"
		done
	done
done
