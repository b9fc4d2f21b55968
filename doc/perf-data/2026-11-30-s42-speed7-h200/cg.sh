#!/bin/bash
# cg.sh BIN PORT OUTNAME [extra]: server native, client under callgrind, 8 B writedata over shm, lf122
B=$1 P=$2 N=$3; shift 3
L=/work/ref/lf122/lib
LD_LIBRARY_PATH=$L timeout 120 $B --fabric ofi --provider shm --write_with_imm -s 8 -n 20000 -p $P "$@" > /tmp/s7/$N.srv 2>&1 &
sleep 0.5
LD_LIBRARY_PATH=$L timeout 300 valgrind --tool=callgrind --callgrind-out-file=/tmp/s7/$N.cg $B --fabric ofi --provider shm --write_with_imm -s 8 -n 20000 -p $P "$@" 127.0.0.1 > /tmp/s7/$N.cli 2>&1
wait
callgrind_annotate /tmp/s7/$N.cg 2>/dev/null | head -40 > /tmp/s7/$N.txt
