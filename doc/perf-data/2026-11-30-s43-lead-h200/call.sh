#!/bin/bash
# Lead, session 43: the GPU tier from main's pack, then a 9-pair A/B of the tools before (2d28faa,
# the session's first main) and after the seam changes (HEAD), alternating order, pinned.
set -u
F=.carry/final
cd "$F" && tar xzf gdperf-gpu.tar.gz && cd - >/dev/null
G=$F/gdperf-gpu
mkdir -p "$OUT"
nvidia-smi -L > "$OUT/gpu.txt" 2>&1
(cd $G && unset OUT; GD_RESULTS=/tmp/tierL timeout -s KILL 300 tests/gpu/run-all.sh) >"$OUT/tier.txt" 2>&1
echo "tier rc $? $(date -u)" >>"$OUT/tier.txt"
cp /tmp/tierL/*.log "$OUT/" 2>/dev/null
export LD_LIBRARY_PATH=$G/lib
port=23000
one() { # tooldir tool provider size args -> prints one figure
	local d=$1 t=$2 p=$3 s=$4; shift 4; port=$((port+1))
	taskset -c 2 timeout 20 $d/$t --fabric ofi --provider $p -s $s -p $port "$@" >/dev/null 2>&1 &
	local sp=$!; sleep 0.3
	taskset -c 4 timeout 20 $d/$t --fabric ofi --provider $p -s $s -p $port --json "$@" 127.0.0.1 2>/dev/null | tail -1 |
		python3 -c "import json,sys
try:
  r=json.loads(sys.stdin.read())['results']; print(r.get('msg_rate_mpps', r.get('p50_usec')))
except Exception as e: print('nan')"
	wait $sp
}
{
echo "config pair order old new"
for p in shm tcp; do for c in "gd_write_bw 8 -D 1" "gd_write_bw 65536 -D 1" "gd_send_lat 8 -n 5000" "gd_send_lat 65536 -n 2000"; do
	set -- $c; t=$1; s=$2; shift 2
	for i in 1 2 3 4 5 6 7 8 9; do
		if [ $((i % 2)) = 1 ]; then o=$(one $F/old-tools $t $p $s "$@"); n=$(one $G/tools $t $p $s "$@"); ord=on
		else n=$(one $G/tools $t $p $s "$@"); o=$(one $F/old-tools $t $p $s "$@"); ord=no; fi
		echo "$t/$p/$s $i $ord $o $n"
	done
done; done
} >"$OUT/ab.txt" 2>&1
date -u >>"$OUT/ab.txt"
