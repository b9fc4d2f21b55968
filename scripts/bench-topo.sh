#!/bin/sh
# Wall time of `gd_topo` against `nvidia-smi topo -m` on this machine: N runs
# each, interleaved, output discarded; prints the medians and the ratio. A run
# that exits non-zero is counted on a FAILED line and the script exits 1: a
# failed tool's time is no figure.
# Usage: bench-topo.sh [-n N] [GD_TOPO [gd_topo options...]]
set -u
n=20
if [ "${1:-}" = -n ]; then n=$2; shift 2; fi
tool=${1:-gd_topo}
[ $# -gt 0 ] && shift
command -v nvidia-smi >/dev/null 2>&1 || { echo "nvidia-smi not found" >&2; exit 77; }
command -v "$tool" >/dev/null 2>&1 || [ -x "$tool" ] || { echo "$tool not found" >&2; exit 2; }

now_ns() { date +%s%N; }

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >/tmp/bench-topo.gd.$$
: >/tmp/bench-topo.nv.$$
trap 'rm -f /tmp/bench-topo.gd.$$ /tmp/bench-topo.nv.$$' EXIT
failed=0
# one warm-up each (page cache, NVML first open)
"$tool" "$@" >/dev/null 2>&1
nvidia-smi topo -m >/dev/null 2>&1
i=0
while [ $i -lt "$n" ]; do
	t0=$(now_ns); "$tool" "$@" >/dev/null 2>&1 || failed=$((failed + 1)); t1=$(now_ns)
	echo $(((t1 - t0) / 1000)) >>/tmp/bench-topo.gd.$$
	t0=$(now_ns); nvidia-smi topo -m >/dev/null 2>&1 || failed=$((failed + 1)); t1=$(now_ns)
	echo $(((t1 - t0) / 1000)) >>/tmp/bench-topo.nv.$$
	i=$((i + 1))
done
gd=$(median </tmp/bench-topo.gd.$$)
nv=$(median </tmp/bench-topo.nv.$$)
echo "runs: $n each"
echo "gd_topo $*: median $(awk -v v="$gd" 'BEGIN { printf "%.1f", v / 1000 }') ms (min $(sort -n /tmp/bench-topo.gd.$$ | head -1) us, max $(sort -n /tmp/bench-topo.gd.$$ | tail -1) us)"
echo "nvidia-smi topo -m: median $(awk -v v="$nv" 'BEGIN { printf "%.1f", v / 1000 }') ms (min $(sort -n /tmp/bench-topo.nv.$$ | head -1) us, max $(sort -n /tmp/bench-topo.nv.$$ | tail -1) us)"
awk -v g="$gd" -v v="$nv" 'BEGIN { printf "ratio nvidia-smi/gd_topo: %.2f (gd_topo is %s)\n", v / g, g < v ? "faster" : "slower" }'
if [ $failed -gt 0 ]; then
	echo "FAILED: $failed of $((2 * n)) runs exited non-zero (rerun one by hand to see why)"
	exit 1
fi
