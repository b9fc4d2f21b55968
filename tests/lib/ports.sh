# shellcheck shell=sh
# test_ports: sets $port to the first of a block of 500 TCP ports that no other
# running test holds (make check runs tests in parallel; pid-derived ports
# collided). Blocks lie in 20000-31999, below Linux's ephemeral range (32768-),
# where the tcp provider's and the clients' own ports come from.
#
# A block is held by an exclusive flock(1) on its lock file, taken on file
# descriptor 8 of the test's shell: the kernel drops it when the last process
# holding that descriptor ends, so the test's own servers and clients (which
# inherit it) keep the block until they are gone too, and nothing needs
# releasing. (The earlier scheme, a directory naming its holder's pid, was taken
# over by checking the pid and removing the directory: two tests could both
# take one block that way, and a dead holder's pid reused by another process
# kept a block for ever. Seen: tests/check/mpi-rounds.sh's servers met another
# test's 127.0.0.1 clients on their ports.) Plain sh: tests/check/mpi-rounds.sh
# is a dash script.
# test_ports 2: two adjacent blocks (1000 ports, the second locked on descriptor 9), for
# a test whose ports run past 500 (tests/check/mpi-matrix.sh: 256 per host of 4).
test_ports() {
	_tp_n=${1:-1}
	_tp_dir=${TMPDIR:-/tmp}/gdperf-test-ports.$(id -u)
	mkdir -p "$_tp_dir" 2>/dev/null
	if command -v flock > /dev/null 2>&1; then
		for _tp_try in 1 2 3 4 5 6 7 8 9 10; do
			for _tp_b in $(seq 0 $((24 - _tp_n)) | shuf 2>/dev/null || seq 0 $((24 - _tp_n))); do
				exec 8>> "$_tp_dir/$_tp_b.lock" || continue
				if flock -n 8; then
					if [ "$_tp_n" = 1 ]; then
						port=$((20000 + _tp_b * 500))
						return 0
					fi
					exec 9>> "$_tp_dir/$((_tp_b + 1)).lock"
					if flock -n 9; then
						port=$((20000 + _tp_b * 500))
						return 0
					fi
					exec 9>&-
				fi
				exec 8>&-
			done
			sleep 0.5
		done
	fi
	port=$((20000 + ($$ % 24) * 500)) # no flock, or all held: a pid-derived block
	echo "note: test_ports: no block could be locked; using $port" >&2
}
