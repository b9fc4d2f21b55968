#!/bin/bash
# Print the JSON Lines of every tool that runs without hardware, on every fixture
# (devinfo sysfs trees, topology XML and trees, doctor trees) into DIR.
#   tests/json/collect-fixtures.sh DIR
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
out=$1 t=$top_builddir/tools fx=$top_srcdir/tests/fixtures
mkdir -p "$out"
for d in "$fx"/sysfs/*/; do
	n=$(basename "$d")
	"$t/gd_devinfo" --json --sysfs-root "$d" >"$out/devinfo-$n.jsonl" 2>/dev/null
done
for d in "$fx"/topo/*/; do
	n=$(basename "$d") args=()
	[ -f "$d/topology.xml" ] && args+=(--topology "$d/topology.xml")
	[ -f "$d/nvlinks.txt" ] && args+=(--nvlinks "$d/nvlinks.txt")
	[ -d "$d/sysfs" ] && args+=(--sysfs-root "$d/sysfs")
	[ ${#args[@]} = 0 ] && continue
	"$t/gd_topo" --json --advice "${args[@]}" >"$out/topo-$n.jsonl" 2>/dev/null
done
for d in "$fx"/doctor/*/; do
	n=$(basename "$d")
	"$t/gd_doctor" --json --sysfs-root "$d" >"$out/doctor-$n.jsonl" 2>/dev/null
done
"$t/gd_doctor" --list --json >"$out/doctor-list.jsonl" 2>/dev/null
if [ -x "$t/gd_check" ]; then
	h20=(--topology "$fx/topo/h20/topology.xml" --sysfs-root "$fx/sysfs/h20")
	"$t/gd_check" --json --dry-run --matrix "${h20[@]}" >"$out/check-matrix-plan.jsonl" 2>/dev/null
	"$t/gd_check" --json "${h20[@]}" "$top_srcdir/tests/check/specs/h20-topology.yaml" \
		>"$out/check-h20-topology.jsonl" 2>/dev/null
fi
exit 0
