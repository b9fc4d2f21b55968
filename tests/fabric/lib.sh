# shellcheck shell=bash
# The libfabric tier's helpers: skip without libfabric, run a server and a
# client on loopback, check both exit codes and messages.
: "${top_srcdir:=.}" "${top_builddir:=.}"
T="$top_builddir/tools"
fail=0
tmp=$(mktemp -d)
trap '[ "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

. "$top_srcdir/tests/lib/features.sh" # built_with
ofi_skip_unless_built() {
	built_with libfabric || { echo "SKIP: built without libfabric"; exit 77; }
	command -v fi_info >/dev/null && fi_info -p "$1" >/dev/null 2>&1 ||
		{ echo "SKIP: libfabric has no $1 provider here (fi_info -p $1)"; exit 77; }
}

# A block of ports no other running test holds (tests/lib/ports.sh), then a counter.
. "$top_srcdir/tests/lib/ports.sh"
. "$top_srcdir/tests/lib/net.sh" # wait_listen
. "$top_srcdir/tests/lib/python.sh" # $PY
test_ports
next_port() { port=$((port + 1)); }

# pair NAME EXP_SERVER EXP_CLIENT TOOL ARGS...: server and client of TOOL on
# loopback; their outputs in $tmp/NAME.{s,c}; fails unless both exit as expected.
pair() {
	local name=$1 es=$2 ec=$3 tool=$4 spid rs rc
	shift 4
	next_port
	timeout -k 5 60 "$T/$tool" -p "$port" "$@" >"$tmp/$name.s" 2>&1 &
	spid=$!
	# until the server listens (or has ended: a refusal), not a fixed pause
	wait_listen "$port" 10 "$spid" || true
	timeout -k 5 60 "$T/$tool" -p "$port" "$@" 127.0.0.1 >"$tmp/$name.c" 2>&1
	rc=$?
	wait "$spid"
	rs=$?
	if [ "$rs" != "$es" ] || [ "$rc" != "$ec" ]; then
		echo "FAIL: $name ($tool $*): server $rs (expected $es), client $rc (expected $ec)"
		tail -n 8 "$tmp/$name.s" "$tmp/$name.c"
		fail=1
		return 1
	fi
	echo "ok: $name ($tool $*)"
}

# expect_in NAME FILE REGEX: the output says it (tests/lib/expect.sh)
ko() { echo "FAIL: $*"; fail=1; }
. "$top_srcdir/tests/lib/expect.sh"
