#!/bin/sh
# Inside the Soft-RoCE guest (scripts/gd-vm): gd_topo lists the rxe devices,
# says they have no PCI device, and gives them no invented link class.
# Usage: scripts/gd-vm -- tests/vm/topo-rxe.sh [BUILDDIR]
set -u
[ -n "${GD_VM:-}" ] || { echo "SKIP: not inside the gd-vm guest"; exit 77; }
b=${1:-${top_builddir:-.}}
tool=$b/tools/gd_topo
[ -x "$tool" ] || { echo "FAIL: $tool not built"; exit 1; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

out=$("$tool" 2>&1) || fail "gd_topo exited $?: $out"
echo "$out"
echo "$out" | grep -q "rxe0 (no PCI device, over veth0)" || fail "legend does not say rxe0 has no PCI device"
echo "$out" | grep -q "rxe_bond0 (no PCI device, over bond0 (bond0: " || fail "legend lacks rxe_bond0 over bond0 with its slaves"
# every cell between two software devices is X or N/A
bad=$(echo "$out" | awk '/^NIC[0-9]/ { for (i = 2; i <= NF; i++) if ($i != "X" && $i != "N/A") print $1 ": " $i }')
[ -z "$bad" ] || fail "invented classes: $bad"
json=$("$tool" --json) || fail "gd_topo --json exited $?"
echo "$json" | grep '"device":"rxe0"' | grep -q '"pci_bus_id":null' || fail "JSON gives rxe0 a PCI address"
[ $fails -eq 0 ] && echo "ok: gd_topo shows the rxe devices without a PCI class"
[ $fails -eq 0 ]
