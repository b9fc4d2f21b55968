#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# --producer (make check, no GPU, no RDMA device needed): the option belongs
# to --initiator=proxy (exit 2 naming it), takes gpu|host|auto only (exit 2
# naming the choices), and is in --help. The choice itself (default gpu when
# CUDA finds a device, the header/JSON reason) runs in the GPU tier
# (tests/gpu/proxy-ofi.sh).
set -u
b=${top_builddir:-$(cd "$(dirname "$0")/../.." && pwd)}
t=$b/tools
fail=0
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

check() { # rc pattern description command...
	want=$1 pat=$2 what=$3
	shift 3
	"$@" > "$tmp/out" 2>&1 < /dev/null
	rc=$?
	if [ $rc -ne "$want" ]; then
		echo "FAIL: $what: exit $rc, want $want"; sed 's/^/  /' "$tmp/out"; fail=1
	elif ! grep -q -- "$pat" "$tmp/out"; then
		echo "FAIL: $what: output lacks '$pat'"; sed 's/^/  /' "$tmp/out"; fail=1
	else
		echo "ok: $what (exit $rc)"
	fi
}

check 2 'add --initiator=proxy' "--producer without the proxy" "$t/gd_write_bw" --producer gpu
check 2 'belongs to --initiator=proxy' "--producer with IBGDA" "$t/gd_write_bw" --initiator=ibgda --producer host
check 2 'gpu' "--producer with a bad value" "$t/gd_write_bw" --initiator=proxy --producer fpga
check 0 'producer=WHO' "--producer in --help" "$t/gd_write_bw" --help
exit $fail
