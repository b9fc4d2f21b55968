#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# A benchmark (not a test; it prints figures): how often gd_check's baseline judge raises a
# false alarm on a good node, and how often it catches a 5 % loss (doc/check.md, "Baseline of
# good nodes"). One machine stands in for a fleet: repeated runs of one write-bw spec over
# libfabric tcp on 127.0.0.1, each report renamed run-N (a baseline refuses one host twice).
#
#   1. B + G good runs and, for each loss L of GD_BENCH_LOSS (percent, default 5), S runs
#      with a software rate limit (rate_limit, the tools' -y/--rate_limit) at (100 - L) % of
#      the good level; the runs the noise guard trusted (their rows PASSed) count
#   2. B trusted good runs make the baseline (gd_check --baseline)
#   3. the other trusted good runs are judged (gd_check --golden): a FAIL is a false alarm
#   4. the limited runs are judged: a FAIL is a detection
# Steps 3 and 4 judge under each k of GD_BENCH_K (robust distances, gd_check --robust-k;
# default 4, the baseline's), with the threshold it makes in % of the median (k x MAD).
#
# GD_BENCH_ORDER says when each run is taken. interleave (the default): the baseline's, the
# judged and the limited runs spread evenly over one window, as a fleet's acceptance measures
# its known-good nodes and the nodes it judges under the same fabric and software; each
# limited run is capped at (100 - L) % of the median of the last 3 trusted good runs before it.
# A drift of the machine's figure then widens the baseline's spread instead of standing between
# the baseline and the judged. blocks (sessions 38-41): all good runs first, the baseline the
# first B, then the limited runs capped at (100 - L) % of the baseline's median; a drift
# between the blocks is then measured as false alarms or missed detections.
#
# GD_BENCH_REPEAT=K (default 1) judges each "node" on the median of K runs (the spec's
# repeat: K, doc/check.md "Repeated runs"). GD_BENCH_ITERS (default 5000) sets each run's
# iterations. GD_BENCH_PROVIDER (default tcp) the libfabric provider; GD_BENCH_CPUS=LIST runs
# every gd_check under taskset -c LIST.
#
# Prints both rates with their counts and the runs the noise guard doubted (left out: a
# doubted figure is never a baseline's nor a verdict's); why: the drift (the good reports'
# median in the window's first and second half), the good reports' spread (scaled MAD, % of
# the median) against the 1.26 % the goal needs, and for each loss the least false alarm that
# any threshold catching 95 % of the limited reports gives (their overlap). Usage:
#   scripts/bench-baseline.sh [B G S]        (default 5 10 10; GD_BENCH_PORT, default 32300)
#   GD_BENCH_LOSS='5 10' GD_BENCH_K='2 3 4' scripts/bench-baseline.sh 10 30 30
# Run from the build directory (or set top_builddir). Needs the provider (fi_info -p).
# GD_BENCH_KEEP_DOUBTED=1 keeps the runs the noise guard doubted, their rows set to PASS in the
# copies judged here (said in the output): the figures of a host busier than its cores, where
# no run is trusted; never what gd_check itself does.
: "${top_builddir:=$PWD}"
case "$1" in -h|--help) sed -n '3,41p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
B=${1:-5} G=${2:-10} S=${3:-10}
for n in "$B" "$G" "$S"; do
	case "$n" in ''|*[!0-9]*) echo "usage: $0 [B G S] (whole numbers, B >= 3, G and S >= 1)" >&2; exit 2 ;; esac
done
[ "$B" -ge 3 ] && [ "$G" -ge 1 ] && [ "$S" -ge 1 ] ||
	{ echo "usage: $0 [B G S]: a baseline needs B >= 3 runs; G, S >= 1" >&2; exit 2; }
LOSSES=${GD_BENCH_LOSS:-5} KS=${GD_BENCH_K:-4} REPEAT=${GD_BENCH_REPEAT:-1} ITERS=${GD_BENCH_ITERS:-5000}
ORDER=${GD_BENCH_ORDER:-interleave} PROV=${GD_BENCH_PROVIDER:-tcp} CPUS=${GD_BENCH_CPUS:-}
case "$REPEAT:$ITERS" in *[!0-9:]*|:*|*:) bad=1 ;; *) bad=0 ;; esac
[ "$bad" = 0 ] && [ "$REPEAT" -ge 1 ] && [ "$REPEAT" -le 25 ] && [ "$ITERS" -ge 1 ] ||
	{ echo "usage: GD_BENCH_REPEAT is a whole number from 1 to 25 (the spec's repeat), GD_BENCH_ITERS one from 1" >&2; exit 2; }
for n in $LOSSES $KS; do
	case "$n" in ''|*[!0-9.]*|*.*.*|.*|*.) echo "usage: GD_BENCH_LOSS and GD_BENCH_K are lists of decimal numbers (a loss in % below 100, k from 1 to 20)" >&2; exit 2 ;; esac
done
case "$ORDER" in interleave|blocks) ;; *)
	echo "usage: GD_BENCH_ORDER is interleave (the default) or blocks, not '$ORDER'" >&2; exit 2 ;; esac
case "$PROV" in ''|*[!a-z0-9_\;]*)
	echo "usage: GD_BENCH_PROVIDER is a libfabric provider's name (tcp, shm), not '$PROV'" >&2; exit 2 ;; esac
case "$CPUS" in *[!0-9,-]*)
	echo "usage: GD_BENCH_CPUS is a CPU list for taskset -c (2,3 or 2-5), not '$CPUS'" >&2; exit 2 ;; esac
PIN=
if [ -n "$CPUS" ]; then
	command -v taskset >/dev/null || { echo "SKIP: GD_BENCH_CPUS needs taskset (util-linux)"; exit 77; }
	PIN="taskset -c $CPUS"
fi
GD_CHECK=$top_builddir/tools/gd_check
PORT=${GD_BENCH_PORT:-32300}
[ -x "$GD_CHECK" ] || { echo "SKIP: $GD_CHECK not built"; exit 77; }
if ! command -v fi_info >/dev/null || ! fi_info -p "$PROV" >/dev/null 2>&1; then
	echo "SKIP: libfabric's $PROV provider is not here (fi_info -p $PROV)"; exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

spec() { # FILE [RATE_GBPS]
	cat >"$1" <<EOS
version: 1
name: bench-baseline
retries: 0
tests:
  - name: bw
    op: write
    type: bw
    size: 64K
    iterations: $ITERS
    repeat: $REPEAT
    fabric: ofi
    provider: $PROV
    thresholds: {min_bw: 1 Mb/s}
EOS
	[ -z "$2" ] || printf '    rate_limit: %s Gb/s\n    rate_limit_type: SW\n' "$2" >>"$1"
}

# one SPEC NAME: one report NAME.json, host run-NAME; prints its path when the noise guard
# trusted it (every row PASSed)
one() {
	f=$tmp/$2.json
	$PIN "$GD_CHECK" -p "$PORT" --json "$1" >"$f.raw" 2>/dev/null
	python3 - "$f.raw" "$f" "run-$2" "${GD_BENCH_KEEP_DOUBTED:-0}" <<'PYEOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for r in recs:
    if r.get("type") == "check_run":
        r["host"] = sys.argv[3]
    if sys.argv[4] == "1" and r.get("type") == "check" and r["status"] == "FAIL" and \
            "should not be believed" in (r.get("message") or ""):
        r["status"] = "PASS"
open(sys.argv[2], "w").write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs))
rows = [r["status"] for r in recs if r.get("type") == "check"]
sys.exit(0 if rows and all(s == "PASS" for s in rows) else 1)
PYEOF
	# shellcheck disable=SC2181 # the here-document's python decides
	[ $? -eq 0 ] && echo "$f"
}
# values LIST: each report's measured Gb/s, in the list's order
values() {
	# shellcheck disable=SC2013 # one path a line, no blanks (mktemp)
	for r in $(cat "$1"); do python3 -c '
import json, sys
for r in map(json.loads, open(sys.argv[1])):
    if r.get("type") == "check" and r.get("unit") == "Gb/s":
        print("%.3f" % r["value"])' "$r"; done
}
# med_of: the median of the numbers on stdin, nothing for none
med_of() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# slot I N M: whether step I of N holds one of M events spread evenly over the N steps
slot() { [ $(($1 * $3 / $2)) -gt $((($1 - 1) * $3 / $2)) ]; }
# limited LOSS NAME LEVEL: one run capped at (100 - LOSS) % of LEVEL Gb/s; the trusted report's
# path to slow-LOSS, the cap to caps-LOSS
limited() {
	c=$(awk -v m="$3" -v l="$1" 'BEGIN { printf "%.4f", (1 - l / 100) * m }')
	spec "$tmp/slow.yaml" "$c"
	one "$tmp/slow.yaml" "$2" >>"$tmp/slow-$1"
	echo "$c" >>"$tmp/caps-$1"
}

# blocks: the good runs, the baseline the first B trusted, then the limited runs
collect_blocks() {
	i=1
	while [ "$i" -le $((B + G)) ]; do one "$tmp/good.yaml" "good-$i" >>"$tmp/trusted"; i=$((i + 1)); done
	head -n "$B" "$tmp/trusted" >"$tmp/base"
	tail -n +"$((B + 1))" "$tmp/trusted" >"$tmp/judged"
	lvl=$(values "$tmp/base" | med_of)
	[ -n "$lvl" ] || return 0
	for loss in $LOSSES; do
		i=1
		while [ "$i" -le "$S" ]; do limited "$loss" "slow$loss-$i" "$lvl"; i=$((i + 1)); done
	done
}
# interleave: B + G good and S limited runs (a loss) spread over max(B + G, S) steps; the B
# baseline's spread evenly over the good ones; a limited run capped below the last 3 trusted
collect_interleave() {
	n=$((B + G)) j=0 steps=$((B + G))
	[ "$S" -gt "$steps" ] && steps=$S
	: >"$tmp/recent"
	i=1
	while [ "$i" -le "$steps" ]; do
		if slot "$i" "$steps" "$n"; then
			j=$((j + 1))
			t=$(one "$tmp/good.yaml" "good-$j")
			if [ -n "$t" ]; then
				echo "$t" >>"$tmp/trusted"
				if slot "$j" "$n" "$B"; then echo "$t" >>"$tmp/base"; else echo "$t" >>"$tmp/judged"; fi
				{ tail -n 2 "$tmp/recent"; echo "$t"; } >"$tmp/recent.new" && mv "$tmp/recent.new" "$tmp/recent"
			fi
		fi
		lvl=$(values "$tmp/recent" | med_of)
		if [ -n "$lvl" ] && slot "$i" "$steps" "$S"; then
			for loss in $LOSSES; do limited "$loss" "slow$loss-$i" "$lvl"; done
		fi
		i=$((i + 1))
	done
}

spec "$tmp/good.yaml"
echo "each report: the median of $REPEAT run(s) of 64 KiB x $ITERS writes (repeat: $REPEAT), libfabric $PROV${CPUS:+, taskset -c $CPUS}"
echo "order: $ORDER"
: >"$tmp/trusted"; : >"$tmp/base"; : >"$tmp/judged"
for loss in $LOSSES; do : >"$tmp/slow-$loss"; : >"$tmp/caps-$loss"; done
t0=$(date +%s)
"collect_$ORDER"
echo "$((B + G)) good reports and $S limited ones for each loss in $(($(date +%s) - t0)) s"
nt=$(wc -l <"$tmp/trusted")
nb=$(wc -l <"$tmp/base")
[ "${GD_BENCH_KEEP_DOUBTED:-0}" = 1 ] &&
	echo "GD_BENCH_KEEP_DOUBTED=1: runs the noise guard doubted are kept (set to PASS here)"
kept=
[ "${GD_BENCH_KEEP_DOUBTED:-0}" = 1 ] && kept=" (or kept)"
echo "good runs: $((B + G)), trusted by the noise guard$kept: $nt ($nb of them the baseline's)"
if [ "$nb" -lt 3 ] || [ "$nt" -le "$nb" ]; then
	echo "false alarms: n/a (a baseline needs 3 trusted runs, and one more to judge: a host busier than its cores)"
	echo "detection of a 5 % loss: n/a"
	exit 0
fi
# the drift: the trusted good reports' median in the first and the second half of the window
values "$tmp/trusted" | awk '{ v[NR] = $1 } END { h = int(NR / 2); for (i = 1; i <= NR; i++) print (i <= h ? "a " : "b ") v[i] }' >"$tmp/halves"
d1=$(sed -n 's/^a //p' "$tmp/halves" | med_of) d2=$(sed -n 's/^b //p' "$tmp/halves" | med_of)
awk -v a="$d1" -v b="$d2" 'BEGIN { printf "drift: the good reports'"'"' median %.3f Gb/s in the first half of the window, %.3f in the second (%+.1f %%)\n", a, b, a ? 100 * (b - a) / a : 0 }'
# shellcheck disable=SC2046
"$GD_CHECK" --baseline "$tmp/golden.yaml" $(cat "$tmp/base") || exit 1
med=$(sed -n 's/^      median: //p' "$tmp/golden.yaml" | head -1)
mad=$(sed -n 's/^      mad: //p' "$tmp/golden.yaml" | head -1)
echo "baseline of $nb runs: median $med Gb/s, MAD $mad Gb/s (scaled), default k 4, spread floor 1 %"

judge() { # LIST K: prints "failed judged"; a judgement that is neither PASS nor FAIL stops it
	f=0 n=0
	# shellcheck disable=SC2013 # one path a line, no blanks (mktemp)
	for r in $(cat "$1"); do
		"$GD_CHECK" --robust-k "$2" --golden "$tmp/golden.yaml" "$r" >"$tmp/judge.out" 2>&1
		rc=$?
		[ $rc -le 1 ] || { echo "bench-baseline: judging $r: exit $rc" >&2; cat "$tmp/judge.out" >&2; exit 1; }
		[ $rc -eq 1 ] && f=$((f + 1))
		n=$((n + 1))
	done
	echo "$f $n"
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b ? 100 * a / b : 0 }'; }
# k x MAD in % of the median, the spread floor (1 % of the median) if the MAD is below it
line() { awk -v k="$1" -v m="$med" -v d="$mad" 'BEGIN { if (d < m / 100) d = m / 100; printf "%.1f", m ? 100 * k * d / m : 0 }'; }
echo "each good report's Gb/s, sorted (baseline and judged): $(values "$tmp/trusted" | sort -g | tr '\n' ' ')"
# Why a rate is met or not: the good reports' own spread against the step. With a scaled MAD of
# s % of the median, a FAIL below median - k s catches a loss of L % in 95 % of reports only when
# L >= (k + 1.645) s (the limited reports' spread taken as the good ones'); at k 2.33 a normal
# spread gives 1 % false alarms: the goal (<= 1 %, >= 95 % of a 5 % loss) needs s <= 1.26 %.
gm=$(values "$tmp/trusted" | med_of)
gmad=$(values "$tmp/trusted" | awk -v m="$gm" '{ d = $1 - m; print d < 0 ? -d : d }' | med_of)
awk -v m="$gm" -v d="$gmad" -v n="$nt" -v ks="$KS" 'BEGIN {
	s = m ? 100 * 1.4826 * d / m : 0
	printf "spread of the %d good reports: median %.3f Gb/s, scaled MAD %.3f Gb/s = %.2f %% of the median; the goal needs <= 1.26 %%", n, m, 1.4826 * d, s
	c = split(ks, k, " ")
	for (i = 1; i <= c; i++) printf "; at k %s a 95 %% catch needs a loss >= %.1f %%", k[i], (k[i] + 1.645) * s
	printf "\n" }'
# separable LIST LOSS: whatever the rule, a threshold that catches 95 % of the limited reports
# (their 95th percentile from the top) flags this share of the good reports: the least false
# alarm any threshold on this statistic can give at that catch (the two distributions' overlap)
separable() {
	{ values "$tmp/trusted" | sort -g | sed 's/^/g /'; values "$1" | sort -g | sed 's/^/s /'; } | awk -v l="$2" '
	$1 == "g" { g[++ng] = $2 } $1 == "s" { s[++ns] = $2 }
	END {
		if (!ns || !ng) exit
		t = s[int(0.95 * ns + 0.999)]   # sorted: >= 95 % of the limited at or below t
		for (i = 1; i <= ng; i++) fa += g[i] <= t
		printf "%s %% loss: any threshold catching >= 95 %% of the %d limited reports (at %.3f Gb/s) flags %d of %d good reports (%.0f %%): the least false alarm this statistic allows\n", l, ns, t, fa, ng, 100 * fa / ng }'
}
for k in $KS; do
	res=$(judge "$tmp/judged" "$k") || exit 1
	# shellcheck disable=SC2086 # two numbers
	set -- $res
	echo "k $k (FAIL below the median by more than $(line "$k") %): false alarms: $1 of $2 good runs ($(pct "$1" "$2") %)"
done
for loss in $LOSSES; do
	caps=$(sort -g "$tmp/caps-$loss" | awk '{ v[NR] = $1 } END { if (NR) printf "%s..%s Gb/s", v[1], v[NR] }')
	echo "$loss % loss: each limited report's Gb/s, sorted: $(values "$tmp/slow-$loss" | sort -g | tr '\n' ' ')"
	echo "$loss % loss: rate limits $caps; limited runs measured: median $(values "$tmp/slow-$loss" | med_of) Gb/s"
	separable "$tmp/slow-$loss" "$loss"
	for k in $KS; do
		res=$(judge "$tmp/slow-$loss" "$k") || exit 1
		# shellcheck disable=SC2086 # two numbers
		set -- $res
		echo "k $k: $loss % loss: $(wc -l <"$tmp/caps-$loss") runs, $2 trusted$kept; detected: $1 of $2 ($(pct "$1" "$2") %)"
	done
done
