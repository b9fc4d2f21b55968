#!/bin/bash
# s43/gpu8, third call: the final commit's pack. Under a private MPS daemon,
# main's gd_atomic_bw (2d28faa, .carry/gpu8/main-tools) against this
# branch's, GPU producer + GPU memory over shm (main refuses: the gpu-mps cells
# fail there); then the whole GPU tier. Output: main-vs-branch.txt, tier3.txt.
set -u
P=${P:-.carry/gpu8}
G=$P/gdperf-gpu
OUT=${OUT:-/tmp/gpu8-out}
mkdir -p "$OUT"
port=21750
eval "$(sed -n '/^gd() {/,/^}/p' $P/call1.sh)"
{
mkdir -p /tmp/mps3/pipe /tmp/mps3/log
export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps3/pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps3/log
timeout 20 nvidia-cuda-mps-control -d
f="--fabric ofi --provider shm --validate --use_cuda=0 -n 2000 --initiator=proxy --producer gpu"
LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib TOOLS=$P/main-tools gd "MPS main 2d28faa atomic_bw" atomic_bw $f
LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib TOOLS=$G/tools gd "MPS branch atomic_bw" atomic_bw $f
grep -h producer_reason /tmp/gd.c | head -1 | tr ',' '\n' | grep producer_reason
echo quit | timeout 20 nvidia-cuda-mps-control; sleep 1
unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
} >"$OUT/main-vs-branch.txt" 2>&1
(cd $G && unset OUT; GD_RESULTS=/tmp/tier3 timeout -s KILL 330 tests/gpu/run-all.sh) >"$OUT/tier3.txt" 2>&1
echo "tier rc $?" >>"$OUT/tier3.txt"
cp /tmp/tier3/proxy-ofi.log "$OUT/" 2>/dev/null
date -u >>"$OUT/tier3.txt"
