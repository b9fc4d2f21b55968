#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# --initiator=proxy --proxy_threads N over libfabric (tcp and shm on loopback,
# host producers, no GPU): several proxy threads post on their own endpoints
# and read their own send CQs at once, each in a libfabric domain of its own
# opened FI_THREAD_DOMAIN (its CQs, AV and registration; fabric_ofi.h
# gd_ofi_dom_of); every op the provider has, --validate on (every QP's region),
# and the JSON says how many threads ran. -q 8 over 4 threads: two endpoints
# a domain. What each QP's descriptor, key and AV entry are is asserted in
# tests/fabric/test_ofi_domains (shm and tcp ignore a host buffer's
# descriptor: a wrong one would not fail a run here).
# The passive side (write, read, atomic servers) over shm opens as many
# domains, each driven by a progress thread of its own (session 45; over tcp
# one: gd_fabric_ofi_passive_threads); the server reports the iterations its client ran (the receivers of
# send and --write_with_imm count their completions: the same count); a
# server given other --proxy_threads than its client is refused on both
# sides (exit 2, naming the option): it would drive another number of domains.
# GD_PROXY_THREAD_COUNTS (default "2 4"): the thread counts per tool (distcheck: 4 alone).
set -u
. "${top_srcdir:-.}/tests/fabric/lib.sh"
ofi_skip_unless_built tcp
provs="tcp"
fi_info -p shm >/dev/null 2>&1 && provs="tcp shm"
shape="--initiator=proxy --producer host --scope thread --ctas 4 --threads 1 --ring_slots 64"
counts=${GD_PROXY_THREAD_COUNTS:-2 4}
last=${counts##* }
# NAME: the server's table reports the iterations its client's does
same_count() {
	local s c
	s=$(awk '/#bytes/ { getline; print $2; exit }' "$tmp/$1.s")
	c=$(awk '/#bytes/ { getline; print $2; exit }' "$tmp/$1.c")
	[ -n "$s" ] && [ "$s" = "$c" ] || ko "$1: the server reports ${s:-no} iterations, the client ${c:-no}"
}
for p in $provs; do
	tools="write_bw read_bw send_bw write_bw--write_with_imm"
	[ "$p" = shm ] && tools="$tools atomic_bw"
	for tt in $tools; do
		t=${tt%%--*} imm=()
		[ "$t" != "$tt" ] && imm=(--write_with_imm)
		for n in $counts; do
			# write_bw's run with the most threads prints JSON, which must say how many
			# ran (a pair of its own with --json, the same run, until session 42)
			json=()
			[ "$tt" = write_bw ] && [ "$n" = "$last" ] && json=(--json)
			pair "$p-$tt-$n" 0 0 "gd_$t" --fabric ofi --provider "$p" -q 4 --proxy_threads "$n" \
				$shape -n 400 --validate "${imm[@]}" "${json[@]}" --timeout 30 &&
				if [ ${#json[@]} = 1 ]; then
					expect_in "$p-json" "$tmp/$p-$tt-$n.c" "\"proxy_threads\": ?$n"
				else
					same_count "$p-$tt-$n"
				fi
		done
	done
	# the passive server over shm drives 4 domains from 4 threads (-v says so);
	# over tcp one thread (gd_fabric_ofi_passive_threads: its kernel moves the
	# bytes); a receiver (send) counts its completions in one loop: no progress threads
	pair "$p-passive-4" 0 0 gd_read_bw --fabric ofi --provider "$p" -q 4 --proxy_threads 4 $shape \
		-n 400 --validate --timeout 30 -v &&
		if [ "$p" = shm ]; then
			expect_in "$p-passive-4" "$tmp/$p-passive-4.s" "libfabric $p.*: 4 progress threads, one per domain"
		elif grep -q "progress threads" "$tmp/$p-passive-4.s"; then
			ko "$p-passive-4: a $p server started progress threads"
		fi
	pair "$p-receiver-4" 0 0 gd_send_bw --fabric ofi --provider "$p" -q 4 --proxy_threads 4 $shape \
		-n 400 --validate --timeout 30 -v &&
		! grep -q "progress threads" "$tmp/$p-receiver-4.s" ||
		ko "$p-receiver-4: a receiver started progress threads"
	# two endpoints in each thread's domain
	pair "$p-q8-4" 0 0 gd_write_bw --fabric ofi --provider "$p" -q 8 --proxy_threads 4 $shape \
		--threads 2 -n 400 --validate --timeout 30
done
# a server given other --proxy_threads than its client: refused on both sides
next_port
a=(--fabric ofi --provider tcp -q 4 $shape -n 400 --timeout 30)
timeout -k 5 60 "$T/gd_write_bw" -p "$port" "${a[@]}" --proxy_threads 2 >"$tmp/mismatch.s" 2>&1 &
spid=$!
wait_listen "$port" 10 "$spid" || true
timeout -k 5 60 "$T/gd_write_bw" -p "$port" "${a[@]}" --proxy_threads 4 127.0.0.1 >"$tmp/mismatch.c" 2>&1
rc=$?
wait "$spid"
rs=$?
if [ "$rs" = 2 ] && [ "$rc" = 2 ]; then
	echo "ok: mismatch (server --proxy_threads 2, client 4: exit 2 on both sides)"
	expect_in mismatch "$tmp/mismatch.s" "proxy threads \(--proxy_threads\): server 2, client 4"
	expect_in mismatch "$tmp/mismatch.c" "proxy threads \(--proxy_threads\): client 4, server 2"
else
	ko "mismatch: server exit $rs, client exit $rc (expected 2 and 2)"
	tail -n 4 "$tmp/mismatch.s" "$tmp/mismatch.c"
fi
# the one-thread path: one domain, as the CPU initiator's
pair "tcp-1" 0 0 gd_write_bw --fabric ofi --provider tcp -q 4 --proxy_threads 1 $shape -n 400 \
	--validate --timeout 30
exit $fail
