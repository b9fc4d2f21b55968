#!/bin/bash
# call 5: exp2.sh with libfabric 1.22 (shm, tcp, rxm only; fabtests v1.22.0 fi_rma_bw) for both tools
cd "$(dirname "$0")"
o=${OUT:-/tmp/out}; mkdir -p $o
./exp2.sh shm "2 3" 36000 3 lib122 ft122 l122 > $o/exp2-l122-shm.txt 2>&1 &
./exp2.sh tcp "6 7" 37000 3 lib122 ft122 l122 > $o/exp2-l122-tcp.txt 2>&1 &
wait
