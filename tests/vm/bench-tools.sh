#!/bin/bash
# Soft-RoCE tier: every benchmark tool, server and client on the guest's rxe
# device, side channel and -R, on the bond device too, --validate on; plus
# the common perftest flags. Needs the QEMU guest (scripts/gd-vm); skips (77)
# elsewhere. Keep it short: TCG runs at ~0.3 Gb/s.
. "$(dirname "$0")/bench-lib.sh"
. "$(dirname "$0")/lib.sh" # py
need_guest

N="-n 200"
for tool in write_bw write_lat read_bw read_lat atomic_bw atomic_lat send_bw send_lat; do
	common="-d $DEV $N --validate"
	run_pair "$tool" gd_$tool "$common" "$common $IP"
	case $tool in
	*_bw) check_out "$tool: result line" "$WORK/$tool.c" '^ [0-9]+ +200 +([0-9.]+|-) +[0-9.]+' ;;
	*_lat) check_out "$tool: result line" "$WORK/$tool.c" '^ [0-9]+ +200 +[0-9.]+ +[0-9.]+' ;;
	esac
	run_pair "$tool-R" gd_$tool "$common -R" "$common -R $IP"
	run_pair "$tool-bond" gd_$tool "-d $BOND_DEV $N --validate" "-d $BOND_DEV $N --validate $BOND_IP"
done
check_out "GID auto on rxe0" "$WORK/write_bw.c" 'GID type +: RoCE v2 on veth0 \(auto'
check_out "GID auto on the bond" "$WORK/write_bw-bond.c" 'GID type +: RoCE v2 on bond0 \(auto'
check_out "-R header" "$WORK/read_bw-R.c" 'rdma_cm QPs.*: ON'

# perftest's common flags
c="-d $DEV"
run_pair write_bw-b gd_write_bw "$c -b -n 100 --validate" "$c -b -n 100 --validate $IP"
run_pair send_bw-b gd_send_bw "$c -b -n 100 --validate" "$c -b -n 100 --validate $IP"
run_pair write_bw-q2-l4 gd_write_bw "$c -q 2 -l 4 -n 100 --validate" "$c -q 2 -l 4 -n 100 --validate $IP"
run_pair write_bw-a gd_write_bw "$c -a -n 5 --validate" "$c -a -n 5 --validate $IP" 0 0 120
check_out "-a sweeps to 8 MiB" "$WORK/write_bw-a.c" '^ 8388608 +5 '
run_pair write_bw-D gd_write_bw "$c -D 2" "$c -D 2 $IP"
check_out "-D result" "$WORK/write_bw-D.c" '^ 65536 +[0-9]+ +- +[0-9.]+' # no peak with -D: "-"
run_pair write_lat-D gd_write_lat "$c -D 2" "$c -D 2 $IP"
check_out "-D latency table" "$WORK/write_lat-D.c" 't_avg\[usec\] +tps average'
run_pair send_bw-D gd_send_bw "$c -D 2 --validate" "$c -D 2 --validate $IP"
run_pair atomic_bw-cas gd_atomic_bw "$c -A CMP_AND_SWAP -q 2 --validate" "$c -A CMP_AND_SWAP -q 2 --validate $IP"
run_pair write_bw-imm gd_write_bw "$c --write_with_imm -n 100 --validate" "$c --write_with_imm -n 100 --validate $IP"
run_pair write_lat-imm gd_write_lat "$c --write_with_imm -n 100" "$c --write_with_imm -n 100 $IP"
run_pair send_lat-imm gd_send_lat "$c --send_with_imm -n 100 --validate" "$c --send_with_imm -n 100 --validate $IP"
run_pair read_bw-o gd_read_bw "$c -o 4 -n 100 --validate" "$c -o 4 -n 100 --validate $IP"
run_pair write_bw-gbits gd_write_bw "$c -n 100 --report_gbits" "$c -n 100 --report_gbits $IP"
check_out "--report_gbits title" "$WORK/write_bw-gbits.c" 'BW peak\[Gb/sec\]'
run_pair write_bw-output gd_write_bw "$c -n 100 --output=bandwidth" "$c -n 100 --output=bandwidth $IP"
check_out "--output=bandwidth is one number" "$WORK/write_bw-output.c" '^[0-9]+\.[0-9]+$'
run_pair read_lat-json gd_read_lat "$c -n 100 --json" "$c -n 100 --json $IP"
if "$py" -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1]) if l.strip()]; r=json.loads(open(sys.argv[1]).readline()); assert r["schema"] and r["results"]["p99_9_usec"] > 0 and r["gid_type"] == "RoCE v2"' "$WORK/read_lat-json.c"; then
	ok "--json lat is valid JSON with percentiles"
else
	ko "--json lat"; cat "$WORK/read_lat-json.c"
fi
run_pair write_bw-b-json gd_write_bw "$c -b -n 100 --json" "$c -b -n 100 --json $IP"
check_out "--json bidirectional has peer_results" "$WORK/write_bw-b-json.c" '"peer_results"'
run_pair write_bw-limit gd_write_bw "$c -n 100" "$c -n 100 -w 100000 $IP" 0 1
check_out "-w below the limit" "$WORK/write_bw-limit.c" 'below the limit'
run_pair write_lat-H gd_write_lat "$c -n 50" "$c -n 50 -H $IP"
check_out "-H histogram" "$WORK/write_lat-H.c" '^#, usec'
if [ "$(cat /proc/sys/vm/nr_hugepages)" = 0 ]; then echo 64 > /proc/sys/vm/nr_hugepages 2>/dev/null; fi
run_pair write_bw-huge gd_write_bw "$c -n 100 --use_hugepages --validate" "$c -n 100 --use_hugepages --validate $IP"
check_out "hugepage memory" "$WORK/write_bw-huge.c" 'Memory +: hugepage'
run_pair write_bw-R-q2 gd_write_bw "$c -R -q 2 -n 100 --validate" "$c -R -q 2 -n 100 --validate $IP"
run_pair read_bw-pin gd_read_bw "$c -n 100 --pin_cores=0" "$c -n 100 --pin_cores=0 $IP"

# --run_infinitely: a line per period until ^C, then both sides end cleanly
next_port
"$BIN/gd_write_bw" -p $PORT $c --run_infinitely -D 1 > "$WORK/inf.s" 2>&1 &
spid=$!
if wait_listen $PORT; then
	"$BIN/gd_write_bw" -p $PORT $c --run_infinitely -D 1 $IP > "$WORK/inf.c" 2>&1 &
	cpid=$!
	for i in $(seq 1 300); do
		[ "$(grep -c '^ 65536 ' "$WORK/inf.c")" -ge 3 ] && break
		sleep 0.1
	done
	kill -INT $cpid
	wait $cpid; crc=$?; wait $spid; src=$?
	lines=$(grep -c '^ 65536 ' "$WORK/inf.c")
	if [ $crc = 0 ] && [ $src = 0 ] && [ "$lines" -ge 3 ]; then
		ok "run_infinitely: $lines lines, ^C ends both sides cleanly"
	else
		ko "run_infinitely: server $src client $crc, $lines lines"; tail -5 "$WORK/inf.c" "$WORK/inf.s"
	fi
else
	ko "run_infinitely: server never listened"
fi
finish
