#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test_ofi_domains (one libfabric domain per proxy thread; the passive side's
# progress thread per domain) built with ThreadSanitizer: the fabric's own
# sources instrumented (fabric_ofi*.c: the progress threads, their stop flag,
# the pace they read while the main thread sets it); libfabric itself is not
# (dlopened as built), so races inside the provider are not this test's.
# Skips (77) without libfabric's shm and tcp, or when the compiler or the
# kernel cannot run TSan programs. The flags come from the build
# (tests/fabric/ofi-domains-tsan.flags: make check writes it).
set -u
src=${top_srcdir:-$(dirname "$0")/../..}
build=${top_builddir:-.}
cc=${CC:-cc}
out=$build/tests/fabric
flags=$out/ofi-domains-tsan.flags
[ -r "$flags" ] || { echo "FAIL: no $flags (make check writes it)"; exit 1; }

probe=$out/ofi-tsan-probe
printf 'int main(void){return 0;}\n' > "$probe.c"
if ! $cc -fsanitize=thread -o "$probe" "$probe.c" 2>"$probe.log"; then
	echo "SKIP: $cc cannot build with -fsanitize=thread: $(head -1 "$probe.log")"
	exit 77
fi
if ! "$probe" 2>"$probe.log"; then
	echo "SKIP: ThreadSanitizer programs do not run here: $(head -1 "$probe.log")"
	exit 77
fi

if nm "$build/src/libgdperf.a" 2>/dev/null | grep -q '__asan_\|__tsan_\|__msan_'; then
	echo "SKIP: this build is instrumented by another sanitizer (src/libgdperf.a): no TSan link"
	exit 77
fi

bin=$out/test_ofi_domains_tsan
cppflags=$(sed -n 1p "$flags") libs=$(sed -n 2p "$flags")
# shellcheck disable=SC2086 # the flags are words
if ! (cd "$build" && $cc -std=gnu11 -D_GNU_SOURCE $cppflags -fsanitize=thread -g -O1 -o "$bin" \
	"$src/tests/fabric/test_ofi_domains.c" "$src/src/fabric/fabric_ofi_ep.c" \
	"$src/src/fabric/fabric_ofi_cm.c" "$src/src/fabric/fabric_ofi.c" $libs -lpthread); then
	echo "FAIL: cannot build test_ofi_domains with ThreadSanitizer"
	exit 1
fi
. "$src/tests/lib/tsan.sh"
tsan_run test_ofi_domains "$bin" || { echo "SKIP: no libfabric shm or tcp here"; exit 77; }
echo "PASS: test_ofi_domains under ThreadSanitizer, no race reported"
