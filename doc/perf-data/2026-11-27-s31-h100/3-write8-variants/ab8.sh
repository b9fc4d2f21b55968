#!/bin/bash
# ab8.sh ROUNDS SIZE ITERS OP: fi_rma_bw against gd variants, rotated, pinned S C
here=$(cd "$(dirname "$0")" && pwd); P=$here/pack; export LD_LIBRARY_PATH=$P/lib
R=${1:-5} S=${2:-8} N=${3:-500000} OP=${4:-write}; pin=(${PIN:-2 3}); port=23000
V=(fi gd gdI gdQ gdIQ)
run_gd() { # extra args...
	port=$((port+1))
	timeout 60 taskset -c ${pin[0]} $P/tools/gd_${OP}_bw --fabric ofi --provider shm -p $port -s $S -n $N "$@" >/dev/null 2>&1 &
	sleep 0.3
	timeout 60 taskset -c ${pin[1]} $P/tools/gd_${OP}_bw --fabric ofi --provider shm -p $port -s $S -n $N "$@" 127.0.0.1 |
		awk '$1 == '"$S"' { printf "%.2f", $4 * 1.048576 }'
	wait
}
run_fi() {
	port=$((port+1))
	timeout 60 taskset -c ${pin[0]} $here/fabtests/fi_rma_bw -p shm -e rdm -o $OP -I $N -S $S -s 127.0.0.1 -B $port >/dev/null 2>&1 &
	sleep 0.3
	timeout 60 taskset -c ${pin[1]} $here/fabtests/fi_rma_bw -p shm -e rdm -o $OP -I $N -S $S -s 127.0.0.1 -P $port 127.0.0.1 |
		awk 'f { print $5; exit } /^bytes/ { f = 1 }'
	wait
}
for r in $(seq 1 $R); do
	k=$(( (r-1) % ${#V[@]} ))
	for i in $(seq 0 $((${#V[@]}-1))); do
		v=${V[$(( (i+k) % ${#V[@]} ))]}
		case $v in
		fi) x=$(run_fi) ;;
		gd) x=$(run_gd) ;;
		gdI) x=$(run_gd -I 64) ;;
		gdQ) x=$(run_gd -Q 1000 -t 2048) ;;
		gdIQ) x=$(run_gd -I 64 -Q 1000 -t 2048) ;;
		esac
		echo "$OP $S $r $v $x"
	done
done
