#!/bin/sh
# gd_check --dry-run on the 8x H20 fixture (hwloc XML + sysfs tree): the matrix plan lists
# every NIC x GPU pair with the path class gd_topo shows for it (its golden
# tests/fixtures/topo/h20/expected.compact), host memory per NUMA node, line rate and PCIe
# limit; and each-gpu-nearest-nic pairs each GPU with its PIX NIC. The plan for another box
# from its XML alone (no RDMA device in sysfs here) plans each-nic-loopback on the XML's NICs
# over verbs, as the matrix, not this host's libfabric (newcomer 50), and says the devices'
# addresses are unknown.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
golden=$top_srcdir/tests/fixtures/topo/h20/expected.compact

"$GD_CHECK" --matrix --dry-run --topology "$H20_XML" --sysfs-root "$H20_SYSFS" >"$tmp/plan" 2>"$tmp/err" ||
	{ fail "--matrix --dry-run: exit $?"; cat "$tmp/err"; finish; }
grep -q "^40 run(s); nothing was run" "$tmp/plan" && ok "40 runs: 4 NICs x (8 GPUs + 2 NUMA nodes)" ||
	{ fail "run count"; cat "$tmp/plan"; }
# every GPU row of gd_topo's golden: columns 10-13 are NIC0..NIC3 = mlx5_bond_0..3
bad=0
for g in 0 1 2 3 4 5 6 7; do
	set -- $(grep "^GPU$g " "$golden")
	shift 9
	for n in 0 1 2 3; do
		want=$1
		shift
		got=$(awk -v r="mlx5_bond_$n" -v m="GPU$g" '$2 == r && $3 == m { print $4 }' "$tmp/plan")
		[ "$got" = "$want" ] || { fail "mlx5_bond_$n x GPU$g: class '$got', gd_topo says '$want'"; bad=1; }
	done
done
[ $bad = 0 ] && ok "32 NIC x GPU classes agree with gd_topo's golden table"
grep -q "^matrix  *mlx5_bond_2 host(node1)  *NODE  *200G  *504G .*--pin_cores 48-95,144-191" "$tmp/plan" &&
	grep -q "^matrix  *mlx5_bond_2 host(node0)  *SYS " "$tmp/plan" &&
	ok "host rows per NUMA node with class, line rate, PCIe limit, pinned CPUs" ||
	{ fail "host rows"; grep host "$tmp/plan"; }

cat >"$tmp/near.yaml" <<'EOS'
tests:
  - name: near
    op: write
    pairs: each-gpu-nearest-nic
    thresholds: {min_bw: 80% pcie}
EOS
"$GD_CHECK" --dry-run --topology "$H20_XML" --sysfs-root "$H20_SYSFS" "$tmp/near.yaml" >"$tmp/near" 2>&1
n=$(grep -c '^near ' "$tmp/near")
pix=$(grep -c '^near .* PIX ' "$tmp/near")
[ "$n" = 8 ] && [ "$pix" = 4 ] && grep -q -- "--use_cuda_bus_id 0000:2a:00.0" "$tmp/near" &&
	ok "each-gpu-nearest-nic: 8 GPUs, the 4 PIX pairs among them" || { fail "nearest"; cat "$tmp/near"; }

# the XML alone, without --sysfs-root, on a host without RDMA devices (as the newcomer's)
cat >"$tmp/box.yaml" <<'EOS'
tests:
  - {name: lb, op: write, size: 64K, pairs: each-nic-loopback, thresholds: {min_bw: 1 Gb/s}}
  - {name: mx, op: write, size: 64K, pairs: nic-gpu-matrix, thresholds: {min_bw: 1 Gb/s}}
EOS
if [ -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]; then
	echo "skip: XML alone: this host has RDMA devices (the case needs a host without)"
else
	"$GD_CHECK" --dry-run --topology "$H20_XML" "$tmp/box.yaml" >"$tmp/box" 2>&1
	rc=$?
	[ $rc = 0 ] && [ "$(grep -c '^lb  *mlx5_bond_[0-3] host .* gd_write_bw .*-d mlx5_bond_[0-3] ' "$tmp/box")" = 4 ] &&
		! grep -q 'ofi' "$tmp/box" &&
		grep -q '^44 run(s) name an RDMA device that has no sysfs entry.*--sysfs-root' "$tmp/box" &&
		ok "XML alone: each-nic-loopback on the XML's 4 NICs over verbs, as the matrix; the unknown addresses said" ||
		{ fail "XML alone: exit $rc"; cat "$tmp/box"; }
fi
"$GD_CHECK" --dry-run --topology "$H20_XML" --sysfs-root "$H20_SYSFS" "$tmp/box.yaml" >"$tmp/box" 2>&1
! grep -q 'no sysfs entry' "$tmp/box" && ok "with the box's sysfs tree: no unknown address" ||
	{ fail "sysfs tree: unknown addresses"; cat "$tmp/box"; }
finish
