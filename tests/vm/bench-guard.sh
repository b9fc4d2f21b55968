#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Soft-RoCE tier: the speed regression GUARD (not the measurement; see
# doc/perf.md and scripts/bench-vs-perftest.sh for that). Three alternating
# gdperf/perftest pairs at five points: the three gaps of issue 10 (atomic
# bw 8 B, read bw 4 KiB, send bw 64 KiB), write bw 8 B and write latency 8 B.
# Five points, 30 runs: about three minutes on the loaded 2-core host, where
# starting a server and a client under TCG costs more than the run itself.
# Fails when any point's speed ratio (median message rate gdperf/perftest;
# median typical latency perftest/gdperf; over the quiet runs - no
# retransmit, host not busy - when there are any) is below GD_GUARD_MIN
# (default 0.90). Needs the guest; skips (77) elsewhere.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$PWD}"
DEV=${GD_VM_DEV:-rxe0}
if [ ! -d /sys/class/infiniband/$DEV ]; then
	echo "SKIP: no RDMA device $DEV here: run inside the Soft-RoCE guest (scripts/gd-vm)"
	exit 77
fi
command -v ib_write_bw >/dev/null || { echo "SKIP: perftest not installed"; exit 77; }
[ -x "$top_builddir/tools/gd_write_bw" ] || { echo "SKIP: $top_builddir/tools/gd_write_bw not built"; exit 77; }

MIN=${GD_GUARD_MIN:-0.90}
BVP=$top_srcdir/scripts/bench-vs-perftest.sh
rc=0
t0=$(date +%s)
ERR=$(mktemp /tmp/bench-guard.XXXXXX)
# guard ARGS: one comparison; on failure its last diagnostics (not the per-run lines)
guard() {
	"$BVP" --builddir "$top_builddir" --pairs 3 --min-ratio "$MIN" "$@" 2> "$ERR" && return
	rc=1
	grep -v '^  run: ' "$ERR" | tail -5 | sed 's/^/    /'
}
guard --kinds bw --ops "atomic write" --sizes 8
guard --kinds bw --ops read --sizes 4096
guard --kinds bw --ops send --sizes 65536
guard --kinds lat --ops write --sizes 8
echo "# guard took $(($(date +%s) - t0)) s"
rm -f "$ERR"
if [ $rc = 0 ]; then echo "PASS: every point at or above $MIN of perftest"; else echo "FAIL: a point below $MIN (BELOW lines above)"; fi
exit $rc
