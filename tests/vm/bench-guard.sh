#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Soft-RoCE tier: the speed regression GUARD (not the measurement; see
# doc/perf.md and scripts/bench-vs-perftest.sh for that). Three alternating
# gdperf/perftest pairs per point: write, read and send bandwidth at 8 B,
# 4 KiB, 64 KiB and 1 MiB, atomic bandwidth at 8 B, and every latency tool at
# 8 B. Fails when any point's speed ratio (median bandwidth gdperf/perftest;
# median typical latency perftest/gdperf; over the runs without retransmits
# when any) is below GD_GUARD_MIN (default 0.90). Runs of -n iterations as the
# measurement, about two minutes in all. Needs the guest; skips (77) elsewhere.
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
"$BVP" --builddir "$top_builddir" --pairs 3 --min-ratio "$MIN" --kinds bw \
	--ops "write read send atomic" --sizes "8 4096 65536 1048576" 2>/dev/null || rc=1
"$BVP" --builddir "$top_builddir" --pairs 3 --min-ratio "$MIN" --kinds lat \
	--ops "write read send atomic" --sizes 8 2>/dev/null || rc=1
if [ $rc = 0 ]; then echo "PASS: every point at or above $MIN of perftest"; else echo "FAIL: a point below $MIN (BELOW lines above)"; fi
exit $rc
