#!/bin/bash
# s41/seam6 call 1 on the H200 (run from the carried folder: cd .carry/seam6 && bash call1.sh):
# (A) like for like, libfabric 1.22 (outside the tree, lib122/) for every tool, shm, pinned
#     server CPU 2 / client CPU 3: fi_rma_bw -o writedata (fi) against gd_write_bw
#     --write_with_imm of main 34461a6 (gdm) and of this branch (gds, and again: gds2, the A/A
#     control), 4 runs a round in rotating order, 5 rounds, at 8 B (200,000 writes) and 4 KiB
#     (100,000); then one run each of gdm and gds at 8 B with the target under calloc-count.c
# (B) proxy/cpu over shm (scripts/proxy-vs-cpu.sh, GPU producer, host memory, 5 pairs) at 8 B,
#     4 KiB, 64 KiB: this branch, then main (gdm); (C) GPU producer + GPU memory against the cpu
#     initiator with GPU memory at 64 KiB (libfabric 1.22 with CUDA, the pack's lib/ofi-cuda)
set -u
C=$(cd "$(dirname "$0")" && pwd)
cd "$C"
O=${OUT:-/tmp/out}
T=/tmp/s41; mkdir -p "$O" "$T"
tar xzf gdperf-gpu.tar.gz
G=$C/gdperf-gpu
L=$C/lib122:$G/lib
mkdir -p "$C/gdmt/tools" && cp "$C/gdm/gd_write_bw" "$C/gdmt/tools/"
{ nproc; uname -r; date -u; head -1 "$G/README"; } > "$O/host.txt" 2>&1
port=21700
run() { # PRELOAD SERVER... -- CLIENT...
	local pre=$1 s=() c=() sp
	shift
	while [ "$1" != -- ]; do s+=("$1"); shift; done
	shift; c=("$@"); port=$((port + 1))
	LD_PRELOAD=$pre LD_LIBRARY_PATH=$L taskset -c 2 timeout -s KILL 60 "${s[@]//@P@/$port}" > "$T/s" 2>&1 &
	sp=$!
	sleep 0.3
	LD_LIBRARY_PATH=$L taskset -c 3 timeout -s KILL 60 "${c[@]//@P@/$port}" > "$T/c" 2>&1 || kill $sp 2>/dev/null
	wait
}
one() { # tag round variant size [preload]
	local tag=$1 r=$2 v=$3 sz=$4 pre=${5:-} n bin val
	case $sz in 8) n=200000;; *) n=100000;; esac
	case $v in
	fi*) run "$pre" $C/ft122/fi_rma_bw -p shm -e rdm -o writedata -I $n -S $sz -s 127.0.0.1 -B @P@ -- \
		$C/ft122/fi_rma_bw -p shm -e rdm -o writedata -I $n -S $sz -s 127.0.0.1 -P @P@ 127.0.0.1
		val=$(awk 'f { print $5; exit } /^bytes/ { f = 1 }' "$T/c") ;;
	*) bin=$G/tools/gd_write_bw; [ $v = gdm ] && bin=$C/gdm/gd_write_bw
		run "$pre" $bin --fabric ofi --provider shm --write_with_imm -s $sz -n $n -p @P@ -- \
			$bin --fabric ofi --provider shm --write_with_imm -s $sz -n $n --json -p @P@ 127.0.0.1
		val=$(grep '"type":"bw_result"' "$T/c" | head -1 |
			sed -n 's/.*"bw_avg_mib_per_s":\([0-9.eE+-]*\).*/\1/p' | awk '{ printf "%.2f", $1 * 1.048576 }') ;;
	esac
	echo "$tag r$r $v $sz MB/s ${val:-FAILED} $(grep -h CALLOCS "$T/s" | tr '\n' ' ')"
	[ -n "$val" ] || tail -n 3 "$T/c" "$T/s" | sed 's/^/   # /'
}
rot() { local k=$1 a; shift; a=("$@"); k=$((k % ${#a[@]})); echo "${a[@]:k}" "${a[@]:0:k}"; }
{
for sz in 8 4096; do for r in 1 2 3 4 5; do
	for v in $(rot $r fi gdm gds gds2); do one lf122 $r $v $sz; done
done; done
for v in gdm gds; do one callocs 1 $v 8 "$C/cc.so"; done
} > "$O/rates.txt" 2>&1
date -u >> "$O/host.txt"
{
	echo "== this branch, GPU producer, host memory"
	LD_LIBRARY_PATH=$G/lib bash "$G/scripts/proxy-vs-cpu.sh" --builddir "$G" --provider shm \
		--producer gpu --pairs 5 --port-base 22500
	echo "== main 34461a6 (gdm), GPU producer, host memory"
	LD_LIBRARY_PATH=$G/lib bash "$G/scripts/proxy-vs-cpu.sh" --builddir "$C/gdmt" --provider shm \
		--producer gpu --pairs 5 --port-base 22600
	echo "== this branch, GPU memory (libfabric 1.22 with CUDA), 64 KiB"
	LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib bash "$G/scripts/proxy-vs-cpu.sh" --builddir "$G" --provider shm \
		--producer gpu --pairs 5 --sizes 65536 --use_cuda 0 --port-base 22700
} > "$O/proxy-cpu.txt" 2>&1
date -u >> "$O/host.txt"
