#!/bin/sh
# gd_check --prom against Debian's real node_exporter (prometheus-node-exporter): the
# file is written atomically into the textfile collector's directory, node_exporter
# (textfile collector only, on a loopback port) serves it, and a scrape over loopback
# finds the check status series with their labels escaped (a spec path with a quote,
# a backslash and a newline), and a run's port counters: the delta of a counter that moved
# (a fixture port bound to lo, as counters.sh) and the count sampled. Bad --prom targets exit
# 2 and leave no file.
. "$(dirname "$0")/lib.sh"
NE=${NODE_EXPORTER:-/usr/bin/prometheus-node-exporter}
[ -x "$NE" ] || { echo "SKIP: $NE missing (apt-get install prometheus-node-exporter)"; exit 77; }
tmp=$(mktemp -d) || exit 99
ne_pid=
trap '[ -n "$ne_pid" ] && kill "$ne_pid" 2>/dev/null; rm -rf "$tmp"' EXIT

# a spec whose path needs escaping in a label value
odd="$tmp/we\"ird\\na
me.yaml"
cp "$SPECS/h20-topology.yaml" "$odd"
mkdir "$tmp/tf"
"$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --prom "$tmp/tf/gd_check.prom" \
	"$odd" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ -s "$tmp/tf/gd_check.prom" ] && ok "--prom written (exit 1: the spec fails)" ||
	{ fail "--prom: exit $rc"; cat "$tmp/err"; }
[ "$(ls -A "$tmp/tf")" = gd_check.prom ] && ok "no temporary file left" || fail "left: $(ls -A "$tmp/tf")"

# a run's port counters (tests/check/counters.sh's setup): a libfabric tcp run on 127.0.0.1
# judged by a copy of the rxe fixture's port, whose hw_counters/rcvd_seq_err is bound to lo's
# tx_packets (moved by the run's own traffic) and sent_pkts stays still: one delta series for
# the counter that moved, with the check's labels, served by node_exporter beside the others
ctr=
lo=/sys/class/net/lo/statistics/tx_packets
if ! needs_libfabric "the counters series (a run over libfabric tcp)"; then
	:
elif command -v fi_info >/dev/null && fi_info -p tcp >/dev/null 2>&1 && [ -r "$lo" ]; then
	. "${top_srcdir:-.}/tests/lib/ports.sh"; test_ports
	mkdir "$tmp/root" && cp -a "$top_srcdir/tests/fixtures/sysfs/rxe/." "$tmp/root/" || exit 99
	hw=$tmp/root/sys/devices/virtual/infiniband/rxe0/ports/1/hw_counters
	mkdir -p "$hw" && echo 5 >"$hw/sent_pkts" && ln -s "$lo" "$hw/rcvd_seq_err" || exit 99
	printf 'version: 1\ntests:\n  - {name: "bw\\"tcp", op: write, type: bw, size: 64K, iterations: 200, provider: tcp, counters_port: "rxe0:1"}\n' >"$tmp/ctr.yaml"
	"$GD_CHECK" --sysfs-root "$tmp/root" -p "$port" --prom "$tmp/tf/ctr.prom" "$tmp/ctr.yaml" \
		>"$tmp/ctr.out" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && [ -s "$tmp/tf/ctr.prom" ]; then
		ctr=1; ok "--prom of a run whose error counter moved (exit 1)"
	else
		fail "counters run: exit $rc"; cat "$tmp/ctr.out"
	fi
else
	echo "note: no libfabric tcp provider or no $lo: the counters series are not checked"
fi

port=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$NE" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$tmp/tf" >"$tmp/ne.log" 2>&1 &
ne_pid=$!
"$PY" - "$port" "$tmp/scrape" <<'PYEOF' || { fail "scrape"; cat "$tmp/ne.log"; }
import sys, time, urllib.request
url = "http://127.0.0.1:%s/metrics" % sys.argv[1]
for _ in range(100):  # node_exporter is up within a second; give it 10
    try:
        body = urllib.request.urlopen(url, timeout=5).read().decode()
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("no answer from node_exporter at " + url)
open(sys.argv[2], "w").write(body)
PYEOF
if [ -s "$tmp/scrape" ]; then
	grep -q '^node_textfile_scrape_error 0' "$tmp/scrape" && ok "node_exporter parsed the file" ||
		{ fail "textfile scrape error"; grep textfile "$tmp/scrape"; cat "$tmp/tf/gd_check.prom"; }
	grep -q '^gdperf_check_status{check="nics",host=".*",section="topology"} 1$' "$tmp/scrape" &&
		grep -q '^gdperf_check_status{check="gpus",host=".*",section="topology"} 0$' "$tmp/scrape" &&
		ok "check status series served (nics FAIL=1, gpus PASS=0)" ||
		{ fail "status series"; grep gdperf "$tmp/scrape"; }
	grep -q '^gdperf_check_checks{host=".*",result="fail"} 2$' "$tmp/scrape" &&
		grep -q '^gdperf_check_exit_code{host=".*"} 1$' "$tmp/scrape" &&
		ok "counts and exit code" || fail "counts"
	grep -qF 'spec="'"$tmp"'/we\"ird\\na\nme.yaml"' "$tmp/scrape" &&
		ok "label value escaped (quote, backslash, newline)" || { fail "escaping"; grep info "$tmp/scrape"; }
	if [ -n "$ctr" ]; then
		ck='check="bw\\"tcp ofi:tcp loopback: counters"'
		grep -q '^gdperf_check_counter_delta{'"$ck"',class="error",counter="rcvd_seq_err",device="rxe0",host="[^"]*",netdev="",port="1",source="hw_counters",test="bw\\"tcp"} [1-9][0-9]*$' "$tmp/scrape" &&
			ok "the moved counter's delta served, labels escaped (check, test, device, port, counter, source, class)" ||
			{ fail "counter delta series"; grep counter "$tmp/scrape"; cat "$tmp/tf/ctr.prom"; }
		! grep -q '^gdperf_check_counter_delta{.*counter="sent_pkts"' "$tmp/scrape" &&
			grep -q '^gdperf_check_counters_sampled{'"$ck"',device="rxe0",host="[^"]*",port="1",test="bw\\"tcp"} [1-9][0-9]*$' "$tmp/scrape" &&
			ok "a still counter has no delta series; the sampled count is served" ||
			{ fail "sampled series"; grep counter "$tmp/scrape"; }
	fi
fi

# bad targets: exit 2 before anything runs, the path and the fix named, nothing written
"$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --prom "$tmp/absent/x.prom" \
	"$SPECS/h20-topology.yaml" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "cannot write .*absent/x.prom: .*its directory does not exist" "$tmp/err" &&
	ok "--prom into a missing directory: exit 2, named" || { fail "missing dir: exit $rc"; cat "$tmp/err"; }
"$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --prom "$tmp/tf/x.txt" \
	"$SPECS/h20-topology.yaml" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "only files named \*.prom" "$tmp/err" && ok "--prom without .prom: exit 2" ||
	{ fail "not .prom"; cat "$tmp/err"; }
if [ "$(id -u)" != 0 ]; then
	mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
	"$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --prom "$tmp/ro/x.prom" \
		"$SPECS/h20-topology.yaml" >/dev/null 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q "Permission denied" "$tmp/err" && [ -z "$(ls -A "$tmp/ro")" ] &&
		ok "--prom into a read-only directory: exit 2, nothing left" || { fail "ro dir"; cat "$tmp/err"; }
	chmod 755 "$tmp/ro"
else
	echo "note: root: the read-only directory case is not checked"
fi
# one series per check: a FAIL is never hidden behind a PASS of the same name (a '*' entry and
# a named one both check mlx5_bond_0's state)
printf 'version: 1\ndevices:\n  - name: "*"\n    state: ACTIVE\n  - name: mlx5_bond_0\n    state: DOWN\n' >"$tmp/ns.yaml"
"$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --prom "$tmp/ns.prom" "$tmp/ns.yaml" >/dev/null 2>&1
[ "$(grep -c 'check="mlx5_bond_0 port 1 state"' "$tmp/ns.prom")" = 1 ] &&
	grep -q 'check="mlx5_bond_0 port 1 state",rung="devices"} 1$' "$tmp/ns.prom" &&
	ok "namesakes: one series, the worst status (FAIL)" || { fail "namesakes"; grep "bond_0 port 1 state" "$tmp/ns.prom"; }
# a run over libfabric: device is the domain the provider used (the engine's fact, as the
# header's Domain line), and there is no port label (libfabric has none; it was device="",
# port="1")
if needs_libfabric "the libfabric series' labels (a run over libfabric shm)"; then
	printf 'version: 1\ntests:\n  - {name: shm-w, op: write, fabric: ofi, provider: shm, size: 4K, iterations: 200}\n' >"$tmp/ofi.yaml"
	"$GD_CHECK" -p 31700 --prom "$tmp/ofi.prom" "$tmp/ofi.yaml" >"$tmp/ofi.out" 2>&1
	line=$(grep '^gdperf_check_test_bandwidth_bytes_per_second{' "$tmp/ofi.prom")
	if [ -z "$line" ] && grep -q "no provider 'shm'" "$tmp/ofi.out"; then
		echo "note: libfabric shm not usable here: the libfabric labels are not checked"
	elif echo "$line" | grep -q 'device="[^"][^"]*"' && ! echo "$line" | grep -q 'port=' &&
		echo "$line" | grep -q 'fabric="ofi",provider="shm"'; then
		ok "libfabric series: device is the domain, no port label ($line)"
	else
		fail "libfabric labels: $line"; cat "$tmp/ofi.out"
	fi
fi
finish
