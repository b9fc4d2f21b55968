#!/bin/bash
# A setup timeout is a failed run naming the peer (hostile D22): a peer that does not
# answer within --timeout while the run is set up exits 1, as a peer that dies during the
# run, not 2 (usage). Over libfabric tcp and shm, both sides: a server stopped (SIGSTOP)
# after it listens leaves its client without the server's HELLO; a client that connects
# and says nothing leaves the server without the client's. What stays 2: nobody listening
# at the address (a wrong port: configuration), and a message cut short (the protocol).
. "$(dirname "$0")/lib.sh"
ofi_skip_unless_built tcp
ofi_skip_unless_built shm

for prov in tcp shm; do
	# the client: its server stopped after it listened
	next_port
	# not under timeout(1): the tool itself is stopped, then killed below
	"$T/gd_write_bw" -p "$port" --fabric ofi --provider $prov -n 50 \
		--timeout 3 >"$tmp/$prov-stopped.s" 2>&1 &
	spid=$!
	if wait_listen "$port" 20 "$spid"; then
		kill -STOP "$spid"
		timeout -k 5 60 "$T/gd_write_bw" -p "$port" --fabric ofi --provider $prov -n 50 \
			--timeout 3 127.0.0.1 >"$tmp/$prov-stopped.c" 2>&1
		rc=$?
		# TERM, then CONT: it ends on its own (its shm region removed), not killed
		kill -TERM "$spid" 2>/dev/null
		kill -CONT "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		[ $rc = 1 ] && expect_in "$prov: stopped server" "$tmp/$prov-stopped.c" \
			"no HELLO from the server \(127\.0\.0\.1:$port\) within 3 s" &&
			echo "ok: $prov: a server that does not answer during setup: the client exits 1 naming it" ||
			{ ko "$prov: stopped server: client exit $rc (want 1)"; tail -n 3 "$tmp/$prov-stopped.c"; }
	else
		ko "$prov: the server never listened"; tail -n 3 "$tmp/$prov-stopped.s"
	fi
	# the server: a client that connects and says nothing
	next_port
	timeout -k 5 60 "$T/gd_write_bw" -p "$port" --fabric ofi --provider $prov -n 50 \
		--timeout 3 >"$tmp/$prov-silent.s" 2>&1 &
	spid=$!
	if wait_listen "$port" 20 "$spid"; then
		exec 3<>"/dev/tcp/127.0.0.1/$port"
		wait "$spid"
		rs=$?
		exec 3>&-
		[ $rs = 1 ] && expect_in "$prov: silent client" "$tmp/$prov-silent.s" \
			"no HELLO from the client \(127\.0\.0\.1:[0-9]+\) within 3 s" &&
			echo "ok: $prov: a client that does not answer during setup: the server exits 1 naming it" ||
			{ ko "$prov: silent client: server exit $rs (want 1)"; tail -n 3 "$tmp/$prov-silent.s"; }
	else
		ko "$prov: the server never listened"; tail -n 3 "$tmp/$prov-silent.s"
	fi
done

# nobody listening: a configuration error (wrong port or host, no server), exit 2
next_port
timeout -k 5 60 "$T/gd_write_bw" -p "$port" --fabric ofi --provider tcp -n 50 --timeout 2 \
	127.0.0.1 >"$tmp/nobody.c" 2>&1
rc=$?
[ $rc = 2 ] && expect_in nobody "$tmp/nobody.c" "nobody listening on 127\.0\.0\.1:$port" &&
	echo "ok: nobody listening: exit 2" || { ko "nobody listening: exit $rc (want 2)"; tail -n 3 "$tmp/nobody.c"; }
# a message cut short, then silence: the protocol broke, exit 2
next_port
timeout -k 5 60 "$T/gd_write_bw" -p "$port" --fabric ofi --provider tcp -n 50 --timeout 3 \
	>"$tmp/cut.s" 2>&1 &
spid=$!
if wait_listen "$port" 20 "$spid"; then
	exec 3<>"/dev/tcp/127.0.0.1/$port"
	printf 'GDPF' >&3
	wait "$spid"
	rs=$?
	exec 3>&-
	[ $rs = 2 ] && expect_in cut "$tmp/cut.s" "stalled after 4 bytes" &&
		echo "ok: a message cut short: exit 2" || { ko "cut short: server exit $rs (want 2)"; tail -n 3 "$tmp/cut.s"; }
else
	ko "cut short: the server never listened"
fi
exit $fail
