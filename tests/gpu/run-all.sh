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
for s in "$here"/*.sh; do
	name=$(basename "$s" .sh)
	[ "$name" = run-all ] && continue
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
	case $rc in
	0) pass+=("$name") ;;
	77) skip+=("$name") ;;
	137) echo "FAIL: $name ran past 900 s"; fail+=("$name") ;;
	*) fail+=("$name") ;;
	esac
	echo "=================== $name: exit $rc"
done
echo
echo "GPU tier: ${#pass[@]} passed (${pass[*]:-}), ${#fail[@]} failed (${fail[*]:-}), ${#skip[@]} skipped (${skip[*]:-})"
[ ${#fail[@]} -eq 0 ] || exit 1
[ ${#pass[@]} -gt 0 ] || exit 77
exit 0
