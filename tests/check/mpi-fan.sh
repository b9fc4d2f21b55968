#!/bin/sh
# gd_check's fans under mpirun, 4 ranks (and one fan of 8) over libfabric tcp on this host
# (issue 33): many-to-one and one-to-many run each pair between the root and another rank
# alone, then all of them at once (the root in three pairs of one round, each side in a
# process of its own); each pair's congestion factor (at once / alone) and the fan's (sum at
# once / median pair alone) are reported in the table, JSON (value and unit "factor"), JUnit and Prometheus, and
# min_congestion_factor judges the fan: a factor no fan can reach FAILs (exit 1) naming the
# pair that kept the lowest share; a root outside the launch FAILs before anything runs; a fan
# whose pairs cannot run is ERROR (exit 3), its factors too.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lib/ports.sh"
mpi_need
ofi_need tcp # every fan runs over libfabric tcp
tmp_dir
test_ports 2 # the pairs' ports start 500 above -p
# mpin SPEC [gd_check options]: 4 ranks ($np ranks when set)
mpin() {
	spec=$1
	shift
	mpirun_here 240 -np "${np:-4}" "$GD_CHECK" -p "$port" "$@" \
		"$spec" >"$tmp/out" 2>"$tmp/err"
}
# spec NAME PATTERN EXTRA
spec() {
	printf 'version: 1\nfleet: {outlier: off}\ntests:\n  - {name: %s, op: write, fabric: ofi, provider: tcp, size: 4K, iterations: 50, pairs: %s%s}\n' \
		"$1" "$2" "$3" >"$tmp/$1.yaml"
}
# labels: the pairs of the "runs" items and of the congestion items, one per line, sorted
labels() {
	grep -o '"check":"[^"]*\(runs\|congestion factor\)"' "$tmp/out" | sed 's/([^)]*)//g; s/"check":"//; s/"$//' | sort
}

# many-to-one, root 0: ranks 1..3 send to rank 0, alone then at once; a factor any fan meets
spec m2o many-to-one ", min_congestion_factor: 0.001"
mpin "$tmp/m2o.yaml" -j --junit "$tmp/m2o.xml" --prom "$tmp/m2o.prom"
rc=$?
want='m2o rank0->rank1 at once: runs
m2o rank0->rank1: congestion factor
m2o rank0->rank1: runs
m2o rank0->rank2 at once: runs
m2o rank0->rank2: congestion factor
m2o rank0->rank2: runs
m2o rank0->rank3 at once: runs
m2o rank0->rank3: congestion factor
m2o rank0->rank3: runs'
# every item, each factor a number with its unit, whether or not the noise guard trusted the runs
if { [ $rc -eq 0 ] || { [ $rc -eq 1 ] && doubted "$tmp/out"; }; } && [ "$(labels)" = "$want" ] &&
	[ "$(grep -c '"measured":"[0-9.e+-]*","value":[0-9.e+-]*,"unit":"factor"' "$tmp/out")" = 4 ]; then
	ok "many-to-one over 4 ranks: 3 pairs alone and at once, 3 pair factors and the fan's, each a number"
else
	fail "many-to-one over 4 ranks: exit $rc"; labels; cat "$tmp/out" "$tmp/err"
fi
# the fan meets a factor any fan meets: PASS (a FAIL only because the runs were doubted: skip)
if [ $rc -eq 0 ] && grep -q '"check":"m2o: congestion factor of 3 pairs at once: min_congestion_factor","status":"PASS","measured":"[0-9.e+-]*","value":[0-9.e+-]*,"unit":"factor","expected":">= 0.001"' "$tmp/out"; then
	ok "many-to-one: min_congestion_factor 0.001 PASSes, exit 0"
elif [ $rc -eq 1 ] && doubted "$tmp/out"; then
	doubt "many-to-one: min_congestion_factor 0.001 PASSes"
else
	fail "many-to-one: min_congestion_factor 0.001: exit $rc"; cat "$tmp/out"
fi
[ "$(grep -c '^gdperf_check_congestion_factor{host="[^"]*",check="m2o[^"]*"} [0-9]' "$tmp/m2o.prom")" = 4 ] &&
	ok "Prometheus: 4 gdperf_check_congestion_factor series" ||
	{ fail "Prometheus congestion series"; cat "$tmp/m2o.prom"; }
grep -q 'name="m2o: congestion factor of 3 pairs at once: min_congestion_factor"' "$tmp/m2o.xml" &&
	ok "JUnit: the fan's testcase" || { fail "JUnit: no fan testcase"; cat "$tmp/m2o.xml"; }

# 8 ranks (issue 33's 'mpirun with 4 and 8 ranks'), many-to-one to root 5 at 20 writes: the
# root is the server of 7 pairs, alone and then at once; every pair named, 7 pair factors and
# the fan's, each a number
spec m2o8 many-to-one ", root: 5, iterations: 20, min_congestion_factor: 0.001"
sed -i 's/iterations: 50, //' "$tmp/m2o8.yaml"
np=8; mpin "$tmp/m2o8.yaml" -j
rc=$?; unset np # 8 ranks for this run only
want=$(for c in 0 1 2 3 4 6 7; do
	printf 'm2o8 rank5->rank%s at once: runs\nm2o8 rank5->rank%s: congestion factor\nm2o8 rank5->rank%s: runs\n' "$c" "$c" "$c"
done | sort)
if { [ $rc -eq 0 ] || { [ $rc -eq 1 ] && doubted "$tmp/out"; }; } && [ "$(labels)" = "$want" ] &&
	[ "$(grep -c '"measured":"[0-9.e+-]*","value":[0-9.e+-]*,"unit":"factor"' "$tmp/out")" = 8 ] &&
	grep -q '"check":"m2o8: congestion factor of 7 pairs at once: min_congestion_factor"' "$tmp/out"; then
	ok "many-to-one over 8 ranks to root 5: 7 pairs alone and at once, 7 pair factors and the fan's"
else
	fail "many-to-one over 8 ranks: exit $rc"; labels; cat "$tmp/out" "$tmp/err"
fi

# one-to-many, root 2: rank 2 sends to 0, 1, 3 (the client of each pair); no fan reaches 4000
spec o2m one-to-many ", root: 2, min_congestion_factor: 4000"
mpin "$tmp/o2m.yaml"
rc=$?
if [ $rc -eq 1 ] && grep -q '^tests *o2m: congestion factor of 3 pairs at once: min_congestion_factor *FAIL .*>= 4000' "$tmp/out" &&
	grep -q 'expected >= 4000; .* Gb/s summed at once against .* Gb/s for the median pair alone; the lowest share kept: rank[013]([^)]*)->rank2(' "$tmp/out" &&
	grep -q 'o2m: 3 pair(s) alone, then at once in 1 round(s) of at most 3' "$tmp/out" &&
	[ "$(grep -c '^[013] *2 .*[0-9.]* *[0-9.]* *[0-9.]*$' "$tmp/out")" = 3 ]; then
	ok "one-to-many from root 2: the fan FAILs min_congestion_factor 4000 (exit 1), the lowest pair named"
else
	fail "one-to-many from root 2: exit $rc"; cat "$tmp/out" "$tmp/err"
fi

# a root outside the launch: FAIL, nothing runs
spec out one-to-many ", root: 4"
mpin "$tmp/out.yaml"
rc=$?
[ $rc -eq 1 ] && grep -q 'root 4 is not a rank of this launch of 4 ranks: set root below 4' "$tmp/out" &&
	! grep -q 'at once: runs' "$tmp/out" && ok "root 4 of 4 ranks: FAIL, nothing run" ||
	{ fail "root 4 of 4 ranks: exit $rc"; cat "$tmp/out" "$tmp/err"; }

# a provider no rank has: no pair runs, every congestion item is ERROR (exit 3), never green
printf 'version: 1\ntests:\n  - {name: efa, op: write, fabric: ofi, provider: efa, size: 4K, iterations: 50, pairs: many-to-one}\n' >"$tmp/efa.yaml"
mpin "$tmp/efa.yaml"
rc=$?
[ $rc -eq 3 ] && [ "$(grep -c '^tests .*congestion factor.* ERROR ' "$tmp/out")" = 4 ] &&
	! grep -q ' PASS ' "$tmp/out" && ok "a provider no rank has: 4 congestion items ERROR, exit 3" ||
	{ fail "a provider no rank has: exit $rc"; cat "$tmp/out" "$tmp/err"; }
finish
