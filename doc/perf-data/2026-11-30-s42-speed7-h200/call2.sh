#!/bin/bash
# s42/speed7 call 2 on the H200 (cd .carry/speed7 && bash call2.sh):
# (A) request rate with 1, 2 and 4 proxy threads over libfabric shm and tcp (issue 32 item 4):
#     gd_write_bw --initiator=proxy --producer gpu, host memory, 8 B, -q 4 (4 endpoints), warp
#     scope, 4 CTAs of 32 threads (the GPU tier's proxy-threads cell without --validate), this
#     branch's pack, Debian 12's libfabric of the pack (lib/); 5 rounds, the three thread counts
#     in rotating order each round; the client's results.msg_rate_mpps. Server on CPUs 2-5,
#     client (proxy threads, main) on CPUs 6-13. shm, then tcp.
# (B) the GPU tier, tests/gpu/run-all.sh, from this branch's pack (bound TIER_S, default 330 s).
set -u
C=$(cd "$(dirname "$0")" && pwd); cd "$C"
O=${OUT:-/tmp/out}; T=/tmp/s42t; mkdir -p "$O" "$T"
tar xzf gdperf-gpu.tar.gz
G=$C/gdperf-gpu
{ nproc; uname -r; date -u; head -1 "$G/README"; } > "$O/host.txt" 2>&1
port=27000
pt_run() { # provider threads iters: prints the client's msg_rate_mpps or FAILED
	local a=(--fabric ofi --provider "$1" -s 8 -n "$3" -q 4 --proxy_threads "$2" --scope warp
		--ctas 4 --threads 32 --initiator=proxy --producer gpu --json) sp v
	port=$((port + 1))
	LD_LIBRARY_PATH=$G/lib taskset -c "${PIN_S:-2-5}" timeout -s KILL 60 "$G/tools/gd_write_bw" "${a[@]}" -p $port > "$T/s" 2>&1 &
	sp=$!
	sleep 0.3
	LD_LIBRARY_PATH=$G/lib taskset -c "${PIN_C:-6-13}" timeout -s KILL 60 "$G/tools/gd_write_bw" "${a[@]}" -p $port 127.0.0.1 > "$T/c" 2>&1 ||
		kill $sp 2>/dev/null
	wait $sp
	v=$(grep '"type":"bw_result"' "$T/c" | head -1 | sed -n 's/.*"msg_rate_mpps":\([0-9.eE+-]*\).*/\1/p')
	echo "${v:-FAILED}"
	[ -n "$v" ] || tail -n 4 "$T/c" "$T/s" | sed 's/^/   # /' >&2
}
rot() { local k=$1 a; shift; a=("$@"); k=$((k % ${#a[@]})); echo "${a[@]:k}" "${a[@]:0:k}"; }
{
	for p in ${PT_PROVIDERS:-shm tcp}; do
		n=${PT_ITERS:-200000}; [ "$p" = tcp ] && n=${PT_ITERS_TCP:-50000}
		for r in $(seq 1 "${PT_ROUNDS:-5}"); do
			for t in $(rot $((r - 1)) 1 2 4); do
				echo "pt $p r$r threads $t n $n Mmsg/s $(pt_run "$p" "$t" "$n" 2>&1 | tr '\n' ' ')"
			done
		done
	done
} > "$O/proxy-threads.txt" 2>&1
date -u >> "$O/host.txt"
[ "${TIER:-1}" = 1 ] || exit 0
(cd "$G" && env -u OUT GD_RESULTS=$T/tier timeout -s KILL "${TIER_S:-330}" tests/gpu/run-all.sh ${TIER_NAMES:-}) > "$O/tier.txt" 2>&1
echo "tier rc $?" >> "$O/tier.txt"
tar czf "$O/tier-logs.tgz" -C $T tier 2>/dev/null
date -u >> "$O/host.txt"
