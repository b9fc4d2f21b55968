#!/bin/bash
# bench-vs-libfabric: a benchmark (not a test). gdperf over libfabric (--fabric ofi)
# against libfabric's own tools on the same provider, on this machine (server and
# client on 127.0.0.1), alternately, and per point the median, min..max and the
# gdperf/reference ratio:
#   latency   gd_send_lat --fabric ofi --provider P -s SIZE -n N  vs  fi_pingpong -p P -e rdm
#             -I N -S SIZE (libfabric-bin); both report the mean one-way time (usec/xfer of
#             fi_pingpong, t_avg_usec of gdperf); ratio gd/ref, goal <= 1.00
#   bandwidth like for like against fabtests' fi_rma_bw -p P -e rdm -I N -S SIZE, whose
#             -o write and -o read run the loop on BOTH sides at once (each side writes or
#             reads the other and reports its own traffic); only -o writedata is one-way:
#               writedata  gd_write_bw --write_with_imm (one-way)  vs  -o writedata
#               write      gd_write_bw -b, the client's own traffic  vs  -o write
#               read       gd_read_bw -b, the client's own traffic   vs  -o read
#             (gdperf -b prints the sum of both sides; its JSON's local_results is the
#             client's part, which is what fi_rma_bw's client prints). MB/s (10^6 B/s) of
#             both; ratio gd/ref, goal >= 1.00. A one-way gdperf run against -o write|read
#             is not a comparison (doc/perf.md). fabtests is not packaged by Debian: build
#             it from libfabric's source of the installed version, outside this tree, and
#             pass --fabtests DIR (its bin/); without it the bandwidth reference is left out.
# Each round runs the tools of a point in rotating order (without the control: gd first
# on odd rounds).
# The ratio to read is the median of the per-round ratios (a round's two runs share
# the machine's state, which flips from one round to the next); the ratio of the
# medians is printed beside it.
#
#   scripts/bench-vs-libfabric.sh [--providers "shm tcp"] [--pairs 9]
#       [--sizes "8 4096 65536 1048576"] [--lat-iters 10000] [--bw-iters 10000]
#       [--kinds "lat bw"] [--bw-ops "writedata write read"] [--bindir DIR] [--fi-bindir DIR]
#       [--fabtests DIR] [--ld-library-path DIR] [--out DIR] [--timeout SEC] [--pin "S C"]
#       [--no-control] [--gd-control] [--gd-before DIR] [--port-base N]
#       | --summarize RUNS.CSV
#
# --bindir: the gdperf tools (default: this tree's tools/, else PATH); --fi-bindir:
# fi_pingpong (default: PATH); --ld-library-path DIR is put in front of LD_LIBRARY_PATH
# for every run (a libfabric carried to another machine); LD_LIBRARY_PATH itself, and
# FI_* variables, pass through to every run as they are. --out DIR keeps runs.csv
# (provider,kind,op,size,round,impl,value,unit) and summary.txt. A run that fails or
# exceeds --timeout (default 120 s) is shown and counted as missing, never as a number,
# and the script then exits 1 after the table (the runs that gave no number are counted).
# --lat-iters and --bw-iters take a count for every size, or SIZE:COUNT pairs
# ("8:200000 4096:100000 1048576:5000"; a size not named takes 10000): at 8 B over
# shm, 10000 exchanges last 16 ms, short enough for one timer tick to show.
# --summarize RUNS.CSV prints the table of earlier runs without running anything.
# Every round has a third run, the reference tool again ("fi2", the A/A control), so
# the table's A/A column, ref2/ref per round, is the same tool against itself: the
# resolution of this machine at that point. A gd/ref ratio inside the A/A spread is
# not a finding. The three runs of a round rotate (gd fi fi2, fi fi2 gd, fi2 gd fi).
# --no-control leaves the control out (two runs a round; the table then shows no
# A/A column and resolves nothing on its own); --control is accepted (the default).
# --gd-control adds the gdperf tool again a round ("gd2") and a column gd2/gd per
# round: gdperf's own A/A, its resolution at that point beside the reference's.
# --gd-before DIR adds a fourth run a round, the gdperf tools of DIR ("gdb": a build
# before a change), and a column gd/gdb per round: the change's own effect, measured
# like for like in the same rounds. The runs of a round rotate: round r starts at
# the r-th of "gd fi fi2 gd2 gdb" (without the control or the before build, those
# drop out of the list).
# --port-base N: the side channels' ports are N+1, N+2, ... (default 20000 + pid
# modulo 20000; two instances at once each need their own range).
# --pin "S C" runs every server on CPU S and every client on CPU C (taskset), both
# tools alike: unpinned, a one-way time under 1 us moves by half with where the
# scheduler puts the two processes (same core's SMT sibling, same cache, other
# socket), and 9 pairs do not average that out. Pick two cores of one NUMA node
# that are not SMT siblings (lscpu -e).
set -u

providers="shm tcp"
pairs=9
sizes="8 4096 65536 1048576"
lat_iters=10000
bw_iters=10000
kinds="lat bw"
bw_ops="writedata write read"
here=$(cd "$(dirname "$0")/.." && pwd)
bindir=
fibindir=
fabtests=
out=
tmo=120
summarize=
pin=
control=1
gdcontrol=0
before=
port_base=

usage() { sed -n '2,/^set -u$/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
need() { [ $# -ge 2 ] || { echo "bench-vs-libfabric: $1 needs a value" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
	case $1 in
	--providers) need "$@"; providers=$2; shift ;;
	--pairs) need "$@"; pairs=$2; shift ;;
	--sizes) need "$@"; sizes=$2; shift ;;
	--lat-iters) need "$@"; lat_iters=$2; shift ;;
	--bw-iters) need "$@"; bw_iters=$2; shift ;;
	--kinds) need "$@"; kinds=$2; shift ;;
	--bw-ops) need "$@"; bw_ops=$2; shift ;;
	--bindir) need "$@"; bindir=$2; shift ;;
	--fi-bindir) need "$@"; fibindir=$2; shift ;;
	--fabtests) need "$@"; fabtests=$2; shift ;;
	--ld-library-path) need "$@"; export LD_LIBRARY_PATH=$2${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}; shift ;;
	--out) need "$@"; out=$2; shift ;;
	--timeout) need "$@"; tmo=$2; shift ;;
	--summarize) need "$@"; summarize=$2; shift ;;
	--pin) need "$@"; pin=$2; shift ;;
	--control) control=1 ;;
	--no-control) control=0 ;;
	--gd-control) gdcontrol=1 ;;
	--gd-before) need "$@"; before=$2; shift ;;
	--port-base) need "$@"; port_base=$2; shift ;;
	-h|--help) usage 0 ;;
	*) echo "bench-vs-libfabric: unknown option '$1' (--help)" >&2; exit 2 ;;
	esac
	shift
done
for v in $bw_ops; do
	case $v in writedata|write|read) ;; *)
		echo "bench-vs-libfabric: --bw-ops takes writedata, write and read (got '$v')" >&2; exit 2 ;;
	esac
done
for v in "$pairs" "$tmo" ${port_base:+"$port_base"}; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || { echo "bench-vs-libfabric: '$v' is not a positive count" >&2; exit 2; }
done
for v in $lat_iters $bw_iters; do
	[[ $v =~ ^([0-9]+:)?[1-9][0-9]*$ ]] ||
		{ echo "bench-vs-libfabric: '$v' is neither a count nor SIZE:COUNT" >&2; exit 2; }
done
# iters_of LIST SIZE: the count of SIZE in a --lat-iters/--bw-iters list
iters_of() {
	local v
	for v in $1; do
		case $v in *:*) [ "${v%%:*}" = "$2" ] && { echo "${v#*:}"; return; } ;; *) echo "$v"; return ;; esac
	done
	echo 10000
}
# The table: per point, each tool's median and min..max, the ratio of the
# medians, and the median (min..max) of the per-round ratios gd/ref: this
# machine flips between states from one round to the next, both tools alike,
# and a pair run back to back shares its state where the medians may not
# (rounds 1-5 fast, 6-9 slow). The A/A column is the same, ref2/ref.
summary() {
	awk -F, 'NR > 1 { k = $1 " " $2 " " $3 " " $4; v[k, $6] = v[k, $6] " " $7; u[k] = $8
		p[k, $6, $5] = $7; if (!((k, $5) in rs)) { rs[k, $5] = 1; rounds[k] = rounds[k] " " $5 }
		if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
	function med(s,   a, m, i, j, t) { m = split(s, a, " "); for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
		lo = a[1]; hi = a[m]; cnt = m; return m ? (m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2) : "" }
	function pairs(k, x, y,   r, m, i, s) { m = split(rounds[k], r, " "); s = ""
		for (i = 1; i <= m; i++) if ((k, x, r[i]) in p && (k, y, r[i]) in p && p[k, y, r[i]] > 0)
			s = s " " p[k, x, r[i]] / p[k, y, r[i]]
		if (s == "") return "-"
		c = med(s); return sprintf("%.3f (%.3f..%.3f) %d", c, lo, hi, cnt) }
	NR > 1 && $6 == "gdb" { before = 1 }
	NR > 1 && $6 == "gd2" { gdaa = 1 }
	END { printf "%-4s %-3s %-5s %8s  %-30s %-30s %-22s %-26s %" (before ? "-26s %s" : "s%s") "\n", "prov", "kind", "op", "size", "gdperf median (min..max) n", "libfabric median (min..max) n", "ratio of medians gd/ref", "per-round gd/ref (min..max) n", "A/A ref2/ref per round", (before ? "gd/gdb (before) per round" : "") (gdaa ? sprintf(" %-26s", "A/A gd2/gd per round") : "")
		for (i = 1; i <= n; i++) { k = order[i]; split(k, f, " ")
		g = med(v[k, "gd"]); gs = sprintf("%.2f (%.2f..%.2f) %d", g, lo, hi, cnt); if (g == "") gs = "-"
		r = med(v[k, "fi"]); rs2 = sprintf("%.2f (%.2f..%.2f) %d", r, lo, hi, cnt); if (r == "") rs2 = "-"
		ratio = (g != "" && r != "" && r > 0) ? sprintf("%.3f %s", g / r, f[2] == "lat" ? "(goal <= 1.00)" : "(goal >= 1.00)") : "-"
		printf "%-4s %-3s %-5s %8s  %-30s %-30s %-22s %-26s %" (before ? "-26s %s" : "s%s") "\n", f[1], f[2], f[3], f[4], gs " " u[k], rs2, ratio, pairs(k, "gd", "fi"), pairs(k, "fi2", "fi"), (before ? pairs(k, "gd", "gdb") : "") (gdaa ? sprintf(" %-26s", pairs(k, "gd2", "gd")) : "") } }' "$1"
}
spin=() cpin=()
if [ -n "$pin" ]; then
	[[ $pin =~ ^([0-9]+)\ ([0-9]+)$ ]] ||
		{ echo "bench-vs-libfabric: --pin wants two CPU numbers, \"SERVER CLIENT\" (got '$pin')" >&2; exit 2; }
	command -v taskset > /dev/null || { echo "bench-vs-libfabric: --pin needs taskset (util-linux)" >&2; exit 3; }
	spin=(taskset -c "${BASH_REMATCH[1]}") cpin=(taskset -c "${BASH_REMATCH[2]}")
fi
if [ -n "$summarize" ]; then
	[ -r "$summarize" ] || { echo "bench-vs-libfabric: cannot read $summarize" >&2; exit 2; }
	summary "$summarize"
	exit 0
fi
[ -n "$bindir" ] || { [ -x "$here/tools/gd_send_lat" ] && bindir=$here/tools; }
gd() { if [ -n "$bindir" ]; then echo "$bindir/$1"; else command -v "$1"; fi; }
gd_before() { echo "$before/$1"; }
fi_tool() { if [ -n "$fibindir" ]; then echo "$fibindir/$1"; else command -v "$1"; fi; }
[ -x "$(gd gd_send_lat)" ] || { echo "bench-vs-libfabric: no gd_send_lat (--bindir DIR)" >&2; exit 3; }
"$(gd gd_send_lat)" --help 2>&1 | grep -q -- '--provider' ||
	{ echo "bench-vs-libfabric: $(gd gd_send_lat) has no --fabric ofi --provider (a build without libfabric?)" >&2; exit 3; }
if [ -n "$before" ]; then
	[ -x "$before/gd_send_lat" ] ||
		{ echo "bench-vs-libfabric: no $before/gd_send_lat (--gd-before names a build's tools/)" >&2; exit 3; }
fi
pingpong=$(fi_tool fi_pingpong)
# fi_pingpong is the latency reference only: a bandwidth-only run needs fabtests' fi_rma_bw alone
case " $kinds " in *" lat "*)
	[ -x "$pingpong" ] || { echo "bench-vs-libfabric: no fi_pingpong (apt-get install libfabric-bin, or --fi-bindir)" >&2; exit 3; } ;;
esac
rma_bw=
if [ -n "$fabtests" ]; then
	rma_bw=$fabtests/fi_rma_bw
	[ -x "$rma_bw" ] || { echo "bench-vs-libfabric: no $rma_bw (--fabtests names fabtests' bin/)" >&2; exit 3; }
else
	echo "note: no --fabtests DIR: the bandwidth reference (fi_rma_bw) is left out" >&2
fi

tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
[ -n "$out" ] && mkdir -p "$out"
runs=${out:-$tmp}/runs.csv
echo "provider,kind,op,size,round,impl,value,unit" > "$runs"
port=${port_base:-$((20000 + $$ % 20000))}

# Run a server (args before --) and its client (args after --); the client's output in
# $tmp/client. 0 when both exit 0 within the timeout.
pair_run() {
	local s=() c=() srv rc
	while [ "$1" != -- ]; do s+=("$1"); shift; done
	shift
	c=("$@")
	port=$((port + 1))
	[ $port -lt 60000 ] || port=20001
	timeout "$tmo" "${spin[@]}" "${s[@]//@PORT@/$port}" > "$tmp/server" 2>&1 &
	srv=$!
	sleep 0.3
	timeout "$tmo" "${cpin[@]}" "${c[@]//@PORT@/$port}" > "$tmp/client" 2>&1
	rc=$?
	wait "$srv" || rc=${rc/#0/1}
	[ "$rc" = 0 ] || { echo "run failed ($rc): ${c[*]//@PORT@/$port}" >&2; tail -n 3 "$tmp/client" "$tmp/server" >&2; }
	return "$rc"
}

# The first value of a JSON field in the client's result record (after the
# object named by $3, if given: -b's "local_results" is the client's own part).
json_field() {
	local in=
	[ -n "${3:-}" ] && in="\"$3\":{[^}]*"
	grep "\"type\":\"$1\"" "$tmp/client" | head -n 1 |
		sed -n "s/.*$in\"$2\":\\([0-9.eE+-]*\\).*/\\1/p"
}
# A column of fabtests/fi_pingpong's result line (the line after the header).
fi_column() { awk -v col="$1" 'f { print $col; exit } /^bytes/ { f = 1 }' "$tmp/client"; }

# rotate K A B C ...: the list started at its (K mod length)-th item
rotate() {
	local k=$1 a
	shift
	a=("$@")
	k=$((k % ${#a[@]}))
	echo "${a[@]:k}" "${a[@]:0:k}"
}

record() { # provider kind op size round impl value unit
	[ -n "$7" ] && echo "$1,$2,$3,$4,$5,$6,$7,$8" >> "$runs"
	printf '%-4s %-3s %-5s %8s r%-2s %-3s %s %s\n' "$1" "$2" "$3" "$4" "$5" "$6" "${7:-missing}" "$8" >&2
}

one() { # impl provider kind op size round
	local impl=$1 p=$2 kind=$3 op=$4 size=$5 r=$6 v='' ofi=(--fabric ofi --provider "$2")
	local n cls=${1%2} # this size's run length; the tool's family (gdb: gdperf, built before)
	local g=gd # how a gdperf tool is found: this build's or the before build's
	[ "$impl" = gdb ] && cls=gd g=gd_before
	if [ "$kind" = lat ]; then n=$(iters_of "$lat_iters" "$size"); else n=$(iters_of "$bw_iters" "$size"); fi
	case $cls.$kind in
	gd.lat)
		pair_run "$($g gd_send_lat)" "${ofi[@]}" -p @PORT@ -s "$size" -n "$n" -- \
			"$($g gd_send_lat)" "${ofi[@]}" -p @PORT@ -s "$size" -n "$n" --json 127.0.0.1 &&
			v=$(json_field lat_result t_avg_usec) ;;
	fi.lat)
		pair_run "$pingpong" -p "$p" -e rdm -I "$n" -S "$size" -B @PORT@ -- \
			"$pingpong" -p "$p" -e rdm -I "$n" -S "$size" -P @PORT@ 127.0.0.1 &&
			v=$(fi_column 7) ;;
	gd.bw)
		local tool=gd_${op}_bw like=(-b) part=local_results
		[ "$op" = writedata ] && tool=gd_write_bw like=(--write_with_imm)
		pair_run "$($g "$tool")" "${ofi[@]}" "${like[@]}" -p @PORT@ -s "$size" -n "$n" -- \
			"$($g "$tool")" "${ofi[@]}" "${like[@]}" -p @PORT@ -s "$size" -n "$n" --json 127.0.0.1 &&
			v=$(json_field bw_result bw_avg_mib_per_s $part) && [ -n "$v" ] &&
			v=$(awk -v m="$v" 'BEGIN { printf "%.2f", m * 1.048576 }') ;;
	fi.bw)
		pair_run "$rma_bw" -p "$p" -e rdm -o "$op" -I "$n" -S "$size" -s 127.0.0.1 -B @PORT@ -- \
			"$rma_bw" -p "$p" -e rdm -o "$op" -I "$n" -S "$size" -s 127.0.0.1 -P @PORT@ 127.0.0.1 &&
			v=$(fi_column 5) ;;
	esac
	record "$p" "$kind" "$op" "$size" "$r" "$impl" "$v" "$([ "$kind" = lat ] && echo usec || echo MB/s)"
	total=$((total + 1))
	[ -n "$v" ] || missed=$((missed + 1))
}
total=0 missed=0

echo "bench-vs-libfabric: providers '$providers', sizes '$sizes', $pairs pairs," \
	"${pin:+server on CPU ${pin% *}, client on CPU ${pin#* };}${pin:-unpinned;}" \
	"gdperf $(gd gd_send_lat); fi_pingpong $pingpong; fi_rma_bw ${rma_bw:-none}" >&2
for p in $providers; do
	for kind in $kinds; do
		ops=send
		[ "$kind" = bw ] && ops=$bw_ops
		impls="gd fi"
		[ "$kind" = bw ] && [ -z "$rma_bw" ] && impls=gd
		[ $control = 1 ] && [ "$impls" = "gd fi" ] && impls="$impls fi2"
		[ $gdcontrol = 1 ] && impls="$impls gd2"
		[ -n "$before" ] && impls="$impls gdb"
		for op in $ops; do
			for size in $sizes; do
				for r in $(seq 1 "$pairs"); do
					# the runs of a round rotate, so each takes each place equally
					# ("gd fi fi2"/"fi2 fi gd" kept fi in the middle: a place effect,
					# if any, would have leaned the ratios; doc/perf-data/history.md, stop 30)
					order=$(rotate $((r - 1)) $impls)
					for impl in $order; do one "$impl" "$p" "$kind" "$op" "$size" "$r"; done
				done
			done
		done
	done
done

if [ -n "$out" ]; then summary "$runs" | tee "$out/summary.txt"; else summary "$runs"; fi
# a table with holes is not a green run (issue 30 item 11): the runs that gave no number
if [ "$missed" -gt 0 ]; then
	echo "bench-vs-libfabric: $missed of $total runs failed or gave no value (shown above as" \
		"missing, left out of the table): exit 1" >&2
	exit 1
fi

