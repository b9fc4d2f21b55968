#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Soft-RoCE tier: every benchmark tool with --initiator=proxy (host producer
# threads -> proxy ring -> proxy threads -> rxe), --validate on, side channel
# and -R, on rxe0 and on the bond; shapes (QPs over proxy threads, scopes);
# then faults: client killed, server killed (peer silent), link down - each
# must end within its deadline. Needs the QEMU guest (scripts/gd-vm); skips
# (77) elsewhere.
. "$(dirname "$0")/bench-lib.sh"
. "$(dirname "$0")/lib.sh" # py
need_guest

P="--initiator=proxy --validate -n 200"
for tool in write_bw write_lat read_bw read_lat atomic_bw atomic_lat send_bw send_lat; do
	c="-d $DEV $P"
	run_pair "proxy-$tool" gd_$tool "$c" "$c $IP"
	check_out "proxy-$tool: result line" "$WORK/proxy-$tool.c" '^ [0-9]+ +200 +([0-9.]+|-) +[0-9.]+' # a peak not measured is "-"
	run_pair "proxy-$tool-R" gd_$tool "$c -R" "$c -R $IP"
	run_pair "proxy-$tool-bond" gd_$tool "-d $BOND_DEV $P" "-d $BOND_DEV $P $BOND_IP"
done
check_out "header names the initiator" "$WORK/proxy-write_bw.c" \
	'Initiator +: proxy, producer host producer \(no GPU\), scope warp, 1 host producer thread \(--ctas\), 1 request group, 1 proxy threads, 1024 ring slots, 1 QPs'

c="-d $DEV --initiator=proxy --validate"
# QPs spread over proxy threads, every scope, a tiny ring (wrap, back-pressure)
s="-q 4 --proxy_threads 2 --scope thread --ctas 2 --threads 2 --ring_slots 8"
run_pair proxy-write_bw-q4-pt2 gd_write_bw "$c $s -n 500" "$c $s -n 500 --pin_cores 0,1 $IP"
s="-q 2 --scope block --ctas 2 --threads 64"
run_pair proxy-read_bw-block gd_read_bw "$c $s -n 256" "$c $s -n 256 $IP"
s="-q 2 --proxy_threads 2 --scope thread --threads 2 -A CMP_AND_SWAP"
run_pair proxy-atomic_bw-cas gd_atomic_bw "$c $s -n 300" "$c $s -n 300 $IP"
s="-q 3 --scope thread --threads 6 -A FETCH_AND_ADD"
run_pair proxy-atomic_bw-fadd gd_atomic_bw "$c $s -n 300" "$c $s -n 300 $IP"
run_pair proxy-write_bw-imm gd_write_bw "$c --write_with_imm -n 300" "$c --write_with_imm -n 300 $IP"
run_pair proxy-send_bw-imm gd_send_bw "$c --send_with_imm -n 300" "$c --send_with_imm -n 300 $IP"
run_pair proxy-write_lat-imm gd_write_lat "$c --write_with_imm -n 100" "$c --write_with_imm -n 100 $IP"
run_pair proxy-write_bw-a gd_write_bw "$c -a -n 20" "$c -a -n 20 $IP" 0 0 180
check_out "proxy -a sweeps to 8 MiB" "$WORK/proxy-write_bw-a.c" '^ 8388608 +20 '
run_pair proxy-write_bw-json gd_write_bw "$c -n 200 --json" "$c -n 200 --json $IP"
if "$py" -c '
import json, sys
r = json.loads(open(sys.argv[1]).readline())
assert r["initiator"] == "proxy" and r["producer"] == "host producer (no GPU)", r
assert r["scope"] == "warp" and r["ctas"] == 1 and r["threads"] == 32 and r["qps"] == 1
assert r["proxy_threads"] == 1 and r["ring_slots"] == 1024
assert r["results"]["msg_rate_mpps"] > 0' "$WORK/proxy-write_bw-json.c"; then
	ok "proxy --json names initiator, producer, shape; message rate"
else
	ko "proxy --json"; cat "$WORK/proxy-write_bw-json.c"
fi
run_pair proxy-read_lat-json gd_read_lat "$c -n 100 --json" "$c -n 100 --json $IP"
check_out "proxy latency percentiles" "$WORK/proxy-read_lat-json.c" '"p99_usec"'
# a latency test needs the same --initiator on both sides
run_pair proxy-lat-mismatch gd_write_lat "-d $DEV -n 50" "$c -n 50 $IP" 2 2
check_out "initiator mismatch named" "$WORK/proxy-lat-mismatch.c" 'initiator'

# ---- faults: every case ends within its deadline ----
f="-d $DEV --initiator=proxy --timeout 4"
SLACK=20
# A fault comes mid-run: once the tool printed its table title (wait_running: the
# connection is up and the measured loop has begun), after this much traffic: 0.3 s, as
# in bench-faults.sh (1 s here until session 42), well inside every run (10^8 iterations)
MIDRUN=0.3
# expect_outcome NAME WHAT RC WANT ELAPSED LIMIT FILE REGEX: tests/lib/expect.sh
LONG="-n 100000000 -s 65536"
# client killed mid-run: the server ends
for tool in write_bw send_bw; do
	start_server proxy-kill-client-$tool gd_$tool "$f $LONG" || continue
	"$BIN/gd_$tool" -p $PORT $f $LONG $IP > "$WORK/proxy-kill-client-$tool.c" 2>&1 &
	cpid=$!
	wait_running "$WORK/proxy-kill-client-$tool.c"; sleep $MIDRUN
	t0=$SECONDS
	kill -9 $cpid; wait $cpid 2>/dev/null
	wait $spid; rc=$?
	expect_outcome proxy-kill-client-$tool server $rc 1 $((SECONDS - t0)) $SLACK "$WORK/proxy-kill-client-$tool.s" 'went away|closed|reset|no message|interrupted'
done
# server killed mid-run (the peer falls silent): the proxy client ends
for tool in write_bw read_bw; do
	start_server proxy-kill-server-$tool gd_$tool "$f $LONG" || continue
	"$BIN/gd_$tool" -p $PORT $f $LONG $IP > "$WORK/proxy-kill-server-$tool.c" 2>&1 &
	cpid=$!
	wait_running "$WORK/proxy-kill-server-$tool.c"; sleep $MIDRUN
	t0=$SECONDS
	kill -9 $spid; wait $spid 2>/dev/null
	wait $cpid; rc=$?
	expect_outcome proxy-kill-server-$tool client $rc 1 $((SECONDS - t0)) $SLACK "$WORK/proxy-kill-server-$tool.c" 'went away|closed|reset|completion error|no completion'
done
# ^C on the client: both end, the client with 128 + SIGINT
start_server proxy-sigint gd_write_bw "$f $LONG" && {
	"$BIN/gd_write_bw" -p $PORT $f $LONG $IP > "$WORK/proxy-sigint.c" 2>&1 &
	cpid=$!
	wait_running "$WORK/proxy-sigint.c"; sleep $MIDRUN
	t0=$SECONDS
	kill -INT $cpid
	wait $cpid; crc=$?; wait $spid; src=$?
	expect_outcome proxy-sigint client $crc 130 $((SECONDS - t0)) $SLACK "$WORK/proxy-sigint.c" 'interrupted by SIGINT'
	expect_outcome proxy-sigint server $src 1 $((SECONDS - t0)) $SLACK "$WORK/proxy-sigint.s" 'interrupted|went away|closed'
}
# link down mid-run: both sides end within the deadline
if [ "$(id -u)" = 0 ]; then
	netdev=$(cat /sys/class/infiniband/$DEV/ports/1/gid_attrs/ndevs/1 2>/dev/null || echo veth0)
	start_server proxy-link-down gd_write_bw "$f $LONG" && {
		"$BIN/gd_write_bw" -p $PORT $f $LONG $IP > "$WORK/proxy-link-down.c" 2>&1 &
		cpid=$!
		wait_running "$WORK/proxy-link-down.c"; sleep $MIDRUN
		t0=$SECONDS
		ip link set "$netdev" down
		wait $cpid; crc=$?; wait $spid; src=$?
		ip link set "$netdev" up; sleep 2
		expect_outcome proxy-link-down client $crc 1 $((SECONDS - t0)) $((4 + SLACK)) "$WORK/proxy-link-down.c" 'completion error|no completion'
		expect_outcome proxy-link-down server $src 1 $((SECONDS - t0)) $((4 + SLACK)) "$WORK/proxy-link-down.s" 'reported|went away|no |proxy'
	}
else
	echo "SKIP: link-down needs root"
fi
finish
