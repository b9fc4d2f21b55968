#!/bin/sh
# libfabric is loaded on first use (src/discover/ofi_lib.h), not linked: no
# tool may need libfabric.so.1 to start (Debian's libfabric pulls in
# libinfinipath, whose constructor sleeps ~0.2 s), and a libfabric.so.1 that
# cannot be loaded, or is not libfabric, is exit 3 naming the library and the
# fix, for gd_devinfo --fabric ofi and for a benchmark tool, while a run
# that does not use libfabric is untouched by it. SKIP (77) in a build without
# libfabric.
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${top_builddir:-$src}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

. "$src/tests/lib/features.sh" # built_with
top_builddir=$build built_with libfabric || { echo "SKIP: built without libfabric"; exit 77; }
command -v readelf > /dev/null || { echo "SKIP: no readelf (binutils)"; exit 77; }
n=0
for t in "$build"/tools/gd_*; do
	case $t in *.o | *.c) continue ;; esac
	[ -x "$t" ] && [ -f "$t" ] || continue
	n=$((n + 1))
	readelf -d "$t" 2>/dev/null | grep -q 'NEEDED.*libfabric' &&
		bad "$(basename "$t") links libfabric.so (it must load it on first use)"
done
[ $n -ge 10 ] || bad "only $n tools under $build/tools"

# 1. a libfabric.so.1 that is not an ELF object: dlopen fails
mkdir "$tmp/notelf" "$tmp/notfab"
echo "not a library" > "$tmp/notelf/libfabric.so.1"
# 2. a real shared object without fi_getinfo (libm under libfabric's name)
libm=$(ldconfig -p 2>/dev/null | sed -n 's/.*libm\.so\.6 (libc6,x86-64) => //p' | head -n 1)
[ -n "$libm" ] || libm=$(find /lib /usr/lib -name libm.so.6 2>/dev/null | head -n 1)
[ -n "$libm" ] && cp "$libm" "$tmp/notfab/libfabric.so.1"
for case in notelf notfab; do
	[ -f "$tmp/$case/libfabric.so.1" ] || { echo "skip case $case: no libm.so.6 found"; continue; }
	LD_LIBRARY_PATH="$tmp/$case" "$build/tools/gd_devinfo" --fabric ofi > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc = 3 ] && grep -q 'libfabric' "$tmp/err" && grep -q 'LD_LIBRARY_PATH' "$tmp/err" ||
		bad "$case: gd_devinfo --fabric ofi exit $rc (want 3 naming libfabric and the fix): $(cat "$tmp/err")"
	LD_LIBRARY_PATH="$tmp/$case" timeout 20 "$build/tools/gd_write_bw" --fabric ofi --provider tcp \
		-n 5 -s 64 --timeout 5 > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc = 3 ] && grep -q 'could not be loaded\|has no fi_getinfo' "$tmp/err" ||
		bad "$case: gd_write_bw --fabric ofi exit $rc (want 3): $(cat "$tmp/err")"
	LD_LIBRARY_PATH="$tmp/$case" "$build/tools/gd_write_bw" --help > /dev/null ||
		bad "$case: gd_write_bw --help fails when libfabric is unusable"
	[ $fail = 0 ] && echo "ok: $case: exit 3 with the cause; --help unaffected"
done
exit $fail
