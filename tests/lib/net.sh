# shellcheck shell=bash
# wait_listen PORT [SECONDS [PID]]: return 0 once something listens on TCP PORT (IPv4
# or IPv6), 1 after SECONDS (default 20), or at once when process PID (the server, if
# given) is gone: a server that refuses its options exits before it listens. It reads
# /proc/net/tcp{,6} with shell builtins only (no ss, no fork a look: under TCG in the
# Soft-RoCE guest each fork costs tens of milliseconds) and makes no probe connection,
# as each server accepts one peer.
# Sourced by the shell tests (tests/vm/bench-lib.sh) and the bench scripts
# (scripts/bench-*.sh, scripts/proxy-vs-cpu.sh); in the guest the host's tree is
# mounted at the same path, so the same relative path finds it.
# The deadline is of the clock (EPOCHREALTIME), not a count of looks: reading
# /proc/net/tcp takes 0.1 s on some kernels.
wait_listen() {
	local hex l f now end lines
	printf -v hex ':%04X ' "$1"
	now=${EPOCHREALTIME/[.,]/}
	end=$((now + ${2:-20} * 1000000))
	while ((now < end)); do
		for f in /proc/net/tcp /proc/net/tcp6; do
			# the whole file in one pass: mapfile reads it in blocks, where a
			# `while read` loop seeks back after every line and the kernel
			# walks its socket table again for each (one read and one lseek a
			# line: 27 ms of system time per look at 61 sockets here)
			mapfile -t lines < "$f" 2> /dev/null
			for l in "${lines[@]}"; do
				l=${l#*: }
				# local address ends in :PORT, state 0A (LISTEN)
				[[ ${l%% *}' ' == *"$hex" && $l == *' 0A '* ]] && return 0
			done
		done
		[ -n "${3:-}" ] && ! kill -0 "$3" 2> /dev/null && return 1
		sleep 0.05
		now=${EPOCHREALTIME/[.,]/}
	done
	return 1
}
