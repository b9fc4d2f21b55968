#!/bin/bash
# libfabric faults end within the deadline on both sides, with a message that
# names the provider and the fix: an unknown provider, a provider without
# what the test needs, a peer on another provider, an unknown domain, a peer
# killed mid-run.
set -u
. "${top_srcdir:-.}/tests/fabric/lib.sh"
ofi_skip_unless_built tcp

pair unknown 2 2 gd_write_bw --fabric ofi --provider nosuch -n 10 --timeout 5
expect unknown "$tmp/unknown.c" "no provider 'nosuch'.*fi_info -l"

pair no-atomic 2 2 gd_atomic_bw --fabric ofi --provider tcp --ep msg -n 10 --timeout 5
expect no-atomic "$tmp/no-atomic.c" "provider 'tcp' has no msg endpoint with FI_ATOMIC.*offers"

pair domain 2 2 gd_write_bw --fabric ofi --provider tcp --domain nosuch0 -n 10 --timeout 5
expect domain "$tmp/domain.c" "no domain .nosuch0.*it has"

# a peer on another provider: the parameter check names the difference
next_port
timeout 30 "$T/gd_write_bw" -p "$port" --fabric ofi --provider tcp -n 10 --timeout 5 >"$tmp/other.s" 2>&1 &
spid=$!
sleep 0.3
timeout 30 "$T/gd_write_bw" -p "$port" --fabric ofi --provider shm -n 10 --timeout 5 127.0.0.1 >"$tmp/other.c" 2>&1
rc=$?
wait $spid
rs=$?
[ $rc = 2 ] && [ $rs = 2 ] || { echo "FAIL: other provider: server $rs client $rc (expected 2 2)"; fail=1; }
expect other "$tmp/other.c" "libfabric provider \(--provider\)"

# wait (at most 30 s) until a run has started: its table header is out
started() {
	for _ in $(seq 300); do grep -q '#bytes' "$1" && return; sleep 0.1; done
}

# a peer that vanishes mid-run: the survivor ends within --timeout, exit 1
next_port
timeout 30 "$T/gd_write_bw" -p "$port" --fabric ofi --provider tcp -D 20 --timeout 3 >"$tmp/kill.s" 2>&1 &
spid=$!
sleep 0.3
"$T/gd_write_bw" -p "$port" --fabric ofi --provider tcp -D 20 --timeout 3 127.0.0.1 >"$tmp/kill.c" 2>&1 &
cpid=$!
started "$tmp/kill.c"
kill -9 $cpid
wait $cpid 2>/dev/null
start=$(date +%s)
wait $spid
rs=$?
took=$(( $(date +%s) - start ))
[ $rs = 1 ] || { echo "FAIL: killed peer: server exit $rs, expected 1"; cat "$tmp/kill.s"; fail=1; }
[ $took -le 15 ] || { echo "FAIL: killed peer: the server took $took s"; fail=1; }
echo "ok: killed peer: server exit $rs after $took s"

# the same, the server killed: the client (the initiator) ends within the deadline
next_port
"$T/gd_write_bw" -p "$port" --fabric ofi --provider tcp -D 20 --timeout 3 >"$tmp/kill2.s" 2>&1 &
spid=$!
sleep 0.3
timeout 30 "$T/gd_write_bw" -p "$port" --fabric ofi --provider tcp -D 20 --timeout 3 127.0.0.1 >"$tmp/kill2.c" 2>&1 &
cpid=$!
started "$tmp/kill2.c"
kill -9 $spid
wait $spid 2>/dev/null
wait $cpid
rc=$?
[ $rc = 1 ] || { echo "FAIL: killed server: client exit $rc, expected 1"; cat "$tmp/kill2.c"; fail=1; }
echo "ok: killed server: client exit $rc"
exit $fail
