#!/bin/bash
# Helpers for the Soft-RoCE tests of the benchmark tools (sourced).
# Runs inside the QEMU guest (scripts/gd-vm), server and client on one rxe device.
# Environment: top_builddir (default: the current directory), GD_VM_IP, GD_VM_BOND_IP.

: "${top_builddir:=$PWD}"
BIN=${GD_BENCH_BIN:-$top_builddir/tools}
IP=${GD_VM_IP:-10.0.0.1}
BOND_IP=${GD_VM_BOND_IP:-10.0.1.1}
DEV=${GD_VM_DEV:-rxe0}
BOND_DEV=${GD_VM_BOND_DEV:-rxe_bond0}
WORK=$(mktemp -d /tmp/gd-bench.XXXXXX)
PORT=${GD_BENCH_PORT:-19000}
npass=0
nfail=0
failed=()

need_guest() {
	if [ ! -d /sys/class/infiniband/$DEV ]; then
		echo "SKIP: no RDMA device $DEV here: run inside the Soft-RoCE guest (scripts/gd-vm)"
		exit 77
	fi
	[ -x "$BIN/gd_write_bw" ] || { echo "SKIP: $BIN/gd_write_bw not built"; exit 77; }
}

next_port() { PORT=$((PORT + 1)); }

# wait until something listens on TCP port $1 (at most 20 s)
. "$(dirname "${BASH_SOURCE[0]}")/../lib/net.sh"
# expect_outcome, expect_exit, expect_in (with ok and ko below)
. "$(dirname "${BASH_SOURCE[0]}")/../lib/expect.sh"

# start_server NAME TOOL ARGS: background server, sets $spid; waits until it listens
# (no timeout(1) wrapper: the fault cases kill the tool itself; gd-vm bounds the whole run)
start_server() {
	next_port
	"$BIN/$2" -p $PORT $3 > "$WORK/$1.s" 2>&1 &
	spid=$!
	wait_listen $PORT || { ko "$1: server never listened"; tail -n 5 "$WORK/$1.s"; return 1; }
}

# wait_running FILE: until the tool printed its table title (the run has started), 60 s at most
wait_running() {
	local i
	for i in $(seq 1 600); do
		grep -q '#bytes' "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

ok() { npass=$((npass + 1)); echo "PASS: $*"; }
ko() { nfail=$((nfail + 1)); failed+=("${1%%:*}"); echo "FAIL: $*"; }

# run_pair NAME TOOL "SERVER ARGS" "CLIENT ARGS" [EXPECT_SERVER_RC EXPECT_CLIENT_RC [LIMIT_S]]
# Starts the server, waits for it to listen, runs the client; both must end
# within LIMIT_S with the expected exit codes. Output in $WORK/NAME.{s,c}.
run_pair() {
	local name=$1 tool=$2 sargs=$3 cargs=$4 es=${5:-0} ec=${6:-0} lim=${7:-60}
	local spid src crc
	next_port
	timeout -s KILL $lim "$BIN/$tool" -p $PORT $sargs > "$WORK/$name.s" 2>&1 &
	spid=$!
	if ! wait_listen $PORT; then
		kill -9 $spid 2>/dev/null; wait $spid 2>/dev/null
		ko "$name: server never listened"; sed 's/^/    s: /' "$WORK/$name.s" | tail -5
		return 1
	fi
	timeout -s KILL $lim "$BIN/$tool" -p $PORT $cargs > "$WORK/$name.c" 2>&1
	crc=$?
	wait $spid; src=$?
	if [ $src -eq $es ] && [ $crc -eq $ec ]; then
		ok "$name (server $src, client $crc)"
		return 0
	fi
	ko "$name: server exit $src (want $es), client exit $crc (want $ec)"
	sed 's/^/    s: /' "$WORK/$name.s" | tail -8
	sed 's/^/    c: /' "$WORK/$name.c" | tail -8
	return 1
}

# check NAME FILE REGEX: the output file matches
check_out() {
	if grep -Eq "$3" "$2"; then ok "$1"; else ko "$1: '$3' not in output"; sed 's/^/    /' "$2" | tail -8; fi
}

finish() {
	echo "# $npass passed, $nfail failed${failed:+: ${failed[*]}}"
	# GD_BENCH_SHOW=1: print every distinct diagnostic the tools gave (for reviews)
	if [ "${GD_BENCH_SHOW:-0}" = 1 ]; then
		for f in "$WORK"/*; do grep -H -E 'error|warning' "$f"; done 2>/dev/null |
			sed "s|^$WORK/||" | sort -u
	fi
	rm -rf "$WORK"
	[ $nfail -eq 0 ]
}
