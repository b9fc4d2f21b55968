#!/bin/sh
# One answer about locality: on every fixture machine (hwloc XMLs, sysfs trees,
# doctor trees, and the shared H20 box when present), gd_topo --json, gd_doctor
# --json and --use_cuda=auto name the same nearest NIC and path class for every
# GPU. --use_cuda=auto is asked twice, without CUDA: gd_topo's use_cuda_auto
# field (gd_loc_gpu_for_nic) and, on sysfs trees, tests/topo/gd_auto_pick,
# which runs the benchmark's own gd_gpu_auto_pick (src/gpu/gpu_mem.c).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/lib/python.sh"
command -v "$PY" >/dev/null || { echo "SKIP: no python3"; exit 77; }
topo="$top_builddir/tools/gd_topo"
doctor="$top_builddir/tools/gd_doctor"
pick="$top_builddir/tests/topo/gd_auto_pick"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
unset GDPERF_SYSFS_ROOT
fails=0 machines=0

compare() { # name root-or-empty args...
	name=$1 root=$2
	shift 2
	"$topo" "$@" --json --advice >"$tmp/topo" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 3 ] && grep -q "nothing to show" "$tmp/err"; then
		echo "ok: $name (no GPU and no NIC)"
		return
	fi
	[ $rc -eq 0 ] || { echo "FAIL: $name: gd_topo exit $rc: $(cat "$tmp/err")"; fails=$((fails + 1)); return; }
	# gd_doctor takes the same machine options except --nvlinks (NVLink never joins a GPU and a NIC)
	dargs=$(printf '%s\n' "$@" | sed '/^--nvlinks$/,+1d')
	# shellcheck disable=SC2086
	"$doctor" $dargs --json --check topo.path >"$tmp/doctor" 2>"$tmp/err"
	[ $? -le 1 ] || { echo "FAIL: $name: gd_doctor: $(cat "$tmp/err")"; fails=$((fails + 1)); return; }
	: >"$tmp/pick"
	if [ -n "$root" ]; then
		"$pick" "$root" >"$tmp/pick" 2>"$tmp/err" ||
			{ echo "FAIL: $name: gd_auto_pick: $(cat "$tmp/err")"; fails=$((fails + 1)); return; }
	fi
	if "$PY" - "$name" "$tmp/topo" "$tmp/doctor" "$tmp/pick" <<'EOF'; then
import json, re, sys
name, topo_f, doc_f, pick_f = sys.argv[1:]
topo = [json.loads(l) for l in open(topo_f)]
gpus = {r["name"]: r["pci_bus_id"] for r in topo if r["type"] == "topo_gpu"}
nics = {r["name"]: r for r in topo if r["type"] == "topo_nic"}
near = {}  # GPU bus id -> (device, class) or None
for r in topo:
    if r["type"] == "topo_nearest_nic":
        near[gpus[r["gpu"]]] = (r["device"], r["class"]) if r["nic"] else None
doc = {}
for r in (json.loads(l) for l in open(doc_f)):
    if r["type"] != "check" or r["check"] != "topo.path" or "subject" not in r:
        continue
    m = re.match(r"GPU (\S+)(?: <-> (\S+))?$", r["subject"])
    c = re.search(r" is (PIX|PXB|PHB|NODE|SYS)[:]", r["summary"])
    doc[m.group(1)] = (m.group(2), c.group(1)) if m.group(2) and c else None
errors = []
for bdf in gpus.values():
    t, d = near.get(bdf), doc.get(bdf, "missing")
    if t != d:
        errors.append(f"GPU {bdf}: gd_topo says {t}, gd_doctor says {d}")
# --use_cuda=auto with NIC n takes a GPU whose nearest NIC is n
by_dev = {r["device"]: r for r in nics.values()}
for bdf, t in near.items():
    if not t:
        continue
    auto = by_dev[t[0]].get("use_cuda_auto")
    if auto is None or near.get(gpus[auto], (None,))[0] != t[0]:
        errors.append(f"GPU {bdf}: nearest {t[0]}, but use_cuda_auto with it is {auto}")
# the benchmark's own function agrees with gd_topo's field
for line in open(pick_f):
    dev, bdf, cls = line.split()
    r = by_dev.get(dev)
    want = gpus.get(r.get("use_cuda_auto")) if r and r.get("use_cuda_auto") else None
    got = None if bdf == "none" else bdf
    if got != want:
        errors.append(f"{dev}: gd_gpu_auto_pick takes {got}, gd_topo says {want}")
    elif got and near.get(got) and near[got][0] == dev and near[got][1] != cls:
        errors.append(f"{dev}: gd_gpu_auto_pick class {cls}, gd_topo {near[got][1]}")
for e in errors:
    print(f"FAIL: {name}: {e}")
print(f"ok: {name}: {len(gpus)} GPU(s), {len(nics)} NIC(s) agree") if not errors else None
sys.exit(1 if errors else 0)
EOF
		machines=$((machines + 1))
	else
		fails=$((fails + 1))
	fi
}

fx="$top_srcdir/tests/fixtures"
for dir in "$fx"/topo/*/; do
	m=$(basename "$dir")
	root=
	if [ -f "$dir/args" ]; then
		# shellcheck disable=SC2046
		set -- $(sed "s|@srcdir@|$top_srcdir|g" "$dir/args")
		root=$(sed -n "s|.*--sysfs-root @srcdir@\\([^ ]*\\).*|$top_srcdir\\1|p" "$dir/args")
	elif [ -f "$dir/topology.xml" ]; then
		set -- --topology "$dir/topology.xml"
		[ -f "$dir/nvlinks.txt" ] && set -- "$@" --nvlinks "$dir/nvlinks.txt"
		[ -d "$dir/sysfs" ] && set -- "$@" --sysfs-root "$dir/sysfs"
	else
		continue
	fi
	# with an XML, --use_cuda=auto never reads it: only gd_topo's field speaks for it
	compare "topo/$m" "" "$@"
done
for dir in "$fx"/sysfs/*/ "$fx"/doctor/*/; do
	compare "$(basename "$(dirname "$dir")")/$(basename "$dir")" "$dir" --sysfs-root "$dir"
done
shared=/work/shared/fixtures/h20
if [ -f "$shared/topology.xml" ]; then
	compare "shared/h20" "" --topology "$shared/topology.xml" --nvlinks "$shared/nvlinks.txt"
fi

echo "$machines machine(s) agree, $fails failure(s)"
[ $fails -eq 0 ] && [ $machines -gt 0 ] || exit 1
exit 0
