# shellcheck shell=sh
# Helpers for the gd_check tests of 'make check' (sourced, not a test itself).
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}" "${top_builddir:=$top_srcdir}"
GD_CHECK=$top_builddir/tools/gd_check
SPECS=$top_srcdir/tests/check/specs
H20_XML=$top_srcdir/tests/fixtures/topo/h20/topology.xml
H20_SYSFS=$top_srcdir/tests/fixtures/sysfs/h20
# Debian's python3 (python3-junitparser is a Debian package, not in a pyenv)
PY=/usr/bin/python3
fails=0
doubts=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
# A run that meets its thresholds PASSes only on a measurement the noise guard trusts
# (src/bench/trust.h): on a host busier than its cores it is a FAIL "should not be
# believed". doubted FILE: every FAIL in FILE (JSON or table) is such a one; then
# doubt WHAT notes an assertion this host cannot show, and finish says SKIP (77), never ok.
doubted() {
	grep -q 'should not be believed' "$1" || return 1
	# a check's own status, not its attempts' (a retried check lists FAILed attempts)
	! sed 's/"attempts":\[[^]]*\]//' "$1" | grep -E '"status":"FAIL"|^ *FAIL: ' |
		grep -qv 'should not be believed'
}
doubt() { echo "skip: $* (the noise guard doubted the measurement: a host busier than its cores)"; doubts=$((doubts + 1)); }
finish() {
	[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
	lf_skip_exit
	[ "$doubts" -eq 0 ] || { echo "SKIP: $doubts assertion(s) need a quieter host"; exit 77; }
	exit 0
}
[ -x "$GD_CHECK" ] || { echo "SKIP: $GD_CHECK not built"; exit 77; }
. "$top_srcdir/tests/lib/features.sh" # built_with, needs_libfabric, lf_skip_exit

# junit_check FILE TESTS FAILURES SKIPPED: parse with junitparser, compare the totals
junit_check() {
	"$PY" - "$@" <<'PYEOF'
import sys
from junitparser import JUnitXml
path, want = sys.argv[1], [int(x) for x in sys.argv[2:5]]
xml = JUnitXml.fromfile(path)
tests = fails = skips = 0
for suite in xml:
    for case in suite:
        tests += 1
        for r in case.result:
            kind = type(r).__name__
            if kind == "Failure":
                fails += 1
                if not r.message:
                    sys.exit("a failure without a message: " + case.name)
            elif kind == "Skipped":
                skips += 1
got = [tests, fails, skips]
if got != want:
    sys.exit("junit %s: tests/failures/skipped %s, expected %s" % (path, got, want))
PYEOF
}
have_junitparser() { "$PY" -c 'import junitparser' 2>/dev/null; }
# ofi_need PROVIDER...: exit 77 unless gd_check was built with libfabric and libfabric's
# providers are here (a test whose every part runs over libfabric)
# (a check that failed before it is reported: exit 1, not 77)
ofi_need() {
	needs_libfabric "the rest of this test (over libfabric)" || finish
	for p; do
		command -v fi_info >/dev/null && fi_info -p "$p" >/dev/null 2>&1 ||
			{ [ "$fails" -eq 0 ] || finish; echo "SKIP: libfabric's $p provider is not here (fi_info -p $p)"; exit 77; }
	done
}
# mpi_need: exit 77 unless mpirun is here and gd_check was built with MPI
# mpirun_here SECS MPIRUN-ARGS...: mpirun on this host as every check test runs it (root
# allowed, shared memory and loopback only, ranks oversubscribed and unbound), ended after SECS
mpirun_here() {
	secs=$1
	shift
	timeout -k 5 "$secs" env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		OMPI_MCA_btl=self,vader OMPI_MCA_oob_tcp_if_include=lo \
		mpirun --oversubscribe --bind-to none "$@"
}
mpi_need() {
	command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun (apt-get install openmpi-bin)"; exit 77; }
	ldd "$GD_CHECK" | grep -q libmpi || { echo "SKIP: gd_check was built without MPI (--with-mpi)"; exit 77; }
}
# tmp_dir: $tmp, a directory removed at exit
tmp_dir() {
	tmp=$(mktemp -d) || exit 99
	trap 'rm -rf "$tmp"' EXIT
}
