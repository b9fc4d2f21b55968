#!/bin/bash
# ab.sh ROUNDS SIZE ITERS OP PROV "VARIANTS": fi_rma_bw and gd variants (name=ENV=VAL,...), rotated
here=$(cd "$(dirname "$0")" && pwd); P=$here/pack; export LD_LIBRARY_PATH=$P/lib
R=$1 S=$2 N=$3 OP=$4 PROV=$5; read -ra V <<< "$6"; set -- ${PIN:-2 3}; PS=$1 PC=$2; port=$((25000 + RANDOM % 5000))
run_gd() { # env assignments... (GDT=DIR: the tools of pack/DIR)
	local t=tools; case " $* " in *" GDT="*) t=$(echo " $* " | sed "s/.* GDT=\([^ ]*\) .*/\1/") ;; esac
	port=$((port+1))
	env "$@" timeout 60 taskset -c $PS $P/$t/gd_${OP}_bw --fabric ofi --provider $PROV -p $port -s $S -n $N >/dev/null 2>&1 &
	sleep 0.3
	env "$@" timeout 60 taskset -c $PC $P/$t/gd_${OP}_bw --fabric ofi --provider $PROV -p $port -s $S -n $N 127.0.0.1 |
		awk '$1 == '"$S"' { printf "%.2f", $4 * 1.048576 }'
	wait
}
run_fi() {
	port=$((port+1))
	timeout 60 taskset -c $PS $here/fabtests/fi_rma_bw -p $PROV -e rdm -o $OP -I $N -S $S -s 127.0.0.1 -B $port >/dev/null 2>&1 &
	sleep 0.3
	timeout 60 taskset -c $PC $here/fabtests/fi_rma_bw -p $PROV -e rdm -o $OP -I $N -S $S -s 127.0.0.1 -P $port 127.0.0.1 |
		awk 'f { print $5; exit } /^bytes/ { f = 1 }'
	wait
}
for r in $(seq 1 $R); do
	k=$(( (r-1) % ${#V[@]} ))
	for i in $(seq 0 $((${#V[@]}-1))); do
		v=${V[$(( (i+k) % ${#V[@]} ))]}
		case $v in
		fi) x=$(run_fi) ;;
		*) x=$(run_gd X=1 $(echo "${v#*=}" | tr ',' ' ')) ;;
		esac
		echo "$PROV $OP $S $r ${v%%=*} $x"
	done
done
