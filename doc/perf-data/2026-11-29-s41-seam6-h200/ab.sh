#!/bin/bash
# ab.sh PROV "S C" PORTBASE PAIRS: 9-pair A/B of gd (after) vs gdb (before: main 85292c7),
# gd_write_bw (one-way, plain) and gd_send_lat at 8 B and 64 KiB; rounds alternate the order
# (odd: gd first). Prints "prov tool size round impl value unit".
set -u
p=$1 cpus=($2) port=$3 pairs=$4
d=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$d/lib
S="taskset -c ${cpus[0]}" C="taskset -c ${cpus[1]}"
iters() { case $p.$1.$2 in shm.bw.8) echo 200000;; shm.bw.*) echo 20000;; tcp.bw.8) echo 50000;; tcp.bw.*) echo 10000;;
	shm.lat.8) echo 20000;; shm.lat.*) echo 5000;; tcp.lat.8) echo 5000;; *) echo 2000;; esac; }
one() { # impl tool kind size round
	local dir=$1 tool=$2 k=$3 s=$4 r=$5 n out v
	n=$(iters $k $s); port=$((port + 1))
	timeout 60 $S $d/$dir/$tool --fabric ofi --provider $p -p $port -s $s -n $n > /tmp/ab-srv.$p 2>&1 &
	sleep 0.3
	out=$(timeout 60 $C $d/$dir/$tool --fabric ofi --provider $p -p $port -s $s -n $n --json 127.0.0.1 2>&1)
	wait
	if [ $k = bw ]; then v=$(echo "$out" | grep '"type":"bw_result"' | head -1 | sed -n 's/.*"bw_avg_mib_per_s":\([0-9.eE+-]*\).*/\1/p'); u=MiB/s
	else v=$(echo "$out" | grep '"type":"lat_result"' | head -1 | sed -n 's/.*"t_avg_usec":\([0-9.eE+-]*\).*/\1/p'); u=usec; fi
	echo "$p $tool $s $r $dir ${v:-FAILED} $u"
	[ -n "$v" ] || echo "$out" | tail -n 3 | sed 's/^/  # /'
}
for r in $(seq 1 $pairs); do
	for t in "gd_write_bw bw 8" "gd_write_bw bw 65536" "gd_send_lat lat 8" "gd_send_lat lat 65536"; do
		set -- $t
		if [ $((r % 2)) = 1 ]; then one gd $1 $2 $3 $r; one gdb $1 $2 $3 $r
		else one gdb $1 $2 $3 $r; one gd $1 $2 $3 $r; fi
	done
done
