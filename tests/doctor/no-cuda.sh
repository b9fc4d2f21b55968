#!/bin/sh
# Without a CUDA driver the GPU paths say so and exit 3 (environment).
set -u
b=${top_builddir:-$(cd "$(dirname "$0")/../.." && pwd)}
prog=$b/tests/gpu/gd_gpumem_test
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
	echo "SKIP: this machine has a CUDA driver (tests/gpu/gpu-mem.sh covers it)"
	exit 77
fi
"$prog" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "no CUDA driver: libcuda.so.1 not found" "$tmp/err" ||
	{ echo "FAIL: no driver: exit $rc"; cat "$tmp/err"; fail=1; }
GDPERF_LIBCUDA=$tmp/nothing.so "$prog" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "nothing.so not found" "$tmp/err" || { echo "FAIL: GDPERF_LIBCUDA"; fail=1; }
# the toolkit's stub library: the CUDA error is named, not numbered
for stub in /usr/local/cuda/lib64/stubs/libcuda.so /usr/local/cuda/targets/*/lib/stubs/libcuda.so; do
	[ -e "$stub" ] || continue
	GDPERF_LIBCUDA=$stub "$prog" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -eq 3 ] && grep -q "CUDA_ERROR_STUB_LIBRARY" "$tmp/err" ||
		{ echo "FAIL: stub libcuda: exit $rc"; cat "$tmp/err"; fail=1; }
	break
done
[ $fail = 0 ] && echo "no-cuda: PASS"
exit $fail
