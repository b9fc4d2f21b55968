#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The proxy ring test (test_ring.c) built with ThreadSanitizer: host producer
# threads, proxy threads and the software transport test double under TSan.
# Skips (77) when the compiler or the kernel cannot run TSan programs.
set -u
src=${top_srcdir:-$(dirname "$0")/../..}
build=${top_builddir:-.}
cc=${CC:-cc}
out=$build/tests/initiator
mkdir -p "$out" || exit 99

probe=$out/tsan-probe
printf 'int main(void){return 0;}\n' > "$probe.c"
if ! $cc -fsanitize=thread -o "$probe" "$probe.c" 2>"$probe.log"; then
	echo "SKIP: $cc cannot build with -fsanitize=thread: $(head -1 "$probe.log")"
	exit 77
fi
if ! "$probe" 2>"$probe.log"; then
	echo "SKIP: ThreadSanitizer programs do not run here: $(head -1 "$probe.log")"
	exit 77
fi

bin=$out/test_ring_tsan
if ! $cc -std=gnu11 -D_GNU_SOURCE -fsanitize=thread -g -O1 -I"$src/src/core" \
	-I"$src/src/initiator" -I"$src/src/initiator/proxy" -I"$src/src/fabric" -I"$src/src/discover" -I"$build" -o "$bin" \
	"$src/tests/initiator/test_ring.c" "$src/src/initiator/proxy/proxy.c" \
	"$src/src/initiator/proxy/transport_sw.c" "$src/src/initiator/proxy/transport.c" \
	"$src/src/fabric/fabric_double.c" \
	"$src/src/initiator/proxy/hostprod.c" "$src/src/core/log.c" -lpthread; then
	echo "FAIL: cannot build the ring test with ThreadSanitizer"
	exit 1
fi
. "$src/tests/lib/tsan.sh"
tsan_run "the ring test" "$bin" || { echo "FAIL: the ring test skipped under ThreadSanitizer"; exit 1; }
echo "PASS: ring test under ThreadSanitizer, no race reported"
