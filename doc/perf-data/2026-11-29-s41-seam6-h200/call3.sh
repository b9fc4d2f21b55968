#!/bin/bash
# s41/seam6 call 3 on the H200 (cd .carry/seam6 && bash call3.sh):
# (A) 8 B write-with-imm over shm, libfabric 1.22, pinned server CPU 2 / client CPU 3, 6 rounds in
#     rotating order of fi (fi_rma_bw -o writedata), gdm (main 34461a6), gds (this branch), gdnc
#     (this branch with ofi_poll reading the caller's 16 a call, not 1024), every target (server)
#     under calloc-count.c: does the slow mode go with the target's CQ overflow?
# (B) no loss: ab.sh (s40/speed5's), 9 pairs of gds (after) against gdm (before), gd_write_bw
#     plain one-way and gd_send_lat at 8 B and 64 KiB, shm (CPUs 2, 3) and tcp (6, 7) at once,
#     Debian's libfabric 1.17 from the pack's lib/
set -u
C=$(cd "$(dirname "$0")" && pwd)
cd "$C"
O=${OUT:-/tmp/out}
T=/tmp/s41c3; mkdir -p "$O" "$T"
tar xzf gdperf-gpu.tar.gz
G=$C/gdperf-gpu
L=$C/lib122:$G/lib
{ nproc; uname -r; date -u; head -1 "$G/README"; } > "$O/host.txt" 2>&1
port=21760
run() {
	local s=() c=() sp
	while [ "$1" != -- ]; do s+=("$1"); shift; done
	shift; c=("$@"); port=$((port + 1))
	LD_PRELOAD=$C/cc.so LD_LIBRARY_PATH=$L taskset -c 2 timeout -s KILL 60 "${s[@]//@P@/$port}" > "$T/s" 2>&1 &
	sp=$!
	sleep 0.3
	LD_LIBRARY_PATH=$L taskset -c 3 timeout -s KILL 60 "${c[@]//@P@/$port}" > "$T/c" 2>&1 || kill $sp 2>/dev/null
	wait
}
one() { # round variant
	local r=$1 v=$2 n=200000 bin val
	case $v in
	fi) run $C/ft122/fi_rma_bw -p shm -e rdm -o writedata -I $n -S 8 -s 127.0.0.1 -B @P@ -- \
		$C/ft122/fi_rma_bw -p shm -e rdm -o writedata -I $n -S 8 -s 127.0.0.1 -P @P@ 127.0.0.1
		val=$(awk 'f { print $5; exit } /^bytes/ { f = 1 }' "$T/c") ;;
	*) case $v in gdm) bin=$C/gdm/gd_write_bw;; gdnc) bin=$C/gdnc/gd_write_bw;; *) bin=$G/tools/gd_write_bw;; esac
		run $bin --fabric ofi --provider shm --write_with_imm -s 8 -n $n -p @P@ -- \
			$bin --fabric ofi --provider shm --write_with_imm -s 8 -n $n --json -p @P@ 127.0.0.1
		val=$(grep '"type":"bw_result"' "$T/c" | head -1 |
			sed -n 's/.*"bw_avg_mib_per_s":\([0-9.eE+-]*\).*/\1/p' | awk '{ printf "%.2f", $1 * 1.048576 }') ;;
	esac
	echo "lf122 r$r $v 8 MB/s ${val:-FAILED} $(grep -h CALLOCS "$T/s" | tr '\n' ' ')"
	[ -n "$val" ] || tail -n 3 "$T/c" "$T/s" | sed 's/^/   # /'
}
rot() { local k=$1 a; shift; a=("$@"); k=$((k % ${#a[@]})); echo "${a[@]:k}" "${a[@]:0:k}"; }
for r in 1 2 3 4 5 6; do for v in $(rot $r fi gdm gds gdnc); do one $r $v; done; done > "$O/overflow.txt" 2>&1
date -u >> "$O/host.txt"
mkdir -p "$C/abd" && cp "$C/ab/ab.sh" "$C/abd/" && mkdir -p "$C/abd/gd" && cp "$G/tools/gd_write_bw" "$G/tools/gd_send_lat" "$C/abd/gd/" &&
	ln -sfn "$C/gdm" "$C/abd/gdb" && ln -sfn "$G/lib" "$C/abd/lib"
bash "$C/abd/ab.sh" tcp "6 7" 22300 9 > "$O/ab-tcp.txt" 2>&1 &
bash "$C/abd/ab.sh" shm "2 3" 22400 9 > "$O/ab-shm.txt" 2>&1
wait
date -u >> "$O/host.txt"
