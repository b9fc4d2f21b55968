#!/bin/bash
# call 2: the bandwidth table (libfabric 1.17 for both), shm on CPUs 2,3 and tcp on 6,7 at once
cd "$(dirname "$0")"
o=${OUT:-/tmp/out}; mkdir -p $o
bw() { # prov "S C" portbase iters
	./bench-vs-libfabric.sh --providers $1 --kinds bw --pairs 5 --sizes "8 4096 65536 1048576" \
		--bw-iters "$4" --pin "$2" --bindir gd_x --fi-bindir ft --fabtests ft --ld-library-path lib \
		--port-base $3 --timeout 60 --out $o/bw-$1 > $o/bw-$1.log 2>&1
}
bw shm "2 3" 31000 "8:200000 4096:100000 65536:20000 1048576:2000" &
bw tcp "6 7" 32000 "8:50000 4096:50000 65536:10000 1048576:1000" &
wait
