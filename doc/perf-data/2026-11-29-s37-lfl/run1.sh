#!/bin/bash
# call 1: variants (exp.sh) and the latency table, shm on CPUs 2,3 and tcp on 6,7 at once
cd "$(dirname "$0")"
o=${OUT:-/tmp/out}; mkdir -p $o
lat() { # prov "S C" portbase iters
	./bench-vs-libfabric.sh --providers $1 --kinds lat --pairs 5 --sizes "8 4096 65536 1048576" \
		--lat-iters "$4" --pin "$2" --bindir gd_x --fi-bindir ft --ld-library-path lib \
		--port-base $3 --out $o/lat-$1 > $o/lat-$1.log 2>&1
}
{ lscpu -e; uname -a; date -u; } > $o/exp-shm.txt
(./exp.sh shm "2 3" 30100 3 >> $o/exp-shm.txt 2>&1; lat shm "2 3" 30200 "8:20000 4096:20000 65536:5000 1048576:1000") &
(./exp.sh tcp "6 7" 30400 3 > $o/exp-tcp.txt 2>&1; lat tcp "6 7" 30500 "8:5000 4096:5000 65536:2000 1048576:500") &
wait
