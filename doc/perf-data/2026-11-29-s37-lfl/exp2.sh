#!/bin/bash
# exp2.sh PROV "S C" PORTBASE ROUNDS LIBDIR FTDIR TAG: gd variants against fi_rma_bw, alternating.
# variants: base, tc (GDX_TC: signalled write FI_TRANSMIT_COMPLETE, diagnostic), t64 (-t 64), t1024 (-t 1024)
set -u
p=$1 cpus=($2) port=$3 rounds=$4 lib=$5 ft=$6 tag=$7
d=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$d/$lib:$d/lib
S="taskset -c ${cpus[0]}" C="taskset -c ${cpus[1]}"
iters() { case $p.$1 in shm.8) echo 300000 ;; shm.*) echo 20000 ;; tcp.8) echo 50000 ;; *) echo 10000 ;; esac; }
gdrun() { # variant size tool mode env... -- args
	local v=$1 s=$2 tool=$3 mode=$4; shift 4
	local envs=(X=1)
	while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
	port=$((port + 1))
	env "${envs[@]}" timeout 60 $S $d/gd_x/$tool --fabric ofi --provider $p -p $port -s $s -n $(iters $s) "$@" > /dev/null 2>&1 &
	sleep 0.3
	local out m; out=$(env "${envs[@]}" timeout 60 $C $d/gd_x/$tool --fabric ofi --provider $p -p $port -s $s -n $(iters $s) "$@" --json 127.0.0.1 2>&1)
	wait
	if [ "$mode" = b ]; then m=$(echo "$out" | grep '"type":"bw_result"' | head -1 | sed -n 's/.*"local_results":{[^}]*"bw_avg_mib_per_s":\([0-9.eE+-]*\).*/\1/p')
	else m=$(echo "$out" | grep '"type":"bw_result"' | head -1 | sed -n 's/.*"bw_avg_mib_per_s":\([0-9.eE+-]*\).*/\1/p'); fi
	if [ -n "$m" ]; then echo "$tag $p $s $tool-$mode $v $(awk -v m=$m 'BEGIN{printf "%.2f", m*1.048576}') MB/s"
	else echo "$tag $p $s $tool-$mode $v FAILED $(echo "$out" | tail -n2 | tr '\n' ' ')"; fi
}
firun() { # op size
	port=$((port + 1))
	timeout 60 $S $d/$ft/fi_rma_bw -p $p -e rdm -o $1 -I $(iters $2) -S $2 -s 127.0.0.1 -B $port > /tmp/fsrv.$tag.$p 2>&1 &
	sleep 0.3
	timeout 60 $C $d/$ft/fi_rma_bw -p $p -e rdm -o $1 -I $(iters $2) -S $2 -s 127.0.0.1 -P $port 127.0.0.1 > /tmp/fcli.$tag.$p 2>&1
	wait
	col() { awk 'f { print $5; exit } /^bytes/ { f = 1 }' "$1"; }
	echo "$tag $p $2 fi-$1 ref $(col /tmp/fcli.$tag.$p) MB/s (server $(col /tmp/fsrv.$tag.$p))"
}
for r in $(seq 1 $rounds); do
	firun writedata 8
	for v in base tc t1024; do e=--; [ $v = tc ] && e="GDX_TC=1 --"; a=; [ $v = t1024 ] && a="-t 1024"
		gdrun $v 8 gd_write_bw i $e --write_with_imm $a; done
	for op in write read; do
		firun $op 65536
		for v in base tc t64; do e=--; [ $v = tc ] && e="GDX_TC=1 --"; a=; [ $v = t64 ] && a="-t 64"
			gdrun $v 65536 gd_${op}_bw b $e -b $a; done
	done
	firun writedata 65536
	gdrun base 65536 gd_write_bw i -- --write_with_imm
	gdrun tc 65536 gd_write_bw i GDX_TC=1 -- --write_with_imm
done
