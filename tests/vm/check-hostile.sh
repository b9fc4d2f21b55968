#!/bin/bash
# gd_check as a hostile user would use it, in the Soft-RoCE guest (the reproductions of
# doc/notes/hostile-2026-11-26.md that need a real run; the parse-only ones are rows of
# tests/hostile/cases):
#   H1 a test name that is gnuplot code is plotted, never run;
#   H3 ^C and SIGTERM stop the whole spec (exit 130 / 143, INTERRUPTED, runs left out);
#   H4 a report file that fails at the end: the table is printed first, then exit 3;
#   M8 a side-channel port held by another program: the run takes the next free one;
#   M9 a device the test names and the guest lacks: FAIL and exit 1, not SKIP and exit 0.
#   flock /tmp/gd-vm.lock timeout 900 scripts/gd-vm -- env top_builddir=$PWD tests/vm/check-hostile.sh
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}" "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/vm/lib.sh"
vm_require_guest
ck=$top_builddir/tools/gd_check
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 99

# H1: the name goes into the plot's legend through a data file, not the script
cat >evil.yaml <<'YAML'
version: 1
tests:
  - name: "x';system \"touch PWNED\";print '"
    op: write
    sweep: [4K, 8K]
    iterations: 50
    device: rxe0
YAML
"$ck" evil.yaml --plot "$tmp/p.png" >out 2>&1
rc=$?
cat out
vm_check "H1: the spec ran (exit 0)" test $rc -eq 0
vm_check "H1: gnuplot ran no command from the test name" test ! -e PWNED
vm_check "H1: the sweep was plotted" test -s p.png

# H3: three timed tests; the signal comes during the first (the guest takes ~4 s to start it)
cat >three.yaml <<'YAML'
version: 1
tests:
  - {name: t1, op: write, size: 4K, duration: 20s, device: rxe0}
  - {name: t2, op: write, size: 4K, duration: 20s, device: rxe0}
  - {name: t3, op: write, size: 4K, duration: 20s, device: rxe0}
YAML
for sig in INT TERM; do
	timeout --preserve-status -s $sig 12 "$ck" three.yaml >out.$sig 2>&1
	rc=$?
	cat out.$sig
	want=$((128 + $(kill -l $sig)))
	vm_check "H3 SIG$sig: exit $want" test $rc -eq $want
	vm_check "H3 SIG$sig: the report says interrupted, 2 runs left out" \
		grep -q "INTERRUPTED by SIG$sig: the spec stopped, 2 run(s) not started" out.$sig
	vm_check "H3 SIG$sig: t2 and t3 did not run" bash -c "! grep -q '^tests  *t[23] ' out.$sig"
	vm_check "H3 SIG$sig: t1, cut short, is not judged (ERROR)" \
		grep -q "^tests  *t1 rxe0 host: runs  *ERROR" out.$sig
done

# H4: the plot cannot be made at the end (no gnuplot on PATH): the table first, then exit 3
cat >sweep.yaml <<'YAML'
version: 1
tests:
  - {name: sw, op: write, sweep: [4K, 8K], iterations: 50, device: rxe0}
YAML
PATH=/nonexistent "$ck" sweep.yaml --plot "$tmp/q.png" >out 2>err
rc=$?
cat out err
vm_check "H4: exit 3 when the plot cannot be written" test $rc -eq 3
vm_check "H4: the table is printed all the same" grep -q "^tests  *sw rxe0 host: runs  *PASS" out

# M8: something listens on the first port (another gd_check's server, say)
/usr/bin/python3 -c 'import socket, time
s = socket.socket(socket.AF_INET6); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("::", 18600)); s.listen(); time.sleep(120)' &
holder=$!
sleep 2
cat >one.yaml <<'YAML'
version: 1
tests:
  - {name: one, op: write, size: 4K, iterations: 50, device: rxe0}
YAML
"$ck" one.yaml >out 2>&1
rc=$?
kill $holder 2>/dev/null
cat out
vm_check "M8: port 18600 held: exit 0" test $rc -eq 0
vm_check "M8: the run took the next port" grep -q "reproduce one rxe0 host: runs: .* -p 18601 " out

# M9: a named device that is not here fails the gate
cat >absent.yaml <<'YAML'
version: 1
tests:
  - {name: bw, op: write, device: mlx5_9, thresholds: {min_bw: 100 Gb/s}}
YAML
"$ck" absent.yaml >out 2>&1
rc=$?
cat out
vm_check "M9: an absent device: exit 1" test $rc -eq 1
vm_check "M9: FAIL naming the device" grep -q "^tests  *bw: runs  *FAIL .*mlx5_9" out
vm_exit
