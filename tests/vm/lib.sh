# shellcheck shell=bash
# Helpers for the tests that run inside the Soft-RoCE guest (scripts/gd-vm-tests).
# Source it: . "$top_srcdir/tests/vm/lib.sh". Not a test itself (not executable).

# Skip (exit 77) unless we are inside the gd-vm guest.
vm_require_guest() {
	if [ "${GD_VM:-}" != 1 ]; then
		echo "SKIP: not inside the gd-vm guest (run through scripts/gd-vm-tests)"
		exit 77
	fi
}

# py: the python3 of the guest tests, the host tests' choice (tests/lib/python.sh: Debian's,
# which scripts/install-deps gives python3-junitparser, else python3 on PATH). Measured in the
# guest under TCG (29 Nov 2026, a loaded host): Debian's started in 0.8-2.7 s, a pyenv's
# python3 in 4-6 s (its site-packages' .pth files), through pyenv's shim in 5-10 s.
# POSIX (tests/vm/{doctor,ibgda,topo}-rxe.sh are sh scripts): every test that sources this is
# in tests/vm, and gd-vm-tests sets top_srcdir.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/python.sh"
py=$PY

vm_failures=0
vm_fail() { echo "FAIL: $*"; vm_failures=$((vm_failures + 1)); }
vm_ok() { echo "ok: $*"; }
vm_check() { # vm_check DESCRIPTION CMD...: run CMD, count a failure if it fails
	local what=$1; shift
	if "$@"; then vm_ok "$what"; else vm_fail "$what"; fi
}
# vm_doubted FILE: gd_check's FAILs in FILE (text or JSON) are all the noise guard's ("should
# not be believed": a measurement on a host busier than its cores, or with a heavy tail, as
# TCG gives): then a PASS cannot be shown here, and the assertion is skipped, not passed.
vm_doubted() {
	grep -q 'should not be believed' "$1" || return 1
	! sed 's/"attempts":\[[^]]*\]//' "$1" | grep -E '"status":"FAIL"|^ *FAIL: ' |
		grep -qv 'should not be believed'
}
# vm_check_trusted DESCRIPTION FILE CMD...: vm_check, but a skip where FILE's FAILs are doubts
vm_check_trusted() {
	local what=$1 file=$2; shift 2
	if "$@"; then vm_ok "$what"
	elif vm_doubted "$file"; then echo "skip: $what (the noise guard doubted the measurement)"
	else vm_fail "$what"; fi
}
vm_exit() { # exit 1 if any check failed
	if [ "$vm_failures" -gt 0 ]; then
		echo "$vm_failures check(s) failed"
		exit 1
	fi
	exit 0
}

# vm_roce_v2_gid DEV IPV4: print the index of DEV port 1's RoCE v2 GID that maps IPV4
# (::ffff:a.b.c.d). Only bash builtins: the GID table is long and every
# fork costs under TCG.
vm_roce_v2_gid() {
	local port=/sys/class/infiniband/$1/ports/1 want f i gid type
	local IFS=.
	# shellcheck disable=SC2086
	set -- $2
	IFS=' '
	[ -d "$port/gids" ] || return 1
	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4")
	for f in "$port"/gids/*; do
		i=${f##*/}
		read -r gid <"$f" 2>/dev/null || continue
		[ "$gid" = "$want" ] || continue
		read -r type <"$port/gid_attrs/types/$i" 2>/dev/null || continue
		[ "$type" = "RoCE v2" ] || continue
		echo "$i"
		return 0
	done
	return 1
}

# vm_perftest_pair LOG TOOL DEV IP [ARGS...]: run a perftest server and client on
# DEV (one rxe device talking to itself), the client connecting to IP with the
# RoCE v2 GID of IP. Output of both goes to LOG.server / LOG.client; returns 0
# if both succeeded. perftest 6.06's TCP key exchange takes one read() for a
# whole message and its closing handshake races: under load a pair fails on
# its own ("ethernet_read_keys: Couldn't read remote address", "Failed to
# close connection"; with two busy loops on the 2-core host, ib_write_bw -n 200
# -s 65536: 2 of 80 pairs, ib_send_bw -n 100 -s 4096: 6 of 80, none of 40 on a
# quiet host; a CI run hit it). perftest is the reference or the bed's witness
# where this runs, so a failed pair is run again with a fresh server, up to 3
# attempts, each failure shown.
vm_perftest_port=18600
vm_perftest_pair() {
	local log=$1 tool=$2 dev=$3 ip=$4 gid try
	shift 4
	gid=$(vm_roce_v2_gid "$dev" "$ip") || { echo "no RoCE v2 GID for $ip on $dev"; return 1; }
	for try in 1 2 3; do
		vm_perftest_once "$log" "$tool" "$dev" "$ip" "$gid" "$@" && return 0
		echo "($tool on $dev: attempt $try of 3 failed)"
	done
	return 1
}

# vm_perftest_has_result LOG: the client printed a result row (size, iterations, numbers).
vm_perftest_has_result() {
	grep -Eq '^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+' "$1"
}

# vm_perftest_once LOG TOOL DEV IP GID [ARGS...]: one attempt of vm_perftest_pair;
# the client is retried while the server is not listening yet.
vm_perftest_once() {
	local log=$1 tool=$2 dev=$3 ip=$4 gid=$5 srv port try rc=0
	shift 5
	port=$vm_perftest_port
	vm_perftest_port=$((vm_perftest_port + 1))
	timeout 300 "$tool" -d "$dev" -x "$gid" -p "$port" "$@" >"$log.server" 2>&1 &
	srv=$!
	for try in $(seq 1 60); do
		sleep 1
		if timeout 240 "$tool" -d "$dev" -x "$gid" -p "$port" "$@" "$ip" >"$log.client" 2>&1; then
			rc=0
			break
		fi
		rc=$?
		grep -q "Couldn't connect" "$log.client" || break
		kill -0 "$srv" 2>/dev/null || break
	done
	# exit 0 without a result row (seen in CI: ib_send_bw under TCG) is a failed attempt too
	if [ "$rc" = 0 ] && ! vm_perftest_has_result "$log.client"; then
		echo "$tool client on $dev exited 0 but printed no result row:"
		cat "$log.client"
		rc=1
	elif [ "$rc" != 0 ]; then
		echo "$tool client on $dev failed (rc $rc, connect try $try):"
		cat "$log.client"
		kill "$srv" 2>/dev/null
	fi
	if ! wait "$srv"; then
		echo "$tool server on $dev failed:"
		cat "$log.server"
		echo "($tool client on $dev, rc $rc, connect try $try:)"
		cat "$log.client"
		rc=1
	fi
	return "$rc"
}

