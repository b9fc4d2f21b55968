#!/bin/bash
# gd_check and the bench tools' --mpi under Slurm's srun in the Soft-RoCE guest: a one-node
# cluster (slurmctld + slurmd, tests/vm/slurm-lib.sh) started for the test under a
# temporary directory, Debian's slurm-wlm seen through the guest's read-only host root.
# srun starts the ranks (PMIx), Open MPI's MPI_Init joins them; the data path is rxe0.
# Skips (77) without slurmctld/slurmd/srun or without an MPI build.
#   flock /tmp/gd-vm.lock timeout 900 scripts/gd-vm -- env top_builddir=$PWD tests/vm/check-srun.sh
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}" "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/mpi-lib.sh"
. "$top_srcdir/tests/vm/slurm-lib.sh"
vm_require_guest
ck=$top_builddir/tools/gd_check
bw=$top_builddir/tools/gd_write_bw
for c in slurmctld slurmd srun sinfo; do
	command -v $c >/dev/null ||
		{ echo "SKIP: no $c (apt-get install slurmctld slurmd slurm-client)"; exit 77; }
done
ldd "$ck" | grep -q libmpi || { echo "SKIP: gd_check was built without MPI (configure --with-mpi)"; exit 77; }
tmp=$(mktemp -d)
trap 'slurm_stop; rm -rf "$tmp"' EXIT
if ! slurm_start "$tmp/slurm"; then
	vm_fail "a one-node Slurm cluster (slurmctld + slurmd) came up"
	vm_exit
fi
vm_ok "a one-node Slurm cluster came up ($(sinfo -h -o '%D node(s), %c CPUs, %T'))"
# Open MPI inside the ranks: shared memory between them, no spinning while idle
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none \
	OMPI_MCA_mpi_yield_when_idle=1
run() { timeout -k 10 300 srun --mpi=pmix -O "$@"; }

for n in 2 3; do
	run -n $n "$ck" "$top_srcdir/tests/check/specs/guest-ring.yaml" >"$tmp/ring$n" 2>&1
	rc=$?
	cat "$tmp/ring$n"
	ring=$n; [ $n = 2 ] && ring=1
	vm_check "srun -n $n gd_check ring: exit 0" test $rc -eq 0
	vm_check "srun -n $n: $n ranks joined over MPI" grep -q "^$n ranks (.*, MPI)" "$tmp/ring$n"
	vm_check "srun -n $n: ring of $ring pair(s)" grep -q "^ring: $ring pair(s), pattern ring" "$tmp/ring$n"
	vm_check "srun -n $n: worst pair" grep -q "^worst pair: rank [0-9] -> rank [0-9]" "$tmp/ring$n"
	vm_check "srun -n $n: one report (rank 0 only)" test "$(grep -c '^gd_check ' "$tmp/ring$n")" = 1
	vm_check "srun -n $n: every pair measured non-zero" pairs_nonzero "$tmp/ring$n" $ring
done

run -n 2 "$bw" --mpi -d rxe0 -D 2 --report_gbits >"$tmp/bw" 2>&1
rc=$?
cat "$tmp/bw"
vm_check "srun -n 2 gd_write_bw --mpi: exit 0" test $rc -eq 0
vm_check "srun -n 2 gd_write_bw --mpi: one report with non-zero bandwidth" test "$(bw_rows "$tmp/bw")" = 1
vm_exit
