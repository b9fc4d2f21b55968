#!/bin/bash
# In the Soft-RoCE guest: the Debian package's installed tools (/usr/bin, not the
# build tree) run the quickstart: gd_devinfo on rxe0 and a gd_write_bw loopback;
# and, the package being built with Open MPI, gd_check's pair tests under mpirun.
# Skipped (77) when the gdperf package is not installed on the host
# (scripts/package-test --keep-installed installs it before the guest tier).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
[ -n "${GD_VM:-}" ] || { echo "SKIP: not in the gd-vm guest"; exit 77; }
dpkg-query -W -f='${Status}' gdperf 2>/dev/null | grep -q "ok installed" ||
	{ echo "SKIP: the gdperf package is not installed"; exit 77; }
fail=0
ip=${GD_VM_IP:-10.0.0.1}
cd /tmp || exit 1
if /usr/bin/gd_devinfo -d rxe0 | grep -q 'rxe0'; then echo "PASS: installed gd_devinfo -d rxe0"
else echo "FAIL: installed gd_devinfo -d rxe0"; fail=1; fi
timeout 60 /usr/bin/gd_write_bw -d rxe0 -n 200 -s 4096 >/tmp/pkg-srv.log 2>&1 &
srv=$!
sleep 1
out=$(timeout 60 /usr/bin/gd_write_bw -d rxe0 -n 200 -s 4096 "$ip" 2>&1)
rc=$?
wait $srv
src=$?
echo "$out" | tail -6
if [ $rc = 0 ] && [ $src = 0 ] && echo "$out" | grep -qE '^ *4096 +200 '; then
	echo "PASS: installed gd_write_bw loopback over rxe0"
else
	echo "FAIL: installed gd_write_bw loopback (client $rc, server $src)"; cat /tmp/pkg-srv.log; fail=1
fi
# the package is built with Open MPI: 2 ranks of the installed gd_check on rxe0 run the
# pair tests (pairwise, ring, all-pairs: one pair each) and rank 0 prints one report
if command -v mpirun >/dev/null; then
	. "$top/tests/vm/mpi-lib.sh"
	. "$top/tests/vm/lib.sh" # vm_doubted
	mpi 2 /usr/bin/gd_check "$top/tests/check/specs/guest-pairs.yaml" >/tmp/pkg-mpi.log 2>&1
	rc=$?
	if grep -q '^2 ranks (OMPI_COMM_WORLD_RANK, MPI)' /tmp/pkg-mpi.log &&
		pairs_nonzero /tmp/pkg-mpi.log 3; then
		if [ $rc = 0 ]; then echo "PASS: installed gd_check under mpirun -np 2: 3 pairs measured"
		elif vm_doubted /tmp/pkg-mpi.log; then
			# the two ranks share the guest's 2 vCPUs; a starved run is doubted, not judged
			echo "PASS: installed gd_check under mpirun -np 2: 3 pairs measured (exit 1: only the noise guard's doubts)"
		else echo "FAIL: installed gd_check under mpirun -np 2 (exit $rc)"; cat /tmp/pkg-mpi.log; fail=1; fi
	else
		echo "FAIL: installed gd_check under mpirun -np 2 (exit $rc)"; cat /tmp/pkg-mpi.log; fail=1
	fi
else
	echo "note: no mpirun in the guest (apt-get install openmpi-bin): the installed MPI run was not tried"
fi
exit $fail
