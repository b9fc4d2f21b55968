#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# proxy-threads: a benchmark (not a test). The request rate of gd_write_bw
# --initiator=proxy with 1, 2 and 4 proxy threads over libfabric on one host
# (server and client on 127.0.0.1), per transport: shm, shm with
# FI_SHM_DISABLE_CMA=1 (shm's own command queue carries the writes), tcp.
# Rounds rotate the order of the thread counts (1 2 4, 2 4 1, 4 1 2, ...) so
# drift spreads over all; it prints per transport and thread count the median
# message rate with its spread (min..max over the rounds) and the median's
# ratio to one thread's, with the spread of the per-round ratios. Issue 32's
# goal: 4 threads >= 2.5 x one where the provider is not the limit.
#
#   scripts/proxy-threads.sh [--rounds 5] [--threads "1 2 4"] [--size 8] [-q 4]
#       [--transports "shm shm-nocma tcp"] [--producer host|gpu] [--iters N]
#       [--builddir DIR] [--ab DIR] [--pin "S C0,C1,..." | --pin none]
#       [--port-base 21600]
#
# --producer host (default: host producer threads, no GPU needed): 4 host
# threads (--ctas 4 --threads 1 --scope thread); gpu: the CUDA kernel
# (--scope warp --ctas 4 --threads 32). --iters N: -n per run (default
# 500000 at 8 B, 200000 up to 4 KiB, 40000 above: 0.2-1 s a run on the H200's shm).
# --ab DIR: a second build (e.g. main's, before one domain per proxy thread)
# run in every round beside --builddir's, order flipped each round; the table
# then has a row per build, and the ratio column is --builddir's over DIR's
# at the same thread count. --pin (default with 13 CPUs or more: "1,10,11,12
# 2,3,4,5,6,7,8,9", with 8 to 12: "1 2,3,4,5,6,7,8,9"): the server on CPUs S
# (over libfabric its passive side runs a progress thread per proxy thread,
# session 45: 4 CPUs for 4; one build's single thread takes one of them),
# the client's proxy thread t on the t-th CPU of the list (--pin_cores), its
# other threads on the list's CPUs. A run that fails
# is left out of the medians ('-' where none ran) and the script exits 1 after
# the table; raw lines go to stderr as "csv: build,transport,threads,round,Mpps".
set -u
rounds=5 threads="1 2 4" size=8 nqp=4 transports="shm shm-nocma tcp" producer=host iters=
builddir=${top_builddir:-$PWD} ab='' pin=auto port=21600
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "proxy-threads: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	-q) nqp=$2; shift 2 ;;
	--transports) transports=$2; shift 2 ;;
	--producer) producer=$2; shift 2 ;;
	--iters) iters=$2; shift 2 ;;
	--builddir) builddir=$(cd "$2" && pwd) || die "no folder $2"; shift 2 ;;
	--ab) ab=$(cd "$2" && pwd) || die "no folder $2"; shift 2 ;;
	--pin) pin=$2; shift 2 ;;
	--port-base) port=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -u$/{/^#/p}' "$0"; exit 0 ;;
	*) die "unknown argument $1 (--help)" ;;
	esac
done
for v in "$rounds" "$size" "$nqp" "$port" ${iters:+"$iters"} $threads; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "'$v' is not a positive number"
done
case $producer in
host) shape=(--producer host --scope thread --ctas 4 --threads 1) ;;
gpu) shape=(--producer gpu --scope warp --ctas 4 --threads 32) ;;
*) die "--producer takes host or gpu (got '$producer')" ;;
esac
for t in $transports; do
	case $t in shm | shm-nocma | tcp) ;; *) die "--transports: shm, shm-nocma or tcp (got '$t')" ;; esac
done
if [ -z "$iters" ]; then
	iters=40000
	[ "$size" -le 4096 ] && iters=200000
	[ "$size" -le 64 ] && iters=500000
fi
builds=("$builddir") names=(this)
[ -n "$ab" ] && builds+=("$ab") names+=(ab)
for b in "${builds[@]}"; do
	[ -x "$b/tools/gd_write_bw" ] || { echo "proxy-threads: build first ($b/tools/gd_write_bw)" >&2; exit 3; }
done
spin=() cpin=()
if [ "$pin" = auto ]; then
	pin=none
	[ "$(nproc)" -ge 8 ] && pin="1 2,3,4,5,6,7,8,9"
	[ "$(nproc)" -ge 13 ] && pin="1,10,11,12 2,3,4,5,6,7,8,9"
fi
if [[ $pin =~ ^([0-9][0-9,]*)\ ([0-9][0-9,]*)$ ]]; then
	spin=(--pin_cores "${BASH_REMATCH[1]}") cpin=(--pin_cores "${BASH_REMATCH[2]}")
elif [ "$pin" != none ]; then
	die "--pin wants \"SERVER C0,C1,...\" or none (got '$pin')"
fi
WORK=$(mktemp -d /tmp/pthr.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
. "$here/../tests/lib/net.sh" # wait_listen

# one run on $port: prints the message rate in M/s, or nothing
one() { # BUILD TRANSPORT THREADS
	local bin=$1/tools/gd_write_bw prov=${2%-nocma} env=() spid bw a
	[ "$2" = shm-nocma ] && env=(FI_SHM_DISABLE_CMA=1)
	a=(--fabric ofi --provider "$prov" -s "$size" -n "$iters" -q "$nqp" -N --initiator=proxy
	   --proxy_threads "$3" "${shape[@]}")
	env "${env[@]}" timeout -s KILL 120 "$bin" -p $port "${a[@]}" "${spin[@]}" >"$WORK/s.out" 2>&1 &
	spid=$!
	wait_listen $port || { kill -9 $spid 2>/dev/null; wait $spid 2>/dev/null; return; }
	bw=$(env "${env[@]}" timeout -s KILL 120 "$bin" -p $port "${a[@]}" "${cpin[@]}" \
		--output=bandwidth 127.0.0.1 2>"$WORK/c.err")
	wait $spid
	[ -n "$bw" ] || { echo "proxy-threads: $2, $3 threads:" >&2; tail -n 2 "$WORK/c.err" >&2; }
	# --output=bandwidth prints MiB/s; the message rate follows from the size
	[ -n "$bw" ] && awk -v bw="$bw" -v s="$size" 'BEGIN { printf "%.4f\n", bw * 1048576 / s / 1e6 }'
}
median() { sort -g | awk '{ a[NR] = $1 } END { if (!NR) exit; if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
spread() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR) printf "%.2f..%.2f", lo, hi; else print "-" }'; }
# rotate "1 2 4" by R places
rotate() { local -a a; read -r -a a <<<"$threads"; local n=${#a[@]} i; for ((i = 0; i < n; i++)); do echo -n "${a[(i + $1) % n]} "; done; }

echo "proxy-threads: gd_write_bw --initiator=proxy -s $size -q $nqp -n $iters, producer $producer," \
	"$rounds rounds, $(nproc) CPUs${spin[1]:+, server --pin_cores ${spin[1]}, client --pin_cores ${cpin[1]}}," \
	"$("$builddir"/tools/gd_write_bw --version 2>/dev/null | head -1)"
total=0 missed=0
for tr in $transports; do
	for r in $(seq 0 $((rounds - 1))); do
		bl=(0 1)
		[ ${#builds[@]} = 1 ] && bl=(0)
		[ $((r % 2)) = 1 ] && [ ${#builds[@]} = 2 ] && bl=(1 0)
		for n in $(rotate "$r"); do
			for k in "${bl[@]}"; do
				port=$((port + 1)) # one() runs in a subshell: the caller counts
				v=$(one "${builds[$k]}" "$tr" "$n")
				total=$((total + 1))
				echo "csv: ${names[$k]},$tr,$n,$r,$v" >&2
				if [ -n "$v" ]; then echo "$r $v" >>"$WORK/${names[$k]}.$tr.$n"
				else missed=$((missed + 1)); fi
			done
		done
	done
done
# a ratio per round: NUM's rate over DEN's in the same round
ratios() { join <(sort -k1,1 "$1" 2>/dev/null) <(sort -k1,1 "$2" 2>/dev/null) |
	awk '$3 > 0 { print $2 / $3 }'; }
printf '%-10s %-5s %7s %10s %16s %9s %16s\n' transport build threads Mpps spread x_vs_1 'ratio spread'
for tr in $transports; do
	for k in "${!names[@]}"; do
		nm=${names[$k]} one1=$WORK/$nm.$tr.${threads%% *}
		for n in $threads; do
			f=$WORK/$nm.$tr.$n
			m=$(cut -d' ' -f2 "$f" 2>/dev/null | median)
			m1=$(cut -d' ' -f2 "$one1" 2>/dev/null | median)
			x=$(awk -v a="${m:-0}" -v b="${m1:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else print "-" }')
			[ -n "$m" ] && m=$(printf '%.3f' "$m")
			printf '%-10s %-5s %7s %10s %16s %9s %16s\n' "$tr" "$nm" "$n" "${m:--}" \
				"$(cut -d' ' -f2 "$f" 2>/dev/null | spread)" "$x" "$(ratios "$f" "$one1" | spread)"
		done
	done
	if [ -n "$ab" ]; then
		for n in $threads; do
			printf '%-10s %-5s %7s %27s %9s %16s\n' "$tr" "this/ab" "$n" "" \
				"$(awk -v a="$(cut -d' ' -f2 "$WORK/this.$tr.$n" 2>/dev/null | median)" \
				   -v b="$(cut -d' ' -f2 "$WORK/ab.$tr.$n" 2>/dev/null | median)" \
				   'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else print "-" }')" \
				"$(ratios "$WORK/this.$tr.$n" "$WORK/ab.$tr.$n" | spread)"
		done
	fi
done
echo "goal (issue 32): 4 threads >= 2.5 x one where the provider is not the limit"
if [ "$missed" -gt 0 ]; then
	echo "proxy-threads: $missed of $total runs failed (left out of the medians; csv lines with" \
		"no value above): exit 1" >&2
	exit 1
fi
