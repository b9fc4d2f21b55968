#!/bin/bash
# call 3: exp2.sh (libfabric 1.17), shm on CPUs 2,3 and tcp on 6,7 at once, 3 rounds
cd "$(dirname "$0")"
o=${OUT:-/tmp/out}; mkdir -p $o
./exp2.sh shm "2 3" 33000 3 lib ft l117 > $o/exp2-shm.txt 2>&1 &
./exp2.sh tcp "6 7" 34000 3 lib ft l117 > $o/exp2-tcp.txt 2>&1 &
wait
