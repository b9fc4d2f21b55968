#!/bin/sh
# Fuzz the side channel's message decoder (src/bench/wire.c, target fuzz_wire), the
# benchmark command line (src/bench/bench_opts.c over src/core/opts.c, target fuzz_opts)
# and the sysfs-tree readers (src/discover, src/topo/pcipath.c, src/discover/gdr_env.c over
# src/core/sysfs.c and readfile.c, target fuzz_sysfs: mutated files, FIFOs and looping
# links in a copy of tests/fixtures/doctor/good),
# and gd_check's YAML spec loader (src/check/spec.c over libyaml, target fuzz_spec,
# when libyaml-dev is installed) with libFuzzer.
#
#   tests/fuzz/run-fuzz.sh [SECONDS]     default 30 s in all, split between the
#                                        four targets: the short run of 'make check'
#
# Builds tests/fuzz/fuzz_*.c with clang -fsanitize=fuzzer,address,undefined into
# $top_builddir/tests/fuzz/work/ (./tests/fuzz/work when run by hand), generates
# a seed corpus of valid encodings of every message type, runs each target, and
# prints executions and coverage. Every target runs with a memory limit
# (-rss_limit_mb and -malloc_limit_mb, GD_FUZZ_RSS_MB, default 2048). Exits 77
# (skipped) when clang or libFuzzer is missing, 1 when a target finds a crash, a
# leak, a timeout or an input over the memory limit: the report shows the end of
# the target's log and the input itself, escaped by od -c, and the command that
# reruns it (the input, TARGET-crash-* or TARGET-oom-*, stays in the work
# directory). Inputs that found a problem once are kept in tests/fuzz/regress-spec/
# and run first, each once.
#
# GD_FUZZ_TARGETS (default "wire opts sysfs spec") names the targets to build and run
# (tests/fuzz/fuzz-report.sh builds fuzz_wire alone).
#
# The longer run, before a release or after touching src/bench/wire.c or the options:
#   tests/fuzz/run-fuzz.sh 3600
# (one core; the corpora in work/corpus-* grow and are reused by later runs;
# under 'make check' the work directory is removed after a clean run unless
# GD_FUZZ_KEEP=1). Measured here: 600 s of fuzz_wire = 55 M executions,
# 286 edges, every line of the decoders covered.
set -eu

seconds=${1:-${GD_FUZZ_SECONDS:-30}}
half=$((seconds / 4))
[ "$half" -ge 1 ] || half=1
here=$(cd "$(dirname "$0")" && pwd)
srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
builddir=${top_builddir:-$(pwd)}
work=$builddir/tests/fuzz/work
CLANG=${CLANG:-clang}
targets=${GD_FUZZ_TARGETS:-wire opts sysfs spec}
want() { case " $targets " in *" $1 "*) return 0 ;; esac; return 1; }

if ! command -v "$CLANG" >/dev/null 2>&1; then
	echo "SKIP: $CLANG not found (apt-get install clang)"
	exit 77
fi
mkdir -p "$work/corpus-wire" "$work/corpus-opts" "$work/seeds-wire" "$work/seeds-opts" \
	"$work/corpus-sysfs" "$work/seeds-sysfs" \
	"$work/corpus-spec" "$work/seeds-spec"
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' >"$work/probe.c"
if ! "$CLANG" -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" >/dev/null 2>&1; then
	echo "SKIP: $CLANG has no libFuzzer (-fsanitize=fuzzer)"
	exit 77
fi

# A config.h of our own: the fuzzers need no configure run.
cat >"$work/config.h" <<'EOH'
#define _GNU_SOURCE 1
#define PACKAGE_NAME "gdperf"
#define PACKAGE_VERSION "fuzz"
#define GD_FEATURE_CUDA_KERNELS 0
#define GD_FEATURE_MPI 0
#define GD_FEATURE_YAML 0
#define GD_FEATURE_LIBFABRIC 0
EOH
echo '#define GD_BUILD_VERSION "fuzz"' > "$work/gd_version.h"
cflags="-g -O1 -std=gnu11 -I$work -I$srcdir/src/core -I$srcdir/src/discover -I$srcdir/src/topo -I$srcdir/src/bench -I$srcdir/src/gpu -I$srcdir/src/doctor -I$srcdir/src/initiator -I$srcdir/src/initiator/proxy -I$srcdir/src/initiator/ibgda -I$srcdir/src/initiator/mlx5 -I$srcdir/src/fabric -I$srcdir/src/check $(pkg-config --cflags json-c)"
san="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
libs="$(pkg-config --libs json-c) -lm"
common="$srcdir/src/bench/bench_params.c $srcdir/src/bench/roce_opts.c $srcdir/src/bench/roce_rate.c $srcdir/src/core/jsonout.c $srcdir/src/core/log.c \
	$srcdir/src/bench/init_opts.c $srcdir/src/initiator/proxy/proxy_check.c \
	$srcdir/src/initiator/ibgda/ibgda_check.c $srcdir/src/fabric/fabric_opts.c $srcdir/src/fabric/fabric_traits.c $srcdir/src/discover/host_limits.c"
# what the initiator options need, for the targets that do not link it anyway
# (the parameter list checks -d's name and --use_cuda_bus_id's PCI address: devname.c, cuda.c)
optdeps="$srcdir/src/discover/fabric_rule.c $srcdir/src/core/opts.c $srcdir/src/core/version.c $srcdir/src/core/machine.c $srcdir/src/core/sysfs.c $srcdir/src/core/readfile.c \
	$srcdir/src/gpu/cuda.c $srcdir/src/discover/devname.c"

# Each source is compiled once per run into work/obj (instrumented for libFuzzer, ASan and
# UBSan: -fsanitize=fuzzer-no-link) and its object shared by every target that links it:
# the targets have ~20 sources in common, and compiling them again for each target was most
# of this test's CPU time. The folder is emptied first: no object of an older source is reused.
# objs SOURCE...: the objects' paths (compiled if not yet); its caller assigns them, so that a
# compiler error ends the script (set -e).
rm -rf "$work/obj"
mkdir -p "$work/obj"
objs() {
	for s; do
		f=$(printf '%s' "${s#"$srcdir"/}" | tr / _)
		f=$work/obj/${f%.c}.o
		# shellcheck disable=SC2086
		[ -f "$f" ] || "$CLANG" $cflags -fsanitize=fuzzer-no-link,address,undefined \
			-fno-sanitize-recover=undefined -c -o "$f" "$s" || return 1
		printf '%s\n' "$f"
	done
}
# shellcheck disable=SC2086
shared=$(objs $common $optdeps)

if want wire; then
# the seed writer: fuzz_wire.c with a main of its own, on the same (instrumented) objects
w=$(objs "$srcdir/src/bench/wire.c")
# shellcheck disable=SC2086
"$CLANG" $cflags -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -DGD_FUZZ_SEEDS -o "$work/gen_seeds" \
	"$srcdir/tests/fuzz/fuzz_wire.c" $w $shared $libs -ldl
"$work/gen_seeds" "$work/seeds-wire"
w=$(objs "$srcdir/tests/fuzz/fuzz_wire.c" "$srcdir/src/bench/wire.c")
# shellcheck disable=SC2086
"$CLANG" $san -o "$work/fuzz_wire" $w $shared $libs -ldl
fi
if want opts; then
w=$(objs "$srcdir/tests/fuzz/fuzz_opts.c" "$srcdir/src/bench/bench_opts.c")
# shellcheck disable=SC2086
"$CLANG" $san -o "$work/fuzz_opts" $w $shared $libs -ldl
fi
if want sysfs; then
# shellcheck disable=SC2046,SC2010
w=$(objs "$srcdir/tests/fuzz/fuzz_sysfs.c" \
	$(ls "$srcdir"/src/discover/*.c | grep -v -e host_limits.c -e ofi_info.c -e fabric_rule.c -e devname.c) \
	"$srcdir"/src/topo/pcipath.c "$srcdir"/src/topo/locality.c)
# shellcheck disable=SC2086,SC2046
"$CLANG" $san -o "$work/fuzz_sysfs" $w $shared $libs -ldl $(pkg-config --libs libibverbs hwloc 2>/dev/null || echo -libverbs -lhwloc)
# the tree the sysfs fuzzer mutates (restored after every input)
rm -rf "$work/tree"
cp -a "$srcdir/tests/fixtures/doctor/good" "$work/tree"
chmod -R u+w "$work/tree"
# sysfs seeds: [file index] [mode] [length] [bytes]
printf '\000\000\010nan GT/s' >"$work/seeds-sysfs/nan"
printf '\005\001\000\011\002\000' >"$work/seeds-sysfs/fifo-and-zero"
printf '\007\000\004\377\376\375\374\010\003\000' >"$work/seeds-sysfs/utf8-and-loop"
fi
# the spec loader, with gd_check's own specs as seeds (libyaml-dev and nettle-dev needed)
have_yaml=no
if want spec && pkg-config --exists yaml-0.1 nettle; then
	have_yaml=yes
	w=$(objs "$srcdir/tests/fuzz/fuzz_spec.c" \
		"$srcdir/src/check/spec.c" "$srcdir/src/check/spec_walk.c" "$srcdir/src/check/spec_fleet.c" "$srcdir/src/check/spec_manifest.c" "$srcdir/src/check/spec_baseline.c" "$srcdir/src/check/spec_counters.c" "$srcdir/src/check/spec_fan.c" "$srcdir/src/check/spec_groups.c" "$srcdir/src/discover/port_counters_table.c" "$srcdir/src/check/spec_values.c" "$srcdir/src/check/spec_keys.c" "$srcdir/src/check/sha256.c")
	# shellcheck disable=SC2086,SC2046
	"$CLANG" $san -o "$work/fuzz_spec" $w $shared $(pkg-config --libs yaml-0.1 nettle) $libs
	cp "$srcdir"/tests/check/specs/*.yaml "$srcdir"/tests/fuzz/regress-spec/* "$work/seeds-spec/" \
		2>/dev/null || true
fi
printf 'magic="GDPF"\nversion="\\x00\\x01"\n' >"$work/wire.dict"
printf 'magic="GDPF"\nversion="\\x00\\x02"\n' >"$work/wire.dict"
# option seeds: tool bytes, then NUL-separated arguments
printf '\000\000-b\000-q\0004\000-s\00064K\000--report_gbits\000host' >"$work/seeds-opts/bw"
printf '\002\001-A\000CMP_AND_SWAP\000-o\0004\000--output=latency' >"$work/seeds-opts/atomic"
printf '\003\000-D\00010\000-f\0002\000--use_cuda=auto\000--use_cuda_dmabuf' >"$work/seeds-opts/send"
printf '\000\001-CHU\000--latency_gap=3\000--write_with_imm\000-r\00064' >"$work/seeds-opts/lat"

cd "$work"
status=0
# Every target runs under a memory limit (libFuzzer's, on RSS and on one allocation): an input
# that makes the code under test take the machine's memory is a finding, shown like a crash.
limits="-rss_limit_mb=${GD_FUZZ_RSS_MB:-2048} -malloc_limit_mb=${GD_FUZZ_RSS_MB:-2048}"
# What a failed target leaves: the end of its log, then each input that failed (crash-, oom-,
# timeout-, leak-, slow-unit-), escaped by od so that any byte shows, and how to rerun it.
report() {
	name=$1
	echo "---- fuzz_$name: the end of fuzz-$name.log"
	tail -n 40 "fuzz-$name.log"
	for f in "$name"-crash-* "$name"-oom-* "$name"-timeout-* "$name"-leak-* "$name"-slow-unit-* \
		"$name"-regress-*; do
		[ -f "$f" ] || continue
		echo "---- fuzz_$name: the input $work/$f ($(wc -c <"$f") bytes), escaped:"
		head -c 4096 "$f" | od -An -c
		echo "rerun: $work/fuzz_$name $limits $work/$f"
	done
}
run() {
	name=$1
	shift
	echo "fuzzing $name for $half s"
	# shellcheck disable=SC2086
	if ! "./fuzz_$name" -max_total_time="$half" -print_final_stats=1 $limits \
		-artifact_prefix="$name-" "$@" "corpus-$name" "seeds-$name" >"fuzz-$name.log" 2>&1; then
		status=1
		failed="$failed $name"
	fi
	grep -E '^#[0-9]+[[:space:]]+DONE|^stat::number_of_executed_units|^SUMMARY' "fuzz-$name.log" || true
}
failed=""
if want wire; then run wire -max_len=4200 -dict=wire.dict; fi
if want opts; then run opts -max_len=512 -close_fd_mask=3; fi
if want sysfs; then GD_FUZZ_TREE="$work/tree" run sysfs -max_len=1024 -close_fd_mask=3 -timeout=10; fi
if [ "$have_yaml" = yes ]; then
	# the inputs that found a problem once run first, each once (tests/fuzz/regress-spec)
	echo "fuzz_spec: the regression inputs"
	# shellcheck disable=SC2086
	if ! ./fuzz_spec $limits -artifact_prefix=spec- "$srcdir"/tests/fuzz/regress-spec/* \
		>fuzz-spec.log 2>&1; then
		status=1
		failed="$failed spec"
		# the input that failed is the last one the log says it ran: kept beside the others
		f=$(sed -n 's/^Running: //p' fuzz-spec.log | tail -n 1)
		[ -z "$f" ] || cp "$f" "spec-regress-$(basename "$f")"
	else
		run spec -max_len=2048
	fi
elif want spec; then
	echo "fuzz_spec not built: libyaml-dev is missing (apt-get install libyaml-dev)"
fi
if [ "$status" -ne 0 ]; then
	for name in $failed; do
		report "$name"
	done
	echo "FAIL: a fuzzer found a problem (logs: $work/fuzz-*.log)"
	exit 1
fi
echo "PASS: no crash in $seconds s"
# under 'make check' leave nothing behind (distcheck); by hand keep the corpora for the next run
if [ -n "${top_builddir:-}" ] && [ -z "${GD_FUZZ_KEEP:-}" ]; then
	cd "$builddir" && rm -rf "$work"
fi
