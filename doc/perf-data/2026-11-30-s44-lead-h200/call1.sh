#!/bin/bash
# Lead, session 44, call 1 on the H200 (bash .carry/s44/call1.sh; OUT set by the device tool).
# (A) shm writedata 8 B: gdperf (gd_write_bw --write_with_imm, one-way, no credit) against fabtests'
#     fi_rma_bw -o writedata at windows -W 64 (its default: an acknowledgement from the target every 64
#     writes), 64 again (A/A), 512, 4096 and 65536 (~ no credit in 200,000 writes); one libfabric
#     (v1.22.0, the pack's lib/ofi-cuda) for both; server CPU 2, client CPU 3; ROUNDS_A rounds, the
#     six runs in rotating order; MB/s of the client.
# (B) proxy threads over shm, 8 B, -q 4, 200,000 writes: GPU producer 1/4 threads, host producers
#     (--ctas 4) 1/4 threads, the cpu initiator -q 4 and -q 1; then 4 independent pairs at once
#     (gd cpu -q 1 and fi_rma_bw writedata W64), each rate; libfabric 1.22 (lib/ofi-cuda) as in (A)
#     unless LIBB is set (fabtests 1.22 needs it); server CPUs 2-5, client 6-13; ROUNDS_B rounds.
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; T=/tmp/s44; mkdir -p "$O" "$T"
tar xzf gdperf-gpu.tar.gz
G=$C/gdperf-gpu; FI=$C/fi_rma_bw
L122=$G/lib/ofi-cuda:$G/lib; LB=${LIBB:-$L122}
{ nproc; uname -r; date -u; head -1 "$G/README"; nvidia-smi -L; } > "$O/host.txt" 2>&1
DRYF=; [ "${DRY:-0}" = 1 ] && { taskset() { shift 2; "$@"; }; DRYF=taskset; } # a dry run on fewer CPUs
nextport() { local p; p=$(($(cat "$T/port") + 1)); echo $p > "$T/port"; echo $p; }
rot() { local k=$1 a; shift; a=("$@"); k=$((k % ${#a[@]})); echo "${a[@]:k}" "${a[@]:0:k}"; }
jrate() { sed -n 's/.*"bw_result".*"results":{[^}]*"bw_avg_mib_per_s":\([0-9.eE+-]*\).*/\1/p' "$1" | head -1; }
jmps() { grep '"type":"bw_result"' "$1" | head -1 | sed -n 's/.*"msg_rate_mpps":\([0-9.eE+-]*\).*/\1/p'; }
gdw() { # lib scpu ccpu tag args... : client's msg rate (M/s) or FAILED
	local lib=$1 sc=$2 cc=$3 tag=$4 sp v port; shift 4; port=${P:-$(nextport)}
	LD_LIBRARY_PATH=$lib taskset -c "$sc" timeout -s KILL 60 "$G/tools/gd_write_bw" --fabric ofi -s 8 -p $port "$@" > "$T/s.$tag" 2>&1 &
	sp=$!; sleep 0.3
	LD_LIBRARY_PATH=$lib taskset -c "$cc" timeout -s KILL 60 "$G/tools/gd_write_bw" --fabric ofi -s 8 -p $port --json "$@" 127.0.0.1 > "$T/c.$tag" 2>&1 || kill $sp 2>/dev/null
	wait $sp; v=$(jmps "$T/c.$tag"); echo "${v:-FAILED}"
	[ -n "$v" ] || tail -n 3 "$T/c.$tag" "$T/s.$tag" | sed 's/^/   # /' >&2
}
fiw() { # lib scpu ccpu tag W iters: client's MB/s (fabtests prints 10^6 B/s) or FAILED
	local lib=$1 sc=$2 cc=$3 tag=$4 w=$5 n=$6 sp v port; port=${P:-$(nextport)}
	LD_LIBRARY_PATH=$lib taskset -c "$sc" timeout -s KILL 60 "$FI" -p shm -e rdm -o writedata -S 8 -I $n -W $w -s 127.0.0.1 -B $port > "$T/s.$tag" 2>&1 &
	sp=$!; sleep 0.3
	LD_LIBRARY_PATH=$lib taskset -c "$cc" timeout -s KILL 60 "$FI" -p shm -e rdm -o writedata -S 8 -I $n -W $w -s 127.0.0.1 -P $port 127.0.0.1 > "$T/c.$tag" 2>&1 || kill $sp 2>/dev/null
	wait $sp; v=$(awk '$1 == 8 {print $5}' "$T/c.$tag" | tail -1); echo "${v:-FAILED}"
	[ -n "$v" ] || tail -n 3 "$T/c.$tag" "$T/s.$tag" | sed 's/^/   # /' >&2
}
partA() {
	local r i v
	for r in $(seq 1 "${ROUNDS_A:-7}"); do
		for i in $(rot $((r - 1)) gd fi64 fi64b fi512 fi4096 fi65536); do
			case $i in
			gd) v=$(gdw "$L122" 2 3 a --provider shm --write_with_imm -n 200000)
			    v=$(awk -v m="$v" 'BEGIN { if (m == "FAILED") print m; else printf "%.2f", m * 8 }');;
			fi64b) v=$(fiw "$L122" 2 3 a 64 200000);;
			*) v=$(fiw "$L122" 2 3 a "${i#fi}" 200000);;
			esac
			echo "A r$r $i MB/s $v"
		done
	done
}
four() { # kind: 4 independent pairs at once, server CPU 2+k, client 6+k; prints the sum
	local k pids=() s=0 v
	for k in 0 1 2 3; do
		if [ "$1" = gd ]; then (P=$(($(nextport) + 100 + k)); gdw "$LB" $((2 + k)) $((6 + k)) q$k --provider shm -n 200000 > "$T/four.$k") &
		else (P=$(($(nextport) + 100 + k)); fiw "$LB" $((2 + k)) $((6 + k)) q$k 64 200000 > "$T/four.$k") & fi
		pids+=($!); sleep 0.05
	done
	wait "${pids[@]}"; echo $(($(cat "$T/port") + 200)) > "$T/port"
	for k in 0 1 2 3; do v=$(cat "$T/four.$k"); echo -n "$v "; done
}
partB() {
	local r i v
	for r in $(seq 1 "${ROUNDS_B:-5}"); do
		for i in $(rot $((r - 1)) pg1 pg4 ph1 ph4 c4 c1 x4gd x4fi); do
			case $i in
			pg*) v=$(gdw "$LB" 2-5 6-13 b --provider shm -n 200000 -q 4 --initiator=proxy --producer gpu --scope warp --ctas 4 --threads 32 --proxy_threads "${i#pg}");;
			ph*) v=$(gdw "$LB" 2-5 6-13 b --provider shm -n 200000 -q 4 --initiator=proxy --producer host --ctas 4 --proxy_threads "${i#ph}");;
			c4) v=$(gdw "$LB" 2-5 6-13 b --provider shm -n 200000 -q 4);;
			c1) v=$(gdw "$LB" 2 6 b --provider shm -n 200000);;
			x4gd) v="Mmsg/s each: $(four gd)";;
			x4fi) v="MB/s each: $(four fi)";;
			esac
			echo "B r$r $i $v"
		done
	done
}
timeout -s KILL "${SECS_A:-150}" bash -c "$(declare -f nextport rot jmps gdw fiw partA $DRYF); G=$G FI=$FI T=$T L122=$L122; echo 24000 > $T/port; partA" > "$O/A-window.txt" 2>&1
date -u >> "$O/host.txt"
timeout -s KILL "${SECS_B:-240}" bash -c "$(declare -f nextport rot jmps gdw fiw four partB $DRYF); G=$G FI=$FI T=$T LB=$LB; echo 25000 > $T/port; partB" > "$O/B-threads.txt" 2>&1
date -u >> "$O/host.txt"
