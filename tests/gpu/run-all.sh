#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The GPU tier in one command: every tests/gpu/*.sh (this one aside), from a
# build tree or from the folder `make gpu-pack` makes (same layout: tools/,
# tests/gpu/, and lib/ with the shared libraries the GPU machine lacks).
#   tests/gpu/run-all.sh            (build tree or packed folder)
#   tests/gpu/run-all.sh NAME...    only these scripts (e.g. ibgda-tool)
#   GD_RESULTS=DIR tests/gpu/run-all.sh   also keep each script's log in DIR
#                                         (default: $OUT when set, else none)
# Each script is bounded (timeout 900 s). Exit 0 when none failed, 1 when
# one failed, 77 when every script skipped (no GPU here).
# At the end: the table of cells, one row per tool x initiator x memory x
# transport (fabric/provider) x producer with ran/refused/failed/skipped, the
# reason and the figures (requests/s, put+quiet p50, completion rate). The
# scripts print the rows (tests/gpu/cells.bash); a script that prints none
# gets one row of its own. Also kept as cells.tsv in the results folder.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export top_builddir="${top_builddir:-$root}" top_srcdir="${top_srcdir:-$root}"
if [ -d "$root/lib" ]; then
	export LD_LIBRARY_PATH="$root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
results=${GD_RESULTS:-${OUT:-}}
[ -n "$results" ] && mkdir -p "$results"
work=$(mktemp -d /tmp/gd-gpu.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99

echo "gdperf GPU tier: $(date -u +%FT%TZ) on $(hostname)"
echo "tree: $root"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>&1 | sed 's/^/  /'
if [ -n "${LD_LIBRARY_PATH:-}" ]; then echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"; fi
missing=$(ldd "$root"/tools/gd_* "$root"/tests/gpu/gd_* 2>/dev/null | grep 'not found' | sort -u)
if [ -n "$missing" ]; then echo "WARNING: missing shared libraries:"; echo "$missing"; fi

pass=() fail=() skip=()
declare -A rcs
for s in "$here"/*.sh; do
	name=$(basename "$s" .sh)
	[ "$name" = run-all ] && continue
	rcs[$name]=
	if [ $# -gt 0 ]; then
		case " $* " in *" $name "*) ;; *) continue ;; esac
	fi
	echo
	echo "=================== $name"
	log=$work/$name.log
	timeout -s KILL 900 bash "$s" > >(tee "$log") 2>&1
	rc=$?
	sleep 0.2 # let tee finish
	[ -n "$results" ] && cp "$log" "$results/$name.log"
	rcs[$name]=$rc
	case $rc in
	0) pass+=("$name") ;;
	77) skip+=("$name") ;;
	137) echo "FAIL: $name ran past 900 s"; fail+=("$name") ;;
	*) fail+=("$name") ;;
	esac
	echo "=================== $name: exit $rc"
done
# the table: every script's rows, or one row for a script that printed none
. "$here/cells.bash"
{
	for name in "${!rcs[@]}"; do
		[ -n "${rcs[$name]}" ] || continue
		if ! grep -q '^CELL|' "$work/$name.log"; then
			case ${rcs[$name]} in 0) st=ran ;; 77) st=skipped ;; *) st=failed ;; esac
			cell "$name.sh" - - - - "$st" "script exit ${rcs[$name]}, no cells of its own" \
				>>"$work/$name.log"
		fi
		grep -h '^CELL|' "$work/$name.log"
	done
} | sort -t'|' -k2,2 -k3,3 -k6,6 -k5,5 -k4,4 >"$work/cells"
echo
echo "=================== the GPU tier as a table of cells"
awk -F'|' 'BEGIN { fmt = "%-16s %-11s %-6s %-15s %-5s %-8s %12s %9s %12s  %s\n"
	printf fmt, "tool", "initiator", "memory", "transport", "prod", "status", "req/s", "p50_us",
		"compl_req/s", "reason" }
	{ printf fmt, $2, $3, $4, $5, $6, $7, $9, $10, $11, $8; n[$7]++ }
	END { printf "cells: %d ran, %d refused, %d failed, %d skipped\n", n["ran"], n["refused"],
		n["failed"], n["skipped"] }' "$work/cells"
[ -n "$results" ] && tr '|' '\t' <"$work/cells" | cut -f2- >"$results/cells.tsv"
echo
echo "GPU tier: ${#pass[@]} passed (${pass[*]:-}), ${#fail[@]} failed (${fail[*]:-}), ${#skip[@]} skipped (${skip[*]:-})"
[ ${#fail[@]} -eq 0 ] || exit 1
[ ${#pass[@]} -gt 0 ] || exit 77
exit 0
