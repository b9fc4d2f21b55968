#!/bin/bash
# gd_check --prom in the Soft-RoCE guest, read by Debian's real node_exporter with its
# textfile AND infiniband collectors: the bandwidth and latency series of rxe0 carry
# device="rxe0",port="1", the same labels as node_infiniband_* for that port, so they join;
# --suite quick runs (exit 0) and --bundle of it unpacks with a topology that replays rxe0.
#   flock /tmp/gd-vm.lock timeout 900 scripts/gd-vm -- env top_builddir=$PWD tests/vm/check-prom.sh
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}" "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/vm/lib.sh"
vm_require_guest
ck=$top_builddir/tools/gd_check
ne=/usr/bin/prometheus-node-exporter
[ -x "$ne" ] || { echo "SKIP: $ne missing (apt-get install prometheus-node-exporter)"; exit 77; }
tmp=$(mktemp -d)
ne_pid=
trap '[ -n "$ne_pid" ] && kill "$ne_pid"; rm -rf "$tmp"' EXIT
mkdir "$tmp/tf"
"$ck" "$top_srcdir/tests/check/specs/guest-pass.yaml" --prom "$tmp/tf/gd.prom" >"$tmp/out" 2>&1
rc=$?
vm_check_trusted "guest-pass with --prom: exit 0" "$tmp/out" test $rc -eq 0
[ $rc -eq 0 ] || cat "$tmp/out"
"$ne" --web.listen-address=127.0.0.1:19100 --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$tmp/tf" --collector.infiniband >"$tmp/ne.log" 2>&1 &
ne_pid=$!
for _ in $(seq 100); do
	/usr/bin/python3 -c 'import urllib.request,sys; sys.stdout.write(urllib.request.urlopen("http://127.0.0.1:19100/metrics").read().decode())' \
		>"$tmp/scrape" 2>/dev/null && break
	sleep 0.2
done
grep -E 'gdperf_check_test_bandwidth|node_infiniband_port_data_received_bytes_total' "$tmp/scrape"
vm_check "node_exporter parsed the textfile" grep -q '^node_textfile_scrape_error 0' "$tmp/scrape"
vm_check "bandwidth series of rxe0 port 1" \
	grep -qE '^gdperf_check_test_bandwidth_bytes_per_second\{device="rxe0",.*port="1".*test="write-bw"\} [0-9.e+]+$' "$tmp/scrape"
vm_check "latency series of rxe0 port 1" \
	grep -qE '^gdperf_check_test_latency_seconds\{device="rxe0",.*port="1".*test="write-lat"\}' "$tmp/scrape"
# rxe has no ports/*/counters directory, which the infiniband collector reads: on rxe it
# exports nothing (a ConnectX does); then only the label names can be compared
if grep -q '^node_infiniband_' "$tmp/scrape"; then
	vm_check "the infiniband collector names the same device and port" \
		grep -qE '^node_infiniband_[a-z_]+\{device="rxe0",port="1"\}' "$tmp/scrape"
else
	echo "note: node_exporter's infiniband collector exports nothing for rxe (no counters/ in sysfs): join not checked here"
fi
"$ck" --suite quick --bundle "$tmp/q.tar.gz" >"$tmp/q" 2>&1
rc=$?
cat "$tmp/q"
vm_check "--suite quick: exit 0" test $rc -eq 0
vm_check "the bundle unpacks" tar -xzf "$tmp/q.tar.gz" -C "$tmp"
# rxe has no PCI device, so hwloc's export holds no NIC of it: gd_topo --export records the
# NICs it showed, and the replay shows rxe0 (tests/vm/bundle-replay.sh compares it whole)
"$top_builddir/tools/gd_topo" --topology "$tmp/gd_check-bundle/topology.xml" >"$tmp/replay" 2>&1
rc=$?
cat "$tmp/replay"
vm_check "its topology replays (exit $rc) with rxe0" grep -q "rxe0 (no PCI device, over veth0)" "$tmp/replay"
vm_check "its topology replays: exit 0" test $rc -eq 0
vm_exit
