#!/bin/bash
# Lead, session 44, call 2 on the H200 (bash .carry/s44/call2.sh), after call 1 (call1.sh: its
# functions are reused from there). libfabric v1.22.0 (the pack's lib/ofi-cuda) for every run.
# (A2) shm writedata 8 B, 9 rounds, rotating: gd, gd2 (gdperf's A/A), fi_rma_bw -W 64, 64 again
#      (fabtests' A/A), 512, 65536; MB/s of the client.
# (C)  where 4 proxy threads over shm spend their time: perf record (cpu-clock, 2 kHz) of client and
#      server, GPU producer, -q 4, 8 B, 400,000 writes, 1 and 4 proxy threads; the cpu initiator -q 1.
# (D)  the same runs with FI_SHM_DISABLE_CMA=1 (shm's writes then go through its command queue, the
#      target copying), 3 rounds: pg1 pg4 c1 and 4 independent cpu pairs.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; T=/tmp/s44; mkdir -p "$O" "$T"
[ -d gdperf-gpu ] || tar xzf gdperf-gpu.tar.gz
[ -x perf ] || tar xJf perf.tar.xz
G=$C/gdperf-gpu; FI=$C/fi_rma_bw; L122=$G/lib/ofi-cuda:$G/lib; LB=$L122
eval "$(sed -n '/^DRYF=/,/^partB() {/p' call1.sh | sed '$d')"
{ date -u; cat /proc/sys/kernel/perf_event_paranoid /proc/sys/kernel/kptr_restrict; } > "$O/host2.txt" 2>&1
partA2() {
	local r i v
	for r in $(seq 1 "${ROUNDS_A:-9}"); do
		for i in $(rot $((r - 1)) gd gd2 fi64 fi64b fi512 fi65536); do
			case $i in
			gd*) v=$(gdw "$L122" 2 3 a --provider shm --write_with_imm -n 200000)
			    v=$(awk -v m="$v" 'BEGIN { if (m == "FAILED") print m; else printf "%.2f", m * 8 }');;
			fi64b) v=$(fiw "$L122" 2 3 a 64 200000);;
			*) v=$(fiw "$L122" 2 3 a "${i#fi}" 200000);;
			esac
			echo "A2 r$r $i MB/s $v"
		done
	done
}
echo 26000 > $T/port
timeout -s KILL "${SECS_A:-120}" bash -c "$(declare -f nextport rot jmps gdw fiw partA2 $DRYF); G=$G FI=$FI T=$T L122=$L122; partA2" > "$O/A2-window.txt" 2>&1
date -u >> "$O/host2.txt"
PR="$C/perf record -q -g -e cpu-clock -F 2000"
prof() { # tag sc cc args...
	local tag=$1 sc=$2 cc=$3 port sp; shift 3; port=$(nextport)
	LD_LIBRARY_PATH=$L122:$C/plib taskset -c "$sc" timeout -s KILL 60 $PR -o $T/perf.$tag.s -- "$G/tools/gd_write_bw" --fabric ofi -s 8 -p $port "$@" > "$T/ps.$tag" 2>&1 &
	sp=$!; sleep 0.5
	LD_LIBRARY_PATH=$L122:$C/plib taskset -c "$cc" timeout -s KILL 60 $PR -o $T/perf.$tag.c -- "$G/tools/gd_write_bw" --fabric ofi -s 8 -p $port --json "$@" 127.0.0.1 > "$T/pc.$tag" 2>&1 || kill $sp
	wait $sp
	echo "## $tag: client Mmsg/s $(jmps $T/pc.$tag)"
	for side in c s; do
		echo "### $tag side $side"
		LD_LIBRARY_PATH=$C/plib "$C/perf" report -i $T/perf.$tag.$side --stdio --no-children --sort comm,dso,sym -g none 2>/dev/null |
			grep -v '^#' | grep -v '^$' | head -n 30
	done
}
{
	prof pg1 2-5 6-13 --provider shm -n 400000 -q 4 --initiator=proxy --producer gpu --scope warp --ctas 4 --threads 32 --proxy_threads 1
	prof pg4 2-5 6-13 --provider shm -n 400000 -q 4 --initiator=proxy --producer gpu --scope warp --ctas 4 --threads 32 --proxy_threads 4
	prof c1 2 6 --provider shm -n 400000
} > "$O/C-perf.txt" 2>&1
date -u >> "$O/host2.txt"
partD() {
	local r i v
	for r in 1 2 3; do
		for i in $(rot $((r - 1)) pg1 pg4 c1 x4gd); do
			case $i in
			pg*) v=$(gdw "$LB" 2-5 6-13 b --provider shm -n 200000 -q 4 --initiator=proxy --producer gpu --scope warp --ctas 4 --threads 32 --proxy_threads "${i#pg}");;
			c1) v=$(gdw "$LB" 2 6 b --provider shm -n 200000);;
			x4gd) v="Mmsg/s each: $(four gd)";;
			esac
			echo "D r$r $i $v"
		done
	done
}
export FI_SHM_DISABLE_CMA=1
timeout -s KILL "${SECS_D:-120}" bash -c "$(declare -f nextport rot jmps gdw fiw four partD $DRYF); G=$G FI=$FI T=$T LB=$LB; partD" > "$O/D-nocma.txt" 2>&1
date -u >> "$O/host2.txt"
