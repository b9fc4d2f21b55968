# shellcheck shell=bash
# Helpers for the guest tests that run gd_check and the bench tools under a launcher
# (check-mpi.sh: mpirun, check-srun.sh: srun). Sourced, not a test.

# mpi N CMD...: mpirun as root in the guest; no other network than the veths: keep Open
# MPI on this node (shared memory between ranks, its out-of-band channel on lo), pin
# nothing, and a deadline (MPI_SECS; mpi_exit names it when it was reached): 300 s, and
# 1500 s in a sanitizer run (scripts/gd-vm-tests --sanitizer-logs sets GD_SANITIZER_LOGS):
# there every rank runs ASan+UBSan with full malloc stacks under TCG, and check-fleet's
# 4-rank launch with one rank stopped 90 % of the time was killed at 300 s, twice (session 42)
MPI_SECS=300
[ -z "${GD_SANITIZER_LOGS:-}" ] || MPI_SECS=1500
mpi() { timeout -k 10 "$MPI_SECS" mpirun --allow-run-as-root --oversubscribe --bind-to none \
	--mca btl self,vader --mca btl_vader_single_copy_mechanism none \
	--mca oob_tcp_if_include lo --mca mpi_yield_when_idle 1 -np "$@"; }

# mpi_exit RC: one line for an mpi launch's exit status RC; 124 or 137 is the deadline, not
# the ranks' verdict: gd_check's rank 0 prints its table and JSON at the end, so a launch
# killed there leaves no output at all to assert on (check-fleet's 4-rank case under
# ASan+UBSan, session 42: two empty launches, ~310 s each, no OOM in the guest's console)
mpi_exit() {
	case $1 in
	124 | 137) echo "mpirun exit $1: killed at the mpi deadline ($MPI_SECS s), not the ranks' verdict" ;;
	*) echo "mpirun exit $1" ;;
	esac
}

# mpi_need CK: skip (77) without mpirun, or when the tool CK was built without MPI
mpi_need() {
	command -v mpirun >/dev/null || { echo "SKIP: no mpirun (apt-get install openmpi-bin)"; exit 77; }
	ldd "$1" | grep -q libmpi || { echo "SKIP: $1 was built without MPI (configure --with-mpi)"; exit 77; }
}

# pairs_nonzero OUT N: the per-pair tables hold N rows, each a number above 0
# (a pair that measured 0 or "failed" fails the test)
pairs_nonzero() {
	awk -v want="$2" '
	/^[0-9]+ +[0-9]+ +[^ ]+\/[^ ]+ +[^ ]+\/[^ ]+ +[^ ]+$/ {
		rows++
		if ($5 !~ /^[0-9]+(\.[0-9]+)?$/ || $5 + 0 <= 0) { print "pair " $1 " -> " $2 ": " $5; bad++ }
	}
	END { if (rows != want) print rows + 0 " pair rows, expected " want; exit !(rows == want && !bad) }' "$1"
}

# bw_rows OUT: the report's result rows (size, iterations, peak, average, rate) with average > 0
bw_rows() { awk 'NF == 5 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $4 ~ /^[0-9.]+$/ && $4 + 0 > 0 { n++ }
	END { print n + 0 }' "$1"; }
# lat_rows OUT: latency rows (size, 200 iterations, then t_min... in us) with an average > 0
lat_rows() { awk 'NF >= 6 && $1 ~ /^[0-9]+$/ && $2 == 200 && $6 ~ /^[0-9.]+$/ && $6 + 0 > 0 { n++ }
	END { print n + 0 }' "$1"; }
