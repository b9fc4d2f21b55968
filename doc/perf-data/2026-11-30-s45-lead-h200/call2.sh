#!/bin/bash
# Session 45, s45/pside10 (bash .carry/s45-pside/call.sh from the repo root; carry .carry/s45-pside):
# issue 32 item 4, the passive side with several proxy threads over libfabric 1.22 (the pack's
# lib/ofi-cuda). The pack (gdperf-gpu.tar.gz) is s45/pside10: the passive server of the proxy's
# bandwidth test opens a domain per proxy thread and drives each from a progress thread of its own.
# main-tools.tar.gz: gd_write_bw of main 0474871 (one passive domain, one thread), run with the
# pack's libraries. scripts/proxy-threads.sh (the pack's), GPU producer, 8 B, -q 4, 1/2/4 threads,
# per transport with its own -n (shm-nocma 500000, tcp 50000, shm 100000: a run of 0.1-0.8 s; tcp's 0.25 M/s at one thread made -n 500000
# a run of 8 s in session 44's call 4, which its bound cut):
#   AB  this (pside10) against main, 5 rounds, shm-nocma (FI_SHM_DISABLE_CMA=1), tcp, shm
#   AA  main against main, the same runs: the control (the spread of a build against itself)
#   GM  GPU memory on both sides (--use_cuda 0 --validate), shm, -q 4, 1/2/4 threads: the passive
#       server registers GPU memory in N domains and its N progress threads serve shm's GPU path
#       (never run: no GPU where it was built); host producers at 8 B and 64 KiB, the GPU producer
#       at 64 KiB (as session 44's call 5): each run's exits and the client's validation line
# Server --pin_cores 1,10,11,12 (4 CPUs: its progress threads), client 2-9 (the script's default
# with 16 CPUs). Everything under $OUT: host.txt, AB-<transport>.txt, AA-<transport>.txt (the table,
# and csv lines on stderr), GM-gpumem.txt. Bounded: each script run by KILL_S (default 55 s), GM
# by 45 s + one run's 20 s: the whole call 6 x 55 + 65 = 395 s at most, about 250 s expected
# (0.5-1 s a run, 180 runs; session 44's call 4 ran shm's at about 1 s a run, startup included).
# Run: run(command="bash .carry/s45-pside/call.sh", carry=[".carry/s45-pside"], timeout_s=450).
# Tried on the 2-core development VM with PRODUCER=host ROUNDS=1 and tiny -n (no GPU; no figures).
set -u
R=$(pwd)
C=$R/.carry/s45-pside
O=${OUT:-/tmp/out}; T=/tmp/s45p
mkdir -p "$O" "$T"
rm -rf "$T/this" "$T/main"; mkdir -p "$T/this" "$T/main"
tar xzf "$C/gdperf-gpu.tar.gz" -C "$T/this" || { echo "no pack" >"$O/host.txt"; exit 3; }
tar xzf "$C/main-tools.tar.gz" -C "$T/main" || { echo "no main tools" >"$O/host.txt"; exit 3; }
G=$T/this/gdperf-gpu M=$T/main/gdperf-gpu
export LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib
PRODUCER=${PRODUCER:-gpu} ROUNDS=${ROUNDS:-5} KILL_S=${KILL_S:-55}
{ date -u; head -1 "$G/README"; "$G/tools/gd_write_bw" --version | head -1; "$M/tools/gd_write_bw" --version | head -1
  nproc; nvidia-smi -L 2>&1 | head -2; "$G/bin/fi_info" --version 2>&1 | head -2; } >"$O/host.txt" 2>&1
port=29000
# the tools of a script cut by its bound (each tool has its own 120 s bound): ended by their
# pids, found by their executables under $T, so that none runs under the next step
reap() {
	local p e
	for p in /proc/[0-9]*; do
		e=$(readlink "$p/exe" 2>/dev/null) || continue
		case $e in "$T"/*) kill -9 "${p#/proc/}" 2>/dev/null && echo "reaped ${p#/proc/} $e" >>"$O/host.txt" ;; esac
	done
}
# one transport: its -n, then the A/B and the A/A
one() { # TRANSPORT ITERS
	local tr=$1 n=$2
	(cd "$G" && timeout -s KILL "$KILL_S" scripts/proxy-threads.sh --builddir . --ab "$M" \
		--rounds "$ROUNDS" --transports "$tr" --iters "$n" --producer "$PRODUCER" --port-base $port \
		${PT_ARGS:-}) >"$O/AB-$tr.txt" 2>&1
	echo "rc $? $(date -u +%T)" >>"$O/AB-$tr.txt"
	reap
	port=$((port + 200))
	(cd "$G" && timeout -s KILL "$KILL_S" scripts/proxy-threads.sh --builddir "$M" --ab "$M" \
		--rounds "$ROUNDS" --transports "$tr" --iters "$n" --producer "$PRODUCER" --port-base $port \
		${PT_ARGS:-}) >"$O/AA-$tr.txt" 2>&1
	echo "rc $? $(date -u +%T)" >>"$O/AA-$tr.txt"
	reap
	port=$((port + 200))
}
one shm-nocma "${N_NOCMA:-500000}"
one tcp "${N_TCP:-50000}"
one shm "${N_SHM:-100000}"
gm() { # TOOL THREADS SIZE PRODUCER
	local tool=$1 t=$2 s=$3 prod=$4 a sp rs rc sc=() cc=()
	a=(--fabric ofi --provider shm --use_cuda 0 -q 4 -s "$s" -n 2000 --validate --initiator=proxy
	   --producer "$prod" --proxy_threads "$t" --timeout 20)
	if [ "$prod" = host ]; then a+=(--scope thread --ctas 4 --threads 1); else a+=(--scope warp --ctas 4 --threads 32); fi
	[ "$(nproc)" -ge 13 ] && sc=(--pin_cores 1,10,11,12) cc=(--pin_cores 2,3,4,5,6,7,8,9)
	port=$((port + 1))
	timeout -s KILL 20 "$G/tools/$tool" "${a[@]}" -p $port "${sc[@]}" >"$T/gm.s" 2>&1 &
	sp=$!
	sleep 0.5
	timeout -s KILL 20 "$G/tools/$tool" "${a[@]}" -p $port "${cc[@]}" 127.0.0.1 >"$T/gm.c" 2>&1
	rc=$?
	wait $sp; rs=$?
	echo "$tool threads $t size $s producer $prod: client exit $rc, server exit $rs; server: $(grep -i -m1 'validat' "$T/gm.s"); client: $(grep -i -m1 'validat' "$T/gm.c")"
	[ $rc = 0 ] && [ $rs = 0 ] || tail -n 4 "$T/gm.c" "$T/gm.s" | sed 's/^/   # /'
}
gm_start=$SECONDS
for t in 1 2 4; do
	for spec in "gd_write_bw 8 host" "gd_write_bw 65536 host" "gd_read_bw 8 host" "gd_write_bw 65536 $PRODUCER"; do
		[ $((SECONDS - gm_start)) -lt 45 ] || { echo "cut here by the call's 45 s bound"; break 2; }
		read -r tool size prod <<<"$spec"
		gm "$tool" "$t" "$size" "$prod"
	done
done >"$O/GM-gpumem.txt" 2>&1
date -u >>"$O/host.txt"
