#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Soft-RoCE tier: the speed regression GUARD (not the measurement; see
# doc/perf.md and scripts/bench-vs-perftest.sh for that). Three alternating
# gdperf/perftest pairs per point: write, read and send bandwidth at 8 B and
# 64 KiB, atomic bandwidth at 8 B, write and read latency at 8 B (9 points, 54
# runs: under three minutes on a loaded 2-core host, where starting a server
# costs more than the run). Fails when any point's speed ratio (median message
# rate gdperf/perftest; median typical latency perftest/gdperf; over the quiet
# runs - no retransmit, host not busy - when there are any) is below
# GD_GUARD_MIN (default 0.90). Needs the guest; skips (77) elsewhere.
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
"$BVP" --builddir "$top_builddir" --pairs 3 --min-ratio "$MIN" --kinds bw \
	--ops "write read send atomic" --sizes "8 65536" 2>/dev/null || rc=1
"$BVP" --builddir "$top_builddir" --pairs 3 --min-ratio "$MIN" --kinds lat \
	--ops "write read" --sizes 8 2>/dev/null || rc=1
echo "# guard took $(($(date +%s) - t0)) s"
if [ $rc = 0 ]; then echo "PASS: every point at or above $MIN of perftest"; else echo "FAIL: a point below $MIN (BELOW lines above)"; fi
exit $rc
