#!/bin/bash
# tests/lib/net.sh's wait_listen, which every pair of the libfabric tier and the guest's
# bench tests waits on before starting a client: it finds an IPv4 and an IPv6 listener,
# not a free port, gives up at its deadline and at once when
# the server it names is gone; and one look reads each /proc/net/tcp{,6} in blocks,
# not a read(2) and an lseek(2) per line, counted by the shell's own read calls
# (/proc/PID/io syscr; no strace needed). The line-by-line look cost 27 ms of system
# time per look at 61 sockets, and a pair waits through tens of looks.
set -u
: "${top_srcdir:=.}"
. "$top_srcdir/tests/lib/python.sh"
. "$top_srcdir/tests/lib/ports.sh"
. "$top_srcdir/tests/lib/net.sh"
command -v "$PY" > /dev/null || { echo "SKIP: no python3"; exit 77; }
[ -r /proc/net/tcp ] && [ -r "/proc/$$/io" ] ||
	{ echo "SKIP: no /proc/net/tcp or /proc/PID/io here"; exit 77; }
fail=0
ok() { echo "ok: $*"; }
ko() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d)
lpid=''
trap '[ -z "$lpid" ] || kill "$lpid" 2> /dev/null; rm -rf "$tmp"' EXIT
test_ports
base=$port nsock=120

# The listeners: $nsock IPv4 ports from base+10 on (the table grows past a few blocks of
# the kernel's 4 KiB reads), base+1 on ::1 when IPv6 is there; "ready" when all listen.
# It ends by itself after 60 s (every wait has a deadline).
"$PY" - "$base" "$nsock" > "$tmp/ready" 2>&1 <<'PY' &
import socket, sys, time
base, n = int(sys.argv[1]), int(sys.argv[2])
keep = []
for i in range(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", base + 10 + i)); s.listen(1); keep.append(s)
try:
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("::1", base + 1)); s.listen(1); keep.append(s)
    print("v6")
except OSError:
    pass
print("ready", flush=True)
time.sleep(60)
PY
lpid=$!
for _ in $(seq 100); do grep -q ready "$tmp/ready" && break; sleep 0.1; done
grep -q ready "$tmp/ready" || { cat "$tmp/ready"; echo "FAIL: the listeners did not start"; exit 1; }

wait_listen $((base + 10)) 10 "$lpid" && ok "an IPv4 listener is found" ||
	ko "wait_listen missed the IPv4 listener on $((base + 10))"
wait_listen $((base + 9 + nsock)) 10 "$lpid" && ok "the last of $nsock listeners is found" ||
	ko "wait_listen missed the listener on $((base + 9 + nsock))"
if grep -q v6 "$tmp/ready"; then
	wait_listen $((base + 1)) 10 "$lpid" && ok "an IPv6 listener (::1) is found" ||
		ko "wait_listen missed the IPv6 listener on $((base + 1))"
else
	echo "note: no IPv6 loopback here: the ::1 case is left out"
fi
# nothing listens on base+2: 1 at the deadline
wait_listen $((base + 2)) 1 "$lpid" && ko "wait_listen found a listener on the free port $((base + 2))" ||
	ok "a free port: 1 at the deadline"
true &
gone=$!
wait "$gone" # ended and reaped: kill -0 fails on it
wait_listen $((base + 2)) 20 "$gone" && ko "wait_listen found a listener on $((base + 2))" ||
	ok "a server that is gone: 1 without waiting out the deadline"

# The cost of one look: the shell's read calls (syscr) over a look that finds nothing
# (a dead pid: one look), against the lines of the two files it reads.
# (read from a subshell, the script's own counters: /proc/$$/io)
syscr() { local l; while read -r l; do [[ $l == syscr:* ]] && echo "${l#syscr: }"; done < "/proc/$$/io"; }
lines=0
for f in /proc/net/tcp /proc/net/tcp6; do
	[ -r "$f" ] && lines=$((lines + $(wc -l < "$f")))
done
r0=$(syscr)
wait_listen $((base + 2)) 20 "$gone"
r1=$(syscr)
reads=$((r1 - r0))
if [ "$lines" -gt "$nsock" ] && [ "$reads" -lt $((lines / 4)) ]; then
	ok "one look over $lines socket lines: $reads read calls (block reads)"
else
	ko "one look over $lines socket lines made $reads read calls (want under $((lines / 4)): one a line is the kernel walking its socket table once per line)"
fi
exit $fail
