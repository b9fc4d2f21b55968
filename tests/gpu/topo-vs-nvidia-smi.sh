#!/bin/sh
# On a GPU machine: the GPU rows (and the header) of `gd_topo --format nvidia-smi`
# must equal `nvidia-smi topo -m` byte for byte; likewise `-p` against `topo -mp`.
# Usage: topo-vs-nvidia-smi.sh [GD_TOPO] ; exits 77 (skip) without nvidia-smi.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tool=${1:-${GD_TOPO:-}}
if [ -z "$tool" ]; then
	for c in "${top_builddir:-}/tools/gd_topo" "$here/gd_topo" "$here/../../tools/gd_topo"; do
		[ -x "$c" ] && { tool=$c; break; }
	done
fi
command -v nvidia-smi >/dev/null 2>&1 || { echo "SKIP: no nvidia-smi"; exit 77; }
[ -n "$tool" ] && [ -x "$tool" ] || { echo "FAIL: gd_topo not found (pass its path)"; exit 1; }
nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: nvidia-smi finds no GPU"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0

gpu_rows() { # the header line and the GPU rows
	awk 'NR == 1 || /^GPU[0-9]/' "$1"
}

compare() { # label nvidia-smi-args gd_topo-args
	label=$1
	nvidia-smi topo $2 >"$tmp/nvsmi" 2>"$tmp/nvsmi.err" || {
		echo "FAIL: nvidia-smi topo $2: $(cat "$tmp/nvsmi.err")"; fails=$((fails + 1)); return; }
	# shellcheck disable=SC2086
	"$tool" --format nvidia-smi $3 >"$tmp/gd" 2>"$tmp/gd.err" || {
		echo "FAIL: gd_topo $3: $(cat "$tmp/gd.err")"; fails=$((fails + 1)); return; }
	gpu_rows "$tmp/nvsmi" >"$tmp/nvsmi.rows"
	gpu_rows "$tmp/gd" >"$tmp/gd.rows"
	if cmp -s "$tmp/nvsmi.rows" "$tmp/gd.rows"; then
		echo "ok: $label: header and $(($(wc -l <"$tmp/gd.rows") - 1)) GPU row(s) identical"
	else
		echo "FAIL: $label: GPU rows differ (cat -A; nvidia-smi first, then gd_topo)"
		cat -A "$tmp/nvsmi.rows"
		echo "--"
		cat -A "$tmp/gd.rows"
		fails=$((fails + 1))
	fi
	if cmp -s "$tmp/nvsmi" "$tmp/gd"; then
		echo "ok: $label: whole output identical ($(wc -c <"$tmp/gd") bytes)"
	else
		echo "note: $label: whole output differs (NIC rows or legends):"
		diff "$tmp/nvsmi" "$tmp/gd" | cat -A | head -20
	fi
}

compare "topo -m" "-m" ""
compare "topo -mp" "-mp" "--pci-only"
[ $fails -eq 0 ] || exit 1
exit 0
