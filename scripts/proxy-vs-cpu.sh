#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# proxy-vs-cpu: a benchmark (not a test). In ONE Soft-RoCE guest boot, run
# gd_write_bw with --initiator=proxy (host producer -> ring -> proxy thread ->
# rxe) and with the default CPU initiator alternately, pair by pair (the
# order flips every pair so drift cancels), at 8 B, 4 KiB and 64 KiB, and
# print the medians and the proxy/cpu ratios of bandwidth and message rate
# with their spread (min..max of the per-pair ratios). Goal: >= 0.95 (the
# proxy must not be the bottleneck). Under TCG only the ratios mean something.
#
#   scripts/proxy-vs-cpu.sh [--pairs N] [--sizes "8 4096 65536"] [--builddir DIR]
#       [--provider P [--producer gpu|host]] [--iters "SIZE:N ..."]
#       [--pin "S C" | --pin none] [--use_cuda N] [--aa]
#
# Per size it prints the medians of each mode, the ratio of the medians, and
# the median of the per-pair ratios with their spread (min..max). --aa adds the
# control: the CPU initiator run a second time in every pair (cpu2, the three
# runs rotating their order), whose cpu2/cpu per-pair median and spread is the
# machine's resolution at that point: a proxy/cpu ratio inside it is not a
# difference.
#
# Outside the guest it re-runs itself through scripts/gd-vm. With --provider
# (libfabric: shm, tcp) it runs here, server and client on 127.0.0.1, no
# guest: on a GPU machine, --producer gpu makes the CUDA producer kernel issue
# the proxy's requests (issue 22's ratio; --builddir a gpu-pack folder works).
# --use_cuda N puts both sides' buffers in GPU N's memory in both modes (a
# libfabric built with CUDA must come first in LD_LIBRARY_PATH).
# Iterations per size: in the guest 8:20000 4096:5000 65536:1000 (rxe under TCG is
# slow); over libfabric 8:200000 4096:100000 65536:40000, so that a run lasts about
# 0.2-0.5 s on shm: 1000 x 64 KiB is 6 ms there, and the ring's start and drain
# (the proxy thread's and the producer's start, the last completions) weighed in
# the ratio as much as the steady rate it is meant to measure. --iters overrides
# some or all sizes. --port-base N: the side channels' ports are N+1, N+2, ...
# (default 21000). A run that fails is left out of the medians (a mode with none
# prints '-') and the script exits 1 after the table, saying how many failed.
# Placement (libfabric only): unpinned, the per-pair ratios on the 16-core H100
# machine spread 0.76..2.05, the scheduler's placement of a dozen threads moving
# the rate more than the proxy does. --pin "S C" (default "2 3" with 8 CPUs or
# more) runs the server on CPU S in both modes, the CPU initiator's client on
# CPU C, and the proxy's client with its proxy thread on CPU C and its other
# threads (main, host producers) on the CPUs other than S and C.
set -u
pairs=5
sizes="8 4096 65536"
provider= producer= iters_opt= pin=auto mem=() port_base= aa=
builddir=${top_builddir:-$PWD}
here=$(cd "$(dirname "$0")" && pwd)
orig_args=("$@")
while [ $# -gt 0 ]; do
	case $1 in
	--pairs) pairs=$2; shift 2 ;;
	--sizes) sizes=$2; shift 2 ;;
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--provider) provider=$2; shift 2 ;;
	--producer) producer=$2; shift 2 ;;
	--iters) iters_opt=$2; shift 2 ;;
	--pin) pin=$2; shift 2 ;;
	--use_cuda) mem=("--use_cuda=$2"); shift 2 ;;
	--aa) aa=1; shift ;;
	--port-base) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] && [ "$2" -lt 65000 ] ||
			{ echo "proxy-vs-cpu: --port-base takes a port below 65000 (got '${2:-}')" >&2; exit 2; }
		port_base=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -u$/{/^#/p}' "$0"; exit 0 ;;
	*) echo "proxy-vs-cpu: unknown argument $1" >&2; exit 2 ;;
	esac
done
DEV=${GD_VM_DEV:-rxe0}
IP=${GD_VM_IP:-10.0.0.1}
where=(-d "$DEV") proxy_extra=()
[ -n "$producer" ] && proxy_extra=(--producer "$producer")
if [ -n "$provider" ]; then
	where=(--fabric ofi --provider "$provider") IP=127.0.0.1 DEV="libfabric $provider"
elif [ ! -d /sys/class/infiniband/$DEV ]; then
	if [ -x "$here/gd-vm" ]; then
		exec "$here/gd-vm" --timeout 1800 -- "$here/proxy-vs-cpu.sh" --builddir "$builddir" \
			"${orig_args[@]}"
	fi
	echo "proxy-vs-cpu: no $DEV here and no scripts/gd-vm to boot the guest" >&2
	exit 3
fi
BIN=$builddir/tools
[ -x "$BIN/gd_write_bw" ] || { echo "proxy-vs-cpu: build first ($BIN/gd_write_bw)" >&2; exit 3; }
WORK=$(mktemp -d /tmp/pvc.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
port=${port_base:-21000}
iters() {
	local kv
	for kv in $iters_opt; do [ "${kv%%:*}" = "$1" ] && { echo "${kv#*:}"; return; }; done
	if [ -n "$provider" ]; then
		case $1 in 8) echo 200000 ;; 4096) echo 100000 ;; *) echo 40000 ;; esac
	else
		case $1 in 8) echo 20000 ;; 4096) echo 5000 ;; *) echo 1000 ;; esac
	fi
}
spin=() cpin=() ppin=()
if [ -n "$provider" ] && [ "$pin" = auto ] && [ "$(nproc)" -ge 8 ]; then pin="2 3"; fi
if [ -n "$provider" ] && [[ $pin =~ ^([0-9]+)\ ([0-9]+)$ ]]; then
	ps=${BASH_REMATCH[1]} pc=${BASH_REMATCH[2]} rest=
	for ((c = 0; c < $(nproc); c++)); do
		[ $c = "$ps" ] || [ $c = "$pc" ] || rest=$rest,$c
	done
	spin=(--pin_cores "$ps") cpin=(--pin_cores "$pc") ppin=(--pin_cores "$pc$rest")
elif [ "$pin" != auto ] && [ "$pin" != none ]; then
	echo "proxy-vs-cpu: --pin wants \"SERVER CLIENT\" CPU numbers or none (got '$pin'; libfabric only)" >&2
	exit 2
fi
for kv in $iters_opt; do
	[[ $kv =~ ^[0-9]+:[1-9][0-9]*$ ]] ||
		{ echo "proxy-vs-cpu: --iters wants SIZE:N pairs, e.g. \"65536:40000\" (got '$kv')" >&2; exit 2; }
done
# wait_listen PORT: until the server listens (20 s at most; tests/lib/net.sh)
. "$here/../tests/lib/net.sh"
# one run: prints "bw_MiBps Mpps" or nothing
one() { # MODE SIZE
	local mode=$1 size=$2 n extra=() cextra=("${cpin[@]}") spid line
	n=$(iters "$size")
	[ "$mode" = proxy ] && extra=(--initiator=proxy "${proxy_extra[@]}") cextra=("${ppin[@]}")
	port=$((port + 1))
	timeout -s KILL 120 "$BIN/gd_write_bw" "${where[@]}" -p $port -s "$size" -n "$n" -N "${extra[@]}" \
		"${mem[@]}" "${spin[@]}" > "$WORK/s.out" 2>&1 &
	spid=$!
	wait_listen $port || { kill -9 $spid 2>/dev/null; return; }
	line=$(timeout -s KILL 120 "$BIN/gd_write_bw" "${where[@]}" -p $port -s "$size" -n "$n" -N \
		"${extra[@]}" "${mem[@]}" "${cextra[@]}" --output=bandwidth "$IP" 2>"$WORK/c.err")
	wait $spid
	# --output=bandwidth prints MiB/s; the message rate follows from the size
	[ -n "$line" ] && awk -v bw="$line" -v s="$size" 'BEGIN { printf "%s %.6f\n", bw, bw * 1048576 / s / 1e6 }'
}
median() { sort -g | awk '{ a[NR] = $1 } END { if (!NR) exit; if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "proxy-vs-cpu: gd_write_bw on $DEV, $pairs alternating pairs per size, $(nproc) CPUs${producer:+, producer $producer}${mem[0]:+, ${mem[0]}}${spin[1]:+, server on CPU ${spin[1]}, client on ${cpin[1]} (proxy: ${ppin[1]})}"
printf '%-8s %14s %14s %10s %10s %18s' size cpu_MiBps proxy_MiBps bw_ratio pair_med 'pair spread'
[ -n "$aa" ] && printf ' %10s %18s' aa_med 'aa spread'
echo
modes="cpu proxy${aa:+ cpu2}"
# order P: the modes rotated by P (with two modes: flipped every pair)
order_of() {
	local -a m=($modes)
	local n=${#m[@]} i out=
	for ((i = 0; i < n; i++)); do out="$out ${m[$(((i + $1) % n))]}"; done
	echo $out
}
# pair_ratio A B: the last run of A over the last of B, into WORK/ratio.A
pair_ratio() {
	local a b
	a=$(tail -1 "$WORK/$1" | cut -d' ' -f1) b=$(tail -1 "$WORK/$2" | cut -d' ' -f1)
	[[ $a =~ ^[0-9.]+$ && $b =~ ^[0-9.]+$ ]] &&
		awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) print a / b }' >> "$WORK/ratio.$1"
}
med3() { median < "$1" | awk '{ printf "%.3f", $1 }'; }
spread_of() { sort -g "$1" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR) printf "%.3f..%.3f", lo, hi; else print "-" }'; }
total=0 missed=0
for size in $sizes; do
	for m in $modes; do : > "$WORK/$m"; : > "$WORK/ratio.$m"; done
	for p in $(seq 1 "$pairs"); do
		for m in $(order_of "$p"); do
			r=$(one "$m" "$size")
			total=$((total + 1))
			# a run that gave no number leaves its pair out of the ratios
			if [ -n "$r" ]; then echo "$r" >> "$WORK/$m"; else missed=$((missed + 1)); echo "-" >> "$WORK/$m"; fi
			echo "csv: $m,$size,$r" >&2
		done
		pair_ratio proxy cpu
		[ -n "$aa" ] && pair_ratio cpu2 cpu
	done
	mc=$(grep -v '^-' "$WORK/cpu" | cut -d' ' -f1 | median)
	mx=$(grep -v '^-' "$WORK/proxy" | cut -d' ' -f1 | median)
	# at a fixed size the message-rate ratio equals the bandwidth ratio; a mode without a
	# run that gave a number prints '-', never 0 (not measured is not zero)
	if [ -n "$mc" ] && [ -n "$mx" ]; then
		ratio=$(awk -v c="$mc" -v x="$mx" 'BEGIN { print (c > 0 ? x / c : 0) }')
		printf '%-8s %14.2f %14.2f %10.3f %10s %18s' "$size" "$mc" "$mx" "$ratio" \
			"$(med3 "$WORK/ratio.proxy")" "$(spread_of "$WORK/ratio.proxy")"
	else
		printf '%-8s %14s %14s %10s %10s %18s' "$size" "${mc:--}" "${mx:--}" - - -
	fi
	if [ -n "$aa" ]; then
		a=$(med3 "$WORK/ratio.cpu2")
		printf ' %10s %18s' "${a:--}" "$(spread_of "$WORK/ratio.cpu2")"
	fi
	echo
done
if [ -n "$provider" ]; then echo "goal: ratio >= 0.95 (libfabric $provider)"
else echo "goal: ratio >= 0.95 (Soft-RoCE under TCG: only the ratios mean something)"; fi
# a table with holes is not a green run (issue 30 item 11)
if [ "$missed" -gt 0 ]; then
	echo "proxy-vs-cpu: $missed of $total runs failed (left out of the medians; csv lines with" \
		"no value above): exit 1" >&2
	exit 1
fi
