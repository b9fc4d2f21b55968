#!/bin/sh
# gd_check --bundle FILE.tar.gz on the H20 fixture: the tarball unpacks, holds the spec,
# the report in every format (JUnit read by junitparser), gd_devinfo/gd_topo/gd_doctor
# JSON, host facts and the commands; its topology export replays with gd_topo --topology;
# no environment value is in it. Bad targets (not .tar.gz, a missing directory, a full
# disk: a 64 KiB tmpfs when mount is allowed) exit 2 and leave no file behind.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d) || exit 99
trap 'mountpoint -q "$tmp/small" 2>/dev/null && umount "$tmp/small"; rm -rf "$tmp"' EXIT
GD_TOPO=$top_builddir/tools/gd_topo

GD_BUNDLE_SECRET=s3cr3t-must-not-leak "$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" \
	--bundle "$tmp/b.tar.gz" "$SPECS/h20-topology.yaml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ -s "$tmp/b.tar.gz" ] && ok "--bundle written (exit 1: the spec fails)" ||
	{ fail "--bundle: exit $rc"; cat "$tmp/err"; }
[ "$(ls -A "$tmp")" = "b.tar.gz
err
out" ] && ok "no staging or temporary file left" || fail "left: $(ls -A "$tmp")"
mkdir "$tmp/x" && tar -xzf "$tmp/b.tar.gz" -C "$tmp/x" || fail "the bundle does not unpack"
b=$tmp/x/gd_check-bundle
for f in MANIFEST spec.yaml report.txt report.jsonl report.junit.xml report.prom host.txt \
	reproduce.sh devinfo.json topo.json doctor.json topology.xml; do
	[ -s "$b/$f" ] || fail "bundle: $f missing or empty"
done
cmp -s "$b/spec.yaml" "$SPECS/h20-topology.yaml" && ok "the spec, byte for byte" || fail "spec.yaml"
grep -q "^topology  nics .* FAIL" "$b/report.txt" && ok "report.txt" || fail "report.txt"
"$PY" -c 'import json,sys; [json.loads(l) for f in sys.argv[1:] for l in open(f) if l.strip()]' \
	"$b/report.jsonl" "$b/devinfo.json" "$b/topo.json" "$b/doctor.json" &&
	ok "report, devinfo, topo and doctor JSON parse" || fail "bundle JSON"
if have_junitparser; then
	junit_check "$b/report.junit.xml" 5 2 0 && ok "bundled JUnit read by junitparser" || fail "JUnit"
fi
grep -q "^kernel: " "$b/host.txt" && grep -q "^gdperf: " "$b/host.txt" && ok "host.txt" || fail "host.txt"
grep -q "h20-topology.yaml" "$b/reproduce.sh" && grep -q -- "--bundle" "$b/reproduce.sh" &&
	ok "reproduce.sh has gd_check's command line" || fail "reproduce.sh"
"$GD_TOPO" --topology "$b/topology.xml" >"$tmp/replay" 2>&1 && grep -q GPU "$tmp/replay" &&
	ok "the topology export replays (gd_topo --topology)" || { fail "replay"; cat "$tmp/replay"; }
# the replay shows what gd_topo showed of the machine (text and JSON; the PCIe link speeds,
# read from sysfs, are not in an hwloc XML)
for f in compact json; do
	"$GD_TOPO" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --format $f >"$tmp/live.$f" 2>/dev/null
	"$GD_TOPO" --topology "$b/topology.xml" --nvlinks "$b/topology.xml.nvlinks" --format $f \
		>"$tmp/replay.$f" 2>/dev/null
	sed -i 's/,"pcie_link":{[^}]*}//' "$tmp/live.$f" "$tmp/replay.$f"
	cmp -s "$tmp/live.$f" "$tmp/replay.$f" && ok "the replay's $f output is gd_topo's on the machine" ||
		{ fail "replay ($f) differs from the machine"; diff "$tmp/live.$f" "$tmp/replay.$f"; }
done
walk=$("$top_srcdir/tests/check/manifest-walk.sh" "$b") && ok "the MANIFEST names every file, and only files there" ||
	{ fail "MANIFEST and files disagree: $walk"; cat "$b/MANIFEST"; }
grep -rq s3cr3t-must-not-leak "$b" && fail "an environment value is in the bundle" ||
	ok "no environment value in the bundle"

# a spec that includes another file: the included file is in the bundle, byte for byte, and
# the MANIFEST says where the spec expects it; it says which environment values doctor.json has
printf 'version: 1\ninclude: ./base.yaml\nname: top\n' >"$tmp/top.yaml"
cp "$SPECS/h20-topology.yaml" "$tmp/base.yaml"
"$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --bundle "$tmp/i.tar.gz" \
	"$tmp/top.yaml" >/dev/null 2>"$tmp/err"
mkdir "$tmp/i" && tar -xzf "$tmp/i.tar.gz" -C "$tmp/i" || fail "the include bundle does not unpack"
cmp -s "$tmp/i/gd_check-bundle/include-1-base.yaml" "$tmp/base.yaml" &&
	grep -q "^include-1-base.yaml included by the spec .*'include: ./base.yaml'" "$tmp/i/gd_check-bundle/MANIFEST" &&
	ok "an included spec file is bundled and named in the MANIFEST" ||
	{ fail "include: not bundled"; ls "$tmp/i/gd_check-bundle"; cat "$tmp/i/gd_check-bundle/MANIFEST"; }
grep -q "doctor.json holds the values of" "$tmp/i/gd_check-bundle/MANIFEST" && grep -q "FI_PROVIDER" "$tmp/i/gd_check-bundle/MANIFEST" &&
	ok "the MANIFEST says which environment values doctor.json records" || fail "MANIFEST environment line"
walk=$("$top_srcdir/tests/check/manifest-walk.sh" "$tmp/i/gd_check-bundle") &&
	ok "include bundle: the MANIFEST names every file" || fail "include bundle: $walk"
rm -f "$tmp/i.tar.gz" "$tmp/top.yaml" "$tmp/base.yaml"
rm -rf "$tmp/i"

# Soft-RoCE (the rxe fixture: rxe0 over veth0, rxe_bond0 over a bond, no PCI device, no GPU):
# hwloc keeps no OpenFabrics device without a PCI function, so the export must carry the
# NICs itself; its replay alone shows what gd_topo showed of the tree (before: exit 3,
# "no NVIDIA GPU and no RDMA device"), and gd_check counts the same NICs from it
RXE_SYSFS=$top_srcdir/tests/fixtures/sysfs/rxe
printf 'version: 1\ntopology:\n  nics: 2\n' >"$tmp/rxe.yaml"
"$GD_CHECK" --sysfs-root "$RXE_SYSFS" --bundle "$tmp/r.tar.gz" "$tmp/rxe.yaml" >"$tmp/out" 2>&1 ||
	{ fail "rxe bundle: exit $?"; cat "$tmp/out"; }
mkdir "$tmp/r" && tar -xzf "$tmp/r.tar.gz" -C "$tmp/r" || fail "the rxe bundle does not unpack"
r=$tmp/r/gd_check-bundle
for f in compact json advice; do
	a=--format=$f
	[ $f = advice ] && a=--advice
	"$GD_TOPO" --sysfs-root "$RXE_SYSFS" $a >"$tmp/live.$f" 2>/dev/null
	"$GD_TOPO" --topology "$r/topology.xml" --nvlinks "$r/topology.xml.nvlinks" $a >"$tmp/replay.$f" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && grep -q "rxe0 (no PCI device, over veth0)" "$tmp/live.compact" &&
		cmp -s "$tmp/live.$f" "$tmp/replay.$f" &&
		ok "rxe: the bundle's topology replays as gd_topo showed the tree ($f)" ||
		{ fail "rxe: replay ($f) exit $rc"; cat "$tmp/err"; diff "$tmp/live.$f" "$tmp/replay.$f"; }
done
"$GD_CHECK" --topology "$r/topology.xml" "$tmp/rxe.yaml" >"$tmp/out" 2>&1 &&
	grep -q "^topology  nics .* PASS   2 " "$tmp/out" &&
	ok "rxe: gd_check counts the bundle's NICs from its topology" || { fail "rxe: gd_check on the replay"; cat "$tmp/out"; }
walk=$("$top_srcdir/tests/check/manifest-walk.sh" "$r") && ok "rxe bundle: the MANIFEST names every file" ||
	fail "rxe bundle: $walk"
# a damaged NIC list (the count says 3, two records follow) is the file's fault: exit 2, never
# a matrix without a NIC
sed 's|"gdperf.nics" length="1" encoding="base64">Mg==|"gdperf.nics" length="1" encoding="base64">Mw==|' \
	"$r/topology.xml" >"$tmp/damaged.xml"
"$GD_TOPO" --topology "$tmp/damaged.xml" >/dev/null 2>"$tmp/err"
rc=$?
! cmp -s "$r/topology.xml" "$tmp/damaged.xml" && [ $rc -eq 2 ] &&
	grep -q "damaged.xml: the NIC list gd_topo --export recorded in it is damaged" "$tmp/err" &&
	ok "a damaged NIC list in the XML: exit 2, named" || { fail "damaged NIC list: exit $rc"; cat "$tmp/err"; }

# the system's own logs (newcomer 47): a fixture's bundle says why it has none; a bundle of
# this machine holds dmesg, lspci -vvv and ethtool of each interface, each named in the
# MANIFEST with its exit status (a tool not installed or refused is said there, not hidden)
grep -q "^# no dmesg.txt, lspci.txt, ethtool.txt: the run read the fixture " "$b/MANIFEST" &&
	[ ! -e "$b/dmesg.txt" ] && ok "a fixture's bundle: no system logs, the MANIFEST says why" ||
	fail "a fixture's bundle and the system logs"
printf 'version: 1\ntopology:\n  nics: 0\n' >"$tmp/live.yaml"
"$GD_CHECK" --bundle "$tmp/l.tar.gz" "$tmp/live.yaml" >"$tmp/out" 2>&1
mkdir "$tmp/l" && tar -xzf "$tmp/l.tar.gz" -C "$tmp/l" || fail "the live bundle does not unpack"
l=$tmp/l/gd_check-bundle
for f in dmesg lspci; do
	grep -Eq "^$f.txt .* \(exit [0-9]+(: not installed|: timed out after 10 s)?\)" "$l/MANIFEST" &&
		ok "live bundle: $f.txt and its exit in the MANIFEST" ||
		{ fail "live bundle: no $f.txt line"; cat "$l/MANIFEST"; }
done
if ls /sys/class/net | grep -qvx lo; then
	grep -Eq "^ethtool.txt .* \(exit [0-9]+" "$l/MANIFEST" &&
		grep -q "^==== $(ls /sys/class/net | grep -vx lo | head -n 1)$" "$l/ethtool.txt" &&
		ok "live bundle: ethtool.txt, one section per interface" ||
		{ fail "live bundle: ethtool.txt"; cat "$l/MANIFEST"; }
fi
walk=$("$top_srcdir/tests/check/manifest-walk.sh" "$l") && ok "live bundle: the MANIFEST names every file" ||
	fail "live bundle: $walk"
rm -rf "$tmp/l" "$tmp/l.tar.gz" "$tmp/live.yaml"

# bad targets
"$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --bundle "$tmp/b.zip" \
	"$SPECS/h20-topology.yaml" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "give FILE.tar.gz" "$tmp/err" && ok "--bundle not .tar.gz: exit 2" ||
	{ fail "not .tar.gz"; cat "$tmp/err"; }
"$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --bundle "$tmp/absent/b.tar.gz" \
	"$SPECS/h20-topology.yaml" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "cannot write .*absent/b.tar.gz: .*its directory does not exist" "$tmp/err" &&
	ok "--bundle into a missing directory: exit 2" || { fail "missing dir"; cat "$tmp/err"; }
# a test name is a spec's text: in reproduce.sh (a file a person runs) it is a comment, and a
# newline in it must not end the comment and make the rest a command (issue 30, the class of a
# file carrying spec text as code). Needs a run: libfabric tcp on 127.0.0.1.
if ! needs_libfabric "reproduce.sh with a test name of a newline (a run over libfabric tcp)"; then
	:
elif fi_info -p tcp >/dev/null 2>&1; then
	printf 'version: 1\ntests:\n  - {name: "%s", op: write, fabric: ofi, provider: tcp, %s}\n' \
		'a\ntouch PWNED\r\x1b[2J' 'size: 4K, iterations: 50, retries: 0' >"$tmp/nl.yaml"
	"$GD_CHECK" --bundle "$tmp/nl.tar.gz" "$tmp/nl.yaml" >/dev/null 2>"$tmp/err"
	mkdir "$tmp/nl" && tar -xzf "$tmp/nl.tar.gz" -C "$tmp/nl" 2>/dev/null
	r=$tmp/nl/gd_check-bundle/reproduce.sh
	cmds=$(grep -v -e '^#' -e '^$' "$r" 2>/dev/null | grep -v -E '^([^ ]*/)?gd_[a-z_]+ ')
	[ -s "$r" ] && grep -q '^# a?touch PWNED??\[2J ' "$r" && [ -z "$cmds" ] &&
		ok "reproduce.sh: a test name with a newline stays one comment line" ||
		{ fail "reproduce.sh carries a test name as a command: $cmds"; cat "$tmp/err"; }
else
	echo "note: no libfabric tcp here: the test-name case of reproduce.sh is not checked"
fi
mkdir "$tmp/small"
if mount -t tmpfs -o size=64k tmpfs "$tmp/small" 2>/dev/null; then
	"$GD_CHECK" --topology "$H20_XML" --sysfs-root "$H20_SYSFS" --bundle "$tmp/small/b.tar.gz" \
		"$SPECS/h20-topology.yaml" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "cannot write the bundle .*small/b.tar.gz.*free space" "$tmp/err" &&
		[ -z "$(ls -A "$tmp/small")" ] && ok "--bundle on a full disk: exit 2, nothing left" ||
		{ fail "full disk: exit $rc, left: $(ls -A "$tmp/small")"; cat "$tmp/err"; }
	umount "$tmp/small"
else
	echo "note: cannot mount a small tmpfs here (not root): the full-disk case is not checked"
fi
finish
