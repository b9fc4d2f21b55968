#!/bin/bash
# s40/speed5 call 1 on the H200: (A) write-with-imm vs fi_rma_bw -o writedata over shm,
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
	*)	local bin=$C/gd; case $v in xa) bin=$C/xa; e=GD_X_STATS=1;; esac
		run "$lib" "env $e ${PS:-}" "env $e ${PC:-}" $bin/gd_write_bw --fabric ofi --provider shm --write_with_imm \
			-s $sz -n $n "$@" -p @P@ -- $bin/gd_write_bw --fabric ofi --provider shm --write_with_imm -s $sz -n $n "$@" --json -p @P@
		val=$(gdv) ;;
	esac
	echo "$tag r$r $v $sz MB/s ${val:-FAILED} $(grep -h EXPSTATS "$T/c" | tr '\n' ' ')"
	[ -n "$val" ] || tail -n 3 "$T/c" "$T/s" | sed 's/^/   # /'
}
rot() { local k=$1 a; shift; a=("$@"); k=$((k % ${#a[@]})); echo "${a[@]:k}" "${a[@]:0:k}"; }
# (A)
{
for sz in ${SIZES:-8 4096 65536 1048576}; do for r in $(seq ${ROUNDS:-5}); do
	for v in $(rot $r fi gd fi2 gd2); do one lf122 $r $v "$L122" $sz; done
done; done
for r in $(seq ${ROUNDS:-5}); do for v in $(rot $r fi gd fi2 gd2); do one lf117 $r $v "$L117" 8; done; done
} > "$O/rates.txt" 2>&1
date -u >> "$O/host.txt"
# (B) 8 B, 1.22: counts and variants (gd -t 64: fabtests' window; -Q 1000; -t 1024)
{
for r in 1 2 3; do
	one diag $r fi "$L122" 8
	one diag $r xa "$L122" 8
	one diag $r gd "$L122" 8
	one diag $r gdt64 "$L122" 8 -t 64 -Q 64
	one diag $r gdq1k "$L122" 8 -t 1024 -Q 1000
done
} > "$O/diag.txt" 2>&1
# (C) profiles, 1.22, 1,000,000 writes
PERF() { LD_LIBRARY_PATH=$C/plib "$C/perf" "$@"; }
{
for v in fi gd; do
	PS="$C/perf record -q -e cpu-clock -F 4000 -o $T/perf.s --" PC="$C/perf record -q -e cpu-clock -F 4000 -o $T/perf.c --" \
		one prof p $v "$L122:$C/plib" 8
	for side in s c; do
		echo "## lf122 $v side $side"
		PERF report -i $T/perf.$side --stdio --no-children --sort dso,sym 2>/dev/null |
			grep -v '^#' | grep -v '^$' | head -n 40
	done
done
} > "$O/perf.txt" 2>&1
date -u >> "$O/host.txt"
# (D) proxy / cpu over shm
[ -n "${NOPROXY:-}" ] || {
	bash "$C/proxy-vs-cpu.sh" --builddir "$G" --provider shm --producer gpu --pairs 5 --port-base 22100
	echo "== GPU memory (libfabric 1.22 with CUDA), 64 KiB"
	LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib bash "$C/proxy-vs-cpu.sh" --builddir "$G" --provider shm \
		--producer gpu --pairs 5 --sizes 65536 --use_cuda 0 --port-base 22150
} > "$O/proxy-cpu.txt" 2>&1
date -u >> "$O/host.txt"
