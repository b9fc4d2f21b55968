#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Soft-RoCE tier: every _bw tool's -a sweep with the DEFAULTS (no -n), server
# and client on the guest's rxe device, to the last size: both sides exit 0
# and the client prints exactly one result line per size, 2 .. 8388608 bytes
# (perftest's -a range), in order. Atomic operations have one size: -a is
# either refused with a usage error naming the reason (exit 2) or runs 8 B.
# Each sweep has a deadline (GD_SWEEP_LIMIT seconds, default 150): a sweep
# that does not finish in it fails. Needs the QEMU guest; skips (77) elsewhere.
. "$(dirname "$0")/bench-lib.sh"
need_guest

LIMIT=${GD_SWEEP_LIMIT:-150}
sizes() { local s=2; while [ $s -le 8388608 ]; do echo $s; s=$((s * 2)); done; }

# result_sizes FILE: the #bytes of every result line, in order
result_sizes() { awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 5 { print $1 }' "$1"; }

for tool in write_bw read_bw send_bw; do
	c="-d $DEV -a"
	t0=$(date +%s)
	run_pair "$tool-a" gd_$tool "$c" "$c $IP" 0 0 "$LIMIT" || continue
	echo "    $tool -a took $(($(date +%s) - t0)) s"
	got=$(result_sizes "$WORK/$tool-a.c" | tr '\n' ' ')
	want=$(sizes | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		ok "$tool -a: one result line per size, 2 .. 8388608"
	else
		ko "$tool -a: result sizes '$got', want '$want'"
	fi
done

# atomic: one size only; a refusal comes before the server listens
c="-d $DEV -a"
next_port
timeout -s KILL 60 "$BIN/gd_atomic_bw" -p $PORT $c > "$WORK/atomic.s" 2>&1 &
spid=$!
wait_listen $PORT 20 $spid
if ! kill -0 $spid 2>/dev/null; then
	wait $spid; src=$?
	if [ $src = 2 ] && grep -q 'does not apply to atomic' "$WORK/atomic.s"; then
		ok "atomic_bw -a: refused with a usage error that names the reason (exit 2)"
	else
		ko "atomic_bw -a: the server exited $src before listening"
		tail -5 "$WORK/atomic.s" | sed 's/^/    s: /'
	fi
else
	timeout -s KILL 60 "$BIN/gd_atomic_bw" -p $PORT $c $IP > "$WORK/atomic.c" 2>&1
	crc=$?
	wait $spid; src=$?
	if [ $crc = 0 ] && [ $src = 0 ] && [ "$(result_sizes "$WORK/atomic.c" | tr '\n' ' ')" = "8 " ]; then
		ok "atomic_bw -a: one result line, 8 bytes"
	else
		ko "atomic_bw -a: client exit $crc, server exit $src, sizes '$(result_sizes "$WORK/atomic.c" | tr '\n' ' ')'"
		tail -5 "$WORK/atomic.c" | sed 's/^/    c: /'
	fi
fi
finish
