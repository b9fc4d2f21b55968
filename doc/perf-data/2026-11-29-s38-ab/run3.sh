#!/bin/bash
# issue 32 item 5: 9-pair A/B of gd (main after the seam) vs gdb (85292c7, before), tcp and shm at once
cd "$(dirname "$0")"
o=${OUT:-/tmp/out}; mkdir -p $o
{ nproc; uname -r; date -u; ./gd/gd_write_bw --version 2>&1 | head -1; ./gdb/gd_write_bw --version 2>&1 | head -1; } > $o/host.txt 2>&1
LD_LIBRARY_PATH=$PWD/lib ./gd/gd_write_bw --version >> $o/host.txt 2>&1
./ab.sh tcp "6 7" 35000 9 > $o/ab-tcp.txt 2>&1 &
./ab.sh shm "2 3" 36000 9 > $o/ab-shm.txt 2>&1 &
wait; date -u >> $o/host.txt
