#!/bin/bash
# Inside the Soft-RoCE guest (scripts/gd-vm): gd_devinfo on real rxe devices and
# bonds. The netdev map, the default GID index, the verbs MTUs and the bond
# agree with what the kernel says; an unknown -d lists the real devices; a bond
# slave taken down shows as down with a warning. The bond this test breaks is
# its own (bond9), so the guest's bond0 stays as the other tests expect it.
# Usage: scripts/gd-vm -- tests/vm/devinfo-rxe.sh   (or through scripts/gd-vm-tests)
set -u
. "${top_srcdir:?}/tests/vm/lib.sh"
vm_require_guest
tool=${top_builddir:-$top_srcdir}/tools/gd_devinfo
[ -x "$tool" ] || { echo "FAIL: $tool not built"; exit 1; }
work=$(mktemp -d)

# --- the whole report
start=$(date +%s%N)
"$tool" >"$work/out" 2>"$work/err"
rc=$?
echo "gd_devinfo took $((($(date +%s%N) - start) / 1000000)) ms (TCG guest)"
cat "$work/out" "$work/err"
vm_check "gd_devinfo exits 0 (got $rc)" test "$rc" = 0
for map in "rxe0 port 1 ==> veth0 (Up)" "rxe_bond0 port 1 ==> bond0 (Up)"; do
	vm_check "netdev map: $map" grep -qxF "$map" "$work/out"
done
vm_check "rxe0 has no PCI parent and runs over veth0" \
	grep -q "parent netdev:    veth0" "$work/out"

# --- JSON against the kernel's own answers
"$tool" --json >"$work/json" 2>/dev/null
vm_check "gd_devinfo --json exits 0" test $? = 0
for pair in "rxe0:${GD_VM_IP:-10.0.0.1}:veth0" "rxe_bond0:${GD_VM_BOND_IP:-10.0.1.1}:bond0"; do
	IFS=: read -r dev ip netdev <<<"$pair"
	gid=$(vm_roce_v2_gid "$dev" "$ip") || { vm_fail "$dev: no RoCE v2 GID for $ip"; continue; }
	mtu=$(ibv_devinfo -d "$dev" | sed -n 's/.*active_mtu:[[:space:]]*\([0-9]*\).*/\1/p')
	vm_check "$dev: JSON default GID $gid, active MTU $mtu, netdev $netdev" "$py" - "$work/json" \
		"$dev" "$gid" "$mtu" "$netdev" <<'PY'
import json, sys
path, dev, gid, mtu, netdev = sys.argv[1:]
recs = [json.loads(l) for l in open(path)]
assert all(r["schema"] == 1 and r["tool"] == "gd_devinfo" for r in recs)
d = [r for r in recs if r["type"] == "device" and r["name"] == dev][0]
p = d["ports"][0]
assert d["verbs_known"] and d["pci_addr"] is None and d["parent_netdev"] == netdev, d
assert p["default_roce_v2_gid_index"] == int(gid), p["default_roce_v2_gid_index"]
assert p["active_mtu_bytes"] == int(mtu), (p["active_mtu_bytes"], mtu)
assert p["netdev"] == netdev and p["netdev_state"] == "Up", p
assert recs[-1]["type"] == "summary" and recs[-1]["verbs"] == "queried", recs[-1]
PY
done
slaves=$(sed -n 's/^Slave Interface: //p' /proc/net/bonding/bond0 | sort | tr '\n' ' ')
vm_check "bond0 slaves as in /proc/net/bonding ($slaves)" "$py" - "$work/json" "$slaves" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
b = [r for r in recs if r["type"] == "bond" and r["name"] == "bond0"][0]
names = " ".join(sorted(s["name"] for s in b["slaves"])) + " "
assert names == sys.argv[2], (names, sys.argv[2])
assert b["rdma_devices"] == ["rxe_bond0"] and b["xmit_hash_policy"] == "layer3+4", b
assert all(s["mii_status"] == "up" and s["speed_mbps"] == 10000 for s in b["slaves"]), b
PY

# --- an unknown device: exit 2, naming the devices that exist
"$tool" -d mlx5_9 >/dev/null 2>"$work/err"
rc=$?
cat "$work/err"
vm_check "-d mlx5_9 exits 2 (got $rc)" test "$rc" = 2
vm_check "-d mlx5_9 lists rxe0 and rxe_bond0" grep -q "devices here: rxe0, rxe_bond0" "$work/err"

# --- a bond slave down, on our own bond9
cleanup() { ip link del bond9 2>/dev/null; ip link del veth8 2>/dev/null; ip link del veth9 2>/dev/null; }
trap cleanup EXIT
ip link add veth8 type veth peer name peer8 && ip link add veth9 type veth peer name peer9 &&
	ip link add bond9 type bond mode balance-xor xmit_hash_policy layer3+4 miimon 100 &&
	ip link set veth8 master bond9 && ip link set veth9 master bond9 &&
	ip link set peer8 up && ip link set peer9 up && ip link set bond9 up ||
	vm_fail "cannot build bond9"
sleep 1
ip link set peer9 down # veth9 loses its carrier
for _ in 1 2 3 4 5 6 7 8 9 10; do
	grep -A1 'Slave Interface: veth9' /proc/net/bonding/bond9 | grep -q 'MII Status: down' && break
	sleep 0.5
done
"$tool" >"$work/out" 2>"$work/err"
rc=$?
sed -n '/^bond9/,/^$/p' "$work/out"
cat "$work/err"
vm_check "a slave down is a warning, not an error (exit $rc)" test "$rc" = 0
vm_check "bond9: veth9 shown MII down" grep -Eq '^ +veth9 +- +.* down +[0-9]+ ' "$work/out"
vm_check "warning names bond9 and veth9" grep -q "bond9: slave veth9 is down" "$work/err"
vm_check "warning says 1 of 2 slaves up" grep -q "bond9: 1 of 2 slaves up" "$work/err"
rm -rf "$work"
vm_exit
