#!/bin/bash
# The noise guard (src/bench/trust.h) for real over libfabric's tcp provider on loopback:
# both sides pinned to one CPU (--pin_cores 0 on both) is "doubtful" with the reason
# shared_cpu on both sides, in JSON ("trust") and in text (a '# doubtful:' line under the
# row and a closing WARNING); sides pinned to two CPUs, or not pinned, never carry
# shared_cpu (among this host's load they may carry cpu_starved, which names the load).
# The quiet half: the two sides alone on CPUs 0 and 1 (SCHED_FIFO, 1 s) are "ok" on both
# sides, every trigger judged on the client (it measures); without SCHED_FIFO (not root) a
# starved loop there is a SKIP.
# SKIP (77) without libfabric's tcp provider or with one CPU.
. "$(dirname "$0")/lib.sh"
ofi_skip_unless_built tcp
[ "$(nproc)" -ge 2 ] || { echo "SKIP: one CPU: sides on two CPUs cannot be shown"; exit 77; }
RUN=(--fabric ofi --provider tcp -s 4096 -n 2000)
quiet_skip=0

# reasons FILE: the trust verdict and reason ids of each JSON record, "ok" / "doubtful:a,b"
reasons() {
	/usr/bin/python3 - "$1" <<'PYEOF'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    t = r["trust"]
    ids = ",".join(x["id"] for x in t["reasons"])
    assert (t["verdict"] == "ok") == (ids == ""), t
    print(t["verdict"] + (":" + ids if ids else ""))
PYEOF
}

# 1. both sides on CPU 0 of this host: shared_cpu on both sides
if pair pinned 0 0 gd_write_bw "${RUN[@]}" --pin_cores 0 --json; then
	for side in s c; do
		v=$(reasons "$tmp/pinned.$side")
		case $v in
		doubtful:*shared_cpu*) echo "ok: pinned to CPU 0 ($side): $v" ;;
		*) echo "FAIL: both sides on CPU 0 ($side): trust '$v', expected shared_cpu"
			cat "$tmp/pinned.$side"; fail=1 ;;
		esac
	done
	grep -q '"run_cpus":"0"' "$tmp/pinned.c" || { echo "FAIL: params.run_cpus is not 0"; fail=1; }
fi
if pair pinned_text 0 0 gd_write_bw "${RUN[@]}" --pin_cores 0; then
	expect_in "text: the reason under the row" "$tmp/pinned_text.c" '^ # doubtful: .*both sides run on CPU 0 of this host'
	expect_in "text: the closing warning" "$tmp/pinned_text.c" '^ WARNING: 1 of 1 results should not be believed'
fi

# qpair NAME PRE "SERVER ARGS" "CLIENT ARGS": one gd_write_bw pair, each side under PRE (a
# scheduling prefix, or nothing); the JSON in $tmp/NAME.s and $tmp/NAME.c
qpair() {
	local name=$1 pre=$2 spid rs rc
	next_port
	timeout -k 5 60 $pre "$T/gd_write_bw" -p "$port" "${RUN[@]}" --json $3 >"$tmp/$name.s" 2>&1 &
	spid=$!
	wait_listen "$port" 10 "$spid" || true
	timeout -k 5 60 $pre "$T/gd_write_bw" -p "$port" "${RUN[@]}" --json $4 127.0.0.1 >"$tmp/$name.c" 2>&1
	rc=$?
	wait "$spid"
	rs=$?
	[ "$rc$rs" = 00 ] && return 0
	echo "FAIL: $name: exit $rs/$rc"; cat "$tmp/$name.s" "$tmp/$name.c"; fail=1; return 1
}

# 2. two CPUs, and no pinning, each side among whatever else this host runs: never
# shared_cpu; cpu_starved only with its text (a busy host: the guard is right to doubt)
for how in "--pin_cores 0:--pin_cores 1" ":"; do
	qpair q "" "${how%%:*}" "${how#*:}" || continue
	for side in s c; do
		v=$(reasons "$tmp/q.$side")
		case $v in
		ok) echo "ok: '${how}' ($side): trust ok" ;;
		*shared_cpu*) echo "FAIL: '${how}' ($side): shared_cpu without one shared CPU: $v"
			cat "$tmp/q.$side"; fail=1 ;;
		doubtful:cpu_starved)
			grep -q 'busier than its cores' "$tmp/q.$side" || { echo "FAIL: cpu_starved text"; fail=1; }
			echo "note: '${how}' ($side): this host starved the loop: $(grep -o 'ran on a CPU [^"]*' "$tmp/q.$side" | head -n 1)" ;;
		*) echo "FAIL: '${how}' ($side): trust '$v' on a clean run"; cat "$tmp/q.$side"; fail=1 ;;
		esac
	done
done

# 3. the quiet half: a clean run, the two sides alone on CPUs 0 and 1. SCHED_FIFO (chrt) puts
# each busy-polling side before everything else on its CPU (the kernel's RT throttling still
# leaves others 5 %), so neither host load nor the other side can starve it, and -D 1 is long
# enough (the bytes moved over the measured rate: at least 0.1 s) for cpu_starved to be
# judged (20 ms) on the client, the side that polls and measures: every trigger can fire,
# none must (with the guard broken, cpu_starved at any CPU share, this FAILs on the client;
# gd_write_bw's server is passive, its CPU time is not judged, its verdict must be ok
# too). Without SCHED_FIFO (no CAP_SYS_NICE), a
# run among this host's load, which the guard may rightly doubt: then SKIP, never ok.
RT="chrt -f 10"
if ! $RT true 2>/dev/null; then
	echo "note: no SCHED_FIFO here ($RT: $($RT true 2>&1 | head -n 1))"
	RT=""
fi
RUN=(--fabric ofi --provider tcp -s 4096 -D 1)
if qpair quiet "$RT" "--pin_cores 0" "--pin_cores 1"; then
	for side in s c; do
		v=$(reasons "$tmp/quiet.$side")
		secs=$(/usr/bin/python3 -c 'import json, sys
r = json.loads(open(sys.argv[1]).readline())["results"]
print("%.3f" % (r["iterations"] * r["size_bytes"] / 1048576 / r["bw_avg_mib_per_s"]))' "$tmp/quiet.$side")
		if ! awk -v s="$secs" 'BEGIN { exit !(s >= 0.1) }'; then
			echo "FAIL: quiet ($side): the run measured ${secs:-?} s, too short to judge the CPU time"; fail=1
		elif [ "$v" = ok ]; then
			echo "ok: quiet: CPUs 0 and 1${RT:+ under SCHED_FIFO} ($side): trust ok over $secs s"
		elif [ -z "$RT" ] && [ "$v" = doubtful:cpu_starved ]; then
			echo "skip: quiet ($side): without SCHED_FIFO this host starved the loop: $(grep -o 'ran on a CPU [^"]*' "$tmp/quiet.$side" | head -n 1)"
			quiet_skip=1
		else
			echo "FAIL: quiet: CPUs 0 and 1${RT:+ under SCHED_FIFO} ($side): trust '$v' on a clean run"
			cat "$tmp/quiet.$side"; fail=1
		fi
	done
fi
[ $fail = 0 ] && [ $quiet_skip = 1 ] &&
	{ echo "SKIP: the guard fired where it should; its quiet half needs SCHED_FIFO (root) or a host with idle cores"; exit 77; }
exit $fail
