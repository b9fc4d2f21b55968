# shellcheck shell=bash
# test_ports: sets $port to the first of a block of 500 TCP ports that no other
# running test holds (make check runs tests in parallel; pid-derived ports
# collided). Blocks lie in 20000-31999, below Linux's ephemeral range (32768-),
# where the tcp provider's and the clients' own ports come from. A block is held
# by a directory created atomically (mkdir) naming its holder's pid; a block
# whose holder is gone is taken over, so nothing needs releasing.
test_ports() {
	local dir=${TMPDIR:-/tmp}/gdperf-test-ports.$(id -u) b try holder
	mkdir -p "$dir" 2>/dev/null
	for try in 1 2 3; do
		for b in $(seq 0 23 | shuf 2>/dev/null || seq 0 23); do
			if mkdir "$dir/$b" 2>/dev/null; then
				echo $$ > "$dir/$b/pid"
				port=$((20000 + b * 500))
				return 0
			fi
			holder=$(cat "$dir/$b/pid" 2>/dev/null) || continue
			[ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null &&
				rm -rf "$dir/$b" 2>/dev/null
		done
		sleep 0.2
	done
	port=$((20000 + ($$ % 24) * 500)) # all held: fall back to a pid-derived block
	echo "note: test_ports: every block is held; using $port" >&2
}
