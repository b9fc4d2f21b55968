#!/bin/bash
# gd_check under Debian's Open MPI in the Soft-RoCE guest: 2 and 4 ranks on one rxe0 (one
# device talking to itself), pairwise, ring and all-pairs; MPI only carries addresses and
# results, the data path is RDMA; rank 0 prints the per-pair table and the worst pair.
# Then the bench tools' --mpi (a server and a client, rank 0 prints the report).
# Needs gd_check built with configure --with-mpi (skips otherwise).
#   flock /tmp/gd-vm.lock timeout 900 scripts/gd-vm -- env top_builddir=$PWD tests/vm/check-mpi.sh
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}" "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/mpi-lib.sh"
vm_require_guest
ck=$top_builddir/tools/gd_check
mpi_need "$ck"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for n in 2 4; do
	mpi "$n" "$ck" "$top_srcdir/tests/check/specs/guest-pairs.yaml" >"$tmp/out$n" 2>&1
	rc=$?
	cat "$tmp/out$n"
	vm_check_trusted "$n ranks: exit 0" "$tmp/out$n" test $rc -eq 0
	vm_check "$n ranks: header names the launcher" grep -q "^$n ranks (OMPI_COMM_WORLD_RANK, MPI)" "$tmp/out$n"
	pw=$((n / 2)); ring=$n; [ $n = 2 ] && ring=1; ap=$((n * (n - 1) / 2))
	vm_check "$n ranks: pairwise $pw pair(s)" grep -q "^pairwise: $pw pair(s), pattern pairwise" "$tmp/out$n"
	vm_check "$n ranks: ring $ring pair(s)" grep -q "^ring: $ring pair(s), pattern ring" "$tmp/out$n"
	vm_check "$n ranks: all-pairs $ap pair(s)" grep -q "^all-pairs-lat: $ap pair(s), pattern all-pairs" "$tmp/out$n"
	vm_check "$n ranks: worst pair" grep -q "^worst pair: rank [0-9] -> rank [0-9]" "$tmp/out$n"
	vm_check "$n ranks: one report (rank 0 only)" test "$(grep -c '^gd_check ' "$tmp/out$n")" = 1
	vm_check_trusted "$n ranks: no failed pair" "$tmp/out$n" bash -c "! grep -q '^tests .* FAIL ' '$tmp/out$n'"
	vm_check "$n ranks: every pair measured non-zero ($pw + $ring + $ap rows)" \
		pairs_nonzero "$tmp/out$n" $((pw + ring + ap))
	vm_check "$n ranks: the fleet view of each test (distribution of its pairs)" bash -c \
		"grep -q '^fleet pairwise: median .* Gb/s, $pw pairs\?\$' '$tmp/out$n' &&
		 grep -q '^fleet all-pairs-lat: median .* us, $ap pairs\?\$' '$tmp/out$n'"
done

# M6 (hostile notes): 'hosts: [A, B]' runs between the named hosts, or fails naming the one
# the launch does not reach; never a PASS of hosts that were not measured
h=$(hostname)
printf 'version: 1\ntests:\n  - {name: named, op: write, size: 4K, iterations: 50, device: rxe0, pairs: {hosts: [%s, %s]}}\n' \
	"$h" "$h" >"$tmp/here.yaml"
printf 'version: 1\ntests:\n  - {name: named, op: write, size: 4K, iterations: 50, device: rxe0, pairs: {hosts: [node-a.example, node-b.example]}}\n' \
	>"$tmp/away.yaml"
mpi 2 "$ck" "$tmp/here.yaml" >"$tmp/here" 2>&1
rc=$?
cat "$tmp/here"
vm_check "hosts: [$h, $h]: exit 0, one pair" bash -c "[ $rc -eq 0 ] && grep -q '^named: 1 pair(s)' '$tmp/here'"
mpi 2 "$ck" "$tmp/away.yaml" >"$tmp/away" 2>&1
rc=$?
cat "$tmp/away"
vm_check "hosts not in the launch: exit 1" test $rc -eq 1
vm_check "hosts not in the launch: FAIL naming the host" \
	grep -q "FAIL: named: runs: host node-a.example is not in this launch" "$tmp/away"

# The bench tools' --mpi: rank 0 prints (the server of a bw test, the client of a lat test);
# MPI passes the server's address.
bw=$top_builddir/tools/gd_write_bw
if ldd "$bw" | grep -q libmpi; then
	mpi 2 "$bw" --mpi -d rxe0 -D 2 --report_gbits >"$tmp/bw" 2>&1
	rc=$?
	cat "$tmp/bw"
	vm_check "gd_write_bw --mpi: exit 0" test $rc -eq 0
	vm_check "gd_write_bw --mpi: one report with non-zero bandwidth (rank 0 only)" \
		test "$(bw_rows "$tmp/bw")" = 1
	vm_check "gd_write_bw --mpi: one header (rank 1 prints none)" \
		test "$(grep -c 'RDMA_Write BW Test' "$tmp/bw")" = 1
	mpi 2 "$top_builddir/tools/gd_read_lat" --mpi -d rxe0 -n 200 >"$tmp/lat" 2>&1
	rc=$?
	cat "$tmp/lat"
	vm_check "gd_read_lat --mpi: exit 0" test $rc -eq 0
	vm_check "gd_read_lat --mpi: one latency row with a non-zero average (rank 0, the client)" \
		test "$(lat_rows "$tmp/lat")" = 1
	vm_check "gd_read_lat --mpi: one header (rank 1 prints none)" \
		test "$(grep -c 'RDMA_Read Latency Test' "$tmp/lat")" = 1
	mpi 3 "$bw" --mpi -d rxe0 >"$tmp/bw3" 2>&1
	rc=$?
	vm_check "gd_write_bw --mpi on 3 ranks: exit 2 (usage)" test $rc -eq 2
	vm_check "gd_write_bw --mpi on 3 ranks: says 2 ranks" grep -q "takes 2 ranks" "$tmp/bw3"
else
	vm_fail "gd_write_bw was built without MPI, gd_check with it"
fi
vm_exit
