#!/bin/bash
cd "$(dirname "$0")"
o=${OUT:-/tmp/out}; mkdir -p $o
{ nproc; uname -r; date -u; } > $o/host.txt 2>&1
./ab.sh tcp "6 7" 35000 9 > $o/ab-tcp.txt 2>&1 &
./ab.sh shm "2 3" 35400 9 > $o/ab-shm.txt 2>&1 &
wait; date -u >> $o/host.txt
