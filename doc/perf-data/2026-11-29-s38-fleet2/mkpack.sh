#!/bin/bash
# mkpack.sh BUILDDIR DEST: what the GPU machine needs for bench-baseline.sh and bench-rounds.sh:
# tools/gd_check and tests/check/sched_sim (built here, stripped), the two scripts, Debian 12's
# Open MPI 4.1 (orterun as bin/mpirun, its components and PMIx's, found through
# OMPI_MCA_mca_base_component_path / PMIX_MCA_mca_base_component_path), and lib/: every library
# ldd resolves that the GPU machine lacks (scripts/gpu-pack's rule), libfabric.so.1 with them.
set -eu
b=$1 d=$2
present='^(linux-vdso|libc\.|libm\.|libdl\.|libpthread\.|librt\.|ld-linux|libgcc_s|libstdc\+\+|libibverbs\.|librdmacm\.|libmlx5\.|libhwloc\.|libnl-3\.|libnl-route-3\.|libnuma\.|libudev\.|libcap\.|libz\.)'
ompi=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 pmix=/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
rm -rf "$d" && mkdir -p "$d/tools" "$d/tests/check" "$d/scripts" "$d/lib" "$d/bin" "$d/ompi" "$d/pmix"
cp "$b/tools/gd_check" "$d/tools/" && cp "$b/tests/check/sched_sim" "$d/tests/check/"
strip "$d/tools/gd_check" "$d/tests/check/sched_sim"
cp "$b/scripts/bench-baseline.sh" "$b/scripts/bench-rounds.sh" "$d/scripts/"
cp /usr/bin/orterun "$d/bin/mpirun" && cp /usr/bin/fi_info "$d/bin/"
cp "$ompi"/mca_*.so "$d/ompi/" && cp "$pmix"/*.so "$d/pmix/"
ofi=/usr/lib/x86_64-linux-gnu/libfabric.so.1
ldd "$d"/tools/* "$d"/tests/check/* "$d"/bin/* "$d"/ompi/* "$d"/pmix/* $ofi 2>/dev/null |
	awk '/=> \// { print $1, $3 }' | sort -u | while read -r so path; do
	echo "$so" | grep -Eq "$present" || cp -L "$path" "$d/lib/$so"
done
cp -L $ofi "$d/lib/libfabric.so.1"
strip "$d"/lib/*.so* "$d"/ompi/*.so "$d"/pmix/*.so 2>/dev/null || true
du -sh "$d"
