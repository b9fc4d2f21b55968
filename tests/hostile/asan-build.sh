#!/bin/sh
# The hostile corpora's one test of "tools built with AddressSanitizer" (tests/hostile/run.py
# asan_build, which sets both corpora's hang limits): true for GCC's shared runtime and for the
# static runtimes that scripts/gd-vm-tests --sanitizer-logs needs (-static-libasan
# -static-libubsan: ldd names no libasan there, which the old ldd test missed, so every case
# of hostile.sh had 5 s under ASan and gd_topo --topology big.xml was killed as hung), false
# for a plain build and for a missing file. Checked through both hang limits.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib/python.sh"
command -v "$PY" >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
command -v gcc >/dev/null 2>&1 || { echo "SKIP: no gcc"; exit 77; }
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
printf 'int main(void) { return 0; }\n' >"$work/m.c"
mkdir -p "$work/plain/tools" "$work/shared/tools" "$work/static/tools" || exit 99
gcc "$work/m.c" -o "$work/plain/tools/gd_check" || exit 99
gcc -fsanitize=address "$work/m.c" -o "$work/shared/tools/gd_check" 2>/dev/null ||
	{ echo "SKIP: gcc cannot build with -fsanitize=address here"; exit 77; }
gcc -fsanitize=address,undefined -static-libasan -static-libubsan "$work/m.c" \
	-o "$work/static/tools/gd_check" 2>/dev/null ||
	{ echo "SKIP: gcc cannot link the sanitizers' runtimes statically here"; exit 77; }
# limits NAME WANT: both corpora's hang limits (hostile.sh, spec-corpus.sh) for tools/gd_check
# built as NAME; WANT is "5 10" (no ASan) or "30 60"
fails=0
limits() {
	got=$(top_builddir="$work/$1" "$PY" -c '
import importlib.util, sys
sys.path.insert(0, sys.argv[1])
import run
spec = importlib.util.spec_from_file_location("corpus", sys.argv[1] + "/spec-corpus.py")
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)
print(run.hang_limit(), corpus.hang_limit())' "$top_srcdir/tests/hostile" 2>&1)
	if [ "$got" = "$2" ]; then echo "ok: $1: hang limits $got s"; else
		echo "FAIL: $1: hang limits [$got], want [$2] s"; fails=$((fails + 1)); fi
}
limits plain "5 10"
limits shared "30 60"
limits static "30 60"
limits missing "5 10"
[ "$fails" = 0 ]
