#!/bin/bash
# Print the JSON Lines of every tool that runs without hardware, on every fixture
# (devinfo sysfs trees, topology XML and trees, doctor trees) into DIR.
#   tests/json/collect-fixtures.sh DIR
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/lib/features.sh" # built_with: the runs below need libfabric built in
out=$1 t=$top_builddir/tools fx=$top_srcdir/tests/fixtures
mkdir -p "$out"
for d in "$fx"/sysfs/*/; do
	n=$(basename "$d")
	"$t/gd_devinfo" --json --sysfs-root "$d" >"$out/devinfo-$n.jsonl" 2>/dev/null
done
# --fabric ofi reads this machine's libfabric (no fixture); builds without it exit 3
"$t/gd_devinfo" --json --fabric ofi --provider tcp >"$out/devinfo-ofi.jsonl" 2>/dev/null ||
	rm -f "$out/devinfo-ofi.jsonl"
for d in "$fx"/topo/*/; do
	n=$(basename "$d") args=()
	[ -f "$d/topology.xml" ] && args+=(--topology "$d/topology.xml")
	[ -f "$d/nvlinks.txt" ] && args+=(--nvlinks "$d/nvlinks.txt")
	[ -d "$d/sysfs" ] && args+=(--sysfs-root "$d/sysfs")
	[ ${#args[@]} = 0 ] && continue
	"$t/gd_topo" --json --advice "${args[@]}" >"$out/topo-$n.jsonl" 2>/dev/null
done
# nothing found (exit 3): the one topo_summary record
"$t/gd_topo" --json --sysfs-root "$fx/sysfs/empty" >"$out/topo-empty.jsonl" 2>/dev/null
for d in "$fx"/doctor/*/; do
	n=$(basename "$d")
	"$t/gd_doctor" --json --sysfs-root "$d" >"$out/doctor-$n.jsonl" 2>/dev/null
done
"$t/gd_doctor" --list --json >"$out/doctor-list.jsonl" 2>/dev/null
# --version under --json: one version record per tool (either order of the two)
for x in "$t"/gd_*; do
	[ -x "$x" ] || continue
	"$x" --json --version >"$out/version-$(basename "$x").jsonl" 2>/dev/null
done
"$t/gd_write_bw" --version --json >"$out/version-last.jsonl" 2>/dev/null
# gd_check on the 8x H20 fixture: the --matrix plan (check_plan records), and
# every spec of tests/check/specs that parses (the bad-*.yaml ones exit 2
# before printing), run and as a plan; their tests find no device there and
# are SKIPped, nothing runs.
if [ -x "$t/gd_check" ]; then
	h20=(--topology "$fx/topo/h20/topology.xml" --sysfs-root "$fx/sysfs/h20")
	"$t/gd_check" --json --dry-run --matrix "${h20[@]}" >"$out/check-matrix-plan.jsonl" 2>/dev/null
	for f in "$top_srcdir"/tests/check/specs/*.yaml; do
		n=$(basename "$f" .yaml)
		case $n in bad-*) continue ;; esac
		"$t/gd_check" --json "${h20[@]}" "$f" >"$out/check-$n.jsonl" 2>/dev/null
		"$t/gd_check" --json --dry-run "${h20[@]}" "$f" >"$out/check-plan-$n.jsonl" 2>/dev/null
	done
	# a golden manifest of the same tree judged against it: its rows (counts, NUMA nodes,
	# PCIe links, rates, bond slaves) each with its value where it is one number
	if r=$(mktemp -d); then
		"$t/gd_check" "${h20[@]}" --write-golden "$r/golden.yaml" >/dev/null 2>&1 &&
			printf 'version: 1\ninclude: %s\n' "$r/golden.yaml" >"$r/spec.yaml" &&
			"$t/gd_check" --json "${h20[@]}" "$r/spec.yaml" >"$out/check-golden.jsonl" 2>/dev/null
		rm -rf "$r"
	fi
fi
# a run's counters item (doc/check.md, Port counters): libfabric tcp on 127.0.0.1 judged by
# rxe0 port 1 of a copy of the rxe fixture whose rcvd_seq_err is the loopback's tx_packets
lo=/sys/class/net/lo/statistics/tx_packets
if [ -x "$t/gd_check" ] && [ -r "$lo" ] && built_with libfabric && fi_info -p tcp >/dev/null 2>&1 && r=$(mktemp -d); then
	hw=$r/sys/devices/virtual/infiniband/rxe0/ports/1/hw_counters
	cp -a "$fx/sysfs/rxe/." "$r/" && mkdir -p "$hw" && echo 5 >"$hw/sent_pkts" &&
		ln -s "$lo" "$hw/rcvd_seq_err" &&
		printf 'tests:\n  - {name: ctr, op: write, size: 64K, iterations: 50, provider: tcp, %s}\n' \
			'counters_port: "rxe0:1", tolerate: {rcvd_seq_err: 1000000000}' >"$r/spec.yaml" &&
		"$t/gd_check" --json --sysfs-root "$r" "$r/spec.yaml" >"$out/check-counters.jsonl" 2>/dev/null
	rm -rf "$r"
fi
# a sweep that is not a matrix test: a sweep_point record per size (newcomer 49)
if [ -x "$t/gd_check" ] && built_with libfabric && fi_info -p tcp >/dev/null 2>&1 && r=$(mktemp -d); then
	printf 'tests:\n  - {name: sw, op: write, type: bw, sweep: [4K, 16K], iterations: 50, %s}\n' \
		'provider: tcp, retries: 0' >"$r/spec.yaml" &&
		"$t/gd_check" --json "$r/spec.yaml" >"$out/check-sweep.jsonl" 2>/dev/null
	rm -rf "$r"
fi
exit 0
