#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The benchmark tools end to end on the GPU machine, server and client on
# loopback over libfabric (shm and tcp: no RDMA device, no kernel module):
#   --initiator=cpu, and --initiator=proxy with the CUDA producer kernel
#   (GPU kernel -> ring -> proxy threads -> fi_write/fi_read/fi_atomic/fi_send
#   -> the peer's buffer) and with host producer threads,
#   host memory and GPU memory (--use_cuda=0: FI_HMEM, with the libfabric
#   built with CUDA that gpu-pack puts in lib/ofi-cuda when GD_OFI_CUDA is set;
#   a libfabric or a provider without it must refuse with exit 3 and the fix;
#   the GPU producer with GPU memory runs reads, send latency, and writes and
#   sends of 64 KiB or more, and is refused, exit 3 with the reason, for
#   atomics and smaller writes and sends: proxy_bench.c gpu_producer_refused;
#   under MPS every tool runs over shm, the gpu-mps cells, and a target
#   started outside the MPS daemon is refused, exit 3 on both sides),
#   every tool, --validate on, JSON for the figures; --proxy_threads 1, 2, 4
#   (producer column gpu-ptN).
# Plus the verbs cells the machine cannot run (no RDMA device: exit 3).
# One table row per cell (cells.bash). Fails when a cell that ran failed or a
# refusal came without a reason; skips (77) without a GPU.
# Run from a build tree or the folder `make gpu-pack` makes.
#   GD_OFI_PROVIDERS="shm tcp"  GD_OFI_TOOLS="write_bw ..."  GD_OFI_ITERS=2000
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cells.bash"
tools_dir=${GD_TOOLS:-${top_builddir:-$here/../..}/tools}
[ -x "$tools_dir/gd_write_bw" ] || { echo "SKIP: $tools_dir/gd_write_bw not built"; exit 77; }
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 ||
	{ echo "SKIP: no GPU here (nvidia-smi)"; exit 77; }
providers=${GD_OFI_PROVIDERS:-shm tcp}
tools=${GD_OFI_TOOLS:-write_bw read_bw atomic_bw send_bw write_lat read_lat atomic_lat send_lat}
iters=${GD_OFI_ITERS:-2000}
work=$(mktemp -d /tmp/gd-ofi.XXXXXX)
trap 'rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
ofi_cuda=${GD_OFI_CUDA_LIB:-$here/../../lib/ofi-cuda}
fail=0

# A client that refused (exit 2: usage or peer protocol, 3: cannot run here)
# may have ended before it connected: its server (which has no producer of
# its own to refuse) would wait out its 120 s bound for it. It gets 2 s to end
# on its own, then a TERM (timeout passes it on to the tool).
end_waiting_server() { # PID
	local waited=0
	while [ $waited -lt 20 ]; do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
		waited=$((waited + 1))
	done
	kill -TERM "$1" 2>/dev/null
	return 0
}

# pair NAME TOOL ARGS: server and client on loopback, both bounded; sets rc
# (the client's, or the server's when the client passed) and the files.
# server_env: a command the server runs under (e.g. env -u VAR), "" none
server_env=
pair() {
	local name=$1 tool=$2 src
	shift 2
	port=$((port + 1))
	timeout -s KILL 120 $server_env "$tools_dir/gd_$tool" "$@" -p $port >"$work/$name.s" 2>&1 &
	src=$!
	sleep 0.3
	timeout -s KILL 120 "$tools_dir/gd_$tool" "$@" -p $port 127.0.0.1 >"$work/$name.c" 2>&1
	crc=$?
	[ $crc -eq 2 ] || [ $crc -eq 3 ] && end_waiting_server $src
	wait $src
	rc=$?
	src_rc=$rc
	[ $crc -ne 0 ] && rc=$crc
	return 0
}

# one cell: run it, print its row and, when it failed, its output
run_cell() { # TOOL INITIATOR MEMORY TRANSPORT PRODUCER ARGS...
	local tool=$1 ini=$2 mem=$3 tp=$4 prod=$5 name st why rate p50 compl
	shift 5
	name="$tool-$ini-$mem-${tp//\//-}-$prod"
	local ld=${LD_LIBRARY_PATH:-}
	# GPU memory needs a libfabric built with CUDA: gpu-pack's lib/ofi-cuda (GD_OFI_CUDA)
	[ "$mem" = cuda ] && [ -e "$ofi_cuda/libfabric.so.1" ] && export LD_LIBRARY_PATH="$ofi_cuda${ld:+:$ld}"
	pair "$name" "$tool" "$@" --json
	export LD_LIBRARY_PATH="$ld"
	st=$(cell_status $rc)
	why="exit $rc"
	[ $rc -ne 0 ] && why="exit $rc: $(cell_reason "$work/$name.c" "$work/$name.s")"
	rate=- p50=- compl=-
	if [ $rc -eq 0 ]; then
		case $tool in
		*_bw)
			rate=$(cell_json "$work/$name.c" msg_rate_mpps)
			compl=$(cell_json "$work/$name.c" completion_rate_mpps)
			[ "$rate" != - ] && rate=$(awk "BEGIN { printf \"%.0f\", $rate * 1e6 }")
			[ "$compl" != - ] && compl=$(awk "BEGIN { printf \"%.0f\", $compl * 1e6 }")
			;;
		*) p50=$(cell_json "$work/$name.c" p50_usec) ;;
		esac
		grep -h '"producer_reason"' "$work/$name.c" | head -1 |
			sed -n 's/.*"producer_reason": *"\([^"]*\)".*/  producer: \1/p'
	fi
	cell "gd_$tool" "$ini" "$mem" "$tp" "$prod" "$st" "$why" "$rate" "$p50" "$compl"
	if [ "$st" = failed ] || { [ "$st" = refused ] && [ "$why" = "exit $rc: " ]; }; then
		fail=$((fail + 1))
		echo "---- $name (client, then server)"
		tail -8 "$work/$name.c"
		tail -8 "$work/$name.s"
	fi
}

expect_rc() { # WANT CELL: a refusal that ran, or a run refused, is a failure
	[ "$rc" -eq "$1" ] || { echo "FAIL: $2: exit $rc, expected $1"; fail=$((fail + 1)); }
}

# The GPU producer with GPU memory over shm under MPS: both sides clients of
# one private MPS control daemon (its own pipe folder, quit at the end), so
# the target's CUDA copies share the producer kernel's context instead of
# waiting for its time slice: every tool runs validated at its default size,
# and so do the 8 B write and 8 KiB send refused without MPS (proxy_bench.c
# gpu_producer_refused lifts the refusal under MPS, over shm only: the one
# provider with GPU memory here, tcp in libfabric 1.22 offers no FI_HMEM).
# Skipped without shm, nvidia-cuda-mps-control, a daemon that does not
# start, or the libfabric built with CUDA.
mps_quit() {
	[ -n "${CUDA_MPS_PIPE_DIRECTORY:-}" ] || return 0
	echo quit | timeout 20 nvidia-cuda-mps-control >/dev/null 2>&1
	unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
}
mps_cells() {
	local tool tp=shm n f why=
	case " $providers " in *" shm "*) ;; *) return 0 ;; esac
	command -v nvidia-cuda-mps-control >/dev/null 2>&1 || why="no nvidia-cuda-mps-control here"
	[ -e "$ofi_cuda/libfabric.so.1" ] || why="no libfabric with CUDA ($ofi_cuda)"
	if [ -z "$why" ]; then
		mkdir -p "$work/mps/pipe" "$work/mps/log"
		export CUDA_MPS_PIPE_DIRECTORY=$work/mps/pipe CUDA_MPS_LOG_DIRECTORY=$work/mps/log
		timeout 20 nvidia-cuda-mps-control -d || { why="nvidia-cuda-mps-control -d failed"; mps_quit; }
	fi
	if [ -n "$why" ]; then
		cell "gd_*" proxy cuda ofi/shm gpu-mps skipped "$why"
		return 0
	fi
	f="--fabric ofi --provider $tp --validate --use_cuda=0 --initiator=proxy --producer gpu"
	for tool in $tools; do
		n=$iters
		case $tool in *_lat) n=$((iters / 4)) ;; esac
		run_cell "$tool" proxy cuda "ofi/$tp" gpu-mps $f -n $n
		expect_rc 0 "$tool, GPU producer, GPU memory, under MPS"
	done
	run_cell write_bw proxy cuda "ofi/$tp" gpu-mps-8B $f -n 1000 -s 8
	expect_rc 0 "write_bw -s 8, GPU producer, GPU memory, under MPS"
	run_cell send_bw proxy cuda "ofi/$tp" gpu-mps-8K $f -n 1000 -s 8192
	expect_rc 0 "send_bw -s 8192, GPU producer, GPU memory, under MPS"
	mps_target_outside "$f"
	mps_quit
}
# The target (server) started outside the daemon (no CUDA_MPS_PIPE_DIRECTORY:
# not its client), its buffer on the producer's GPU, the initiator (client)
# inside: its copies would wait for every time slice of the producer kernel
# (420 ops/s). The server's HELLO says so (wire version 5) and the client's
# rule (fabric_rule.c gd_fabric_ofi_gpu_copies) refuses: exit 3 on both sides,
# the server told the fix by its client (start it under the same daemon).
mps_target_outside() { # FLAGS
	local tool name size
	for tool in atomic_bw write_bw; do
		size=
		[ "$tool" = write_bw ] && size="-s 8"
		name="$tool-proxy-cuda-ofi-shm-gpu-mps-target-outside"
		server_env="env -u CUDA_MPS_PIPE_DIRECTORY -u CUDA_MPS_LOG_DIRECTORY"
		run_cell "$tool" proxy cuda ofi/shm gpu-mps-target-outside $1 -n 5000 $size
		server_env=
		expect_rc 3 "$tool, the target outside MPS, the initiator under it"
		if [ "$src_rc" -ne 3 ] || ! grep -q "start the server under the same MPS daemon" "$work/$name.s"; then
			echo "FAIL: $tool, the target outside MPS: server exit $src_rc, expected 3 with the fix from its client"
			tail -5 "$work/$name.s"
			fail=$((fail + 1))
		fi
	done
}
trap 'mps_quit; rm -rf "$work"' EXIT

fabric=
"$tools_dir/gd_write_bw" --help 2>&1 | grep -q -- '--fabric' && fabric=yes
if [ -z "$fabric" ]; then
	for tp in $providers; do
		for tool in $tools; do
			cell "gd_$tool" "*" "*" "ofi/$tp" "*" skipped \
				"this build has no --fabric (the libfabric seam is not in it)"
		done
	done
else
	for tp in $providers; do
		for tool in $tools; do
			n=$iters
			case $tool in *_lat) n=$((iters / 4)) ;; esac
			f="--fabric ofi --provider $tp --validate -n $n"
			for mem in host cuda; do
				m=
				[ $mem = cuda ] && m=--use_cuda=0
				run_cell "$tool" cpu $mem "ofi/$tp" - $f $m
				run_cell "$tool" proxy $mem "ofi/$tp" gpu $f $m --initiator=proxy --producer gpu
				run_cell "$tool" proxy $mem "ofi/$tp" host $f $m --initiator=proxy --producer host
			done
		done
	done
	# --proxy_threads over libfabric (a domain per proxy thread, each
	# FI_THREAD_DOMAIN): 1, 2 and 4 proxy threads, GPU producer, host memory, 8 B, -q 4
	for tp in $providers; do
		for pt in 1 2 4; do
			run_cell write_bw proxy host "ofi/$tp" "gpu-pt$pt" --fabric ofi --provider "$tp" \
				--validate -n "$iters" -q 4 --proxy_threads $pt --scope warp --ctas 4 \
				--threads 32 --initiator=proxy --producer gpu
		done
	done
	# the GPU producer with GPU memory over shm either side of 64 KiB: smaller
	# writes and sends refused (exit 3: they wait for CUDA copies in the
	# target's process), 64 KiB runs (proxy_bench.c gpu_producer_refused)
	case " $providers " in *" shm "*)
		f="--fabric ofi --provider shm --validate --use_cuda=0 --initiator=proxy --producer gpu"
		run_cell write_bw proxy cuda ofi/shm gpu-8B $f -n 1000 -s 8
		expect_rc 3 "write_bw -s 8, GPU producer, GPU memory"
		run_cell send_bw proxy cuda ofi/shm gpu-8K $f -n 1000 -s 8192
		expect_rc 3 "send_bw -s 8192, GPU producer, GPU memory"
		run_cell write_lat proxy cuda ofi/shm gpu-64K $f -n 200 -s 65536
		[ -e "$ofi_cuda/libfabric.so.1" ] && expect_rc 0 "write_lat -s 65536, GPU producer, GPU memory"
	esac
	mps_cells
fi
# faults over shm: the GPU producer traps (FAULT INJECTION through
# GDPERF_TEST_GPU_TRAP_AFTER), the server is killed mid-run: both sides exit 1
# within the deadline, and the GPU stays usable (the next cell runs)
fault_cell() { # NAME WHAT RC_C RC_S SECONDS
	local st=ran why="$2: client exit $3, server exit $4 in $5 s"
	if [ "$3" -ne 1 ] || [ "$4" -ne 1 ] || [ "$5" -gt 30 ]; then
		st=failed fail=$((fail + 1))
		tail -5 "$work/$1.c" "$work/$1.s"
	fi
	cell gd_write_bw proxy host ofi/shm gpu "$st" "$why"
}
if [ -n "$fabric" ]; then
	f="--fabric ofi --provider shm --initiator=proxy --producer gpu --timeout 5"
	t0=$(date +%s)
	GDPERF_TEST_GPU_TRAP_AFTER=100 pair trap write_bw $f -n 100000
	fault_cell trap "fault: the kernel traps" "$crc" "$src_rc" $(( $(date +%s) - t0 ))
	port=$((port + 1)) t0=$(date +%s)
	"$tools_dir/gd_write_bw" $f -n 50000000 -p $port >"$work/kill.s" 2>&1 &
	spid=$! # no timeout(1) around it: this is the process killed
	sleep 0.5
	timeout -s KILL 60 "$tools_dir/gd_write_bw" $f -n 50000000 -p $port 127.0.0.1 >"$work/kill.c" 2>&1 &
	cpid=$!
	sleep 2
	kill -9 $spid
	wait $cpid; crc=$?
	cell gd_write_bw proxy host ofi/shm gpu "$([ $crc -eq 1 ] && echo ran || echo failed)" \
		"fault: server killed: client exit $crc in $(( $(date +%s) - t0 )) s"
	[ $crc -eq 1 ] || { fail=$((fail + 1)); tail -5 "$work/kill.c"; }
	run_cell write_bw proxy host ofi/shm gpu $f --validate -n 1000
fi

# verbs needs an RDMA device: the GPU machine has none (a refusal, exit 3)
for ini in cpu proxy; do
	p=
	[ $ini = proxy ] && p="--initiator=proxy --producer gpu"
	run_cell write_bw $ini host verbs "$([ $ini = proxy ] && echo gpu || echo -)" \
		${fabric:+--fabric verbs} -n 100 $p
done

if [ $fail -ne 0 ]; then echo "FAIL: $fail cell(s)"; exit 1; fi
echo "PASS: tools over libfabric on the GPU machine"
