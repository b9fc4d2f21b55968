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
# GD_PROXY_THREAD_COUNTS (default "2 4"): the thread counts per tool (distcheck: 4 alone).
set -u
. "${top_srcdir:-.}/tests/fabric/lib.sh"
ofi_skip_unless_built tcp
provs="tcp"
fi_info -p shm >/dev/null 2>&1 && provs="tcp shm"
shape="--initiator=proxy --producer host --scope thread --ctas 4 --threads 1 --ring_slots 64"
counts=${GD_PROXY_THREAD_COUNTS:-2 4}
last=${counts##* }
for p in $provs; do
	tools="write_bw read_bw send_bw"
	[ "$p" = shm ] && tools="$tools atomic_bw"
	for t in $tools; do
		for n in $counts; do
			# write_bw's run with the most threads prints JSON, which must say how many
			# ran (a pair of its own with --json, the same run, until session 42)
			json=()
			[ "$t" = write_bw ] && [ "$n" = "$last" ] && json=(--json)
			pair "$p-$t-$n" 0 0 "gd_$t" --fabric ofi --provider "$p" -q 4 --proxy_threads "$n" \
				$shape -n 400 --validate "${json[@]}" --timeout 30 &&
				if [ ${#json[@]} = 1 ]; then
					expect_in "$p-json" "$tmp/$p-$t-$n.c" "\"proxy_threads\": ?$n"
				fi
		done
	done
	# two endpoints in each thread's domain
	pair "$p-q8-4" 0 0 gd_write_bw --fabric ofi --provider "$p" -q 8 --proxy_threads 4 $shape \
		--threads 2 -n 400 --validate --timeout 30
done
# the one-thread path: one domain, as the CPU initiator's
pair "tcp-1" 0 0 gd_write_bw --fabric ofi --provider tcp -q 4 --proxy_threads 1 $shape -n 400 \
	--validate --timeout 30
exit $fail
