#!/bin/bash
# Soft-RoCE tier: cross-check with perftest on the same guest. For each op,
# a gdperf client against a gdperf server and a perftest client against a
# perftest server with the same parameters, alternating; both must succeed
# and print the same table: the same title line, the same columns, the same
# #bytes and #iterations. (Numbers are compared by scripts/bench-vs-perftest.sh,
# a benchmark: tests assert behaviour, not timings.)
. "$(dirname "$0")/bench-lib.sh"
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/lib.sh"
need_guest
command -v ib_write_bw >/dev/null || { echo "SKIP: perftest not installed"; exit 77; }

# pt_pair NAME TOOL ARGS...: perftest server + client on $DEV through vm_perftest_pair
# (lib.sh: a failed reference pair runs again, up to 3 attempts), client output in
# $WORK/NAME.client
pt_pair() {
	local name=$1 tool=$2
	shift 2
	if vm_perftest_pair "$WORK/$name" "$tool" "$DEV" "$IP" "$@"; then ok "$name (perftest)"
	else ko "$name: perftest (the reference) failed 3 times in a row"; return 1; fi
}

result_line() { awk -v s="$2" '$1 == s && $2 ~ /^[0-9]+$/ { print; exit }' "$1"; }
title_line() { grep -E '^ +(RDMA_Write|RDMA_Read|Atomic|Send)' "$1" | head -1 | sed 's/^ *//'; }
columns() { grep -E '^ #bytes' "$1" | head -1 | sed 's/MB\/sec/MiB\/sec/g' | tr -s ' \t' ' '; }

for t in write_bw write_lat read_bw read_lat atomic_bw atomic_lat send_bw send_lat; do
	case $t in atomic_*) size=8; s="" ;; *_bw) size=4096; s="-s 4096" ;; *) size=64; s="-s 64" ;; esac
	args="-d $DEV -x 1 -n 100 $s"
	run_pair gd-$t gd_$t "$args" "$args $IP" || continue
	# shellcheck disable=SC2086 # $s: "-s SIZE" or nothing
	pt_pair pt-$t ib_$t -n 100 $s || continue
	g=$(result_line "$WORK/gd-$t.c" $size); p=$(result_line "$WORK/pt-$t.client" $size)
	gf=$(echo "$g" | awk '{print NF" "$1" "$2}'); pf=$(echo "$p" | awk '{print NF" "$1" "$2}')
	if [ -n "$g" ] && [ "$gf" = "$pf" ]; then ok "$t: same fields, #bytes, #iterations ($gf)"
	else ko "$t: result lines differ: gdperf '$g' perftest '$p'"; fi
	if [ "$(title_line "$WORK/gd-$t.c")" = "$(title_line "$WORK/pt-$t.client")" ]; then ok "$t: same title"
	else ko "$t: titles differ: '$(title_line "$WORK/gd-$t.c")' vs '$(title_line "$WORK/pt-$t.client")'"; fi
	# perftest 4.5 and 6.06 say MB/sec for 2^20 bytes, as gdperf does
	if [ "$(columns "$WORK/gd-$t.c")" = "$(columns "$WORK/pt-$t.client")" ]; then ok "$t: same columns"
	else ko "$t: columns differ: '$(columns "$WORK/gd-$t.c")' vs '$(columns "$WORK/pt-$t.client")'"; fi
done
finish
