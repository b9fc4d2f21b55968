#!/bin/sh
# gd_check's pairs between ranks over libfabric (tcp and shm) under mpirun on this host: the
# pairs run in rounds of disjoint pairs (all-pairs over 4 ranks: 6 pairs in 3 rounds of 2;
# --concurrency 1: 6 rounds of 1, the serial schedule; 8 ranks over shm: 28 pairs in 7 rounds
# of 4), every pair measured and named once, each by its ranks. A pair whose ranks never meet fails the test; it never passes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lib/ports.sh"
mpi_need
tmp_dir
test_ports
# mpin N SPEC [gd_check options]
mpin() {
	n=$1 spec=$2
	shift 2
	mpirun_here 240 -np "$n" "$GD_CHECK" -p "$port" "$@" \
		"$spec" >"$tmp/out" 2>"$tmp/err"
}
# a build without libfabric: a pair over ofi names that cause and its fix (it said "a rank has
# no RDMA device"), not green; every other pair here runs over libfabric
if ! built_with libfabric; then
	printf 'version: 1\ntests:\n  - {name: ap, op: write, fabric: ofi, provider: tcp, size: 4K, iterations: 50, pairs: ring}\n' >"$tmp/nolf.yaml"
	mpin 2 "$tmp/nolf.yaml"
	rc=$?
	[ $rc -ne 0 ] && grep -q "a rank's gd_check was built without libfabric.*--with-libfabric" "$tmp/out" &&
		ok "no libfabric: a pair over ofi names the build (exit $rc)" ||
		{ fail "no libfabric: a pair over ofi: exit $rc"; cat "$tmp/out" "$tmp/err"; }
fi
ofi_need tcp shm # every pair below runs over libfabric
# pairs_seen: the "rankA(...)->rankB(...)" labels of the runs items, one per line, sorted
pairs_seen() {
	grep '^tests' "$tmp/out" | grep -o 'rank[0-9]*([^)]*)->rank[0-9]*([^)]*): runs' | sed 's/([^)]*)//g' | sort
}
# tcp in rounds, shm one pair at a time (each provider both ways would double the time)
for prov in tcp shm; do
	conc=; [ $prov = shm ] && conc="--concurrency 1"
	printf 'version: 1\nfleet: {outlier: off}\ntests:\n  - {name: ap, op: write, fabric: ofi, provider: %s, size: 4K, iterations: 50, pairs: all-pairs}\n' \
		"$prov" >"$tmp/ap.yaml"
	# shellcheck disable=SC2086
	mpin 4 "$tmp/ap.yaml" $conc
	rc=$?
	want='rank0->rank1: runs
rank0->rank2: runs
rank0->rank3: runs
rank1->rank2: runs
rank1->rank3: runs
rank2->rank3: runs'
	rounds="6 pair(s) in 3 round(s) of at most 2 at once"
	[ $prov = shm ] && rounds="6 pair(s) in 6 round(s) of at most 1 at once"
	if [ $rc -eq 0 ] && [ "$(pairs_seen)" = "$want" ] && grep -q "ap: $rounds" "$tmp/out"; then
		ok "$prov: all-pairs over 4 ranks${conc:+ ($conc)}: $rounds, each pair once"
	else
		fail "$prov: all-pairs over 4 ranks ${conc:+($conc)}: exit $rc"; cat "$tmp/out" "$tmp/err"
	fi
done
# 8 ranks on one host (issue 33's 'mpirun with 4 and 8 ranks'): 28 pairs in 7 rounds of 4
printf 'version: 1\nfleet: {outlier: off}\ntests:\n  - {name: ap, op: write, fabric: ofi, provider: shm, size: 4K, iterations: 50, pairs: all-pairs}\n' \
	>"$tmp/ap8.yaml"
mpin 8 "$tmp/ap8.yaml"
rc=$?
want=$(for a in 0 1 2 3 4 5 6; do for b in $(seq $((a + 1)) 7); do echo "rank$a->rank$b: runs"; done; done)
rounds="28 pair(s) in 7 round(s) of at most 4 at once"
if [ $rc -eq 0 ] && [ "$(pairs_seen)" = "$want" ] && grep -q "ap: $rounds" "$tmp/out"; then
	ok "shm: all-pairs over 8 ranks: $rounds, each pair once"
else
	fail "shm: all-pairs over 8 ranks: exit $rc"; cat "$tmp/out" "$tmp/err"
fi
# a provider that no rank has: every pair fails, the test is not green
printf 'version: 1\ntests:\n  - {name: ap, op: write, fabric: ofi, provider: efa, size: 4K, iterations: 50, pairs: ring}\n' >"$tmp/efa.yaml"
mpin 2 "$tmp/efa.yaml"
rc=$?
[ $rc -ne 0 ] && ok "a provider no rank has: exit $rc, not green" ||
	{ fail "a provider no rank has: exit 0"; cat "$tmp/out" "$tmp/err"; }
finish
