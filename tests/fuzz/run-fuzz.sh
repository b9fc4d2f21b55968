#!/bin/sh
# Fuzz the side-channel message decoder (src/wire.c) with libFuzzer.
#
#   tests/fuzz/run-fuzz.sh [SECONDS]     default 30 s: the short run of 'make check' and CI
#
# Builds tests/fuzz/fuzz_wire.c with clang -fsanitize=fuzzer,address,undefined
# into $top_builddir/tests/fuzz/work/ (the current directory when run by hand),
# generates a seed corpus of valid encodings of every message type, runs, and
# prints executions and coverage. Exits 77 (skipped) when clang or libFuzzer is
# missing, non-zero when the fuzzer finds a crash (the reproducer is kept in
# the work directory: rerun it with  work/fuzz_wire work/crash-...).
#
# The longer run, before a release or after touching src/wire.c:
#   tests/fuzz/run-fuzz.sh 3600
# (one core; the corpus in work/corpus grows and is reused by later runs; under
# 'make check' the work directory is removed after a clean run unless GD_FUZZ_KEEP=1).
set -eu

seconds=${1:-${GD_FUZZ_SECONDS:-30}}
here=$(cd "$(dirname "$0")" && pwd)
srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
builddir=${top_builddir:-$(pwd)}
work=$builddir/tests/fuzz/work
CLANG=${CLANG:-clang}

if ! command -v "$CLANG" >/dev/null 2>&1; then
	echo "SKIP: $CLANG not found (apt-get install clang)"
	exit 77
fi
mkdir -p "$work/corpus" "$work/seeds"
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' >"$work/probe.c"
if ! "$CLANG" -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" >/dev/null 2>&1; then
	echo "SKIP: $CLANG has no libFuzzer (-fsanitize=fuzzer)"
	exit 77
fi

# A config.h of our own: the fuzzer needs no configure run.
cat >"$work/config.h" <<'EOH'
#define _GNU_SOURCE 1
#define PACKAGE_NAME "gdperf"
#define PACKAGE_VERSION "fuzz"
EOH
cflags="-g -O1 -std=gnu11 -I$work -I$srcdir/src $(pkg-config --cflags json-c)"
libs="$(pkg-config --libs json-c) -lm"
sources="$srcdir/tests/fuzz/fuzz_wire.c $srcdir/src/wire.c $srcdir/src/bench_params.c \
	$srcdir/src/jsonout.c $srcdir/src/log.c"

# shellcheck disable=SC2086
"$CLANG" $cflags -DGD_FUZZ_SEEDS -o "$work/gen_seeds" $sources $libs
"$work/gen_seeds" "$work/seeds"
# shellcheck disable=SC2086
"$CLANG" $cflags -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-o "$work/fuzz_wire" $sources $libs
printf 'magic="GDPF"\nversion="\\x00\\x01"\n' >"$work/wire.dict"

echo "fuzzing the wire decoder for $seconds s (corpus $work/corpus)"
cd "$work"
status=0
./fuzz_wire -max_total_time="$seconds" -max_len=4200 -dict=wire.dict -print_final_stats=1 \
	corpus seeds >fuzz.log 2>&1 || status=$?
grep -E '^#[0-9]+[[:space:]]+DONE|^stat::number_of_executed_units|^stat::peak_rss_mb' fuzz.log || true
if [ "$status" -ne 0 ]; then
	tail -40 fuzz.log
	echo "FAIL: the fuzzer found a problem (log: $work/fuzz.log)"
	exit 1
fi
echo "PASS: no crash in $seconds s"
# under 'make check' leave nothing behind (distcheck); by hand keep the corpus for the next run
if [ -n "${top_builddir:-}" ] && [ -z "${GD_FUZZ_KEEP:-}" ]; then
	cd "$builddir" && rm -rf "$work"
fi
