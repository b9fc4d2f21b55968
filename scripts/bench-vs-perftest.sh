#!/bin/bash
# bench-vs-perftest: a benchmark (not a test). In ONE Soft-RoCE guest boot,
# run gdperf and perftest alternately on the same rxe link for each op and
# size, and print gdperf/perftest ratios of average bandwidth, message rate
# and typical latency: medians over the runs of each tool (a loaded host
# adds 4 ms scheduler stalls that would dominate a mean); the order
# alternates pair by pair so that drift cancels. Each result is also
# streamed on stderr as "csv: impl,op,kind,size,bw_MiBps,Mpps,typical_us".
#
#   scripts/bench-vs-perftest.sh [--pairs N] [--sizes "8 4096 65536 1048576"]
#                                [--ops "write read send atomic"] [--builddir DIR]
#
# Outside the guest it re-runs itself through scripts/gd-vm. Under TCG the
# numbers are small (~0.3 Gb/s, ~20 us): only the ratios mean something.
set -u

pairs=5
sizes="8 4096 65536 1048576"
ops="write read send atomic"
builddir=${top_builddir:-$PWD}
here=$(cd "$(dirname "$0")" && pwd)
orig_args=("$@")

while [ $# -gt 0 ]; do
	case $1 in
	--pairs) pairs=$2; shift 2 ;;
	--sizes) sizes=$2; shift 2 ;;
	--ops) ops=$2; shift 2 ;;
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	-h|--help) sed -n '2,15p' "$0"; exit 0 ;;
	*) echo "bench-vs-perftest: unknown argument $1" >&2; exit 2 ;;
	esac
done

DEV=${GD_VM_DEV:-rxe0}
IP=${GD_VM_IP:-10.0.0.1}
if [ ! -d /sys/class/infiniband/$DEV ]; then
	if [ -x "$here/gd-vm" ]; then
		exec "$here/gd-vm" --timeout 3600 -- "$here/bench-vs-perftest.sh" \
			--builddir "$builddir" "${orig_args[@]}"
	fi
	echo "bench-vs-perftest: no $DEV here and no scripts/gd-vm to boot the guest" >&2
	exit 3
fi
BIN=$builddir/tools
[ -x "$BIN/gd_write_bw" ] || { echo "bench-vs-perftest: build first ($BIN/gd_write_bw)" >&2; exit 3; }
command -v ib_write_bw >/dev/null || { echo "bench-vs-perftest: perftest not installed" >&2; exit 3; }

WORK=$(mktemp -d /tmp/bvp.XXXXXX)
CSV=$WORK/results.csv
port=20000

# iterations per size: small messages many, large few (TCG is slow)
iters() {
	case $1 in
	8) echo 1000 ;; 4096) echo 500 ;; 65536) echo 200 ;; *) echo 20 ;;
	esac
}

wait_listen() {
	local i hex
	hex=$(printf '%04X' "$1")
	for i in $(seq 1 600); do
		# one grep per try, and no probe connection (each server accepts one peer)
		grep -qE "^ *[0-9]+: [0-9A-F]+:$hex [0-9A-F]+:[0-9A-F]+ 0A " \
			/proc/net/tcp /proc/net/tcp6 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# one IMPL(gd|pt) OP KIND SIZE -> appends a CSV line: impl,op,kind,size,bw_avg,msgrate,typical
one() {
	local impl=$1 op=$2 kind=$3 size=$4 tool args out spid
	port=$((port + 1))
	args="-d $DEV -x 1 -p $port -n $(iters $size) -F"
	[ "$op" != atomic ] && args="$args -s $size"
	if [ $impl = gd ]; then tool=$BIN/gd_${op}_$kind; else tool=ib_${op}_$kind; fi
	timeout -s KILL 120 $tool $args > "$WORK/s.out" 2>&1 &
	spid=$!
	wait_listen $port || { kill -9 $spid 2>/dev/null; wait $spid 2>/dev/null; return; }
	out=$(timeout -s KILL 120 $tool $args $IP 2>&1)
	wait $spid 2>/dev/null
	echo "$out" > "$WORK/last-$impl-$op-$kind-$size.out"
	# the result line: first field is the size
	echo "$out" | awk -v impl=$impl -v op=$op -v kind=$kind -v size=$size '
		$1 == size && NF >= 5 && $2 ~ /^[0-9]+$/ {
			if (kind == "bw") printf "%s,%s,%s,%s,%s,%s,\n", impl, op, kind, size, $4, $5
			else printf "%s,%s,%s,%s,,,%s\n", impl, op, kind, size, $5
			exit
		}' | tee -a "$CSV" | sed 's/^/  csv: /' >&2
}

echo "bench-vs-perftest: $pairs pairs, sizes $sizes, ops $ops, device $DEV ($IP)" >&2
for op in $ops; do
	for kind in bw lat; do
		for size in $sizes; do
			[ $op = atomic ] && [ $size != 8 ] && continue
			for i in $(seq 1 $pairs); do
				if [ $((i % 2)) = 1 ]; then
					one gd $op $kind $size; one pt $op $kind $size
				else
					one pt $op $kind $size; one gd $op $kind $size
				fi
			done
			echo "  done $op $kind $size" >&2
		done
	done
done

python3 - "$CSV" <<'EOF'
import csv, sys, math, statistics
rows = {}
for r in csv.reader(open(sys.argv[1])):
    if len(r) != 7: continue
    impl, op, kind, size, bw, mr, typ = r
    key = (op, kind, int(size))
    d = rows.setdefault(key, {"gd": [], "pt": []})
    try:
        v = (float(bw), float(mr)) if kind == "bw" else (float(typ),)
    except ValueError:
        continue
    if all(math.isfinite(x) and x > 0 for x in v):
        d[impl].append(v)
def med(xs): return statistics.median(xs) if xs else float("nan")
def ratio(a, b): return a / b if b and math.isfinite(a) and math.isfinite(b) else float("nan")
print("%-6s %-4s %8s | %9s %9s %6s | %9s %9s %6s | %9s %9s %6s | %s" % (
    "op", "kind", "size", "gd BW", "pt BW", "ratio", "gd Mpps", "pt Mpps", "ratio",
    "gd typ", "pt typ", "ratio", "runs gd/pt"))
print("%-6s %-4s %8s | %9s %9s %6s | %9s %9s %6s | %9s %9s %6s |" % (
    "", "", "bytes", "MiB/s", "MiB/s", "gd/pt", "", "", "gd/pt", "usec", "usec", "gd/pt"))
order = {"write": 0, "read": 1, "send": 2, "atomic": 3}
for (op, kind, size) in sorted(rows, key=lambda k: (order.get(k[0], 9), k[1], k[2])):
    d = rows[(op, kind, size)]
    n = "%d/%d" % (len(d["gd"]), len(d["pt"]))
    if kind == "bw":
        gb, pb = med([v[0] for v in d["gd"]]), med([v[0] for v in d["pt"]])
        gm, pm = med([v[1] for v in d["gd"]]), med([v[1] for v in d["pt"]])
        print("%-6s %-4s %8d | %9.2f %9.2f %6.2f | %9.6f %9.6f %6.2f | %9s %9s %6s | %s" % (
            op, kind, size, gb, pb, ratio(gb, pb), gm, pm, ratio(gm, pm), "", "", "", n))
    else:
        gt, pt = med([v[0] for v in d["gd"]]), med([v[0] for v in d["pt"]])
        print("%-6s %-4s %8d | %9s %9s %6s | %9s %9s %6s | %9.2f %9.2f %6.2f | %s" % (
            op, kind, size, "", "", "", "", "", "", gt, pt, ratio(gt, pt), n))
print("Medians over the runs of each tool (the pairs alternate which tool goes first).")
print("BW and message rate: ratio > 1 means gdperf is faster; typical latency: ratio < 1 means gdperf is faster.")
EOF
rm -rf "$WORK"
