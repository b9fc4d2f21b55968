#!/bin/bash
# s43/gpu8, second call: 5 alternating rounds of the GPU producer with GPU
# memory over libfabric shm under MPS against its controls, then the GPU
# tier's proxy-ofi.sh (with the gpu-mps cells). Same carried folder as
# call1.sh (.carry/gpu8 with gdperf-gpu/ unpacked). Output: rounds.txt, tier2.txt.
set -u
P=${P:-.carry/gpu8}
G=$P/gdperf-gpu
OUT=${OUT:-/tmp/gpu8-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib
TOOLS=$G/tools
port=21700
eval "$(sed -n '/^gd() {/,/^}/p' $P/call1.sh)" # the same pair runner (server CPU 2, client 3-7)
mps_on() {
	mkdir -p /tmp/mps2/pipe /tmp/mps2/log
	export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps2/pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps2/log
	timeout 20 nvidia-cuda-mps-control -d
}
mps_off() {
	echo quit | timeout 20 nvidia-cuda-mps-control; sleep 1
	unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
}
f="--fabric ofi --provider shm --use_cuda=0"
round() { # TAG: the runs of one round, in the order given by the round
	gd "$1 lat8 gpu" write_lat $f -n 5000 -s 8 --initiator=proxy --producer gpu
	gd "$1 lat8 host" write_lat $f -n 5000 -s 8 --initiator=proxy --producer host
	gd "$1 atomic_lat gpu" atomic_lat $f -n 2000 --initiator=proxy --producer gpu
	gd "$1 atomic_lat cpu" atomic_lat $f -n 2000
	gd "$1 atomic_bw gpu" atomic_bw $f -n 20000 --initiator=proxy --producer gpu
	gd "$1 atomic_bw cpu" atomic_bw $f -n 20000
	gd "$1 bw64K gpu" write_bw $f -n 5000 -s 65536 --initiator=proxy --producer gpu
	gd "$1 bw64K cpu" write_bw $f -n 5000 -s 65536
	gd "$1 bw8 gpu" write_bw $f -n 20000 -s 8 --initiator=proxy --producer gpu
	gd "$1 bw8 cpu" write_bw $f -n 20000 -s 8
}
{
date -u
for r in 1 2 3 4 5; do
	mps_on && round "r$r mps"
	mps_off
	# without MPS the GPU producer is refused at these shapes: the controls only
	gd "r$r nomps atomic_bw cpu" atomic_bw $f -n 5000
	gd "r$r nomps atomic_lat cpu" atomic_lat $f -n 500
	gd "r$r nomps bw64K cpu" write_bw $f -n 5000 -s 65536
	gd "r$r nomps lat8 host" write_lat $f -n 5000 -s 8 --initiator=proxy --producer host
done
date -u
} >"$OUT/rounds.txt" 2>&1
(cd $G && unset LD_LIBRARY_PATH OUT; GD_RESULTS=/tmp/tier2 timeout -s KILL 200 tests/gpu/run-all.sh proxy-ofi) >"$OUT/tier2.txt" 2>&1
echo "tier rc $?" >>"$OUT/tier2.txt"
cp /tmp/tier2/proxy-ofi.log "$OUT/" 2>/dev/null
date -u >>"$OUT/tier2.txt"
