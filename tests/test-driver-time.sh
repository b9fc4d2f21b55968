#!/bin/bash
# build-aux/gd-test-driver, the LOG_DRIVER of make check and distcheck: it runs automake's
# test-driver and adds each test's time to its result line ("PASS: NAME (1.2 s, cpu 0.3 s)"),
# its log and its .trs (":test-seconds:"), and keeps the result and the exit status.
# The cpu figure counts the test's children (a test that burns 0.3 s of CPU in a
# grandchild shows at least that). Asserts formats and CPU spent, never a wall time.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/lib/python.sh"
command -v "$PY" >/dev/null || { echo "SKIP: no python3"; exit 77; }
drv=$top_srcdir/build-aux/gd-test-driver
[ -f "$top_srcdir/build-aux/test-driver" ] || { echo "SKIP: no build-aux/test-driver (run autogen.sh)"; exit 77; }
unset GD_TEST_GATE GD_TEST_GATE_S # the gate cases below set their own
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nfail=0
ok() { echo "ok: $*"; }
ko() { echo "FAIL: $*"; nfail=$((nfail + 1)); }

# the test scripts: pass after burning 0.3 s of CPU in a child, fail, skip
cat >"$tmp/t-pass" <<SH
#!/bin/sh
"$PY" -c 'import time
while time.process_time() < 0.3: pass'
echo "the test's own output"
SH
printf '#!/bin/sh\necho broken; exit 1\n' >"$tmp/t-fail"
printf '#!/bin/sh\nexit 77\n' >"$tmp/t-skip"
chmod +x "$tmp"/t-*

# drive NAME: gd-test-driver runs $tmp/NAME as make check would; its stdout in $tmp/NAME.out
drive() {
	(cd "$tmp" && ${SHELL:-/bin/sh} "$drv" --test-name "$1" --log-file "$1.log" --trs-file "$1.trs" \
		--color-tests no --enable-hard-errors yes --expect-failure no -- "./$1") >"$tmp/$1.out"
	echo $? >"$tmp/$1.rc"
}
for t in t-pass t-fail t-skip; do drive $t; done

for t in t-pass:PASS t-fail:FAIL t-skip:SKIP; do
	n=${t%:*} r=${t#*:}
	line=$(cat "$tmp/$n.out")
	if [[ $line =~ ^$r:\ $n\ \(([0-9]+\.[0-9])\ s,\ cpu\ ([0-9]+\.[0-9])\ s\)$ ]]; then
		ok "$n: result line '$line'"
	else
		ko "$n: result line '$line', want '$r: $n (N.N s, cpu N.N s)'"
	fi
	[ "$(cat "$tmp/$n.rc")" = 0 ] && ok "$n: the driver exits 0 as test-driver does" ||
		ko "$n: driver exit $(cat "$tmp/$n.rc")"
	grep -qx ":test-result: $r" "$tmp/$n.trs" && ok "$n: .trs keeps :test-result: $r" ||
		ko "$n: .trs: $(tr '\n' ' ' <"$tmp/$n.trs")"
	grep -Eqx ':test-seconds: [0-9]+\.[0-9]' "$tmp/$n.trs" && ok "$n: .trs has :test-seconds:" ||
		ko "$n: no :test-seconds: in the .trs"
	tail -n 1 "$tmp/$n.log" | grep -Eqx 'time: [0-9]+\.[0-9] s wall, cpu [0-9]+\.[0-9] s' &&
		ok "$n: the log ends with its time" || ko "$n: log's last line: $(tail -n 1 "$tmp/$n.log")"
done
grep -q "the test's own output" "$tmp/t-pass.log" && ok "t-pass: the test's output kept in its log" ||
	ko "t-pass: its output is not in its log"
cpu=$(sed -n 's/.*cpu \([0-9.]*\) s)$/\1/p' "$tmp/t-pass.out")
awk -v c="$cpu" 'BEGIN { exit !(c >= 0.3) }' && ok "t-pass: cpu $cpu s counts the CPU its child burnt (0.3 s)" ||
	ko "t-pass: cpu '$cpu' s, want >= 0.3 (the child's CPU time)"

# the gate (GD_TEST_GATE, scripts/run-tests' distcheck beside the guest tier): the test starts
# only once the gate file exists, told by the order of two lines, not by a time
printf '#!/bin/sh\necho test >>order\n' >"$tmp/t-gated"
chmod +x "$tmp/t-gated"
( sleep 1; echo gate >>"$tmp/order"; touch "$tmp/gate" ) &
GD_TEST_GATE=$tmp/gate drive t-gated
wait
[ "$(tr '\n' ' ' <"$tmp/order")" = "gate test " ] && ok "t-gated: the test ran after its gate opened" ||
	ko "t-gated: order '$(tr '\n' ' ' <"$tmp/order")', want 'gate test '"
# a gate that never opens: after GD_TEST_GATE_S seconds the test runs anyway, said on stderr
GD_TEST_GATE=$tmp/never GD_TEST_GATE_S=1 drive t-pass 2>"$tmp/never.err"
grep -q '^PASS: t-pass ' "$tmp/t-pass.out" && grep -q 'did not appear in 1 s' "$tmp/never.err" &&
	ok "a gate that never opens: the test ran after its deadline, said so" ||
	ko "a gate that never opens: $(cat "$tmp/t-pass.out" "$tmp/never.err")"

# the build's make check runs it
if [ -f "$top_builddir/Makefile" ]; then
	grep -q '^LOG_DRIVER = .*build-aux/gd-test-driver' "$top_builddir/Makefile" &&
		ok "the Makefile's LOG_DRIVER is gd-test-driver" || ko "the Makefile's LOG_DRIVER is not gd-test-driver"
fi
[ $nfail = 0 ]
