#!/bin/bash
# mklibs.sh DEST: the libraries the GPU machine lacks (gpu-pack's rule), Debian libfabric 1.17, fi_pingpong
set -eu
d=$1
mkdir -p "$d/lib" "$d/ft"
present='^(linux-vdso|libc\.|libm\.|libdl\.|libpthread\.|librt\.|ld-linux|libgcc_s|libstdc\+\+|libibverbs\.|librdmacm\.|libmlx5\.|libhwloc\.|libnl-3\.|libnl-route-3\.|libnuma\.|libudev\.|libcap\.|libz\.)'
ofi=/usr/lib/x86_64-linux-gnu/libfabric.so.1
cp /usr/bin/fi_pingpong /usr/bin/fi_info "$d/ft/"
ldd "$d"/gd_x/* "$d"/ft/* $ofi | awk '/=> \// { print $1, $3 }' | sort -u | while read -r so path; do
	echo "$so" | grep -Eq "$present" || cp -L "$path" "$d/lib/$so"
done
cp -L $ofi "$d/lib/libfabric.so.1"
strip "$d"/lib/*.so* 2>/dev/null || true
