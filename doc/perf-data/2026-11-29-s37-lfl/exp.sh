#!/bin/bash
# exp.sh PROV "S C" PORTBASE ROUNDS: gdperf write_with_imm variants against fi_rma_bw -o writedata,
# one-way plain writes, at 8 B and 4 KiB; alternating; prints one line per run.
# variants: base (as main), tc (GDX_TC: the signalled write FI_TRANSMIT_COMPLETE, a diagnostic),
# q1000 (-Q 1000 -t 2048), spin8 (GDX_SPIN=8: 8 progress calls per refused post), fi (fi_rma_bw)
set -u
p=$1 cpus=($2) port=$3 rounds=$4
d=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$d/lib
S="taskset -c ${cpus[0]}" C="taskset -c ${cpus[1]}"
iters() { [ -n "${EXP_ITERS:-}" ] && { echo $EXP_ITERS; return; }; case $p.$1 in shm.8) echo 200000 ;; shm.*) echo 100000 ;; *) echo 50000 ;; esac; }
gdrun() { # variant size env... -- args
	local v=$1 s=$2; shift 2
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
	port=$((port + 1))
	env "${envs[@]}" timeout 60 $S $d/gd_x/gd_write_bw --fabric ofi --provider $p -p $port -s $s -n $(iters $s) "$@" > /tmp/srv.$p 2>&1 &
	sleep 0.3
	local out; out=$(env "${envs[@]}" timeout 60 $C $d/gd_x/gd_write_bw --fabric ofi --provider $p -p $port -s $s -n $(iters $s) "$@" --json 127.0.0.1 2>&1)
	wait
	local m; m=$(echo "$out" | grep '"type":"bw_result"' | head -1 | sed -n 's/.*"bw_avg_mib_per_s":\([0-9.eE+-]*\).*/\1/p')
	if [ -n "$m" ]; then echo "$p $s $v $(awk -v m=$m 'BEGIN{printf "%.2f", m*1.048576}') MB/s"
	else echo "$p $s $v FAILED $(echo "$out" | tail -n2 | tr '\n' ' ')"; fi
}
firun() { # op size
	port=$((port + 1))
	timeout 60 $S $d/ft/fi_rma_bw -p $p -e rdm -o $1 -I $(iters $2) -S $2 -s 127.0.0.1 -B $port > /tmp/fsrv.$p 2>&1 &
	sleep 0.3
	timeout 60 $C $d/ft/fi_rma_bw -p $p -e rdm -o $1 -I $(iters $2) -S $2 -s 127.0.0.1 -P $port 127.0.0.1 > /tmp/fcli.$p 2>&1
	wait
	col() { awk 'f { print $5; exit } /^bytes/ { f = 1 }' "$1"; }
	echo "$p $2 fi-$1 $(col /tmp/fcli.$p) MB/s (server $(col /tmp/fsrv.$p))"
}
for s in 8 4096; do
	for r in $(seq 1 $rounds); do
		firun writedata $s
		gdrun base $s -- --write_with_imm
		gdrun tc $s GDX_TC=1 -- --write_with_imm
		gdrun q1000 $s -- --write_with_imm -Q 1000 -t 2048
		gdrun spin8 $s GDX_SPIN=8 -- --write_with_imm
		gdrun plain $s -- 
		gdrun plaintc $s GDX_TC=1 --
		firun write $s
	done
done
