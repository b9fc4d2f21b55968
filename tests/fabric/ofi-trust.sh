#!/bin/bash
# The noise guard (src/bench/trust.h) for real over libfabric's tcp provider on loopback:
# both sides pinned to one CPU (--pin_cores 0 on both) is "doubtful" with the reason
# shared_cpu on both sides, in JSON ("trust") and in text (a '# doubtful:' line under the
# row and a closing WARNING); sides pinned to two CPUs, or not pinned, never carry
# shared_cpu, and a clean run is "ok" unless the host is busier than its cores
# (cpu_starved, which names the load: then the quiet half says SKIP, never ok).
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

# 2. two CPUs, and no pinning: never shared_cpu; ok unless the host starves the loop
for how in "--pin_cores 0:--pin_cores 1" ":"; do
	next_port
	timeout 60 "$T/gd_write_bw" -p "$port" "${RUN[@]}" --json ${how%%:*} >"$tmp/q.s" 2>&1 &
	spid=$!
	sleep 0.3
	timeout 60 "$T/gd_write_bw" -p "$port" "${RUN[@]}" --json ${how#*:} 127.0.0.1 >"$tmp/q.c" 2>&1
	rc=$?
	wait "$spid"
	rs=$?
	[ "$rc$rs" = 00 ] || { echo "FAIL: run '${how}': exit $rs/$rc"; cat "$tmp/q.s" "$tmp/q.c"; fail=1; continue; }
	for side in s c; do
		v=$(reasons "$tmp/q.$side")
		case $v in
		ok) echo "ok: '${how}' ($side): trust ok" ;;
		*shared_cpu*) echo "FAIL: '${how}' ($side): shared_cpu without one shared CPU: $v"
			cat "$tmp/q.$side"; fail=1 ;;
		doubtful:cpu_starved)
			grep -q 'busier than its cores' "$tmp/q.$side" || { echo "FAIL: cpu_starved text"; fail=1; }
			echo "skip: '${how}' ($side): this host starved the loop: $(grep -o 'ran on a CPU [^"]*' "$tmp/q.$side" | head -n 1)"
			quiet_skip=1 ;;
		*) echo "FAIL: '${how}' ($side): trust '$v' on a clean run"; cat "$tmp/q.$side"; fail=1 ;;
		esac
	done
done
[ $fail = 0 ] && [ $quiet_skip = 1 ] &&
	{ echo "SKIP: the guard fired where it should; its quiet half needs a host with idle cores"; exit 77; }
exit $fail
