#!/bin/bash
# s40/speed5 call 2 on the H200 (helpers as call 1): (A) write-with-imm vs fi_rma_bw -o writedata over shm,
# one libfabric for both (1.22 at 8 B, 4 KiB, 64 KiB, 1 MiB; 1.17 at 8 B), with the A/A
# controls fi2 (fi_rma_bw again) and gd2 (gd_write_bw again), 5 rotating rounds, pinned
# server CPU 2, client CPU 3; (B) 8 B diagnostics with 1.22: refused posts (xa: s39's build
# with counters.diff), depth/moderation variants; (C) perf profiles of both sides, 1.22
# (symbols); (D) proxy/cpu over shm (GPU producer, host memory; and GPU memory at 64 KiB).
set -u
C=$(cd "$(dirname "$0")" && pwd)
cd "$C"
O=${OUT:-/tmp/out}
T=/tmp/s40; mkdir -p "$O" "$T"
tar xzf gdperf-gpu.tar.gz
tar xJf perf.tar.xz
G=$C/gdperf-gpu
L117=$G/lib L122=$C/lib122:$G/lib
{ nproc; uname -r; date -u; } > "$O/host.txt" 2>&1
port=22010
run() { # LIB WRAPS WRAPC SERVER... -- CLIENT...
	local lib=$1 ws=$2 wc=$3 s=() c=() sp
	shift 3
	while [ "$1" != -- ]; do s+=("$1"); shift; done
	shift; c=("$@"); port=$((port + 1))
	LD_LIBRARY_PATH=$lib $ws taskset -c ${SCPU:-2} timeout -s KILL 60 "${s[@]//@P@/$port}" > "$T/s" 2>&1 &
	sp=$!
	sleep 0.3
	LD_LIBRARY_PATH=$lib $wc taskset -c ${CCPU:-3} timeout -s KILL 60 "${c[@]//@P@/$port}" 127.0.0.1 > "$T/c" 2>&1 ||
		kill $sp 2>/dev/null
	wait
}
gdv() { grep '"type":"bw_result"' "$T/c" | head -1 |
	sed -n 's/.*"bw_avg_mib_per_s":\([0-9.eE+-]*\).*/\1/p' | awk '{ printf "%.2f", $1 * 1.048576 }'; }
fiv() { awk 'f { print $5; exit } /^bytes/ { f = 1 }' "$T/c"; }
iters() { local n; case $1 in 8) n=200000;; 4096) n=100000;; 65536) n=20000;; *) n=2000;; esac; echo $((n / ${DIV:-1})); }
one() { # tag round variant lib size [extra gd args...]
	local tag=$1 r=$2 v=$3 lib=$4 sz=$5 n e="" ft=$C/ft val
	shift 5
	n=$(iters $sz)
	case $v in
	fi*) case $lib in "$L122"*) ft=$C/ft122;; esac
		run "$lib" "${PS:-}" "${PC:-}" $ft/fi_rma_bw -p shm -e rdm -o writedata -I $n -S $sz -s 127.0.0.1 -B @P@ -- \
			$ft/fi_rma_bw -p shm -e rdm -o writedata -I $n -S $sz -s 127.0.0.1 -P @P@
		val=$(fiv) ;;
	*)	local bin=$C/${v%2}; case $v in xa) bin=$C/xa; e=GD_X_STATS=1;; esac
		run "$lib" "env $e ${PS:-}" "env $e ${PC:-}" $bin/gd_write_bw --fabric ofi --provider shm --write_with_imm \
			-s $sz -n $n "$@" -p @P@ -- $bin/gd_write_bw --fabric ofi --provider shm --write_with_imm -s $sz -n $n "$@" --json -p @P@
		val=$(gdv) ;;
	esac
	echo "$tag r$r $v $sz MB/s ${val:-FAILED} $(grep -h EXPSTATS "$T/c" | tr '\n' ' ')"
	[ -n "$val" ] || tail -n 3 "$T/c" "$T/s" | sed 's/^/   # /'
}
rot() { local k=$1 a; shift; a=("$@"); k=$((k % ${#a[@]})); echo "${a[@]:k}" "${a[@]:0:k}"; }

# (E) the flag change at 8 B and 4 KiB (1.22) and 8 B (1.17): fi, fi2, gdm (main b1edc3d), gdn (a4803be), gdn2
[ -n "${SKIPE:-}" ] || {
for cfg in "lf122 8" "lf122 4096" "lf117 8"; do set -- $cfg
	lib=$L122; [ $1 = lf117 ] && lib=$L117
	for r in 1 2 3 4 5; do for v in $(rot $r fi gdm gdn fi2 gdn2); do one $1 $r $v "$lib" $2; done; done
done
} > "$O/rates2.txt" 2>&1
# calloc counts at the target (LD_PRELOAD counter), 1.22, 8 B
{ for v in fi gdm gdn; do PS="env LD_PRELOAD=$C/cc.so" one calloc 1 $v "$L122" 8; grep -h CALLOCS "$T/s"; done; } > "$O/callocs.txt" 2>&1
date -u >> "$O/host.txt"
# (F) no loss: 9 pairs, gdb (b28d5fc) vs gdn, shm (CPUs 2 3) and tcp (6 7) at once
mkdir -p "$C/ab" && cp "$C/ab.sh" "$C/ab/" && ln -sfn "$C/gdn" "$C/ab/gd" && ln -sfn "$C/gdb" "$C/ab/gdb" && ln -sfn "$G/lib" "$C/ab/lib"
[ -n "${SKIPE:-}" ] || bash "$C/ab/ab.sh" tcp "6 7" 22300 9 > "$O/ab-tcp.txt" 2>&1 &
[ -n "${SKIPE:-}" ] || bash "$C/ab/ab.sh" shm "2 3" 22400 9 > "$O/ab-shm.txt" 2>&1 &
wait
date -u >> "$O/host.txt"
# (G) proxy / cpu over shm, from the pack (scripts/ beside tests/lib)
{
	bash "$G/scripts/proxy-vs-cpu.sh" --builddir "$G" --provider shm --producer gpu --pairs 5 --port-base 22500
	echo "== GPU memory (libfabric 1.22 with CUDA), 64 KiB"
	LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib bash "$G/scripts/proxy-vs-cpu.sh" --builddir "$G" --provider shm \
		--producer gpu --pairs 5 --sizes 65536 --use_cuda 0 --port-base 22600
} > "$O/proxy-cpu.txt" 2>&1
date -u >> "$O/host.txt"
# (H) the GPU tier
(cd "$G" && env -u OUT GD_RESULTS=$T/tier timeout -s KILL ${TIER_S:-230} tests/gpu/run-all.sh) > "$O/tier.txt" 2>&1
echo "tier rc $?" >> "$O/tier.txt"
tar czf "$O/tier-logs.tgz" -C $T tier 2>/dev/null
date -u >> "$O/host.txt"
