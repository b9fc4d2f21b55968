#!/bin/bash
# gd_check in the Soft-RoCE guest (real rxe0 and rxe_bond0, the engine through its library):
# a spec that passes (exit 0) and one where every threshold kind fails (exit 1), both
# JUnit files read by Debian's python3-junitparser; the matrix host rows with a gnuplot PNG
# (size and pixel probe); bond shares on rxe_bond0; the example spec of the guest.
#   flock /tmp/gd-vm.lock timeout 900 scripts/gd-vm -- env top_builddir=$PWD tests/vm/check-specs.sh
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}" "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/vm/lib.sh"
vm_require_guest
ck=$top_builddir/tools/gd_check
specs=$top_srcdir/tests/check/specs
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
junit() { # FILE TESTS FAILURES SKIPPED
	"$py" - "$@" <<'PYEOF'
import sys
from junitparser import JUnitXml
xml = JUnitXml.fromfile(sys.argv[1])
n = f = s = 0
for suite in xml:
    for case in suite:
        n += 1
        for r in case.result:
            k = type(r).__name__
            f += k == "Failure"
            s += k == "Skipped"
            if k == "Failure" and not any(c.isdigit() for c in (r.message or "")):
                sys.exit("failure without numbers: %s: %s" % (case.name, r.message))
got, want = [n, f, s], [int(x) for x in sys.argv[2:5]]
print("junit %s: tests %d failures %d skipped %d" % (sys.argv[1], n, f, s))
sys.exit(0 if got == want else "expected %s" % want)
PYEOF
}

"$ck" "$specs/guest-pass.yaml" --junit "$tmp/pass.xml" >"$tmp/pass" 2>&1
rc=$?
cat "$tmp/pass"
vm_check_trusted "passing spec: exit 0" "$tmp/pass" test $rc -eq 0
# 12 checks and the 2 runs' port counters items (issue 33: counters judged on every run)
vm_check_trusted "passing spec: JUnit 14 tests, 0 failures" "$tmp/pass" junit "$tmp/pass.xml" 14 0 0
vm_check "reproduce line names gd_write_bw" grep -q "reproduce .*gd_write_bw .*-d rxe0" "$tmp/pass"

# --keep-going: the tests run although the devices and topology rungs fail (the ladder
# itself: tests/vm/check-ladder.sh)
"$ck" --keep-going "$specs/guest-fail.yaml" --junit "$tmp/fail.xml" >"$tmp/fail" 2>&1
rc=$?
cat "$tmp/fail"
vm_check "failing spec: exit 1" test $rc -eq 1
for c in "gpus .*FAIL" "rxe0 port 1 state .*FAIL" "mlx5_9 present .*FAIL" "bw rxe0 host: min_bw .*FAIL" \
	"peak rxe0 host: min_peak_bw .*FAIL .*90% of line rate 10" "min_msg_rate .*FAIL" "bw-pcie rxe0 host: min_bw .*SKIP" \
	"max_lat .*FAIL" "max_lat_p99 .*FAIL"; do
	vm_check "failing spec: $c" grep -q "$c" "$tmp/fail"
done
# 9 checks and the 4 runs' port counters items (they PASS: nothing was lost)
vm_check "failing spec: JUnit 13 tests, 8 failures, 1 skipped" junit "$tmp/fail.xml" 13 8 1

"$ck" --keep-going --json "$specs/guest-fail.yaml" >"$tmp/json" 2>/dev/null
vm_check "--json summary" "$py" -c "
import json,sys; r=[json.loads(l) for l in open('$tmp/json')]
s=r[-1]; assert s['type']=='check_summary' and s['fail']==8 and s['exit_code']==1, s
assert all('command' in x for x in r if x['type']=='check')"

"$ck" --matrix -D 1 -s 64K --plot "$tmp/m.png" >"$tmp/matrix" 2>&1
rc=$?
cat "$tmp/matrix"
vm_check "--matrix: exit 0" test $rc -eq 0
vm_check "--matrix: host rows of rxe0 and rxe_bond0" grep -Eq "^rxe_bond0 +host +N/A +([0-9.]+|-) +([0-9.]+|-)$" "$tmp/matrix"
vm_check "--matrix: grid" grep -q "^host  *[0-9.]* N/A  *[0-9.]* N/A" "$tmp/matrix"
vm_check "--matrix --plot: 640x240 PNG, the two cells coloured" "$py" \
	"$top_srcdir/tests/check/pngprobe.py" "$tmp/m.png" 640 240 red:3 blue:3

"$ck" "$specs/guest-sweep.yaml" --plot "$tmp/s.png" >"$tmp/sweep" 2>&1
rc=$?
cat "$tmp/sweep"
vm_check "sweep: exit 0, judged at 65536 bytes" grep -q "reproduce sweep rxe0 host: min_bw: gd_write_bw .* -s 65536" "$tmp/sweep"
vm_check "sweep --plot: 900x600 PNG with a coloured line" "$py" "$top_srcdir/tests/check/pngprobe.py" \
	"$tmp/s.png" 900 600

"$ck" "$specs/guest-bond.yaml" >"$tmp/bond" 2>&1
cat "$tmp/bond"
vm_check "bond: shares of both slaves reported" grep -q "bond0 slaves (slave netdev statistics): veth[0-9a-z_]* [0-9.]*% .* veth[0-9a-z_]* [0-9.]*%" "$tmp/bond"
# a loopback never leaves the host (the kernel routes it through lo): the shares are read
# but bond-balance is SKIP, never PASS on zero traffic
vm_check "bond: loopback traffic did not pass the slaves: SKIP" grep -q "one-qp rxe_bond0 host: bond-balance .*SKIP" "$tmp/bond"
vm_check "bond: the reason is given" grep -q "did not pass them (a loopback stays inside the host)" "$tmp/bond"
vm_check "bond: no bond-balance PASS on a loopback" bash -c "! grep -q 'bond-balance .*PASS' '$tmp/bond'"

"$ck" --example >"$tmp/ex.yaml"
vm_check "--example names both devices and the bond" grep -q "bond_mode: 802.3ad" "$tmp/ex.yaml"
"$ck" "$tmp/ex.yaml" >"$tmp/exrun" 2>&1
rc=$?
cat "$tmp/exrun"
vm_check_trusted "the guest passes its own example spec" "$tmp/exrun" test $rc -eq 0
vm_exit
