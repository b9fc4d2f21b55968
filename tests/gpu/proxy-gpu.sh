#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The GPU tier of the proxy ring: the CUDA producer kernel -> rings in pinned
# host memory -> CPU proxy threads -> the SOFTWARE TRANSPORT TEST DOUBLE
# (memcpy/atomics on a peer buffer: the GPU machine has no NIC).
#   1. validation: every op and scope, wrap and back-pressure (tiny rings),
#      several proxy threads, an injected completion error (exit 1, error word)
#   2. the rate table: requests/s vs scope, CTAs and proxy threads
#      (goals: >= 20 M/s with one proxy thread, >= 60 M/s with four)
#   3. put + quiet round trip from one GPU thread (goal <= 4 us; the floor
#      measured on this H100 is 1.8 us)
# A benchmark, not a timed assertion: the goals are printed next to the
# figures; only validation and faults decide the exit status.
# Run from a build tree, or with GD_BIN = a folder holding gd_proxy_gpu
# (make gpu-pack). Exits 77 without a GPU or without nvcc at build time.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${GD_BIN:-}" ]; then prog=$GD_BIN/gd_proxy_gpu; else prog=${top_builddir:-$here/../..}/tests/gpu/gd_proxy_gpu; fi
[ -x "$prog" ] || { echo "SKIP: $prog not built"; exit 77; }
. "$here/cells.bash"
cores=$(nproc)
fail=0 n=0
# every case is bounded: the tool's own deadlines, and timeout(1) around it
run() { # run LIMIT_S ARGS...
	local lim=$1 out rc
	shift
	out=$(timeout -s KILL "$lim" "$prog" "$@" 2>&1); rc=$?
	echo "$out"
	return $rc
}

# 5. the test program and the tools at one shape over a real provider (issue 22)
compare_tools() {
	local tools=${GD_TOOLS:-$(dirname "$prog")/../../tools} prov prod i l p t prc trc rc port
	local shape="--scope warp --ctas 8 --threads 256 --proxy_threads 1 --ring_slots 4096"
	local cpin=1 spin=0 cmp_out
	cmp_out=$(mktemp) || return
	[ "$cores" -gt 3 ] && cpin="1,3-$((cores - 1))" spin=2
	echo "== 5. one shape over a real provider: this program (--provider P: two endpoint sets in"
	echo "   one process, the proxy thread on CPU 1) against the tools (server on CPU 2, client's"
	echo "   proxy thread on CPU 1, its other threads on 3-$((cores - 1)); 127.0.0.1), write 8 B,"
	echo "   scope warp, 8 CTAs x 256 threads, 1 proxy thread, 4096-slot ring, 2048 requests per"
	echo "   warp; 3 alternating pairs per producer (goal: the tools within 10 % of this program)"
	[ -x "$tools/gd_write_bw" ] || { echo "tools: not found in $tools"; return; }
	for prov in ${GD_PROXY_PROVIDERS:-shm}; do
		for prod in gpu host; do
			local pr=() tr=()
			rc=0
			for i in 1 2 3; do
				# shellcheck disable=SC2086 # $shape: options
				l=$(timeout -s KILL 120 "$prog" --producer $prod --provider $prov --op write \
					--size 8 $shape --pin_cores 1 --requests 2048 --validate 2>&1); prc=$?
				p=$(echo "$l" | sed -n 's/.* Mreq_per_s=\([0-9.]*\).*/\1/p')
				port=$((21000 + RANDOM % 9000))
				# shellcheck disable=SC2086
				timeout -s KILL 120 "$tools/gd_write_bw" --fabric ofi --provider $prov \
					--initiator=proxy --producer $prod $shape --pin_cores $spin -s 8 -n 131072 \
					-p $port >/dev/null 2>&1 &
				sleep 0.3
				# shellcheck disable=SC2086
				timeout -s KILL 120 "$tools/gd_write_bw" --fabric ofi --provider $prov \
					--initiator=proxy --producer $prod $shape --pin_cores "$cpin" \
					-s 8 -n 131072 -p $port --json 127.0.0.1 >"$cmp_out" 2>&1; trc=$?
				wait
				t=$(cell_json "$cmp_out" msg_rate_mpps)
				[ $prc = 0 ] && [ $trc = 0 ] && [ -n "$p" ] && [ "$t" != - ] ||
					{ rc=1; echo "$l" | tail -2; break; }
				pr+=("$p") tr+=("$t")
			done
			if [ $rc != 0 ]; then
				echo "$prov $prod: did not run (exit $prc/$trc)"
				[ "$prc" = 3 ] || [ "$trc" = 3 ] || fail=$((fail + 1))
				continue
			fi
			printf '%s %s: program %s, tools %s Mreq/s (medians; runs %s / %s)\n' "$prov" "$prod" \
				"$(printf '%s\n' "${pr[@]}" | sort -g | sed -n 2p)" \
				"$(printf '%s\n' "${tr[@]}" | sort -g | sed -n 2p)" "${pr[*]}" "${tr[*]}"
			paste -d' ' <(printf '%s\n' "${tr[@]}") <(printf '%s\n' "${pr[@]}") |
				awk '{ printf "%.3f\n", $1 / $2 }' | sort -g | tr '\n' ' ' |
				awk '{ printf "  tools/program per pair: median %s (%s..%s)\n", $2, $1, $3 }'
		done
	done
	rm -f "$cmp_out"
}
[ "${GD_PROXY_ONLY:-}" = compare ] && { compare_tools; exit $((fail != 0)); }

case_ok() { # case_ok WANT_RC LIMIT ARGS...
	local want=$1 lim=$2 rc
	shift 2
	n=$((n + 1))
	run "$lim" "$@"; rc=$?
	if [ $rc -eq 3 ] && [ $n -eq 1 ]; then echo "SKIP: no GPU producer here"; exit 77; fi
	if [ $rc -ne "$want" ]; then echo "FAIL: gd_proxy_gpu $* exited $rc (want $want)"; fail=$((fail + 1)); fi
}

echo "== 1. validation (GPU producer -> ring -> proxy -> software transport test double)"
case_ok 0 60 --validate --op write --size 64 --scope warp --ctas 4 --threads 64 --requests 2048
case_ok 0 60 --validate --op write --size 1000 --scope thread --ctas 2 --threads 64 --requests 300 --ring_slots 8
case_ok 0 60 --validate --op read --size 4096 --scope block --ctas 8 --threads 128 --requests 512 --proxy_threads 2
case_ok 0 60 --validate --op fadd --scope warp --ctas 16 --threads 256 --requests 1024 --proxy_threads 4 --ring_slots 64
case_ok 0 60 --validate --op cas --scope thread --ctas 4 --threads 32 --requests 500 --proxy_threads 2
case_ok 0 60 --validate --op write --scope warp --ctas 132 --threads 1024 --requests 64 --ring_slots 32 --proxy_threads 2
case_ok 0 60 --validate --op write --scope thread --ctas 132 --threads 1024 --requests 8 --ring_slots 64 --proxy_threads 2
case_ok 0 60 --validate --op fadd --scope block --ctas 132 --threads 1024 --requests 2048 --ring_slots 1024 --proxy_threads 2
case_ok 0 60 --validate --op write --producer host --ctas 2 --requests 4096
echo "-- an injected completion error must stop the kernel and name status, opcode and QP (exit 1)"
out=$(timeout -s KILL 60 "$prog" --op write --scope warp --ctas 8 --threads 128 --requests 4096 --fail_after 10000 --timeout 5 2>&1); rc=$?
echo "$out"
if [ $rc -eq 1 ] && echo "$out" | grep -q 'completion error on QP 0x.*injected fault'; then
	echo "ok: fault reported"
else
	echo "FAIL: the injected fault gave exit $rc"; fail=$((fail + 1))
fi

echo "-- a GPU producer that traps must end the program with exit 1, the GPU usable after"
t0=$(date +%s)
out=$(timeout -s KILL 60 "$prog" --op write --scope warp --ctas 4 --threads 64 --requests 4096 --trap_after 100 --timeout 5 2>&1); rc=$?
echo "$out" | tail -4
if [ $rc -eq 1 ] && [ $(( $(date +%s) - t0 )) -le 15 ]; then
	echo "ok: trap reported (exit 1 in $(( $(date +%s) - t0 )) s)"
else
	echo "FAIL: the trapping kernel gave exit $rc after $(( $(date +%s) - t0 )) s"; fail=$((fail + 1))
fi
case_ok 0 60 --validate --op write --scope warp --ctas 4 --threads 64 --requests 1024

echo "== 2. rate table: requests/s vs scope, CTAs, proxy threads (write, 8 B; $cores CPUs)"
printf '%-7s %5s %8s %6s %12s %12s %12s %10s\n' scope ctas threads proxies Mreq/s issue_M/s compl_M/s per_bell
for pt in 1 2 4; do
	[ "$pt" -lt "$cores" ] || continue
	for scope in thread warp block; do
		for ctas in 1 8 132; do
			threads=256
			case $scope in thread) gs=1 ;; warp) gs=32 ;; block) gs=$threads ;; esac
			groups=$((ctas * threads / gs))
			req=$(( (2000000 / groups + gs - 1) / gs * gs ))
			line=$(timeout -s KILL 120 "$prog" --op write --size 8 --scope $scope --ctas $ctas \
				--threads $threads --proxy_threads $pt --ring_slots 4096 --requests $req \
				--pin_cores "$(seq -s, 1 $pt)" 2>&1 | grep '^rate')
			rate=$(echo "$line" | sed -n 's/.*Mreq_per_s=\([0-9.]*\).*/\1/p')
			bell=$(echo "$line" | sed -n 's/.*per_doorbell=\([0-9.]*\).*/\1/p')
			iss=$(echo "$line" | sed -n 's/.*issue_Mreq_per_s=\([0-9.]*\).*/\1/p')
			cpl=$(echo "$line" | sed -n 's/.*completion_Mreq_per_s=\([0-9.]*\).*/\1/p')
			printf '%-7s %5s %8s %6s %12s %12s %12s %10s\n' $scope $ctas $threads $pt \
				"${rate:-FAILED}" "${iss:--}" "${cpl:--}" "${bell:--}"
			[ -n "$rate" ] || fail=$((fail + 1))
		done
	done
done
echo "goal: >= 20 Mreq/s with 1 proxy thread, >= 60 Mreq/s with 4 (software transport test double)"

echo "== 3. put + quiet round trip, one GPU thread"
run 60 --lat 20000 --proxy_threads 1 --pin_cores 1 || fail=$((fail + 1))
# with a system fence per put (a producer that writes its payload in the kernel; prod.h)
run 60 --lat 20000 --proxy_threads 1 --pin_cores 1 --fence || fail=$((fail + 1))
echo "goal: p50 <= 3 us (GPU->CPU->GPU floor measured here: 1.8 us)"

echo "== 4. cells: each producer at one shape (write 8 B, scope warp, 8 CTAs x 256 threads,"
echo "   1 proxy thread; put+quiet from one producer thread)"
for prod in gpu host; do
	rl=$(timeout -s KILL 120 "$prog" --producer $prod --op write --size 8 --scope warp --ctas 8 \
		--threads 256 --proxy_threads 1 --ring_slots 4096 --requests 8192 --validate \
		--pin_cores 1 2>&1); rrc=$?
	ll=$(timeout -s KILL 120 "$prog" --producer $prod --lat 20000 --proxy_threads 1 --pin_cores 1 2>&1)
	lrc=$?
	echo "$rl" | grep '^rate'
	echo "$ll" | grep '^lat'
	fig() { echo "$1" | sed -n "s/.* $2=\([0-9.]*\).*/\1/p"; }
	rate=$(fig "$rl" Mreq_per_s) compl=$(fig "$rl" completion_Mreq_per_s) p50=$(fig "$ll" p50_us)
	[ -n "$rate" ] && rate=$(awk "BEGIN { printf \"%.0f\", $rate * 1e6 }")
	[ -n "$compl" ] && compl=$(awk "BEGIN { printf \"%.0f\", $compl * 1e6 }")
	rc=$((rrc ? rrc : lrc))
	why="validated, rate and put+quiet"
	[ $rc -ne 0 ] && why="exit $rc: $(echo "$rl$ll" | grep -m1 -E 'FAULT|FAIL|SKIP|error')"
	cell gd_proxy_gpu proxy host "sw test double" $prod "$(cell_status $rc)" "$why" \
		"${rate:--}" "${p50:--}" "${compl:--}"
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail=$((fail + 1))
done

compare_tools

if [ $fail -ne 0 ]; then echo "FAIL: $fail case(s)"; exit 1; fi
echo "PASS: proxy ring GPU tier"
