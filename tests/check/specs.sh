#!/bin/sh
# gd_check's spec errors end to end: every bad spec in tests/check/specs/bad-*.yaml names
# FILE:LINE:COLUMN and exits 2 (its first line says "# expect: LINE:COLUMN WORDS");
# --example round-trips; topology checks against the H20 fixture give PASS and FAIL,
# exit 1, and JUnit that junitparser reads.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

for spec in "$SPECS"/bad-*.yaml; do
	expect=$(sed -n '1s/^# expect: //p' "$spec")
	pos=${expect%% *}
	words=${expect#* }
	"$GD_CHECK" "$spec" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 2 ]; then fail "$(basename "$spec"): exit $rc, expected 2"; cat "$tmp/err"; continue; fi
	if ! grep -q "$(basename "$spec"):$pos: .*$words" "$tmp/err"; then
		fail "$(basename "$spec"): expected '$pos: ...$words' in:"; cat "$tmp/err"; continue
	fi
	ok "$(basename "$spec"): $(cut -c1-120 "$tmp/err")"
done
"$GD_CHECK" "$tmp/absent.yaml" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "cannot read the spec: No such file" "$tmp/err" && ok "a missing spec: exit 2" || fail "missing spec"
"$GD_CHECK" 2>"$tmp/err"
[ $? -eq 2 ] && ok "no spec: exit 2" || fail "no spec"

# --example for the H20 fixture is a spec gd_check accepts
"$GD_CHECK" --example --topology "$H20_XML" --sysfs-root "$H20_SYSFS" >"$tmp/ex.yaml" ||
	fail "--example"
"$GD_CHECK" --dry-run --topology "$H20_XML" --sysfs-root "$H20_SYSFS" "$tmp/ex.yaml" >"$tmp/out" 2>&1 &&
	grep -q "run(s); nothing was run" "$tmp/out" && ok "--example round trip (H20 fixture)" ||
	{ fail "--example round trip"; cat "$tmp/out"; }
grep -q "gpus: 8" "$tmp/ex.yaml" && grep -q "worst_gpu_nic_class: NODE" "$tmp/ex.yaml" &&
	ok "--example counts and classes" || fail "--example content"
# ... and for a machine without an RDMA device (a GPU box before its NICs are in): the
# spec it writes loads (an empty 'devices:' would be a null, not a list)
mkdir -p "$tmp/bare/sys/class/infiniband"
"$GD_CHECK" --example --topology "$H20_XML" --sysfs-root "$tmp/bare" >"$tmp/ex0.yaml" ||
	fail "--example without RDMA devices"
"$GD_CHECK" --dry-run --topology "$H20_XML" --sysfs-root "$tmp/bare" "$tmp/ex0.yaml" >"$tmp/out" 2>&1 &&
	grep -q "run(s); nothing was run" "$tmp/out" && ok "--example round trip without RDMA devices" ||
	{ fail "--example round trip without RDMA devices"; cat "$tmp/ex0.yaml" "$tmp/out"; }
# an empty list key is named as such, with the fix
printf 'version: 1\ndevices:\n' >"$tmp/empty.yaml"
"$GD_CHECK" --dry-run "$tmp/empty.yaml" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "devices must be a list.*not an empty value (write \[\] for none" "$tmp/err" &&
	ok "an empty devices: exit 2, named" || { fail "empty devices:"; cat "$tmp/err"; }

# topology against the H20 fixture: gpus/numa PASS, nics and worst class FAIL
"$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --junit "$tmp/t.xml" \
	"$SPECS/h20-topology.yaml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || { fail "h20-topology: exit $rc, expected 1"; cat "$tmp/out" "$tmp/err"; }
grep -q "^topology  gpus .* PASS" "$tmp/out" && grep -q "^topology  nics .* FAIL" "$tmp/out" &&
	grep -q "worst_gpu_nic_class .* FAIL .*NODE (GPU0)" "$tmp/out" &&
	ok "h20-topology: PASS and FAIL lines" || { fail "h20-topology table"; cat "$tmp/out"; }
grep -q "spec .*h20-topology.yaml (sha256 $(sha256sum "$SPECS/h20-topology.yaml" | cut -c1-16)" \
	"$tmp/out" && ok "the report names the spec's sha256" || fail "sha256 in the header"
if have_junitparser; then
	junit_check "$tmp/t.xml" 5 2 0 && ok "JUnit read by junitparser" || fail "JUnit"
	# hostile strings through the libxml2 writer: control bytes and U+FFFE become '?',
	# markup is escaped, UTF-8 letters stay; the file parses as XML 1.0
	"$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --junit "$tmp/h.xml" \
		"$SPECS/hostile-names.yaml" >/dev/null 2>&1
	junit_check "$tmp/h.xml" 1 1 0 && "$PY" - "$tmp/h.xml" <<'PYEOF' &&
import sys, xml.etree.ElementTree as ET
case = ET.parse(sys.argv[1]).getroot().find(".//testcase")
assert case.get("name") == 'x?<&"?]?\u00e9\x7f present', repr(case.get("name"))
PYEOF
		ok "JUnit: control bytes, markup and U+FFFE in a name" || { fail "hostile JUnit"; cat "$tmp/h.xml"; }
else
	echo "note: python3-junitparser missing: JUnit not validated"
fi
"$GD_CHECK" --json --topology "$H20_XML" --sysfs-root "$H20_SYSFS" "$SPECS/h20-topology.yaml" \
	>"$tmp/j" 2>/dev/null
"$PY" - "$tmp/j" <<'PYEOF' && ok "--json: JSON Lines with schema, types, summary" || fail "--json"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert all(r["schema"] == 1 for r in recs)
assert recs[0]["type"] == "check_run" and len(recs[0]["spec_sha256"]) == 64
assert recs[-1]["type"] == "check_summary" and recs[-1]["fail"] == 2 and recs[-1]["exit_code"] == 1
assert sum(r["type"] == "check" for r in recs) == 5
PYEOF
# --matrix without a spec says what it ran, and its hash is of that (newcomer 48: the
# header showed the sha256 of nothing, e3b0c442...)
mkdir -p "$tmp/nodev/sys/class/infiniband"
"$GD_CHECK" --matrix --sysfs-root "$tmp/nodev" >"$tmp/mx1" 2>&1
"$GD_CHECK" --matrix -s 4K --sysfs-root "$tmp/nodev" >"$tmp/mx2" 2>&1
h1=$(sed -n '1s/.*(sha256 \([0-9a-f]*\)\.\.\.)$/\1/p' "$tmp/mx1")
h2=$(sed -n '1s/.*(sha256 \([0-9a-f]*\)\.\.\.)$/\1/p' "$tmp/mx2")
grep -q '^gd_check .*(--matrix: write bandwidth of every NIC x GPU and host memory pair, 1048576 bytes, 2 s each)' "$tmp/mx1" &&
	[ -n "$h1" ] && [ -n "$h2" ] && [ "$h1" != "$h2" ] && [ "$h1" != e3b0c44298fc1c14 ] &&
	ok "--matrix: the header says what ran, its hash that of the run (not of nothing)" ||
	{ fail "--matrix header"; head -1 "$tmp/mx1" "$tmp/mx2"; }
finish
