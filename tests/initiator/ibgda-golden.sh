#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The IBGDA test double's output, byte for byte: one gd_write_bw and one
# gd_write_lat run on the software NIC test double with the host stand-in for
# the GPU side (GDPERF_TEST_IBGDA_GPU=host, see ibgda-standin.sh), text and
# --json, stdout and stderr, against tests/initiator/golden/ibgda-*. The
# run-to-run values are masked first: buffer addresses, the figures of each
# result row (size and iterations stay), the placement's CPUs, the noise
# guard's verdict lines, the JSON's time, version, host, placement, run_cpus,
# figures and trust values (its keys stay). Written for the move of the test
# double into the engine's lifecycle (issue 32 item 1): run it before and
# after; a difference it shows is a change of what the tools print.
# Usage: ibgda-golden.sh [--update]   (--update rewrites the golden files)
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
t=$top_builddir/tools
golden=$top_srcdir/tests/initiator/golden
. "$top_srcdir/tests/lib/python.sh"
[ -x "$t/gd_write_bw" ] || { echo "SKIP: $t/gd_write_bw not built"; exit 77; }
"$PY" -c 'import json' 2>/dev/null || { echo "SKIP: no python3 for the JSON mask"; exit 77; }
update=no
[ "${1:-}" = --update ] && update=yes
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
unset GDPERF_IBGDA_NIC GDPERF_IBGDA_SWNIC_ERR_AT GDPERF_IBGDA_SWNIC_STALL_AT GDPERF_IBGDA_SWNIC_ATOMIC_BE
fail=0

# text: addresses, and every field of a result row after size and iterations;
# since the run is the engine's (session 45): the CPUs of its placement and
# the noise guard's verdict lines (they follow this host's load)
mask_text() {
	sed -E -e 's/VAddr 0x[0-9a-f]+/VAddr <addr>/' \
		-e 's/^( +[0-9]+ +[0-9]+ ).*/\1<figures>/' \
		-e 's/^( Placement +: CPUs )[0-9,-]+/\1<cpus>/' \
		-e '/^ # doubtful: /d' -e '/^ WARNING: [0-9]+ of [0-9]+ results should not be believed/d' "$1"
}
mask_json() {
	"$PY" - "$1" <<'PY'
import json, sys
RUN = {"time", "gdperf_version", "host", "placement", "run_cpus"}
FIG = ("_usec", "_mib_per_s", "_gbit_per_s", "_mpps")
def walk(o, key=""):
    if isinstance(o, dict):
        return {k: ("<masked>" if k in RUN or k.endswith(FIG) else
                    walk(v, k) if key != "trust" else "<trust>") for k, v in o.items()}
    if isinstance(o, list):
        return [walk(v, key) for v in o]
    return o
for line in open(sys.argv[1]):
    if line.strip():
        print(json.dumps(walk(json.loads(line)), indent=1))
PY
}

# case NAME TOOL ARGS...
case_() {
	name=$1 tool=$2
	shift 2
	timeout 120 env GDPERF_TEST_IBGDA_GPU=host "$t/$tool" "$@" > "$tmp/raw.out" 2> "$tmp/raw.err" < /dev/null
	echo "exit $?" > "$tmp/$name.rc"
	case " $* " in
	*" --json "*) mask_json "$tmp/raw.out" > "$tmp/$name.out" || fail=1 ;;
	*) mask_text "$tmp/raw.out" > "$tmp/$name.out" ;;
	esac
	mask_text "$tmp/raw.err" > "$tmp/$name.err"
	cat "$tmp/$name.rc" >> "$tmp/$name.err"
	for s in out err; do
		if [ $update = yes ]; then
			cp "$tmp/$name.$s" "$golden/$name.$s"
		elif ! diff -u "$golden/$name.$s" "$tmp/$name.$s" > "$tmp/diff"; then
			echo "FAIL $name: std$s differs from golden/$name.$s ($tool $*)"
			cat "$tmp/diff"
			fail=1
		else
			echo "ok: $name std$s ($tool $*)"
		fi
	done
}

sw=--ibgda_nic=software-test-double
case_ ibgda-write-bw gd_write_bw --initiator=ibgda $sw -s 64 -n 512 -q 2 --ctas 2 --validate
case_ ibgda-write-bw-json gd_write_bw --initiator=ibgda $sw -s 64 -n 512 -q 2 --ctas 2 --validate --json
case_ ibgda-write-lat gd_write_lat --initiator=ibgda $sw -s 8 -n 200 --validate
case_ ibgda-write-lat-json gd_write_lat --initiator=ibgda $sw -s 8 -n 200 --validate --json
[ $update = yes ] && { echo "golden files rewritten in $golden"; exit 0; }
[ $fail -eq 0 ] && echo "PASS: ibgda-golden" || echo "FAIL: ibgda-golden"
exit $fail
