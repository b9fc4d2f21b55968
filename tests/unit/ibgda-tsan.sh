#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The IBGDA protocol test (test_ibgda_swnic.c) built with ThreadSanitizer:
# host producer threads, the software NIC test double and the ibgda-cpudb
# ringer; and the host stand-in for the GPU side (test_ibgda_gpu_host.c)
# over the test double. Skips (77) without cmocka or when TSan programs cannot be built or run.
set -u
src=${top_srcdir:-$(dirname "$0")/../..}
build=${top_builddir:-.}
cc=${CC:-cc}
out=$build/tests/unit
mkdir -p "$out" || exit 99
pkg-config --exists cmocka || { echo "SKIP: no cmocka"; exit 77; }

probe=$out/ibgda-tsan-probe
printf 'int main(void){return 0;}\n' > "$probe.c"
if ! $cc -fsanitize=thread -o "$probe" "$probe.c" 2>"$probe.log" || ! "$probe" 2>>"$probe.log"; then
	echo "SKIP: ThreadSanitizer programs cannot be built or run here: $(head -1 "$probe.log")"
	exit 77
fi
bin=$out/test_ibgda_swnic_tsan
# shellcheck disable=SC2046
if ! $cc -std=gnu11 -D_GNU_SOURCE -fsanitize=thread -Wno-tsan -g -O1 -I"$src/src/core" \
	-I"$src/src/initiator" -I"$src/src/initiator/ibgda" -I"$src/src/initiator/mlx5" -I"$build" -o "$bin" "$src/tests/unit/test_ibgda_swnic.c" \
	"$src/src/initiator/ibgda/ibgda_swnic.c" "$src/src/initiator/ibgda/ibgda_cpudb.c" \
	"$src/src/initiator/ibgda/ibgda_poller.c" \
	"$src/src/initiator/mlx5/mlx5_dump.c" \
	$(pkg-config --cflags --libs cmocka) -lpthread; then
	echo "FAIL: cannot build the IBGDA protocol test with ThreadSanitizer"
	exit 1
fi
# the host stand-in for the GPU side (its threads run the kernels' work) over the test double
host=$out/test_ibgda_gpu_host_tsan
# shellcheck disable=SC2046
if ! $cc -std=gnu11 -D_GNU_SOURCE -fsanitize=thread -Wno-tsan -g -O1 -I"$src/src/core" \
	-I"$src/src/initiator" -I"$src/src/initiator/ibgda" -I"$src/src/initiator/mlx5" -I"$build" -o "$host" \
	"$src/tests/unit/test_ibgda_gpu_host.c" "$src/src/initiator/ibgda/ibgda_gpu_host.c" \
	"$src/src/initiator/ibgda/ibgda_swnic.c" "$src/src/initiator/ibgda/ibgda_poller.c" \
	"$src/src/initiator/mlx5/mlx5_dump.c" "$src/src/core/log.c" \
	$(pkg-config --cflags --libs cmocka) -lpthread; then
	echo "FAIL: cannot build the IBGDA host stand-in test with ThreadSanitizer"
	exit 1
fi
. "$src/tests/lib/tsan.sh"
for prog in "$bin" "$host"; do
	tsan_run "$(basename "$prog")" "$prog" ||
		{ echo "FAIL: $(basename "$prog") skipped under ThreadSanitizer"; exit 1; }
	echo "ok: $(basename "$prog") under ThreadSanitizer, no race reported"
done
echo "PASS: IBGDA protocol and the host stand-in under ThreadSanitizer, no race reported"
