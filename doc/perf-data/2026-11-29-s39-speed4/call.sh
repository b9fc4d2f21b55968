#!/bin/bash
# s39/speed4 on the GPU machine (prepared; its first call failed, README.md): (B) 8 B one-way
# write-with-imm over shm, gdperf before (gdb: main b28d5fc) and after (gd: this branch) vs
# fi_rma_bw -o writedata, with the refused-post counts of counters.diff (x0: main, xa: after);
# (C) flat perf profiles of both sides of both tools; (D) 1/2/4 proxy threads over shm and tcp
# with perf of the 4-thread case; (E) the GPU tier from a gpu pack of the branch.
set -u
C=$(cd "$(dirname "$0")" && pwd)
R=$C; cd "$C"
O=${OUT:-/tmp/out}
T=/tmp/s39; mkdir -p "$O" "$T"
N=${N:-200000} NP=${NP:-1000000} ROUNDS=${ROUNDS:-5}
cd "$R" && tar xzf gdperf-gpu.tar.gz
cd "$C" && tar xJf perf.tar.xz
G=$R/gdperf-gpu L117=$R/gdperf-gpu/lib L122=$C/lib122:$R/gdperf-gpu/lib
PERF() { LD_LIBRARY_PATH=$C/plib "$C/perf" "$@"; }
{ nproc; uname -r; date -u; command -v perf; cat /proc/sys/kernel/perf_event_paranoid
  PERF --version; PERF stat -e cpu-clock true 2>&1 | grep -m1 cpu-clock; } > "$O/host.txt" 2>&1
port=22010
# run LABEL LIB WRAPS WRAPC SERVER... -- CLIENT...: pinned pair, client output in $T/c
run() {
	local lab=$1 lib=$2 ws=$3 wc=$4 s=() c=() sp
	shift 4
	while [ "$1" != -- ]; do s+=("$1"); shift; done
	shift; c=("$@"); port=$((port + 1))
	LD_LIBRARY_PATH=$lib $ws taskset -c ${SCPU:-2} timeout -s KILL 60 "${s[@]//@P@/$port}" > "$T/s" 2>&1 &
	sp=$!
	sleep 0.4
	LD_LIBRARY_PATH=$lib $wc taskset -c ${CCPU:-3} timeout -s KILL 60 "${c[@]//@P@/$port}" 127.0.0.1 > "$T/c" 2>&1 ||
		kill $sp 2>/dev/null # a client that failed: do not wait out the server
	wait
}
gdv() { grep '"type":"bw_result"' "$T/c" | head -1 |
	sed -n 's/.*"bw_avg_mib_per_s":\([0-9.eE+-]*\).*/\1/p' | awk '{ printf "%.2f", $1 * 1.048576 }'; }
fiv() { awk 'f { print $5; exit } /^bytes/ { f = 1 }' "$T/c"; }
one() { # round variant lib n [perf-prefix-server perf-prefix-client]
	local r=$1 v=$2 lib=$3 n=$4 ps=${5:-} pc=${6:-} bin e=""
	case $v in
	fi*) local ft=$C/ft; [ "$lib" = "$L122" ] && ft=$C/ft122
		run $v "$lib" "$ps" "$pc" $ft/fi_rma_bw -p shm -e rdm -o writedata -I $n -S 8 -s 127.0.0.1 -B @P@ -- \
			$ft/fi_rma_bw -p shm -e rdm -o writedata -I $n -S 8 -s 127.0.0.1 -P @P@
		;;
	*)	bin=$C/$v; case $v in x*) e="GD_X_STATS=1";; esac
		run $v "$lib" "env $e $ps" "env $e $pc" $bin/gd_write_bw --fabric ofi --provider shm --write_with_imm \
			-s 8 -n $n -p @P@ -- $bin/gd_write_bw --fabric ofi --provider shm --write_with_imm -s 8 -n $n --json -p @P@ ;;
	esac
	local val; case $v in fi*) val=$(fiv);; *) val=$(gdv);; esac
	echo "r$r $v MB/s ${val:-FAILED} $(grep -h EXPSTATS "$T/c" | tr '\n' ' ')"
	[ -n "$val" ] || tail -n 3 "$T/c" "$T/s" | sed 's/^/   # /'
}
. "$C/call-parts.sh"
