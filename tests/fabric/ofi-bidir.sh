#!/bin/bash
# -b over libfabric is correct every time (issue 30, item 3): write, read and
# send, over tcp and shm, GD_BIDIR_RUNS (50) tiny runs each, every one exit 0
# on both sides. It stalled ("no completion for 10 s", "the provider's queue
# stayed full for 5 s", "no RESULTS from the server"): 8 of 18 runs in the
# issue, 4 of 18 at 91e561b on the loaded 2-core host. The cause, on
# FI_PROGRESS_MANUAL: a side done with its own direction waited on the side channel
# without driving the provider's progress, which its
# peer's operations still needed.
set -u
. "${top_srcdir:-.}/tests/fabric/lib.sh"
ofi_skip_unless_built tcp

runs=${GD_BIDIR_RUNS:-50}
provs=tcp
fi_info -p shm > /dev/null 2>&1 && provs="tcp shm" || echo "note: no shm provider: tcp only"
# one op over one provider, its runs in a row (in a subshell: its own ports, its own
# files); the exit status is its verdict
series() {
	local op=$1 prov=$2 bad=0 i
	for i in $(seq "$runs"); do
		pair "b-$op-$prov" 0 0 "gd_${op}_bw" --fabric ofi --provider "$prov" -b -n 200 \
			-s 4096 --timeout 10 > "$tmp/pair-$op-$prov.out" 2>&1 ||
			{ bad=$((bad + 1)); [ $bad -le 2 ] && cat "$tmp/pair-$op-$prov.out"; }
	done
	if [ $bad = 0 ]; then echo "ok: -b $op over $prov: $runs of $runs runs clean"
	else echo "FAIL: -b $op over $prov: $((runs - bad)) of $runs runs clean"; return 1; fi
}
# two series at once (GD_BIDIR_JOBS), each on its own ports (runs + 1 of the block's 500);
# the next one starts as soon as one ends (wait -n), not when its whole batch has ended
jobs=${GD_BIDIR_JOBS:-2} base=$port k=0 running=0
declare -A series_of
reap() {
	local done_pid rc
	wait -n -p done_pid
	rc=$?
	[ "$rc" = 0 ] || fail=1
	cat "$tmp/series-${series_of[$done_pid]}.out"
	running=$((running - 1))
}
for prov in $provs; do
	for op in write read send; do
		k=$((k + 1))
		( port=$((base + (runs + 1) * (k - 1))); series "$op" "$prov" ) > "$tmp/series-$k.out" 2>&1 &
		series_of[$!]=$k
		running=$((running + 1))
		[ $running -lt "$jobs" ] || reap
	done
done
while [ $running -gt 0 ]; do reap; done
exit $fail
