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
TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" timeout 600 "$bin"
rc=$?
case $rc in
0) echo "PASS: ring test under ThreadSanitizer, no race reported" ;;
66) echo "FAIL: ThreadSanitizer reported a data race (above)"; exit 1 ;;
124) echo "FAIL: the ring test under ThreadSanitizer did not finish in 600 s"; exit 1 ;;
*) echo "FAIL: the ring test failed under ThreadSanitizer (exit $rc)"; exit 1 ;;
esac
