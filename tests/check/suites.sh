#!/bin/sh
# Built-in suites on the H20 fixture (8 GPUs, 4 ConnectX bonds) and a bare one (no RDMA
# device): each suite loads and plans; quick judges topology, devices and doctor; the
# ConnectX self-test without a ConnectX is SKIP with the reason for each of its six paths
# (JUnit: 6 skipped); include: quick with an override; an unknown suite, an include loop,
# a missing included file and --suite with a spec exit 2 naming FILE:LINE:COLUMN.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
H20="--topology $H20_XML --sysfs-root $H20_SYSFS"
mkdir -p "$tmp/bare/sys/class/infiniband"
BARE="--topology $H20_XML --sysfs-root $tmp/bare"

for s in quick full gpudirect gpu-initiated connectx-selftest; do
	# shellcheck disable=SC2086
	"$GD_CHECK" $H20 --suite $s --dry-run >"$tmp/out" 2>&1 &&
		grep -q "run(s); nothing was run" "$tmp/out" && ok "--suite $s plans on the H20 fixture" ||
		{ fail "--suite $s"; cat "$tmp/out"; }
done
# shellcheck disable=SC2086
"$GD_CHECK" $H20 --suite gpudirect --dry-run 2>&1 | grep -q "^gpudirect-write-bw .*GPU7 .*--use_cuda_bus_id" &&
	ok "gpudirect: GPU memory through each GPU's nearest NIC" || fail "gpudirect runs"
# shellcheck disable=SC2086
# the fixture has no NVIDIA driver: the stack rung fails and the ladder stops there ...
"$GD_CHECK" $H20 --suite quick >"$tmp/q" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "^devices   mlx5_bond_0 port 1 state .* SKIP" "$tmp/q" &&
	grep -q "SKIP: not run: rung 1 (stack) failed" "$tmp/q" &&
	grep -q "^doctor    nvidia.driver .* FAIL" "$tmp/q" && ! grep -q "^tests " "$tmp/q" &&
	grep -q "^ladder: rung 1 (stack) failed first: nvidia.driver" "$tmp/q" &&
	ok "quick: the stack rung fails (no NVIDIA driver in the fixture), devices not run, exit 1" ||
	{ fail "quick: exit $rc"; cat "$tmp/q"; }
# ... and --keep-going judges topology, devices and doctor anyway
# shellcheck disable=SC2086
"$GD_CHECK" $H20 --suite quick --keep-going >"$tmp/q" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "^devices   mlx5_bond_0 port 1 state .* PASS" "$tmp/q" &&
	grep -q "^doctor    nvidia.driver .* FAIL" "$tmp/q" && ! grep -q "not run: rung" "$tmp/q" &&
	ok "quick --keep-going: topology, devices and doctor, no test, exit 1" ||
	{ fail "quick --keep-going: exit $rc"; cat "$tmp/q"; }
# shellcheck disable=SC2086
"$GD_CHECK" $BARE --suite connectx-selftest --junit "$tmp/cx.xml" >"$tmp/cx" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^tests     connectx .* SKIP' "$tmp/cx")" -eq 6 ] &&
	grep -q "no ConnectX (mlx5) RDMA device here.*verifies: IBGDA: DEVX QP" "$tmp/cx" &&
	ok "connectx-selftest without a ConnectX: six SKIP with the reason, exit 0" ||
	{ fail "connectx-selftest: exit $rc"; cat "$tmp/cx"; }
if have_junitparser; then
	junit_check "$tmp/cx.xml" 7 0 7 && ok "connectx-selftest JUnit: 6 skipped and the golden manifest's SKIP (no self counts)" || fail "cx JUnit"
fi
# shellcheck disable=SC2086
"$GD_CHECK" $H20 --dry-run "$SPECS/include-quick.yaml" >"$tmp/inc" 2>&1 &&
	grep -q "^extra-lat " "$tmp/inc" && ok "include: quick plus a test of its own" ||
	{ fail "include plan"; cat "$tmp/inc"; }
# shellcheck disable=SC2086
"$GD_CHECK" $H20 --keep-going "$SPECS/include-quick.yaml" >"$tmp/inc" 2>&1
grep -q "^topology  gpus .* FAIL .*8 .*== 9" "$tmp/inc" && grep -q "^devices   mlx5_bond_3 port 1 state" "$tmp/inc" &&
	ok "include: the override wins (gpus 9: FAIL), the suite's devices stay" ||
	{ fail "include override"; cat "$tmp/inc"; }
"$GD_CHECK" $H20 "$SPECS/include-loop-a.yaml" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "include-loop-b.yaml:3:10: include loop: .*include-loop-a.yaml is already being included" "$tmp/err" &&
	ok "include loop: exit 2, FILE:LINE:COLUMN" || { fail "loop: exit $rc"; cat "$tmp/err"; }
printf 'version: 1\ninclude: absent.yaml\n' >"$tmp/missing.yaml"
"$GD_CHECK" $H20 "$tmp/missing.yaml" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "missing.yaml:2:10: include: .*absent.yaml: cannot read the spec" "$tmp/err" &&
	ok "include of a missing file: exit 2, FILE:LINE:COLUMN" || { fail "missing include: exit $rc"; cat "$tmp/err"; }
"$GD_CHECK" --suite nope >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no such suite; the suites are quick, full" "$tmp/err" && ok "unknown --suite: exit 2" ||
	{ fail "unknown suite"; cat "$tmp/err"; }
"$GD_CHECK" --suite quick "$SPECS/h20-topology.yaml" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "include: quick" "$tmp/err" && ok "--suite with a spec: exit 2, says include:" ||
	{ fail "suite+spec"; cat "$tmp/err"; }
# gd_doctor's rows say its word only where it adds to the result (WARN under FAIL): no
# "PASS | PASS | PASS" rows; a FAIL says gd_doctor's evidence (newcomer 36)
printf 'version: 1\ndoctor:\n  must_pass: [kernel.version, rdma.mtu]\n' >"$tmp/doc.yaml"
"$GD_CHECK" --sysfs-root "$top_srcdir/tests/fixtures/doctor/mtu-mismatch" "$tmp/doc.yaml" >"$tmp/doc.out" 2>&1
grep -q '^doctor    kernel.version  *PASS   -  *-$' "$tmp/doc.out" &&
	grep -q '^doctor    rdma.mtu  *FAIL   -  *-$' "$tmp/doc.out" &&
	grep -q 'FAIL: rdma.mtu: gd_doctor FAIL: .*MTU mismatch' "$tmp/doc.out" &&
	! grep -q 'PASS  *PASS  *PASS' "$tmp/doc.out" &&
	ok "doctor rows: no repeated verdicts, the evidence under a FAIL" || { fail "doctor rows"; cat "$tmp/doc.out"; }
finish
