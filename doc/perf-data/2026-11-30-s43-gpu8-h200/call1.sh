#!/bin/bash
# s43/gpu8 on the GPU machine, one call: why the GPU producer with GPU memory
# stalls atomics and takes ~2.4 ms a latency round over libfabric shm.
# Run from the repository root of the device's checkout with the carried
# folder .carry/gpu8 (slice_probe built from slice_probe.cu, probe-tools/ =
# this branch's tools with the refusal off under GD_PROBE_NO_REFUSAL=1, a
# throw-away build, and gdperf-gpu/ = `make gpu-pack` of this branch with
# GD_OFI_CUDA = libfabric v1.22.0 --with-cuda --enable-cuda-dlopen).
# Output under $OUT: probe.txt, gd.txt, tier.txt.
set -u
P=${P:-.carry/gpu8}
G=$P/gdperf-gpu
OUT=${OUT:-/tmp/gpu8-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$G/lib/ofi-cuda:$G/lib
port=21600
{
date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,compute_mode --format=csv,noheader
uname -r; command -v nvidia-cuda-mps-control || echo "no nvidia-cuda-mps-control"
} >"$OUT/probe.txt" 2>&1

probe_pair() { # LABEL: copy timings alone, then beside another process's spinning kernel
	echo "== $1: alone"
	$P/slice_probe copy 100
	echo "== $1: another process spins a one-CTA kernel"
	$P/slice_probe spin 30 & local sp=$!
	sleep 1.5
	$P/slice_probe copy 100
	kill $sp; wait $sp 2>/dev/null
}

# gd PAIRLABEL TOOL ARGS: server on CPU 2, client on CPUs 3-7, 30 s bound each
gd() {
	local label=$1 tool=$2 t0; shift 2
	port=$((port + 1)); t0=$(date +%s.%N)
	timeout -s KILL 30 taskset -c 2 $TOOLS/gd_$tool "$@" -p $port >/tmp/gd.s 2>&1 &
	local s=$!
	sleep 0.3
	timeout -s KILL 30 taskset -c 3-7 $TOOLS/gd_$tool "$@" -p $port --json 127.0.0.1 >/tmp/gd.c 2>&1
	local crc=$?
	# a client that refused (2, 3) may have left before connecting: 2 s, then TERM
	if [ $crc -eq 2 ] || [ $crc -eq 3 ]; then sleep 2; kill -TERM $s 2>/dev/null; fi
	wait $s; local src=$?
	printf '%-44s client %3d server %3d %6.1f s  ' "$label" $crc $src "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')"
	grep -ho '"\(p50_usec\|msg_rate_mpps\|producer_kind\|validate\)": *[^,}]*' /tmp/gd.c | tr '\n' ' '
	echo
	[ $crc -ne 0 ] && tail -3 /tmp/gd.c | sed 's/^/    c: /' && tail -2 /tmp/gd.s | sed 's/^/    s: /'
}

cells() { # the runs of the question, GPU memory over shm
	local f="--fabric ofi --provider shm --validate --use_cuda=0"
	gd "write_lat 8B cpu initiator" write_lat $f -n 200 -s 8
	gd "write_lat 8B proxy host producer" write_lat $f -n 200 -s 8 --initiator=proxy --producer host
	gd "write_lat 8B proxy GPU producer" write_lat $f -n 200 -s 8 --initiator=proxy --producer gpu
	gd "atomic_lat proxy GPU producer" atomic_lat $f -n 100 --initiator=proxy --producer gpu
	gd "atomic_bw proxy GPU producer" atomic_bw $f -n 1000 --initiator=proxy --producer gpu
	gd "atomic_bw cpu initiator" atomic_bw $f -n 1000
	gd "write_bw 8B proxy GPU producer" write_bw $f -n 1000 -s 8 --initiator=proxy --producer gpu
	gd "send_bw 8K proxy GPU producer" send_bw $f -n 1000 -s 8192 --initiator=proxy --producer gpu
}

probe_pair "no MPS" >>"$OUT/probe.txt" 2>&1
{
echo "== no MPS, probe tools (refusal off)"; TOOLS=$P/probe-tools GD_PROBE_NO_REFUSAL=1 cells
echo "== no MPS, this branch's tools (refusals expected, exit 3)"; TOOLS=$G/tools cells
} >"$OUT/gd.txt" 2>&1

mkdir -p /tmp/mps/pipe /tmp/mps/log
export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps/pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps/log
if timeout 20 nvidia-cuda-mps-control -d >>"$OUT/probe.txt" 2>&1; then
	probe_pair "MPS" >>"$OUT/probe.txt" 2>&1
	{
	echo "== MPS, this branch's tools"; TOOLS=$G/tools cells
	echo "== MPS, 8 B write latency, 5 alternating pairs: GPU producer / cpu initiator"
	for r in 1 2 3 4 5; do
		TOOLS=$G/tools gd "r$r gpu-producer" write_lat --fabric ofi --provider shm --use_cuda=0 -n 2000 -s 8 --initiator=proxy --producer gpu
		TOOLS=$G/tools gd "r$r cpu" write_lat --fabric ofi --provider shm --use_cuda=0 -n 2000 -s 8
	done
	} >>"$OUT/gd.txt" 2>&1
	echo quit | timeout 20 nvidia-cuda-mps-control; sleep 1
	cat /tmp/mps/log/control.log 2>/dev/null | tail -5 >>"$OUT/probe.txt"
else
	echo "MPS daemon did not start" >>"$OUT/probe.txt"; cat /tmp/mps/log/* >>"$OUT/probe.txt" 2>/dev/null
fi
unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
# the GPU tier from the pack (its proxy-ofi.sh has the gpu-mps cells)
(cd $G && unset LD_LIBRARY_PATH OUT; GD_RESULTS=/tmp/tier-res timeout -s KILL ${TIER_S:-300} \
	tests/gpu/run-all.sh) >"$OUT/tier.txt" 2>&1
echo "tier rc $?" >>"$OUT/tier.txt"
tar czf "$OUT/tier-res.tgz" -C /tmp tier-res 2>/dev/null
date -u >>"$OUT/tier.txt"
