#!/bin/bash
# A peer that dies or stops mid-run is noticed (issue 30, item 2): in every
# mode (counted -n, timed -D, --run_infinitely, -b, latency), over every
# libfabric provider here (tcp, shm), whichever side goes, by SIGKILL or
# SIGSTOP, the survivor exits 1 within its deadline (--timeout) and names its
# peer. One-sided RMA to a dead or stopped shm/tcp peer may "complete"
# locally: the side channel (its EOF, or its silence past --timeout) is what
# tells. The proxy's 4 threads (pxy) too, the client going: its passive server
# drives a domain per proxy thread from a thread each, its side channel waiting
# in poll. (The proxy client whose server is killed exits 1 at once, but over
# tcp it may name only the completion error, not the server: the same on main
# 0474871, 2 of 3 runs; not this matrix's cell.)
# GD_PEER_CELLS="mode:prov:side:sig ..." runs chosen cells only.
set -u
. "${top_srcdir:-.}/tests/fabric/lib.sh"
ofi_skip_unless_built tcp

TMO=5 # --timeout of both sides (setup takes half of it for the first message)
# mode -> tool and options (short runs that would last far past the deadline)
mode_args() {
	case $1 in
	n) echo "gd_write_bw -n 100000000" ;; # the default: the matrix runs n D inf b send lat pxy
	D) echo "gd_write_bw -D 20" ;;
	inf) echo "gd_write_bw --run_infinitely -D 1" ;;
	b) echo "gd_write_bw -b -D 20" ;;
	send) echo "gd_send_bw -D 20" ;;
	read) echo "gd_read_bw -n 100000000" ;;
	lat) echo "gd_write_lat -n 100000000" ;;
	slat) echo "gd_send_lat -D 20" ;;
	# the proxy's 4 threads: the passive server drives 4 domains from 4 progress threads
	pxy) echo "gd_write_bw -n 100000000 -q 4 --initiator=proxy --producer host --scope thread --ctas 4 --threads 1 --proxy_threads 4" ;;
	esac
}

# wait (at most 30 s) until both sides run: their table headers are out
started() {
	for _ in $(seq 300); do
		grep -q '#bytes' "$1" && grep -q '#bytes' "$2" && return 0
		sleep 0.1
	done
	return 1
}

# end both sides (timeout(1) runs each tool as its child) and their wrappers
kill_all() {
	local p
	for p in "$@"; do pkill -9 -P "$p" 2> /dev/null; kill -9 "$p" 2> /dev/null; done
	wait "$@" 2> /dev/null
}

# cell MODE PROVIDER SIDE(s|c, the one that goes) SIGNAL(KILL|STOP)
cell() {
	local mode=$1 prov=$2 side=$3 sig=$4 name="$1-$2-$3-$4" spid cpid vpid
	local tool args survivor out start took rc peer
	read -r tool args <<< "$(mode_args "$mode")"
	next_port
	# shellcheck disable=SC2086
	timeout -k 5 60 "$T/$tool" -p "$port" --fabric ofi --provider "$prov" $args --timeout $TMO \
		> "$tmp/$name.s" 2>&1 &
	spid=$!
	sleep 0.3
	# shellcheck disable=SC2086
	timeout -k 5 60 "$T/$tool" -p "$port" --fabric ofi --provider "$prov" $args --timeout $TMO \
		127.0.0.1 > "$tmp/$name.c" 2>&1 &
	cpid=$!
	if ! started "$tmp/$name.s" "$tmp/$name.c"; then
		echo "FAIL: $name: the run did not start"; tail -n 3 "$tmp/$name.s" "$tmp/$name.c"
		kill_all $spid $cpid; fail=1; return
	fi
	# both headers are out: each side is in its measured loop (run_all prints the header
	# right before it); 0.2 s into it, not 0.5: both sides poll flat out until the signal
	sleep 0.2
	if [ "$side" = s ]; then vpid=$spid survivor=$cpid out="$tmp/$name.c" peer=server
	else vpid=$cpid survivor=$spid out="$tmp/$name.s" peer=client; fi
	# timeout(1) runs the tool as its child: signal the tool itself
	vpid=$(pgrep -P "$vpid" | head -n 1)
	start=$(date +%s%N)
	kill -"$sig" "$vpid"
	wait $survivor
	rc=$?
	took=$((($(date +%s%N) - start) / 1000000))
	kill -CONT "$vpid" 2> /dev/null
	kill_all $spid $cpid
	if [ $rc != 1 ] || [ $took -gt $((TMO * 1000 + 3000)) ]; then
		echo "FAIL: $name: the survivor exited $rc after $took ms (expected 1 within ${TMO} s + 3 s)"
		tail -n 4 "$out"
		fail=1
	elif ! grep -Eq "$peer \(127\.0\.0\.1:[0-9]+\)" "$out"; then
		echo "FAIL: $name: exit 1 after $took ms, but the message does not name the $peer:"
		tail -n 4 "$out"
		fail=1
	else
		echo "ok: $name: exit 1 after $took ms"
	fi
}

cells=${GD_PEER_CELLS:-}
if [ -z "$cells" ]; then
	provs=tcp
	fi_info -p shm > /dev/null 2>&1 && provs="tcp shm" || echo "note: no shm provider: tcp only"
	for m in n D inf b send lat pxy; do
		for p in $provs; do
			for s in s c; do
				[ "$m:$s" = pxy:s ] && continue # the survivor would be the proxy client
				for g in KILL STOP; do cells="$cells $m:$p:$s:$g"; done
			done
		done
	done
fi
# The cells are independent (each on its own ports and files) and mostly wait on a
# deadline: GD_PEER_JOBS of them (default 3) run at once, each in a subshell whose exit
# status is its verdict; their lines are printed in the matrix's order.
jobs=${GD_PEER_JOBS:-3}
base=$port i=0 batch=()
run_batch() {
	local k
	for k in "${batch[@]}"; do
		wait "${k%%:*}" || fail=1
		cat "$tmp/cell-${k#*:}.out"
	done
	batch=()
}
for c in $cells; do
	i=$((i + 1))
	(
		port=$((base + 2 * i)) # next_port takes the one after it: two per cell
		IFS=: read -r m p s g <<< "$c"
		cell "$m" "$p" "$s" "$g"
		exit $fail
	) > "$tmp/cell-$i.out" 2>&1 &
	batch+=("$!:$i")
	[ ${#batch[@]} -ge "$jobs" ] && run_batch
done
run_batch
exit $fail
