#!/bin/bash
# s38/speed call: 9 alternating rounds, 64 KiB, one provider: fi_rma_bw -o write / gd_write_bw -b
# new default (gd_a, cq_mod 100 -> 16 effective) / -Q 1 (85292c7's default above 8 KiB, same binary:
# the commit changes only that default) / fi_rma_bw -o writedata / --write_with_imm new / -Q 1.
# ab.sh PROV "S C" PORTBASE ROUNDS; raw bw_result JSON lines kept.
set -u
p=$1 cpus=($2) port=$3 rounds=$4
d=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$d/lib
S="taskset -c ${cpus[0]}" C="taskset -c ${cpus[1]}"
n=10000 s=65536
gdrun() { # variant args...
	local v=$1; shift
	port=$((port + 1))
	timeout 60 $S $d/gd_a/gd_write_bw --fabric ofi --provider $p -p $port -s $s -n $n "$@" > /tmp/srv.$p 2>&1 &
	local out; out=$(timeout 60 $C $d/gd_a/gd_write_bw --fabric ofi --provider $p -p $port -s $s -n $n "$@" --json 127.0.0.1 2>&1)
	wait
	echo "R$r $p $s gd-$v $(echo "$out" | grep '"type":"bw_result"' | head -1 || echo FAILED $(echo "$out" | tail -n2 | tr '\n' ' '))"
}
firun() { # op tag
	port=$((port + 1))
	timeout 60 $S $d/ft/fi_rma_bw -p $p -e rdm -o $1 -I $n -S $s -s 127.0.0.1 -B $port > /tmp/fsrv.$p 2>&1 &
	sleep 0.3
	timeout 60 $C $d/ft/fi_rma_bw -p $p -e rdm -o $1 -I $n -S $s -s 127.0.0.1 -P $port 127.0.0.1 > /tmp/fcli.$p 2>&1
	wait
	col() { awk 'f { print $5; exit } /^bytes/ { f = 1 }' "$1"; }
	echo "R$r $p $s fi-$1$2 $(col /tmp/fcli.$p) MB/s (server $(col /tmp/fsrv.$p))"
}
for r in $(seq 1 $rounds); do
	if [ $((r % 2)) = 1 ]; then A=new B=q1; else A=q1 B=new; fi
	args() { [ $1 = q1 ] && echo "-Q 1"; }
	firun write ""
	gdrun b-$A -b $(args $A); gdrun b-$B -b $(args $B)
	firun writedata ""
	gdrun wd-$A --write_with_imm $(args $A); gdrun wd-$B --write_with_imm $(args $B)
done
