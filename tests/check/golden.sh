#!/bin/sh
# The false-pass corpus: mutated copies of the H20 fixture (sysfs tree and hwloc XML), each
# judged against the golden manifest 'gd_check --write-golden' wrote from the pristine tree.
# The golden tree PASSes (exit 0); every mutation (a GPU missing, a NIC missing, a port down,
# firmware changed, a lower rate, a narrower PCIe link of a NIC and of a GPU, a bond slave
# down) FAILs (exit 1) with the part named by its id. The copies are made here, at test time.
# Also: --suite quick --golden judges the golden file's rows; --suite quick without it says
# that it judges the node only against itself (a SKIP row "golden manifest", in every format).
. "$(dirname "$0")/lib.sh"
tmp_dir
gold="$tmp/golden.yaml"

# shellcheck disable=SC2086
"$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --write-golden "$gold" 2>"$tmp/err" ||
	{ fail "--write-golden: exit $?"; cat "$tmp/err"; finish; }
grep -q '^    - busid: "0000:9a:00.0"$' "$gold" && grep -q '^      pcie: x16 32 GT/s$' "$gold" &&
	grep -q '^      bond_slaves_up: 2$' "$gold" && grep -q '^      state: ACTIVE$' "$gold" &&
	ok "--write-golden: GPUs by bus id, each NIC's state, PCIe link and bond slaves" ||
	{ fail "--write-golden: the file"; cat "$gold"; }
printf 'version: 1\ninclude: %s\n' "$gold" >"$tmp/spec.yaml"

# mutate NAME: a fresh copy of the fixture in $tmp/NAME ($t its sysfs root, $x its XML)
mutate() {
	rm -rf "$tmp/m"
	mkdir -p "$tmp/m"
	cp -a "$H20_SYSFS" "$tmp/m/sysfs" && cp "$H20_XML" "$tmp/m/topology.xml" || exit 99
	t=$tmp/m/sysfs x=$tmp/m/topology.xml
}
# judge WHAT RC PATTERN: the copy against the golden manifest: exit RC, PATTERN in a FAIL line
judge() {
	"$GD_CHECK" --json --topology "$x" --sysfs-root "$t" "$tmp/spec.yaml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	fl=$("$PY" -c '
import json, sys
for r in map(json.loads, open(sys.argv[1])):
    if r.get("type") == "check" and r["status"] == "FAIL":
        print(r["message"] or r["check"])' "$tmp/out")
	if [ $rc -eq "$2" ] && { [ -z "$3" ] || printf '%s\n' "$fl" | grep -q -- "$3"; }; then
		ok "$1: exit $rc${3:+, FAIL names '$3'}"
	else
		fail "$1: exit $rc (want $2), FAILs: $fl"
		cat "$tmp/err"
	fi
}

mutate
judge "the golden tree" 0 ""
[ -z "$fl" ] && [ "$(grep -c '"status":"PASS"' "$tmp/out")" -ge 40 ] &&
	ok "the golden tree: no FAIL, every manifest row PASS" || fail "the golden tree: $fl"

mutate
sed -i '/pci_busid="0000:9a:00.0"/d' "$x"
judge "a GPU missing" 1 "GPU 0000:9a:00.0 missing (golden: 8 GPUs, found 7"
printf '%s\n' "$fl" | grep -q '^manifest GPU 0000:9a:00.0: ' &&
	ok "a GPU missing: its own row by bus id" || fail "a GPU missing: no row by bus id"

mutate
rm "$t/sys/class/infiniband/mlx5_bond_3"
judge "a NIC missing" 1 "NIC mlx5_bond_3 at 0000:bc:00.0 missing (golden: 4 NICs, found 3"

mutate
printf '1: DOWN\n' >"$t/sys/class/infiniband/mlx5_bond_1/ports/1/state"
judge "a port down" 1 "^manifest mlx5_bond_1 port 1 state: measured DOWN, expected ACTIVE"

mutate
printf '28.40.1000\n' >"$t/sys/class/infiniband/mlx5_bond_2/fw_ver"
judge "firmware changed" 1 "^manifest mlx5_bond_2 firmware: .*firmware 28.40.1000 does not match"

mutate
printf '100 Gb/sec (4X EDR)\n' >"$t/sys/class/infiniband/mlx5_bond_0/ports/1/rate"
judge "a lower rate" 1 "^manifest mlx5_bond_0 port 1 rate: measured 100 Gb/s, expected == 200 Gb/s"

mutate
printf '8\n' >"$t/sys/bus/pci/devices/0000:5c:00.0/current_link_width"
judge "a NIC's PCIe link narrower" 1 "^manifest mlx5_bond_1 pcie: .*trained at x8 32 GT/s"

mutate
printf '8\n' >"$t/sys/bus/pci/devices/0000:18:00.0/current_link_width"
judge "a GPU's PCIe link narrower" 1 "^manifest GPU 0000:18:00.0 pcie: .*trained at x8"

mutate
# the bond's second slave down, in /proc/net/bonding and sysfs alike
awk '/^Slave Interface:/ { n++ } n == 2 && /^MII Status:/ { $0 = "MII Status: down" } { print }' \
	"$t/proc/net/bonding/bond2" >"$tmp/bond" && cat "$tmp/bond" >"$t/proc/net/bonding/bond2"
slave=$(sed -n 's/^Slave Interface: //p' "$t/proc/net/bonding/bond2" | sed -n 2p)
[ -f "$t/sys/class/net/$slave/bonding_slave/mii_status" ] &&
	printf 'down\n' >"$t/sys/class/net/$slave/bonding_slave/mii_status"
judge "a bond slave down ($slave)" 1 "^manifest mlx5_bond_2 bond_slaves_up: measured 1, expected 2"

# the suite with the golden file: its manifest rows; without: the SKIP that says so
fx="--topology $H20_XML --sysfs-root $H20_SYSFS"
# shellcheck disable=SC2086
"$GD_CHECK" $fx --suite quick --golden "$gold" --keep-going >"$tmp/q" 2>&1
grep -q "^topology  manifest GPU 0000:9a:00.0 .* PASS " "$tmp/q" && ! grep -q "golden manifest .*SKIP" "$tmp/q" &&
	grep -q "^-- rung 2 (devices) --$" "$tmp/q" && grep -q "^-- rung 1 (stack) --$" "$tmp/q" &&
	ok "--suite quick --golden: the golden file's rows are judged; the rungs head their rows" ||
	{ fail "--suite quick --golden"; cat "$tmp/q"; }
mutate
sed -i '/pci_busid="0000:9a:00.0"/d' "$x"
"$GD_CHECK" --topology "$x" --sysfs-root "$t" --suite quick --golden "$gold" -k >"$tmp/q" 2>&1
[ $? -eq 1 ] && grep -q "GPU 0000:9a:00.0 missing (golden: 8 GPUs, found 7" "$tmp/q" &&
	ok "--suite quick --golden: a node that lost a GPU FAILs naming its bus id" ||
	{ fail "--suite quick --golden, a GPU missing"; cat "$tmp/q"; }
"$GD_CHECK" --topology "$x" --sysfs-root "$t" "$tmp/spec.yaml" >"$tmp/q" 2>&1
grep -q "^fix: a GPU of the golden manifest is gone" "$tmp/q" && ! grep -q "BIOS" "$tmp/q" &&
	ok "a GPU missing: the fix is about the GPU, not slots, BIOS NUMA and ACS" ||
	{ fail "a GPU missing: the fix"; tail -3 "$tmp/q"; }
# a suite whose first rung fails (no NVIDIA driver in the fixture): no estimate and no
# reproduce line for runs that never start
# shellcheck disable=SC2086
"$GD_CHECK" $fx --suite full >"$tmp/q" 2>&1
[ $? -eq 1 ] && grep -q "^tests .* SKIP" "$tmp/q" && ! grep -q "^reproduce" "$tmp/q" &&
	! grep -q "test run(s), about" "$tmp/q" &&
	ok "--suite full stopped at rung 1: no estimate, no reproduce line" ||
	{ fail "--suite full stopped at rung 1"; cat "$tmp/q"; }
# shellcheck disable=SC2086
"$GD_CHECK" $fx --suite quick --keep-going --json >"$tmp/q.json" 2>&1
grep -q '"check":"golden manifest","status":"SKIP"' "$tmp/q.json" &&
	grep -q 'checks this node only against itself' "$tmp/q.json" &&
	! grep -q '"check":"gpus"' "$tmp/q.json" &&
	ok "--suite quick without --golden: a SKIP row says it checks the node against itself; no self-count rows" ||
	{ fail "--suite quick without --golden"; grep golden "$tmp/q.json"; }
printf 'version: 1\nname: x\n' >"$tmp/nomf.yaml"
# shellcheck disable=SC2086
"$GD_CHECK" $fx --suite quick --golden "$tmp/nomf.yaml" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no 'manifest:' section" "$tmp/err" &&
	ok "--golden FILE without a manifest: exit 2" || { fail "--golden without a manifest"; cat "$tmp/err"; }
# shellcheck disable=SC2086
"$GD_CHECK" $fx --golden "$gold" "$tmp/spec.yaml" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "include: FILE" "$tmp/err" &&
	ok "--golden with a spec: exit 2, says include:" || { fail "--golden with a spec"; cat "$tmp/err"; }
# shellcheck disable=SC2086
"$GD_CHECK" $fx --write-golden "$tmp/spec.yaml" --suite quick >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && ok "--write-golden with --suite: exit 2" || fail "--write-golden with --suite"
"$GD_CHECK" $fx --write-golden "$tmp" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && ok "--write-golden DIR: exit 2 before writing" || fail "--write-golden DIR"
finish
