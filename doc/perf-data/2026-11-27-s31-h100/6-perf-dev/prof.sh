#!/bin/bash
# prof.sh: perf (cpu-clock) of CPUs 2,3 during one gd and one fi_rma_bw write 8 B pair
here=$(cd "$(dirname "$0")" && pwd); P=$here/pack; out=${OUT:-/tmp/out}
N=${N:-1000000}; S=${S:-8}; set -- ${PIN:-2 3}; PS=$1 PC=$2
perf() { LD_LIBRARY_PATH=$here/perf/lib $here/perf/perf "$@"; }
cat /sys/kernel/mm/transparent_hugepage/enabled; sysctl kernel.kptr_restrict kernel.perf_event_paranoid 2>/dev/null
export LD_LIBRARY_PATH=$P/lib
pair_gd() { taskset -c $PS $P/tools/gd_write_bw --fabric ofi --provider shm -p 24001 -s $S -n $N "$@" >/dev/null & sleep 0.3
	taskset -c $PC $P/tools/gd_write_bw --fabric ofi --provider shm -p 24001 -s $S -n $N "$@" 127.0.0.1 | awk '$1 == '$S' { print "gd MB/s", $4 * 1.048576 }'; wait; }
pair_fi() { taskset -c $PS $here/fabtests/fi_rma_bw -p shm -e rdm -o write -I $N -S $S -s 127.0.0.1 -B 24002 >/dev/null & sleep 0.3
	taskset -c $PC $here/fabtests/fi_rma_bw -p shm -e rdm -o write -I $N -S $S -s 127.0.0.1 -P 24002 127.0.0.1 | awk 'f { print "fi MB/s", $5; exit } /^bytes/ { f = 1 }'; wait; }
export -f pair_gd pair_fi; export P here N S PS PC
for v in fi gd; do
	perf record -q -e cpu-clock -F 10000 -C $PS,$PC -o $out/$v.data -- bash -c "pair_$v" 2>&1 | tail -3
	perf report -i $out/$v.data --stdio --sort comm,sym 2>/dev/null | grep -v "^#" | grep -v "^$" | head -45 > $out/$v.txt
	echo "== $v"; cat $out/$v.txt
done
