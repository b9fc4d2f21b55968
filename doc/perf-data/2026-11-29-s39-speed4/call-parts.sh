# sourced by call.sh
rot() { local k=$1 a; shift; a=("$@"); k=$((k % ${#a[@]})); echo "${a[@]:k}" "${a[@]:0:k}"; }
# (B) rates, libfabric 1.17 then 1.22
{
echo "# 8 B shm writedata, server CPU 2, client CPU 3, -n/-I $N; gdb = main b28d5fc, gd = after;"
echo "# x0 and xa: the same two with counters.diff (refused posts and retries)"
for r in $(seq 1 $ROUNDS); do
	for v in $(rot $r fi gdb gd x0 xa); do one $r $v "$L117" $N; done
done
echo "# libfabric 1.22 for both"
for r in 1 2 3; do
	for v in $(rot $r fi gdb gd); do one $r $v "$L122" $N; done
done
} > "$O/rates.txt" 2>&1
# (C) flat profiles, both sides, both tools, both libraries
prof() { # label lib variant
	local pr="$C/perf record -q -e cpu-clock -F 4000 -o"
	one p "$3" "$2:$C/plib" $NP "$pr $T/perf.s --" "$pr $T/perf.c --"
	for side in s c; do
		echo "## $1 $3 side $side"
		PERF report -i $T/perf.$side --stdio --no-children --sort dso,sym 2>/dev/null |
			grep -v '^#' | grep -v '^$' | head -n 28
	done
}
{ prof lf117 "$L117" fi; prof lf117 "$L117" gdb; prof lf117 "$L117" gd
  prof lf122 "$L122" fi; prof lf122 "$L122" gdb; prof lf122 "$L122" gd; } > "$O/perf-writedata.txt" 2>&1
# (D) proxy threads (s36's perf.sh command), 3 rounds, plus the cpu initiator with -q 4
pt() { # round provider threads [perf]
	local n=400000 a ps= pc= rate
	[ $2 = tcp ] && n=50000
	a="--fabric ofi --provider $2 -s 8 -n $n -q 4 --json"
	if [ $3 = cpu ]; then a="$a --initiator=cpu"
	else a="$a --initiator=proxy --producer gpu --scope warp --ctas 4 --threads 32 --proxy_threads $3"; fi
	[ -n "${4:-}" ] && ps="$C/perf record -q -e cpu-clock -F 2000 -o $T/perf.s --" &&
		pc="$C/perf record -q -e cpu-clock -F 2000 -o $T/perf.c --"
	SCPU=2-3 CCPU=4-15 run pt "$L117:$C/plib" "$ps" "$pc" $G/tools/gd_write_bw $a -p @P@ -- $G/tools/gd_write_bw $a -p @P@
	rate=$(grep -m1 -oE '"msg_rate_mpps": ?[0-9.e+-]+' "$T/c" | grep -oE '[0-9.e+-]+$')
	echo "round $1 $2 proxy_threads $3 msg_rate_mpps ${rate:-failed}"
	[ -n "$rate" ] || tail -n 3 "$T/c" "$T/s" | sed 's/^/   # /'
}
{
for r in 1 2 3; do for tp in shm tcp; do for k in cpu 1 2 4; do pt $r $tp $k; done; done; done
for tp in shm tcp; do for k in 1 4; do
	pt p $tp $k perf
	for side in s c; do
		echo "## proxy $tp threads $k side $side"
		PERF report -i $T/perf.$side --stdio --no-children --sort comm,dso,sym 2>/dev/null |
			grep -v '^#' | grep -v '^$' | head -n 30
	done
done; done
} > "$O/proxy-threads.txt" 2>&1
date -u >> "$O/host.txt"
# (E) the GPU tier
if [ -z "${NOTIER:-}" ]; then
	(cd "$G" && env -u OUT GD_RESULTS=$T/tier timeout 400 tests/gpu/run-all.sh) > "$O/tier.txt" 2>&1
	echo "tier rc $?" >> "$O/tier.txt"
	tar czf "$O/tier-logs.tgz" -C $T tier 2>/dev/null
fi
date -u >> "$O/host.txt"
