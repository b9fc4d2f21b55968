#!/bin/sh
# gd_check under mpirun on this host (no RDMA device needed): the ranks' first collective
# agrees on the spec (M10 of doc/notes/hostile-2026-11-26.md). A rank that cannot read its
# spec, or reads another one, stops every rank with exit 2, and rank 0 names the rank and the
# cause (before: MPI_ERR_TRUNCATE, exit 15, no cause).
. "$(dirname "$0")/lib.sh"
mpi_need
tmp_dir
printf 'version: 1\ntests:\n  - {name: ring, op: write, size: 4K, iterations: 10, pairs: ring}\n' >"$tmp/ring.yaml"
printf 'version: 1\nname: other\ntests:\n  - {name: ring, op: write, size: 4K, pairs: ring}\n' >"$tmp/other.yaml"
# mpi2 RANK1_SPEC: rank 0 reads ring.yaml, rank 1 the given spec
mpi2() {
	mpirun_here 60 -np 2 sh -c \
		"if [ \$OMPI_COMM_WORLD_RANK = 1 ]; then exec '$GD_CHECK' '$1'; else exec '$GD_CHECK' '$tmp/ring.yaml'; fi" \
		>"$tmp/out" 2>&1
}
mpi2 "$tmp/missing.yaml"
rc=$?
[ $rc -eq 2 ] && grep -q "rank 1 could not load the spec: .*missing.yaml: cannot read the spec" "$tmp/out" &&
	ok "a rank without its spec: exit 2, rank 0 names rank 1 and the cause" ||
	{ fail "a rank without its spec: exit $rc"; cat "$tmp/out"; }
mpi2 "$tmp/other.yaml"
rc=$?
[ $rc -eq 2 ] && grep -q "rank 1 loaded another spec than rank 0 (sha256 " "$tmp/out" &&
	ok "a rank with another spec: exit 2, named by its sha256" ||
	{ fail "a rank with another spec: exit $rc"; cat "$tmp/out"; }
finish
