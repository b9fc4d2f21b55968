#!/bin/sh
# gd_check's pairs: all-nics on the 8x H20 fixture (--dry-run: the plan): one run per NIC,
# all four together; with memory: gpu each NIC from its nearest GPU (the PIX one of the GPUs
# whose nearest NIC it is), with host memory on the NIC's own NUMA node. A spec that gives
# all-nics what it cannot judge (latency, a sweep, a % pcie threshold) is exit 2 with
# FILE:LINE:COLUMN; retries load as for any test (the test's key or the spec's, 0 to 5: the
# whole run again, every NIC together; tests/unit/test_check_allnics.c runs the attempts).
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fx="--topology $H20_XML --sysfs-root $H20_SYSFS"

printf 'version: 1\ntests:\n  - {name: all, op: write, size: 1M, duration: 2s, memory: gpu, pairs: all-nics, thresholds: {min_bw: 70%% line}}\n' >"$tmp/gpu.yaml"
# shellcheck disable=SC2086
"$GD_CHECK" --dry-run $fx "$tmp/gpu.yaml" >"$tmp/gpu" 2>&1
cat "$tmp/gpu"
grep -q "^4 run(s); nothing was run" "$tmp/gpu" && ok "memory gpu: 4 runs, one per NIC" || fail "gpu: run count"
for p in "mlx5_bond_0 GPU1" "mlx5_bond_1 GPU3" "mlx5_bond_2 GPU4" "mlx5_bond_3 GPU6"; do
	grep -q "^all  *$p  *PIX " "$tmp/gpu" && ok "$p: its nearest GPU (PIX)" || fail "$p not planned"
done

printf 'version: 1\ntests:\n  - {name: all, op: write, size: 1M, duration: 2s, pairs: all-nics}\n' >"$tmp/host.yaml"
# shellcheck disable=SC2086
"$GD_CHECK" --dry-run $fx "$tmp/host.yaml" >"$tmp/host" 2>&1
cat "$tmp/host"
grep -q "^all  *mlx5_bond_0 host(node0)  *NODE .*--pin_cores 0-47" "$tmp/host" &&
	grep -q "^all  *mlx5_bond_3 host(node1)  *NODE .*--pin_cores 48-95" "$tmp/host" &&
	ok "memory host: each NIC from host memory on its own NUMA node, pinned there" ||
	fail "host memory rows"

for bad in "type: lat, max_lat: 10 us" "sweep: [4K, 1M]" "thresholds: {min_bw: 80% pcie}"; do
	printf 'version: 1\ntests:\n  - name: all\n    op: write\n    pairs: all-nics\n    %s\n' \
		"$(echo "$bad" | sed 's/, max_lat: 10 us/\n    thresholds: {max_lat: 10 us}/')" >"$tmp/bad.yaml"
	"$GD_CHECK" --dry-run "$tmp/bad.yaml" >"$tmp/out" 2>&1
	rc=$?
	[ $rc -eq 2 ] && grep -q "bad.yaml:6:[0-9]*: .*all-nics" "$tmp/out" &&
		ok "all-nics with '$bad': exit 2, FILE:LINE:COLUMN" ||
		{ fail "all-nics with '$bad': exit $rc"; cat "$tmp/bad.yaml" "$tmp/out"; }
done
# retries: the test's key and the spec's load (the plan is the same 4 runs); out of range
# is exit 2 as for any test
for top in "" "retries: 3"; do
	for key in "" "retries: 1" "retries: 0"; do
		{
			[ -n "$top" ] && echo "$top"
			printf 'tests:\n  - name: all\n    op: write\n    pairs: all-nics\n'
			printf '    thresholds: {min_bw: 70%% line}\n'
			[ -n "$key" ] && printf '    %s\n' "$key"
		} >"$tmp/retries.yaml"
		# shellcheck disable=SC2086
		"$GD_CHECK" --dry-run $fx "$tmp/retries.yaml" >"$tmp/out" 2>&1
		rc=$?
		[ $rc -eq 0 ] && grep -q "^4 run(s); nothing was run" "$tmp/out" &&
			ok "all-nics with '${top:-no spec retries}' '${key:-no test retries}': loads, 4 runs" ||
			{ fail "all-nics '$top' '$key': exit $rc"; cat "$tmp/retries.yaml" "$tmp/out"; }
	done
done
printf 'version: 1\ntests:\n  - name: all\n    op: write\n    pairs: all-nics\n    retries: 6\n' \
	>"$tmp/bad.yaml"
"$GD_CHECK" --dry-run "$tmp/bad.yaml" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "bad.yaml:6:14: retries must be a whole number from 0 to 5, not '6'" "$tmp/out" &&
	ok "all-nics with 'retries: 6': exit 2, out of range as for any test" ||
	{ fail "all-nics retries 6: exit $rc"; cat "$tmp/out"; }
finish
