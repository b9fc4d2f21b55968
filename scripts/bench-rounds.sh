#!/bin/bash
# bench-rounds: a benchmark (not a test) of gd_check's pairs between ranks in rounds.
#  1. The schedule of a fleet, predicted by gd_check's own scheduler (tests/check/sched_sim,
#     built by make check): all-pairs over 64, 256 and 1,024 nodes x RAILS rails, rounds,
#     pairs per round and the wall time from a per-pair time (--pair-seconds, default the one
#     measured in 2.).
#  2. Measured on this host: RANKS ranks under mpirun, all-pairs over libfabric PROVIDER, one
#     pair at a time (--concurrency 1) against rounds (default), alternately, PAIRS times
#     each; per run the wall time; the ratio rounds/serial per pair of runs, its median and
#     spread (goal <= 0.35 where the host has a core per rank and the provider is not the
#     limit: on a 2-core machine 8 ranks share 2 cores and the ratio says little).
#     --device DEV runs the pairs over verbs on the RDMA device DEV instead (the Soft-RoCE
#     guest: --device rxe0, every rank on one rxe0; as root there, mpirun is told so).
#   scripts/bench-rounds.sh [--ranks 8] [--provider shm | --device DEV] [--pairs 3]
#       [--port 24000] [--rails 8] [--pair-seconds S] [--iterations 2000] [--size 64K]
#       [--bindir DIR]
set -u
ranks=8 prov=shm dev= pairs=3 port=24000 rails=8 pair_s= iters=2000 size=64K bindir=
while [ $# -gt 0 ]; do
	case $1 in
	--ranks) ranks=$2; shift ;;
	--provider) prov=$2; shift ;;
	--device) dev=$2; shift ;;
	--pairs) pairs=$2; shift ;;
	--port) port=$2; shift ;;
	--rails) rails=$2; shift ;;
	--pair-seconds) pair_s=$2; shift ;;
	--iterations) iters=$2; shift ;;
	--size) size=$2; shift ;;
	--bindir) bindir=$2; shift ;;
	*) echo "usage: see the header of $0" >&2; exit 2 ;;
	esac
	shift
done
here=$(cd "$(dirname "$0")/.." && pwd)
check=${bindir:-$here/tools}/gd_check
sim=$here/tests/check/sched_sim
[ -x "$check" ] || { echo "bench-rounds: no $check (build first)" >&2; exit 3; }
[ -x "$sim" ] || { echo "bench-rounds: no $sim (make check builds it, or make tests/check/sched_sim)" >&2; exit 3; }
command -v mpirun >/dev/null || { echo "bench-rounds: no mpirun (apt-get install openmpi-bin)" >&2; exit 3; }
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
if [ -n "$dev" ]; then fab="device: $dev" what="verbs on $dev"
else fab="fabric: ofi, provider: $prov" what="provider $prov"; fi
printf 'version: 1\nfleet: {outlier: off}\ntests:\n  - {name: ap, op: write, %s, size: %s, iterations: %s, pairs: all-pairs}\n' \
	"$fab" "$size" "$iters" >"$tmp/ap.yaml"
# run N [options]: one gd_check under mpirun; prints its wall seconds
run() {
	local n=$1 t0 t1
	shift
	t0=$(date +%s.%N)
	env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
		OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_btl_vader_single_copy_mechanism=none \
		OMPI_MCA_mpi_yield_when_idle=1 timeout -k 5 900 mpirun --oversubscribe --bind-to none \
		-np "$n" "$check" -p "$port" "$@" "$tmp/ap.yaml" >"$tmp/out" 2>&1 ||
		{ echo "bench-rounds: a run failed:" >&2; tail -20 "$tmp/out" >&2; exit 1; }
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }'
}
echo "host: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $what, size $size, $iters iterations a pair"
one=$(run 2)
echo "one pair alone (2 ranks, mpirun included): $one s"
ratios=
for i in $(seq "$pairs"); do
	if [ $((i % 2)) = 1 ]; then s=$(run "$ranks" --concurrency 1); r=$(run "$ranks")
	else r=$(run "$ranks"); s=$(run "$ranks" --concurrency 1); fi
	ratio=$(echo "$r $s" | awk '{ printf "%.3f", $1 / $2 }')
	echo "round $i: $ranks ranks all-pairs serial $s s, in rounds $r s, ratio $ratio"
	ratios="$ratios $ratio"
done
echo "$ratios" | tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END {
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "rounds/serial wall time: median %.3f (%.3f..%.3f) over %d pairs of runs\n", m, v[1], v[NR], NR }'
for n in 64 256 1024; do
	"$sim" all-pairs "$n" "$rails" "${pair_s:-$one}"
done
# issue 33's goal: all-pairs over 64 nodes x 8 rails predicted <= 10 min ("rails at once" is
# gd_check --rails all; "one after another" is the default --rails one, test by test per NIC)
note=": one pair alone measured above, mpirun's start included"
[ -n "$pair_s" ] && note=" given"
"$sim" all-pairs 64 8 "${pair_s:-$one}" | sed 's/.*rails at once \([0-9.]*\) min, rails one after another \([0-9.]*\) min.*/\1 \2/' |
	awk -v p="${pair_s:-$one}" -v note="$note" '{ printf "goal all-pairs 64 x 8 <= 10 min (pair %s s%s): rails at once %.1f min (%s), rails one after another %.1f min (%s)\n",
		p, note, $1, $1 <= 10 ? "within" : "over", $2, $2 <= 10 ? "within" : "over" }'
