#!/bin/sh
# gd_check's manifest of a SKU on the H20 fixture: --example writes the manifest of this node
# (counts, each NIC's firmware pattern, rate and NUMA node, each GPU's NUMA node); that spec
# passes on the node it came from; a node off the manifest (firmware, rate, NUMA placement,
# a missing NIC or GPU) FAILs each fact with what was found, exit 1. A pattern that does not
# parse is exit 2 with FILE:LINE:COLUMN (tests/check/specs/bad-manifest-firmware.yaml, specs.sh).
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fx="--topology $H20_XML --sysfs-root $H20_SYSFS"

# shellcheck disable=SC2086
"$GD_CHECK" --example $fx >"$tmp/ex.yaml" || fail "--example"
sed -n '/^manifest:/,/^$/p' "$tmp/ex.yaml" >"$tmp/mf"
cat "$tmp/mf"
grep -q "^  gpus: 8$" "$tmp/mf" && grep -q "^  nics: [1-9]" "$tmp/mf" &&
	ok "--example: the manifest counts GPUs and NICs" || fail "--example: manifest counts"
grep -q "^      firmware: '[0-9]*\\\\\.[0-9]*\\\\\." "$tmp/mf" && grep -q "^      rate: [0-9.]* Gb/s$" "$tmp/mf" &&
	ok "--example: each NIC's firmware pattern (dots escaped) and rate" || fail "--example: NIC entries"
[ "$(grep -c '^    - busid: ' "$tmp/mf")" = 8 ] && grep -q "^      numa: [0-9]" "$tmp/mf" &&
	ok "--example: 8 GPUs by bus id with their NUMA nodes" || fail "--example: GPU entries"

# the example of a good node is the manifest: it passes on that node
printf 'version: 1\n' >"$tmp/good.yaml"
cat "$tmp/mf" >>"$tmp/good.yaml"
# shellcheck disable=SC2086
"$GD_CHECK" $fx "$tmp/good.yaml" >"$tmp/out" 2>&1
rc=$?
n=$(grep -c "^[a-z]* *manifest .* PASS " "$tmp/out")
[ $rc -eq 0 ] && [ "$n" -ge 10 ] && ! grep -q " FAIL " "$tmp/out" &&
	ok "the example's manifest passes on its node ($n manifest checks PASS)" ||
	{ fail "the example's manifest on its node: exit $rc, $n PASS"; cat "$tmp/out"; }

# a node off the manifest: firmware of another branch, another rate, a GPU on another node,
# a NIC and a GPU the node lacks
nic=$(sed -n 's/^    - name: //p' "$tmp/mf" | head -1)
gpu=$(sed -n 's/^    - busid: "\(.*\)"/\1/p' "$tmp/mf" | head -1)
awk -v nic="$nic" '
	/^    - name: / { first = ($3 == nic) }
	first && /^      firmware:/ { print "      firmware: '"'"'99\\..*'"'"'"; next }
	first && /^      rate:/ { print "      rate: 800 Gb/s"; next }
	{ print }' "$tmp/good.yaml" >"$tmp/bad.yaml"
sed -i "0,/^      numa: \([0-9]*\)\$/s//      numa: 77/" "$tmp/bad.yaml"
printf '    - {name: mlx5_99, rate: 400 Gb/s}\n' >"$tmp/nic99"
sed -i "/^  nic:\$/r $tmp/nic99" "$tmp/bad.yaml"
sed -i 's/^  gpus: 8$/  gpus: 9/' "$tmp/bad.yaml"
cat "$tmp/bad.yaml"
# shellcheck disable=SC2086
"$GD_CHECK" --json $fx "$tmp/bad.yaml" >"$tmp/bad.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && ok "a node off the manifest: exit 1" || { fail "off the manifest: exit $rc"; cat "$tmp/err"; }
"$PY" - "$tmp/bad.json" "$nic" <<'PYEOF' && ok "each fact off the manifest FAILs with what was found" || fail "manifest FAILs"
import json, sys
recs = {r["check"]: r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "check"}
nic = sys.argv[2]
def st(name, status, measured=None):
    r = recs.get(name)
    assert r and r["status"] == status, (name, r)
    if measured is not None:
        assert r["measured"] == measured, (name, r)
    return r
st("manifest GPUs", "FAIL", "8")
fw = st("manifest %s firmware" % nic, "FAIL")
assert fw["expected"] == "~ 99\\..*" and "does not match the SKU's pattern" in fw["message"], fw
st("manifest %s port 1 rate" % nic, "FAIL")
st("manifest mlx5_99 port 1", "FAIL", "absent")
numa = [r for n, r in recs.items() if n.endswith(" numa") and r["expected"] == "77"]
assert len(numa) == 1 and numa[0]["status"] == "FAIL", numa
print("ok")
PYEOF

# include: a spec that includes the SKU's manifest file gets it; its own manifest wins
printf 'version: 1\ninclude: bad.yaml\n' >"$tmp/inc.yaml"
# shellcheck disable=SC2086
"$GD_CHECK" $fx "$tmp/inc.yaml" >"$tmp/inc" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "^topology  manifest GPUs .* FAIL .* == 9" "$tmp/inc" &&
	ok "include: the included manifest is judged" || { fail "include: exit $rc"; cat "$tmp/inc"; }
printf 'version: 1\ninclude: bad.yaml\nmanifest: {gpus: 8}\n' >"$tmp/inc.yaml"
# shellcheck disable=SC2086
"$GD_CHECK" $fx "$tmp/inc.yaml" >"$tmp/inc" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "^topology  manifest GPUs .* PASS .* == 8" "$tmp/inc" &&
	ok "include: the including spec's manifest replaces it" || { fail "include over: exit $rc"; cat "$tmp/inc"; }
finish
