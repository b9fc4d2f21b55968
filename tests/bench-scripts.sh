#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The benchmark scripts outside the guest: usage errors (exit 2), and the
# comparison table and guard of scripts/bench-vs-perftest.sh over known runs
# (--summarize): ratios, spread, retransmit flags, the --min-ratio and
# --min-ratio-all exit codes.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
BVP=$top_srcdir/scripts/bench-vs-perftest.sh
BST=$top_srcdir/scripts/bench-sweep-time.sh
BVL=$top_srcdir/scripts/bench-vs-libfabric.sh
BBL=$top_srcdir/scripts/bench-baseline.sh
. "$top_srcdir/tests/lib/python.sh"
command -v "$PY" >/dev/null || { echo "SKIP: python3 missing"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
py_first "$T/bin" # the scripts' python3 (10 starts) is $PY, not a pyenv shim
fails=0
ok() { echo "PASS: $*"; }
ko() { echo "FAIL: $*"; fails=$((fails + 1)); }
. "$top_srcdir/tests/lib/expect.sh" # expect_exit (output in $T/out)
has() { if grep -qE -- "$2" "$T/out"; then ok "$1"; else ko "$1: '$2' not in output"; sed 's/^/    /' "$T/out" | tail -8; fi; }

expect_exit 0 '' "bench-vs-perftest --help" "$BVP" --help
has "help names the guard" -- '--min-ratio'
expect_exit 2 '' "bench-vs-perftest: unknown option" "$BVP" --bogus
expect_exit 2 '' "bench-vs-perftest: --pairs x" "$BVP" --pairs x
expect_exit 2 '' "bench-vs-perftest: --min-ratio abc" "$BVP" --min-ratio abc
expect_exit 2 '' "bench-vs-perftest: --qp-timeout 32" "$BVP" --qp-timeout 32
expect_exit 2 '' "bench-vs-perftest: unknown variant" "$BVP" --variants "gd xx"
expect_exit 2 '' "bench-vs-perftest: --summarize of a missing file" "$BVP" --summarize "$T/none.csv"
expect_exit 0 '' "bench-baseline --help" "$BBL" --help
has "bench-baseline help names the false alarms" 'false alarm'
expect_exit 2 '' "bench-baseline: a baseline of 2 runs" "$BBL" 2 5 5
expect_exit 2 '' "bench-baseline: runs x" "$BBL" 5 x 5
expect_exit 2 'GD_BENCH_REPEAT' "bench-baseline: GD_BENCH_REPEAT=0" env GD_BENCH_REPEAT=0 "$BBL" 5 5 5
expect_exit 2 'GD_BENCH_REPEAT' "bench-baseline: GD_BENCH_REPEAT=26" env GD_BENCH_REPEAT=26 "$BBL" 5 5 5
expect_exit 2 'GD_BENCH_ITERS' "bench-baseline: GD_BENCH_ITERS=x" env GD_BENCH_ITERS=x "$BBL" 5 5 5
expect_exit 2 'GD_BENCH_ORDER' "bench-baseline: GD_BENCH_ORDER=random" env GD_BENCH_ORDER=random "$BBL" 5 5 5
expect_exit 2 'GD_BENCH_PROVIDER' "bench-baseline: GD_BENCH_PROVIDER='tcp x'" env GD_BENCH_PROVIDER='tcp x' "$BBL" 5 5 5
expect_exit 2 'GD_BENCH_CPUS' "bench-baseline: GD_BENCH_CPUS=a" env GD_BENCH_CPUS=a "$BBL" 5 5 5
has "bench-baseline: the bad CPU list named" "not 'a'"
expect_exit 2 '' "bench-quick: 0 runs" "$top_srcdir/scripts/bench-quick.sh" 0
expect_exit 0 '' "bench-quick --help" "$top_srcdir/scripts/bench-quick.sh" --help
has "bench-quick help names the budget" '5 s'
expect_exit 0 '' "bench-sweep-time --help" "$BST" --help
expect_exit 2 '' "bench-sweep-time: --op atomic" "$BST" --op atomic
expect_exit 2 '' "bench-sweep-time: --limit 0" "$BST" --limit 0

# known runs: rate gd 2, 3, 4 (median 3) vs pt 1, 2, 9 (median 2); the third pt run had retransmits
row() { # impl kind round mpps typ flag retries
	echo "$1,write,$2,8,$3,0,0.10,0.20,$4,$5,100.0 101.5,$6,100.0,,sent_pkts=10;completer_retry_err=$7"
}
{
	row gd bw 1 2 "" "" 0; row pt bw 1 1 "" "" 0
	row gd bw 2 3 "" "" 0; row pt bw 2 2 "" "" 0
	row gd bw 3 4 "" "" 0; row pt bw 3 9 "" '!' 3
	row gd lat 1 "" 10 "" 0; row pt lat 1 "" 5 "" 0
	row gd lat 2 "" 12 "" 0; row pt lat 2 "" 6 "" 0
} > "$T/runs.csv"
expect_exit 1 '' "--summarize: latency 2x slower is below 0.90" "$BVP" --summarize "$T/runs.csv" --min-ratio 0.9
has "bw median, range and IQR of gdperf" '^\| write \| bw \| 8 \| gd \| 3\.000000 \| 2\.000000\.\.4\.000000 \| 2\.500000\.\.3\.500000 \|'
has "bw ratio of medians 1.50, per-round ratios 2, 1.5, 0.44" '\| 1\.50 \| 1\.50 \[0\.44\.\.2\.00\] \|'
has "quiet ratio leaves the retransmit run out: 3/1.5 = 2.00" '\| 1\.50 \| 1\.50 \[0\.44\.\.2\.00\] \| 2\.00 \|'
has "runs column: pt 2 ok, 1 with retransmits" '^\| write \| bw \| 8 \| pt \|.*\| 2/1/0/0 \| 0\.\.3 \|'
has "latency ratio 2.00 (gdperf slower)" '^\| write \| lat \| 8 \| gd \| 11\.00 \|.*\| 2\.00 \|'
has "the guard names the point" 'BELOW: write lat 8 gd: speed ratio 0\.500 < 0\.90'
has "the guard counts one point" 'guard: 1 point\(s\) below 0\.90'
grep -v ',lat,' "$T/runs.csv" > "$T/bw.csv"
expect_exit 0 '' "--summarize: bw alone passes 0.90 (quiet ratio 2.00)" "$BVP" --summarize "$T/bw.csv" --min-ratio 0.9
expect_exit 1 '' "--summarize: and fails 2.5" "$BVP" --summarize "$T/bw.csv" --min-ratio 2.5
expect_exit 0 '' "--summarize without --min-ratio never fails" "$BVP" --summarize "$T/runs.csv"
# --min-ratio-all: a point is below when every run is below R of every pt run
expect_exit 2 '' "bench-vs-perftest: --min-ratio-all x" "$BVP" --min-ratio-all x
expect_exit 1 '' "--min-ratio-all 0.9: latency runs 10, 12 vs pt 5, 6 do not overlap" \
	"$BVP" --summarize "$T/runs.csv" --min-ratio-all 0.9
has "the separation names the point, gd's best and pt's slowest run" \
	'BELOW: write lat 8 gd: every run below 0\.90 of every pt run \(gd best 10\.00, pt slowest 6\.00\)'
has "bw (gd 2..4 vs pt 1..9) overlaps: one point" 'guard: 1 point\(s\) below 0\.90'
expect_exit 0 '' "--min-ratio-all 0.9: bw runs that overlap pass" "$BVP" --summarize "$T/bw.csv" --min-ratio-all 0.9
expect_exit 1 '' "--min-ratio-all 5: gd's best 4 < 5 x pt's slowest 1" "$BVP" --summarize "$T/bw.csv" --min-ratio-all 5
# pt2, the A/A control (perftest against itself): its ratio and pair ratio are shown and
# a failed run (a rate of 0) is an X, never a number, and the script exits 1 saying so
{ cat "$T/runs.csv"; row gd bw 4 0 "" "" 0; } > "$T/failed.csv"
expect_exit 1 '' "--summarize: a failed run exits 1 without a guard" "$BVP" --summarize "$T/failed.csv"
has "the failed run counted" 'FAILED: 1 of 11 runs failed or gave no number'
# never judged by a guard (pt2 runs 1 and 2 against pt's 5 and 6: 0.19, far below 0.90)
{ cat "$T/runs.csv"; row pt2 lat 1 "" 1 "" 0; row pt2 lat 2 "" 1 "" 0; row pt2 bw 1 1 "" "" 0; } > "$T/aa.csv"
expect_exit 1 '' "--summarize --variants 'gd pt pt2' --min-ratio 0.9: gd's latency still fails" \
	"$BVP" --summarize "$T/aa.csv" --variants "gd pt pt2" --min-ratio 0.9
has "pt2 has its row with the A/A ratio" '^\| write \| lat \| 8 \| pt2 \| 1\.00 \|.*\| 0\.18 \|'
has "the guard judges gd alone: one point" 'guard: 1 point\(s\) below 0\.90'
grep -v ',lat,' "$T/aa.csv" > "$T/aa-bw.csv"
expect_exit 0 '' "--min-ratio-all 5: pt2 below every pt run is not judged" \
	"$BVP" --summarize "$T/aa-bw.csv" --variants "pt pt2" --min-ratio-all 5
# bench-vs-libfabric: usage errors and its table over known runs (medians, spread, ratio)
expect_exit 0 '' "bench-vs-libfabric --help" "$BVL" --help
has "help names the fabtests option" -- '--fabtests'
expect_exit 2 '' "bench-vs-libfabric: unknown option" "$BVL" --bogus
expect_exit 2 '' "bench-vs-libfabric: --pairs x" "$BVL" --pairs x
expect_exit 2 '' "bench-vs-libfabric: --bw-ops with an unpaired mode" "$BVL" --bw-ops "write bogus"
expect_exit 2 '' "bench-vs-libfabric: --summarize of a missing file" "$BVL" --summarize "$T/none.csv"
cat > "$T/ofi.csv" <<'EOF'
provider,kind,op,size,round,impl,value,unit
tcp,lat,send,8,1,gd,10,usec
tcp,lat,send,8,1,fi,20,usec
tcp,lat,send,8,2,fi,22,usec
tcp,lat,send,8,2,gd,12,usec
tcp,lat,send,8,3,gd,11,usec
tcp,lat,send,8,3,fi,30,usec
shm,bw,write,65536,1,gd,1000,MB/s
shm,bw,write,65536,1,fi,800,MB/s
shm,bw,write,65536,2,fi,1200,MB/s
EOF
expect_exit 0 '' "bench-vs-libfabric --summarize" "$BVL" --summarize "$T/ofi.csv"
has "latency: medians, min..max, ratio gd/ref" '^tcp +lat +send +8 +11\.00 \(10\.00\.\.12\.00\) 3 usec +22\.00 \(20\.00\.\.30\.00\) 3 +0\.500 \(goal <= 1\.00\)'
has "bandwidth: an even count's median is the mean of the middle two" '^shm +bw +write +65536 +1000\.00 .* 1000\.00 \(800\.00\.\.1200\.00\) 2 +1\.000 \(goal >= 1\.00\)'
has "latency: per-round ratios 0.500, 0.545, 0.367" '^tcp +lat +send +8 .* 0\.500 \(goal <= 1\.00\) +0\.500 \(0\.367\.\.0\.545\) 3 +-$'
has "bandwidth: a round without its gd run has no ratio" '^shm +bw +write +65536 .* 1\.250 \(1\.250\.\.1\.250\) 1 +-$'
expect_exit 2 '' "bench-vs-libfabric: --lat-iters 8:x" "$BVL" --lat-iters "8:100 4096:x"
has "the bad count is named" "'4096:x' is neither a count nor SIZE:COUNT"
# --control: the reference against itself, per round (fi2/fi), beside gd/ref
cat > "$T/aa.csv" <<'EOF'
provider,kind,op,size,round,impl,value,unit
shm,lat,send,8,1,gd,1.0,usec
shm,lat,send,8,1,fi,0.9,usec
shm,lat,send,8,1,fi2,0.99,usec
shm,lat,send,8,2,fi2,0.9,usec
shm,lat,send,8,2,fi,1.0,usec
shm,lat,send,8,2,gd,1.0,usec
shm,lat,send,8,3,gd,1.0,usec
shm,lat,send,8,3,fi,1.0,usec
shm,lat,send,8,3,fi2,1.05,usec
EOF
expect_exit 0 '' "bench-vs-libfabric --summarize with control runs" "$BVL" --summarize "$T/aa.csv"
has "A/A: median of fi2/fi per round and its spread" '^shm +lat +send +8 .* 1\.000 \(goal <= 1\.00\) +1\.000 \(1\.000\.\.1\.111\) 3 +1\.050 \(0\.900\.\.1\.100\) 3$'
expect_exit 0 '' "bench-vs-libfabric: runs without a before build have no gd/gdb column" \
	"$BVL" --summarize "$T/aa.csv"
has "no gd/gdb column without gdb runs" '^prov .*A/A ref2/ref per round$'
# --gd-before: a build before a change in the same rounds, gd/gdb per round
cat > "$T/ab.csv" <<'EOF'
provider,kind,op,size,round,impl,value,unit
shm,bw,write,65536,1,gd,2000,MB/s
shm,bw,write,65536,1,fi,1000,MB/s
shm,bw,write,65536,1,gdb,1000,MB/s
shm,bw,write,65536,2,fi,1000,MB/s
shm,bw,write,65536,2,gdb,500,MB/s
shm,bw,write,65536,2,gd,1500,MB/s
EOF
expect_exit 0 '' "bench-vs-libfabric --summarize with before runs" "$BVL" --summarize "$T/ab.csv"
has "gd/gdb: the header names the before build" '^prov .*gd/gdb \(before\) per round$'
has "gd/gdb: median of the per-round ratios 2.0 and 3.0 and their spread" '^shm +bw +write +65536 .* - +2\.500 \(2\.000\.\.3\.000\) 2$'
# --gd-control: gdperf against itself in the same rounds, gd2/gd per round (its own A/A)
cat > "$T/gaa.csv" <<'EOF'
provider,kind,op,size,round,impl,value,unit
shm,bw,writedata,8,1,gd,40,MB/s
shm,bw,writedata,8,1,fi,40,MB/s
shm,bw,writedata,8,1,gd2,30,MB/s
shm,bw,writedata,8,2,fi,40,MB/s
shm,bw,writedata,8,2,gd2,50,MB/s
shm,bw,writedata,8,2,gd,40,MB/s
EOF
expect_exit 0 '' "bench-vs-libfabric --summarize with gd2 runs" "$BVL" --summarize "$T/gaa.csv"
has "gd2/gd: the header names gdperf's own A/A" '^prov .*A/A gd2/gd per round *$'
has "gd2/gd: median of the per-round ratios 0.75 and 1.25 and their spread" '^shm +bw +writedata +8 .* 1\.000 \(0\.750\.\.1\.250\) 2 *$'
expect_exit 2 '' "bench-vs-libfabric: --port-base x" "$BVL" --port-base x

# Like for like (issue 30 item 4): which gdperf run the script sets against which reference.
# Stand-in tools log their command lines and print a result: a one-way gdperf write against
# fi_rma_bw -o write|read (whose loop runs on both sides) would be an unfair reference.
mkdir -p "$T/gd" "$T/fi"
cat >"$T/stub" <<'EOS'
#!/bin/sh
echo "$(basename "$0") $*" >>"${0%/*}/../calls"
case "$*" in *--help*) echo "--provider"; exit 0 ;; esac
case "$*" in *127.0.0.1) ;; *) exit 0 ;; esac # a server prints nothing the script reads
case $(basename "$0") in
gd_*) echo '{"type":"lat_result","t_avg_usec":2.0}'
	echo '{"type":"bw_result","local_results":{"bw_avg_mib_per_s":100.0}}' ;;
*) printf 'bytes iters total time MB/sec usec/xfer Mxfers/sec\n8 10 1k 0.1s 100.0 2.0 0.5\n' ;;
esac
EOS
chmod +x "$T/stub"
for t in gd_send_lat gd_write_bw gd_read_bw; do ln -s ../stub "$T/gd/$t"; done
for t in fi_pingpong fi_rma_bw; do ln -s ../stub "$T/fi/$t"; done
expect_exit 0 '' "bench-vs-libfabric with stand-in tools" "$BVL" --providers tcp --pairs 1 --sizes 8 \
	--no-control --bindir "$T/gd" --fi-bindir "$T/fi" --fabtests "$T/fi" --port-base 30000
cp "$T/calls" "$T/out"
has "latency: gd_send_lat against fi_pingpong -e rdm" '^fi_pingpong -p tcp -e rdm .*127\.0\.0\.1$'
has "one-way writes with imm against -o writedata" '^gd_write_bw .*--write_with_imm .*127\.0\.0\.1$'
has "fi_rma_bw -o writedata ran" '^fi_rma_bw -p tcp -e rdm -o writedata .*127\.0\.0\.1$'
has "-b write against -o write" '^gd_write_bw --fabric ofi --provider tcp -b .*127\.0\.0\.1$'
has "fi_rma_bw -o write ran" '^fi_rma_bw -p tcp -e rdm -o write .*127\.0\.0\.1$'
has "-b read against -o read" '^gd_read_bw --fabric ofi --provider tcp -b .*127\.0\.0\.1$'
has "fi_rma_bw -o read ran" '^fi_rma_bw -p tcp -e rdm -o read .*127\.0\.0\.1$'
one_way=$(grep -E '^gd_(write|read)_bw ' "$T/calls" | grep -vE -- ' -b | --write_with_imm ')
[ -z "$one_way" ] && ok "no one-way gdperf bandwidth run without its one-way reference" ||
	ko "a gdperf bandwidth run neither -b nor --write_with_imm: $one_way"
[ "$(grep -c '^gd_write_bw .*--write_with_imm' "$T/calls")" = 2 ] &&
	[ "$(grep -c '^fi_rma_bw .*-o writedata' "$T/calls")" = 2 ] &&
	ok "writedata: one pair of each" || ko "writedata: the pairs"
# a bandwidth-only run needs no fi_pingpong (the latency reference): fi_rma_bw alone
mkdir -p "$T/fb" && ln -s ../stub "$T/fb/fi_rma_bw"
expect_exit 0 '' "bench-vs-libfabric --kinds bw without fi_pingpong" "$BVL" --providers tcp --pairs 1 \
	--sizes 8 --kinds bw --bw-ops write --no-control --bindir "$T/gd" --fi-bindir "$T/fb" --fabtests "$T/fb" \
	--port-base 30050
# a run that fails is missing from the table, and the script exits 1 saying how many
rm -f "$T/calls"
rm "$T/fi/fi_pingpong" && printf '#!/bin/sh\necho "fi_pingpong $*" >>"${0%%/*}/../calls"\nexit 1\n' >"$T/fi/fi_pingpong" &&
	chmod +x "$T/fi/fi_pingpong"
expect_exit 1 '' "bench-vs-libfabric: a reference run fails" "$BVL" --providers tcp --pairs 1 --sizes 8 \
	--no-control --kinds lat --bindir "$T/gd" --fi-bindir "$T/fi" --port-base 30100
has "the failed runs counted" '1 of 2 runs failed or gave no value'
# proxy-vs-cpu.sh over libfabric tcp: a run that fails (here every proxy client, given a
# size its server does not have: both sides refuse at HELLO) is no number ('-', never
# 0.00) and the script exits 1 saying how many failed
PVC=$top_srcdir/scripts/proxy-vs-cpu.sh
bt=${top_builddir:-$top_srcdir}
. "$top_srcdir/tests/lib/features.sh" # built_with
if top_builddir=$bt built_with libfabric &&
	command -v fi_info >/dev/null && fi_info -p tcp >/dev/null 2>&1; then
	mkdir -p "$T/pb/tools"
	cat >"$T/pb/tools/gd_write_bw" <<EOS
#!/bin/bash
case "\$*" in *--initiator=proxy*127.0.0.1) exec "$bt/tools/gd_write_bw" "\$@" -s 16 ;; esac
exec "$bt/tools/gd_write_bw" "\$@"
EOS
	chmod +x "$T/pb/tools/gd_write_bw"
	. "$top_srcdir/tests/lib/ports.sh" # a block of ports no other test holds
	test_ports
	expect_exit 1 '' "proxy-vs-cpu: the proxy runs fail" "$PVC" --provider tcp --pairs 1 --sizes 8 \
		--iters 8:1000 --builddir "$T/pb" --port-base "$port"
	has "proxy-vs-cpu: the failed runs counted" '1 of 2 runs failed'
	has "proxy-vs-cpu: no median of no run" '^8 +[0-9.]+ +- +- +- +-$'
	# --aa: the CPU initiator again in every pair, its cpu2/cpu ratio beside the proxy's
	expect_exit 1 '' "proxy-vs-cpu --aa: the proxy runs fail" "$PVC" --provider tcp --pairs 1 --sizes 8 \
		--iters 8:1000 --builddir "$T/pb" --port-base "$((port + 10))" --aa
	has "proxy-vs-cpu --aa: the failed runs counted" '1 of 3 runs failed'
	has "proxy-vs-cpu --aa: the control's ratio, no proxy ratio" '^8 +[0-9.]+ +- +- +- +- +[0-9.]+ +[0-9.]+\.\.[0-9.]+$'
else
	echo "SKIP: proxy-vs-cpu over libfabric tcp (no tools built with libfabric, or no tcp provider)"
fi
# bench-topo.sh times gd_topo against nvidia-smi (a stand-in here): a tool that fails is no
# time: counted on a FAILED line, exit 1 (it printed medians and exited 0 before)
BTP=$top_srcdir/scripts/bench-topo.sh
mkdir -p "$T/nv" && printf '#!/bin/sh\nexit 0\n' >"$T/nv/nvidia-smi" &&
	printf '#!/bin/sh\nexit 3\n' >"$T/nv/failing-topo" && chmod +x "$T/nv/nvidia-smi" "$T/nv/failing-topo"
PATH="$T/nv:$PATH" expect_exit 1 'FAILED: 2 of 4 runs exited non-zero' \
	"bench-topo: a failing gd_topo is counted, exit 1" "$BTP" -n 2 "$T/nv/failing-topo"
PATH="$T/nv:$PATH" expect_exit 0 'ratio nvidia-smi/gd_topo' "bench-topo: runs that pass, exit 0" \
	"$BTP" -n 2 true
[ $fails = 0 ]
