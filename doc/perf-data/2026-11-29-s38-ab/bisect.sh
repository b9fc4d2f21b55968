#!/bin/bash
# shm gd_send_lat 8 B, 9 rounds, each round every build in a rotated order; prints "round impl usec"
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib
o=${OUT:-/tmp/out}; mkdir -p $o
impls=(gdb g30a56e9 g4a5c53c g63c29bd gd) port=37000
for r in $(seq 1 9); do
	for k in 0 1 2 3 4; do
		i=${impls[$(( (k + r) % 5 ))]}; port=$((port + 1))
		timeout 60 taskset -c 2 ./$i/gd_send_lat --fabric ofi --provider shm -p $port -s 8 -n 20000 >/dev/null 2>&1 &
		sleep 0.3
		v=$(timeout 60 taskset -c 3 ./$i/gd_send_lat --fabric ofi --provider shm -p $port -s 8 -n 20000 --json 127.0.0.1 2>&1 |
			grep '"type":"lat_result"' | head -1 | sed -n 's/.*"t_avg_usec":\([0-9.eE+-]*\).*/\1/p')
		wait
		echo "$r $i ${v:-FAILED}"
	done
done > $o/bisect-shm-lat8.txt
