#!/bin/bash
# Every benchmark tool over libfabric tcp and shm on loopback (no RDMA device,
# no VM): --validate, a short -a sweep, --json against doc/json.md, -q 2, -D.
set -u
. "${top_srcdir:-.}/tests/fabric/lib.sh"
ofi_skip_unless_built tcp
provs="tcp"
fi_info -p shm >/dev/null 2>&1 && provs="tcp shm"
# send_bw's --validate run is the --json one below (a pair of its own until session 42: the
# same run, its text output not looked at)
tools="write_bw write_lat read_bw read_lat send_lat atomic_bw atomic_lat"
for p in $provs; do
	for t in $tools; do
		pair "$p-$t" 0 0 "gd_$t" --fabric ofi --provider "$p" -n 50 --validate --timeout 30
	done
	pair "$p-imm" 0 0 gd_write_bw --fabric ofi --provider "$p" -n 50 --write_with_imm --validate --timeout 30
	pair "$p-sweep" 0 0 gd_write_lat --fabric ofi --provider "$p" -a -n 5 --timeout 30
	pair "$p-qps" 0 0 gd_write_bw --fabric ofi --provider "$p" -q 2 -n 50 --validate --timeout 30
	# both sides writing, above shm's inject size: there a signalled write asks transmit
	# completion only (gd_ofi_placed_above), and the bytes must still be in place
	pair "$p-bidir-validate" 0 0 gd_write_bw --fabric ofi --provider "$p" -b -s 1048576 -n 20 \
		--validate --timeout 30 &&
		expect_in "$p-bidir-validated" "$tmp/$p-bidir-validate.c" '^ validation: passed \([0-9]+ bytes checked'
	pair "$p-json" 0 0 gd_send_bw --fabric ofi --provider "$p" -n 50 --validate --json --timeout 30 &&
		expect_in "$p-json" "$tmp/$p-json.c" '"fabric": ?"ofi"'
	[ -f "$tmp/$p-json.c" ] && grep '^{' "$tmp/$p-json.c" >"$tmp/$p.jsonl"
	expect_in "$p-header" "$tmp/$p-write_bw.c" "Fabric +: ofi, provider $p"
	# no verbs-only field under libfabric; the domain as the device; the placement
	if grep -Eq 'LID|QPN|PSN|Mtu|SRQ|Lock-free|Dual-port|ibv_wr|rdma_cm QPs|Enhanced Reorder' "$tmp/$p-write_bw.c"; then
		echo "FAIL: $p: verbs-only fields in a libfabric header:"; cat "$tmp/$p-write_bw.c"; fail=1
	fi
	expect_in "$p-ofi-header" "$tmp/$p-write_bw.c" '^ Provider +: .*Domain +: [^ ]+'
	expect_in "$p-placement" "$tmp/$p-write_bw.c" '^ Placement +: CPUs [0-9]'
	if grep '^{' "$tmp/$p-json.c" | "$PY" -c 'import json, sys
sys.exit(any(set(json.loads(l)) & {"link_layer", "mtu_bytes", "port"} for l in sys.stdin))'; then :; else
		echo "FAIL: $p: verbs-only JSON fields (link_layer, mtu_bytes, port) under libfabric"; fail=1
	fi
	# perftest 4.5's labels, to the byte (its MB is 2^20 bytes, as gdperf's)
	expect_in "$p-labels" "$tmp/$p-write_bw.c" '^ #bytes     #iterations    BW peak\[MB/sec\]    BW average\[MB/sec\]   MsgRate\[Mpps\]$'
done
# A target's first message while it still waits on the setup barrier: its side channel's
# wait drove the provider and took (dropped) the receive completion the loop would count,
# and both sides waited for each other until --timeout (a write-with-imm ping-pong, 3 of 10
# runs over shm on the loaded 2-core host). The shim (slowpoll_shim.c) sleeps after each
# empty look of the side channel, so the peer's first write lands before the next progress
# call: every run of the tools before the fix failed so (10 of 10, shm and tcp).
shim="$top_builddir/tests/fabric/slowpoll_shim.so"
if [ -f "$shim" ]; then
	for p in $provs; do
		for c in "write_lat --write_with_imm --validate" "write_lat --write_with_imm" \
			"send_lat --validate"; do
			# shellcheck disable=SC2086 # the tool, then its options
			set -- $c
			LD_PRELOAD="$shim" GD_TEST_SLOW_POLL_MS=20 \
				ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
				pair "$p-first-${c// /}" 0 0 "gd_$1" "${@:2}" --fabric ofi --provider "$p" \
				-n 20 --timeout 5
		done
	done
else
	ko "first message: $shim was not built (make check builds it)"
fi
pair msg 0 0 gd_write_bw --fabric ofi --provider tcp --ep msg -n 50 --validate --timeout 30
pair proxy 0 0 gd_write_bw --fabric ofi --provider tcp --initiator=proxy -n 100 --validate --timeout 30
# host producers are threads, one per CTA, not CUDA threads (newcomer 26: "1 CTAs x 32 threads")
pair proxy-host 0 0 gd_write_bw --fabric ofi --provider tcp --initiator=proxy --producer host \
	--ctas 2 -n 100 --timeout 30 &&
	expect_in proxy-host-header "$tmp/proxy-host.c" \
		'^ Initiator +: proxy, producer host producer \(no GPU\), scope warp, 2 host producer threads \(--ctas\), 2 request groups, '
grep -q 'CTAs\? x' "$tmp/proxy-host.c" && { echo "FAIL: host producers shown as CTAs"; fail=1; }
# one number format per column at every size (newcomer 24: 0.000293 and 0.12 in one column)
if pair gbits-sweep 0 0 gd_write_bw --fabric ofi --provider tcp -a -n 5 --precision 0 --report_gbits \
	--timeout 30; then
	awk '/^ [0-9]+ +[0-9]+ / { n++; if ($4 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/) bad = bad " " $1 ":" $4 }
		END { if (n < 10 || bad != "") { print "FAIL: --report_gbits average column, " n " rows, not 6 decimals:" bad; exit 1 } }' \
		"$tmp/gbits-sweep.c" || fail=1
fi
expect_in validation "$tmp/tcp-read_bw.c" '^ validation: passed \(([0-9]+ bytes checked|checked by the peer)'
expect_in validation-atomic "$tmp/tcp-atomic_bw.s" '^ validation: passed \([0-9]+ atomics checked\)'
pair timed 0 0 gd_write_bw --fabric ofi --provider tcp -D 1 --timeout 30 &&
	expect_in timed-peak "$tmp/timed.c" '^ 65536 +[0-9]+ +- +[0-9.]+' # no peak with -D: "-", not 0.00
if command -v "$PY" >/dev/null; then
	"$PY" "$top_srcdir/tests/json/schema_check.py" "$top_srcdir/doc/json.md" "$tmp"/*.jsonl ||
		{ echo "FAIL: --json over libfabric does not match doc/json.md"; fail=1; }
	# each result record stands alone: when (UTC, ISO 8601) and by which version (newcomer 22)
	"$PY" - "$T/gd_write_bw" "$tmp"/*.jsonl <<'PYEOF' || { echo "FAIL: a result record without time or gdperf_version"; fail=1; }
import json, re, subprocess, sys
ver = subprocess.run([sys.argv[1], "--version"], capture_output=True, text=True).stdout.splitlines()[0].split()[-1]
recs = [json.loads(l) for f in sys.argv[2:] for l in open(f)]
res = [r for r in recs if r["type"] in ("bw_result", "lat_result")]
assert res, "no result records"
for r in res:
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", r.get("time", "")), r
    assert r.get("gdperf_version") == ver, (r.get("gdperf_version"), ver)
PYEOF
fi
exit $fail
