#!/bin/bash
# Soft-RoCE guest: gd_check --bundle replays (issue 30 item 9). A spec with a topology check
# (nics: 2, rxe0 and rxe_bond0) and a write test over libfabric tcp: the bundle's topology.xml
# replayed alone (gd_topo --topology, no sysfs) shows what gd_topo showed of the guest, in
# text and JSON (before: exit 3, 'no NVIDIA GPU and no RDMA device': hwloc keeps no RDMA
# device without a PCI function); gd_check counts the same NICs from it; the MANIFEST and
# the files agree both ways (tests/check/manifest-walk.sh); the libfabric report
# (gd_devinfo --fabric ofi --json) is there since a test ran over libfabric.
#   flock /tmp/gd-vm.lock scripts/gd-vm-tests --builddir $PWD tests/vm/bundle-replay.sh
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}" "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/vm/lib.sh"
vm_require_guest
ck=$top_builddir/tools/gd_check topo=$top_builddir/tools/gd_topo
command -v fi_info >/dev/null && fi_info -p tcp >/dev/null 2>&1 ||
	{ echo "SKIP: libfabric's tcp provider is not here (fi_info -p tcp)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/spec.yaml" <<'EOS'
version: 1
name: bundle replay
topology:
  nics: 2
tests:
  - name: ofi-write
    op: write
    type: bw
    size: 4K
    iterations: 50
    fabric: ofi
    provider: tcp
EOS
"$ck" -p 34100 --bundle "$tmp/b.tar.gz" "$tmp/spec.yaml" >"$tmp/run" 2>&1
rc=$?
cat "$tmp/run"
vm_check_trusted "gd_check with --bundle: exit 0" "$tmp/run" test $rc -eq 0
vm_check "the bundle unpacks" tar -xzf "$tmp/b.tar.gz" -C "$tmp"
b=$tmp/gd_check-bundle
cat "$b/MANIFEST"
for f in compact json; do
	"$topo" --format $f >"$tmp/live.$f" 2>&1
	"$topo" --topology "$b/topology.xml" --nvlinks "$b/topology.xml.nvlinks" --format $f \
		>"$tmp/replay.$f" 2>&1
	rc=$?
	echo "replay ($f, exit $rc):"
	cat "$tmp/replay.$f"
	vm_check "the bundle's topology replays alone (gd_topo --topology, $f): exit 0" test $rc -eq 0
	cmp -s "$tmp/live.$f" "$tmp/replay.$f" || diff "$tmp/live.$f" "$tmp/replay.$f"
	vm_check "the replay ($f) is what gd_topo showed of the guest" cmp -s "$tmp/live.$f" "$tmp/replay.$f"
done
vm_check "the replay names rxe0 over veth0" grep -q "rxe0 (no PCI device, over veth0)" "$tmp/replay.compact"
printf 'version: 1\ntopology:\n  nics: 2\n' >"$tmp/nics.yaml"
"$ck" --topology "$b/topology.xml" "$tmp/nics.yaml" >"$tmp/nics" 2>&1
rc=$?
vm_check "gd_check counts the bundle's 2 NICs from its topology (exit $rc)" \
	grep -q "^topology  nics .* PASS   2 " "$tmp/nics"
walk=$("$top_srcdir/tests/check/manifest-walk.sh" "$b")
vm_check "the MANIFEST names every file, and only files there${walk:+: $walk}" test -z "$walk"
vm_check "the libfabric report is in the bundle (devinfo-ofi.json, tcp)" grep -q '"tcp' "$b/devinfo-ofi.json"
vm_check "the MANIFEST names the libfabric report" grep -q '^devinfo-ofi.json gd_devinfo --fabric ofi --json (exit 0)' "$b/MANIFEST"
vm_exit
