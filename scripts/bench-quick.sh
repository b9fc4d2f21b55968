#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# A benchmark (not a test; it prints figures): the wall time of 'gd_check --suite quick' on
# this node, against Slurm's health check budget (issue 33: <= 5 s a node; HealthCheckProgram
# runs under a 60 s limit). N runs one after another (default 5), each its wall time, its exit
# code and how many checks it judged (a run that judged nothing says little), then the median
# and the largest. gd_check's exit 1 (a FAIL on this node) is timed like a PASS: the time is
# the figure; exit 2 or more stops it.
#   scripts/bench-quick.sh [N] [gd_check options, e.g. --golden golden.yaml]
# Run from the build directory (or set top_builddir); GD_BENCH_PORT (default 32600).
: "${top_builddir:=$PWD}"
case "$1" in -h|--help) sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
n=${1:-5}
case "$n" in ''|*[!0-9]*|0) echo "usage: $0 [N >= 1] [gd_check options]" >&2; exit 2 ;; esac
[ $# -gt 0 ] && shift
ck=$top_builddir/tools/gd_check
[ -x "$ck" ] || { echo "bench-quick: no $ck (build first)" >&2; exit 3; }
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
echo "host: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); gd_check --suite quick $*, $n runs"
i=1
while [ "$i" -le "$n" ]; do
	t0=$(date +%s.%N)
	"$ck" -p "${GD_BENCH_PORT:-32600}" --suite quick "$@" >"$tmp/out" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	[ $rc -le 1 ] || { echo "bench-quick: run $i: exit $rc" >&2; tail -20 "$tmp/out" >&2; exit 1; }
	sum=$(grep -E '^[0-9]+ checks: ' "$tmp/out" | tail -1)
	echo "$t0 $t1" | awk -v i="$i" -v rc="$rc" -v s="$sum" '{ printf "run %d: %.2f s, exit %d: %s\n", i, $2 - $1, rc, s }'
	echo "$t0 $t1" | awk '{ print $2 - $1 }' >>"$tmp/t"
	i=$((i + 1))
done
sort -g "$tmp/t" | awk '{ v[NR] = $1 } END {
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "--suite quick wall time: median %.2f s, largest %.2f s over %d runs (budget 5 s a node: %s)\n",
		m, v[NR], NR, v[NR] <= 5 ? "within" : "over" }'
