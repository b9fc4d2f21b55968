#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# A benchmark (not a test; it prints figures): how often gd_check's baseline judge raises a
# false alarm on a good node, and how often it catches a 5 % loss (doc/check.md, "Baseline of
# good nodes"). One machine stands in for a fleet: repeated runs of one write-bw spec over
# libfabric tcp on 127.0.0.1, each report renamed run-N (a baseline refuses one host twice).
#
#   1. B + G runs of the spec; the runs the noise guard trusted (their row PASSed) count
#   2. the first B trusted ones make the baseline (gd_check --baseline)
#   3. the other trusted good runs are judged (gd_check --golden): a FAIL is a false alarm
#   4. for each loss L of GD_BENCH_LOSS (percent, default 5), S runs with a software rate
#      limit (rate_limit, the tools' -y/--rate_limit) at (100 - L) % of the baseline median
#      are judged: a FAIL is a detection
# Steps 3 and 4 judge under each k of GD_BENCH_K (robust distances, gd_check --robust-k;
# default 4, the baseline's), with the threshold it makes in % of the median (k x MAD).
#
# GD_BENCH_REPEAT=K (default 1) judges each "node" on the median of K runs (the spec's
# repeat: K, doc/check.md "Repeated runs"): every report, the baseline's and the judged
# ones, is one gd_check of K runs. GD_BENCH_ITERS (default 5000) sets each run's iterations.
#
# Prints both rates with their counts and the runs the noise guard doubted (left out: a
# doubted figure is never a baseline's nor a verdict's); why: the good reports' spread (scaled
# MAD, % of the median) against the 1.26 % the goal needs, and for each loss the least false
# alarm that any threshold catching 95 % of the limited reports gives (their overlap). Usage:
#   scripts/bench-baseline.sh [B G S]        (default 5 10 10; GD_BENCH_PORT, default 32300)
#   GD_BENCH_LOSS='5 10' GD_BENCH_K='2 3 4' scripts/bench-baseline.sh 10 30 30
# Run from the build directory (or set top_builddir). Needs libfabric's tcp provider.
# GD_BENCH_KEEP_DOUBTED=1 keeps the runs the noise guard doubted, their rows set to PASS in the
# copies judged here (said in the output): the figures of a host busier than its cores, where
# no run is trusted; never what gd_check itself does.
: "${top_builddir:=$PWD}"
case "$1" in -h|--help) sed -n '3,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
B=${1:-5} G=${2:-10} S=${3:-10}
for n in "$B" "$G" "$S"; do
	case "$n" in ''|*[!0-9]*) echo "usage: $0 [B G S] (whole numbers, B >= 3, G and S >= 1)" >&2; exit 2 ;; esac
done
[ "$B" -ge 3 ] && [ "$G" -ge 1 ] && [ "$S" -ge 1 ] ||
	{ echo "usage: $0 [B G S]: a baseline needs B >= 3 runs; G, S >= 1" >&2; exit 2; }
LOSSES=${GD_BENCH_LOSS:-5} KS=${GD_BENCH_K:-4} REPEAT=${GD_BENCH_REPEAT:-1} ITERS=${GD_BENCH_ITERS:-5000}
case "$REPEAT:$ITERS" in *[!0-9:]*|:*|*:) bad=1 ;; *) bad=0 ;; esac
[ "$bad" = 0 ] && [ "$REPEAT" -ge 1 ] && [ "$REPEAT" -le 25 ] && [ "$ITERS" -ge 1 ] ||
	{ echo "usage: GD_BENCH_REPEAT is a whole number from 1 to 25 (the spec's repeat), GD_BENCH_ITERS one from 1" >&2; exit 2; }
for n in $LOSSES $KS; do
	case "$n" in ''|*[!0-9.]*|*.*.*|.*|*.) echo "usage: GD_BENCH_LOSS and GD_BENCH_K are lists of decimal numbers (a loss in % below 100, k from 1 to 20)" >&2; exit 2 ;; esac
done
GD_CHECK=$top_builddir/tools/gd_check
PORT=${GD_BENCH_PORT:-32300}
[ -x "$GD_CHECK" ] || { echo "SKIP: $GD_CHECK not built"; exit 77; }
if ! command -v fi_info >/dev/null || ! fi_info -p tcp >/dev/null 2>&1; then
	echo "SKIP: libfabric's tcp provider is not here (fi_info -p tcp)"; exit 77
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
    provider: tcp
    thresholds: {min_bw: 1 Mb/s}
EOS
	[ -z "$2" ] || printf '    rate_limit: %s Gb/s\n    rate_limit_type: SW\n' "$2" >>"$1"
}

# runs SPEC PREFIX COUNT: reports PREFIX-N.json, host run-PREFIX-N; prints the trusted ones
runs() {
	i=1
	while [ "$i" -le "$3" ]; do
		f=$tmp/$2-$i.json
		"$GD_CHECK" -p "$PORT" --json "$1" >"$f.raw" 2>/dev/null
		python3 - "$f.raw" "$f" "run-$2-$i" "${GD_BENCH_KEEP_DOUBTED:-0}" <<'PYEOF'
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
		i=$((i + 1))
	done
}

spec "$tmp/good.yaml"
echo "each report: the median of $REPEAT run(s) of 64 KiB x $ITERS writes (repeat: $REPEAT)"
t0=$(date +%s)
runs "$tmp/good.yaml" good $((B + G)) >"$tmp/trusted"
echo "$((B + G)) good reports in $(($(date +%s) - t0)) s"
nt=$(wc -l <"$tmp/trusted")
[ "${GD_BENCH_KEEP_DOUBTED:-0}" = 1 ] &&
	echo "GD_BENCH_KEEP_DOUBTED=1: runs the noise guard doubted are kept (set to PASS here)"
kept=
[ "${GD_BENCH_KEEP_DOUBTED:-0}" = 1 ] && kept=" (or kept)"
echo "good runs: $((B + G)), trusted by the noise guard$kept: $nt"
if [ "$nt" -lt $((B + 1)) ]; then
	echo "false alarms: n/a (fewer than $((B + 1)) trusted runs: a host busier than its cores)"
	echo "detection of a 5 % loss: n/a"
	exit 0
fi
# shellcheck disable=SC2046
"$GD_CHECK" --baseline "$tmp/golden.yaml" $(head -n "$B" "$tmp/trusted") || exit 1
med=$(sed -n 's/^      median: //p' "$tmp/golden.yaml" | head -1)
mad=$(sed -n 's/^      mad: //p' "$tmp/golden.yaml" | head -1)
echo "baseline of $B runs: median $med Gb/s, MAD $mad Gb/s (scaled), default k 4, spread floor 1 %"

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
tail -n +"$((B + 1))" "$tmp/trusted" >"$tmp/judged"
# values LIST: each report's measured Gb/s, sorted (the distribution, not only its median and MAD)
values() {
	# shellcheck disable=SC2013 # one path a line, no blanks (mktemp)
	for r in $(cat "$1"); do python3 -c '
import json, sys
for r in map(json.loads, open(sys.argv[1])):
    if r.get("type") == "check" and r.get("unit") == "Gb/s":
        print("%.3f" % r["value"])' "$r"; done | sort -g
}
echo "each good report's Gb/s, sorted (baseline and judged): $(values "$tmp/trusted" | tr '\n' ' ')"
# Why a rate is met or not: the good reports' own spread against the step. With a scaled MAD of
# s % of the median, a FAIL below median - k s catches a loss of L % in 95 % of reports only when
# L >= (k + 1.645) s (the limited reports' spread taken as the good ones'); at k 2.33 a normal
# spread gives 1 % false alarms: the goal (<= 1 %, >= 95 % of a 5 % loss) needs s <= 1.26 %.
med_of() { awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; } # sorted input
gm=$(values "$tmp/trusted" | med_of)
gmad=$(values "$tmp/trusted" | awk -v m="$gm" '{ d = $1 - m; print d < 0 ? -d : d }' | sort -g | med_of)
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
	{ values "$tmp/trusted" | sed 's/^/g /'; values "$1" | sed 's/^/s /'; } | awk -v l="$2" '
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
	rate=$(awk -v m="$med" -v l="$loss" 'BEGIN { printf "%.4f", (1 - l / 100) * m }')
	spec "$tmp/slow.yaml" "$rate"
	runs "$tmp/slow.yaml" "slow$loss" "$S" >"$tmp/slow"
	# the limited runs' median, measured
	# shellcheck disable=SC2013 # one path a line, no blanks (mktemp)
	smed=$(values "$tmp/slow" | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-" }')
	echo "$loss % loss: each limited report's Gb/s, sorted: $(values "$tmp/slow" | tr '\n' ' ')"
	echo "$loss % loss: limited runs measured: median $smed Gb/s"
	separable "$tmp/slow" "$loss"
	for k in $KS; do
		res=$(judge "$tmp/slow" "$k") || exit 1
		# shellcheck disable=SC2086 # two numbers
		set -- $res
		echo "k $k: $loss % loss (rate limit $rate Gb/s): $S runs, $2 trusted$kept; detected: $1 of $2 ($(pct "$1" "$2") %)"
	done
done
