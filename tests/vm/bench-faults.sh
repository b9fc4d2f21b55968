#!/bin/bash
# Soft-RoCE tier: faults. Each case must end within its deadline with the
# right exit code and a message naming the cause. Needs the QEMU guest
# (scripts/gd-vm; the link-down case needs root); skips (77) elsewhere.
. "$(dirname "$0")/bench-lib.sh"
need_guest

c="-d $DEV --timeout 4"

# Deadlines are generous: the guest runs under TCG on a shared host (slow
# process start); what matters is that nothing waits for ever.
SLACK=15
# A fault comes mid-run: once the tool printed its table title (wait_running: the
# connection is up and the measured loop has begun), after this much traffic. It was
# 1 s in 35 cases (35 s of the test's ~146 s); 0.3 s is still well inside every run
# (20 s, or 10^8 iterations).
MIDRUN=0.3

# expect_outcome NAME WHAT RC WANT_RC ELAPSED LIMIT FILE REGEX (tests/lib/expect.sh)

# 1. client killed mid-run: the server ends at once (exit 1)
for tool in write_bw send_bw write_lat; do
	start_server kill-client-$tool gd_$tool "$c -D 20" || continue
	t0=$SECONDS
	"$BIN/gd_$tool" -p $PORT $c -D 20 $IP > "$WORK/kill-client-$tool.c" 2>&1 &
	cpid=$!
	wait_running "$WORK/kill-client-$tool.c"; sleep $MIDRUN
	t0=$SECONDS
	kill -9 $cpid; wait $cpid 2>/dev/null
	wait $spid; rc=$?
	expect_outcome kill-client-$tool server $rc 1 $((SECONDS - t0)) $SLACK "$WORK/kill-client-$tool.s" 'went away|closed|reset'
done

# 2. server killed mid-run: the client ends at once (exit 1)
for tool in write_bw read_lat send_lat; do
	start_server kill-server-$tool gd_$tool "$c -D 20" || continue
	t0=$SECONDS
	"$BIN/gd_$tool" -p $PORT $c -D 20 $IP > "$WORK/kill-server-$tool.c" 2>&1 &
	cpid=$!
	wait_running "$WORK/kill-server-$tool.c"; sleep $MIDRUN
	t0=$SECONDS
	kill -9 $spid; wait $spid 2>/dev/null
	wait $cpid; rc=$?
	expect_outcome kill-server-$tool client $rc 1 $((SECONDS - t0)) $SLACK "$WORK/kill-server-$tool.c" 'went away|closed|reset|completion error'
done

# 3. link down mid-run: both sides end within the deadline (exit 1)
if [ "$(id -u)" = 0 ]; then
	netdev=$(cat /sys/class/infiniband/$DEV/ports/1/gid_attrs/ndevs/1 2>/dev/null || echo veth0)
	start_server link-down gd_write_bw "$c -D 20" && {
		t0=$SECONDS
		"$BIN/gd_write_bw" -p $PORT $c -D 20 $IP > "$WORK/link-down.c" 2>&1 &
		cpid=$!
		wait_running "$WORK/link-down.c"; sleep $MIDRUN
		t0=$SECONDS
		ip link set "$netdev" down
		wait $cpid; crc=$?; wait $spid; src=$?
		ip link set "$netdev" up; sleep 2
		expect_outcome link-down client $crc 1 $((SECONDS - t0)) $((4 + SLACK)) "$WORK/link-down.c" 'completion error|no completion'
		expect_outcome link-down server $src 1 $((SECONDS - t0)) $((4 + SLACK)) "$WORK/link-down.s" 'reported|went away|no '
	}
else
	echo "SKIP: link-down needs root"
fi

# 4. mismatched parameters: both exit 2 naming each difference and both values
start_server mismatch gd_write_bw "$c -s 4096 -q 2" && {
	t0=$SECONDS
	timeout -s KILL 30 "$BIN/gd_write_bw" -p $PORT $c -s 65536 $IP > "$WORK/mismatch.c" 2>&1; crc=$?
	wait $spid; src=$?
	expect_outcome mismatch client $crc 2 $((SECONDS - t0)) $SLACK "$WORK/mismatch.c" '4096'
	expect_outcome mismatch server $src 2 $((SECONDS - t0)) $SLACK "$WORK/mismatch.s" '65536'
	grep -Eiq 'q(p|ps)|num_qps' "$WORK/mismatch.c" && ok "mismatch names the QP count too" ||
		ko "mismatch: QP count not named"
}

# 5. wrong port: nobody there, the client gives up after --timeout (exit 2)
start_server wrong-port gd_write_bw "$c" && {
	t0=$SECONDS
	timeout -s KILL 30 "$BIN/gd_write_bw" -p $((PORT + 500)) $c $IP > "$WORK/wrong-port.c" 2>&1; crc=$?
	expect_outcome wrong-port client $crc 2 $((SECONDS - t0)) $((4 + SLACK)) "$WORK/wrong-port.c" "$((PORT + 500))"
	kill $spid; wait $spid 2>/dev/null
}

# 6. nobody listening at all
next_port
t0=$SECONDS
timeout -s KILL 30 "$BIN/gd_read_bw" -p $PORT $c $IP > "$WORK/nobody.c" 2>&1; crc=$?
expect_outcome nobody-listening client $crc 2 $((SECONDS - t0)) $((4 + SLACK)) "$WORK/nobody.c" 'refused|connect|listen'

# 7. garbage sent to the server's port: the server fails cleanly (exit 2)
start_server garbage gd_write_bw "$c" && {
	t0=$SECONDS
	exec 3<>/dev/tcp/$IP/$PORT
	printf 'GET / HTTP/1.0\r\n\r\nthis is not gdperf\n' >&3
	wait $spid; src=$?
	exec 3>&-
	expect_outcome garbage server $src 2 $((SECONDS - t0)) $SLACK "$WORK/garbage.s" 'protocol|magic|garbage|not a gdperf'
}

# 8. a truncated message, then silence: the server's deadline ends it
start_server truncated gd_write_bw "$c" && {
	t0=$SECONDS
	exec 3<>/dev/tcp/$IP/$PORT
	printf 'GDPF' >&3
	wait $spid; src=$?
	exec 3>&-
	expect_outcome truncated server $src 2 $((SECONDS - t0)) $((4 + SLACK)) "$WORK/truncated.s" 'timed out|deadline|within|truncated'
}

# 9. two clients at once: the second is refused (exit 2), the first completes
start_server two-clients gd_write_bw "$c -D 6" && {
	t0=$SECONDS
	"$BIN/gd_write_bw" -p $PORT $c -D 6 $IP > "$WORK/two-clients.c1" 2>&1 &
	c1=$!
	sleep 2
	timeout -s KILL 30 "$BIN/gd_write_bw" -p $PORT $c -D 6 $IP > "$WORK/two-clients.c2" 2>&1; c2rc=$?
	wait $c1; c1rc=$?; wait $spid; src=$?
	expect_outcome two-clients second-client $c2rc 2 $((SECONDS - t0)) $((6 + SLACK)) "$WORK/two-clients.c2" 'busy'
	expect_outcome two-clients first-client $c1rc 0 $((SECONDS - t0)) $((6 + SLACK)) "$WORK/two-clients.c1" '^ 65536'
	expect_outcome two-clients server $src 0 $((SECONDS - t0)) $((6 + SLACK)) "$WORK/two-clients.s" '^ 65536'
}

# 10. ^C mid-run (a 20 s timed run). To the server: it tells the client, which
# names the interrupt instead of "closed the side channel: did it exit or
# crash?"; the server exits 130 (128 + SIGINT), the client 1. To the client: ^C
# ends the run early, as the end of -D would, with a report on both sides; the
# client's ends with a line naming the signal and exits 130; the server is told, marks
# the rows it reported ('# interrupted: the client was stopped ...') and exits 1 (hostile
# D25: it exited 0 with them as a normal result); a latency server never stops a
# ping-pong on its own.
# int_case SIDE TOOL SERVER_RC CLIENT_RC SERVER_RE CLIENT_RE
int_case() {
	local side=$1 tool=$2 ws=$3 wc=$4 sre=$5 cre=$6 name=int-$1-$2
	start_server $name gd_$tool "$c -D 20" || return
	"$BIN/gd_$tool" -p $PORT $c -D 20 $IP > "$WORK/$name.c" 2>&1 &
	cpid=$!
	wait_running "$WORK/$name.c"; sleep $MIDRUN
	t0=$SECONDS
	if [ "$side" = server ]; then kill -INT $spid; else kill -INT $cpid; fi
	wait $cpid; crc=$?; wait $spid; src=$?
	expect_outcome $name server $src "$ws" $((SECONDS - t0)) $SLACK "$WORK/$name.s" "$sre"
	expect_outcome $name client $crc "$wc" $((SECONDS - t0)) $SLACK "$WORK/$name.c" "$cre"
}
for tool in write_bw send_lat; do
	int_case server $tool 130 1 '# interrupted by SIGINT: .*exit 130' 'server .* reported: the peer was interrupted'
	int_case client $tool 1 130 '# interrupted: the client was stopped by SIGINT or SIGTERM' '# interrupted by SIGINT: .*exit 130'
	grep -Eq '^ (65536|2) ' "$WORK/int-client-$tool.c" && ok "int-client-$tool: the client's rows are kept" ||
		ko "int-client-$tool: no row before the interrupt line: $(tail -3 "$WORK/int-client-$tool.c")"
done

# 11. a device name that does not exist: a usage error listing the devices (exit 2)
t0=$SECONDS
timeout -s KILL 60 "$BIN/gd_write_bw" -d no_such_dev $IP > "$WORK/nodev.c" 2>&1; rc=$?
expect_outcome no-device client $rc 2 $((SECONDS - t0)) $SLACK "$WORK/nodev.c" \
	"no RDMA device named 'no_such_dev'"
grep -q "devices here: .*rxe0" "$WORK/nodev.c" && ok "no-device lists the devices" ||
	ko "no-device does not list the devices: $(tail -2 "$WORK/nodev.c")"
# 12. issue 19 (hostile round 3). -I beyond the device's inline limit: one message naming
# -I and the limit, not a second one blaming -t/-r/-q (L11); both sides end (exit 2).
start_server inline-big gd_write_bw "$c -I 1024 -s 512 -n 100" && {
	t0=$SECONDS
	timeout -s KILL 60 "$BIN/gd_write_bw" -p $PORT $c -I 1024 -s 512 -n 100 $IP > "$WORK/inline-big.c" 2>&1; rc=$?
	wait $spid; src=$?
	expect_outcome inline-big client $rc 2 $((SECONDS - t0)) $SLACK "$WORK/inline-big.c" \
		"error: -I/--inline_size 1024: $DEV takes at most [0-9]+ bytes of inline data .*lower -I to [0-9]+"
	grep -q 'lower -t/-r/-q' "$WORK/inline-big.c" "$WORK/inline-big.s" &&
		ko "inline-big: a second message blames -t/-r/-q" || ok "inline-big: one cause named"
	[ "$src" != 0 ] && ok "inline-big: server exit $src" || ko "inline-big: server exit 0"
}
# 13. issue 30 item 2: a peer that dies (SIGKILL) or stops (SIGSTOP) in every
# mode of the bandwidth engine (counted, timed, --run_infinitely, -b, send) and of
# latency, whichever side goes (the matrix of tests/fabric/ofi-peer-death.sh): the survivor exits 1 within --timeout (4 s)
# plus the slack, naming its peer. A stopped verbs peer still ACKs nothing:
# before the side channel's heartbeat a passive side of a counted run waited
# for ever on a stopped client.
# peer_case NAME TOOL "MODE OPTIONS" SIDE(server|client) SIGNAL
peer_case() {
	local name=$1 tool=$2 m=$3 side=$4 sig=$5 cpid vpid out peer rc
	start_server "$name" "$tool" "$c $m" || return
	"$BIN/$tool" -p $PORT $c $m $IP > "$WORK/$name.c" 2>&1 &
	cpid=$!
	wait_running "$WORK/$name.c"; wait_running "$WORK/$name.s"; sleep $MIDRUN
	if [ "$side" = server ]; then vpid=$spid survivor=$cpid out="$WORK/$name.c" peer=server
	else vpid=$cpid survivor=$spid out="$WORK/$name.s" peer=client; fi
	t0=$SECONDS
	kill -"$sig" $vpid
	wait $survivor; rc=$?
	kill -CONT $vpid 2> /dev/null; kill -9 $vpid 2> /dev/null; wait $vpid 2> /dev/null
	expect_outcome "$name" "surviving $([ $side = server ] && echo client || echo server)" $rc 1 \
		$((SECONDS - t0)) $((4 + SLACK)) "$out" "$peer \\([0-9.:]+\\)"
}
for m in "n:-n 100000000" "D:-D 20" "inf:--run_infinitely -D 1" "b:-b -D 20"; do
	for side in server client; do
		for sig in KILL STOP; do
			peer_case "peer-${m%%:*}-$side-$sig" gd_write_bw "${m#*:}" $side $sig
		done
	done
done
# send (the receiver counts, a two-sided path of its own) and latency, each side, each signal
for side in server client; do
	for sig in KILL STOP; do
		peer_case "peer-send-$side-$sig" gd_send_bw "-D 20" $side $sig
		peer_case "peer-lat-$side-$sig" gd_write_lat "-n 100000000" $side $sig
	done
done

# --initiator=ibgda on rxe: the refusal carries the tool's prefix like every message (L12)
timeout -s KILL 60 "$BIN/gd_write_bw" $c --initiator=ibgda > "$WORK/ibgda-prefix" 2>&1; rc=$?
expect_outcome ibgda-prefix tool $rc 3 0 $SLACK "$WORK/ibgda-prefix" '^gd_write_bw: error: --initiator=ibgda: '
finish
