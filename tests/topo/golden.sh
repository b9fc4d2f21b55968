#!/bin/sh
# gd_topo on every machine under tests/fixtures/topo/: each output format must
# equal its golden file byte for byte (cmp). GD_UPDATE_GOLDEN=1 rewrites them.
# Also: the H20 table of the design documents, the 2xH200 nvidia-smi capture,
# and clear errors for malformed inputs.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
tool="$top_builddir/tools/gd_topo"
fx="$top_srcdir/tests/fixtures/topo"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

check() { # name golden-file args...
	name=$1 golden=$2
	shift 2
	"$tool" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$name: exit $rc: $(cat "$tmp/err")"
		return
	fi
	case $golden in # references from real machines and the design documents
	*/h20/expected.compact | *.raw) ref=1 ;; # never rewritten
	*) ref=0 ;;
	esac
	if [ "${GD_UPDATE_GOLDEN:-0}" = 1 ] && [ $ref = 0 ]; then
		cp "$tmp/out" "$golden"
		echo "updated $golden"
	elif ! cmp -s "$tmp/out" "$golden"; then
		fail "$name differs from $golden:"
		diff "$golden" "$tmp/out" | head -20
	else
		echo "ok: $name"
	fi
}

for dir in "$fx"/*/; do
	m=$(basename "$dir")
	if [ -f "$dir/args" ]; then # a machine made of other fixtures (@srcdir@: top_srcdir)
		# shellcheck disable=SC2046
		set -- $(sed "s|@srcdir@|$top_srcdir|g" "$dir/args")
	elif [ -f "$dir/topology.xml" ]; then
		set -- --topology "$dir/topology.xml"
		[ -f "$dir/nvlinks.txt" ] && set -- "$@" --nvlinks "$dir/nvlinks.txt"
		[ -d "$dir/sysfs" ] && set -- "$@" --sysfs-root "$dir/sysfs"
	else
		continue
	fi
	check "$m compact" "$dir/expected.compact" "$@" --format compact
	check "$m table" "$dir/expected.table" "$@"
	check "$m nvidia-smi" "$dir/expected.nvsmi" "$@" --format nvidia-smi
	check "$m json" "$dir/expected.json" "$@" --json
	check "$m advice" "$dir/expected.advice" "$@" --advice
	check "$m pci-only" "$dir/expected.pci-only" "$@" --pci-only
	# captures of nvidia-smi on the machine the fixture was exported from
	[ -f "$dir/nvidia-smi-topo-m.raw" ] &&
		check "$m vs nvidia-smi topo -m" "$dir/nvidia-smi-topo-m.raw" "$@" --format nvidia-smi
	[ -f "$dir/nvidia-smi-topo-mp.raw" ] &&
		check "$m vs nvidia-smi topo -mp" "$dir/nvidia-smi-topo-mp.raw" "$@" --format nvidia-smi --pci-only
done

# The real capture: nvidia-smi topo -m on a 2xH200 VM, every byte.
check "2xH200 capture" "$fx/nvidia-smi-topo-m-2xH200.raw" \
	--topology "$fx/vm-2xh200/topology.xml" --nvlinks "$fx/vm-2xh200/nvlinks.txt" --format nvidia-smi

expect_error() { # name expected-rc stderr-pattern args...
	name=$1 want=$2 pat=$3
	shift 3
	"$tool" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne "$want" ]; then
		fail "$name: exit $rc, expected $want"
	elif ! grep -q -- "$pat" "$tmp/err"; then
		fail "$name: stderr lacks '$pat': $(cat "$tmp/err")"
	else
		echo "ok: $name"
	fi
}

printf '0000:18:00.0 FFFFFFFF:FF:FF.0 18\n# fine\n0000:2a:00.0 FFFFFFFF:FF:FF.0\n' >"$tmp/bad.txt"
expect_error "malformed nvlinks" 2 "bad.txt:3: 2 fields" \
	--topology "$fx/h20/topology.xml" --nvlinks "$tmp/bad.txt"
expect_error "missing nvlinks" 2 "cannot read NVLink file" \
	--topology "$fx/h20/topology.xml" --nvlinks "$tmp/none.txt"
expect_error "missing topology" 2 "cannot read topology file" --topology "$tmp/none.xml"
echo '<topology>' >"$tmp/bad.xml"
expect_error "malformed topology" 2 "is not an hwloc XML topology" --topology "$tmp/bad.xml"
expect_error "bad format" 2 "expected one of compact, nvidia-smi, json" --format csv

# Bad inputs: a usage error (2) naming the cause, nothing on stdout for a JSON reader.
expect_error "missing sysfs root" 2 "sysfs-root $tmp/none: No such file or directory; give a directory" \
	--sysfs-root "$tmp/none" --json
[ -s "$tmp/out" ] && fail "missing sysfs root: stdout is not empty"
expect_error "sysfs root is a file" 2 "Not a directory" --sysfs-root "$tmp/bad.xml"
GDPERF_SYSFS_ROOT="$tmp/none" expect_error "missing GDPERF_SYSFS_ROOT" 2 "GDPERF_SYSFS_ROOT=$tmp/none: No such file"
: >"$tmp/empty.xml"
expect_error "empty topology" 2 "is not an hwloc XML topology" --topology "$tmp/empty.xml" --json
[ -s "$tmp/out" ] && fail "empty topology: stdout is not empty"
echo '<?xml version="1.0"?><foo/>' >"$tmp/foo.xml"
expect_error "XML but not a topology" 2 "foo.xml: Invalid argument; is it an hwloc XML topology? (make one with" \
	--topology "$tmp/foo.xml"
mkdir "$tmp/dir"
expect_error "topology is a directory" 2 "Is a directory" --topology "$tmp/dir"
expect_error "nvlinks is a directory" 2 "cannot read NVLink file $tmp/dir: Is a directory; expected text lines" \
	--topology "$fx/h20/topology.xml" --nvlinks "$tmp/dir"
printf '0000:18:00.0\0\377\376 FFFFFFFF:FF:FF.0 18\n' >"$tmp/binary.txt"
expect_error "binary nvlinks" 2 "not a text file (NUL byte); expected text lines" \
	--topology "$fx/h20/topology.xml" --nvlinks "$tmp/binary.txt" --json
[ -s "$tmp/out" ] && fail "binary nvlinks: stdout is not empty"
printf 'zz:yy 0000:2a:00.0 x\n' >"$tmp/garbage.txt"
expect_error "garbage nvlinks" 2 "garbage.txt:1:" --topology "$fx/h20/topology.xml" --nvlinks "$tmp/garbage.txt"

# A sysfs-only root (devinfo's fixture trees have no sys/devices/system/cpu):
# no hwloc noise, one gdperf warning, N/A affinities instead of this host's CPUs,
# and GDPERF_SYSFS_ROOT reaches hwloc just as --sysfs-root does.
sysfs_h20="$top_srcdir/tests/fixtures/sysfs/h20"
"$tool" --sysfs-root "$sysfs_h20" --format compact >"$tmp/opt.out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] || grep -q "^\\[hwloc" "$tmp/err" || ! grep -q "has no sys/devices/system/cpu" "$tmp/err"; then
	fail "sysfs-only root: exit $rc, stderr: $(head -3 "$tmp/err")"
elif ! grep -q '^GPU0 X .* N/A N/A N/A$' "$tmp/opt.out" || ! grep -q '^NIC3 .* X$' "$tmp/opt.out"; then
	fail "sysfs-only root: expected GPU0 with N/A affinities and NIC3: $(cat "$tmp/opt.out")"
else
	echo "ok: sysfs-only root"
fi
GDPERF_SYSFS_ROOT="$sysfs_h20" "$tool" --format compact >"$tmp/env.out" 2>/dev/null
if cmp -s "$tmp/opt.out" "$tmp/env.out"; then
	echo "ok: GDPERF_SYSFS_ROOT same as --sysfs-root"
else
	fail "GDPERF_SYSFS_ROOT differs from --sysfs-root:"
	diff "$tmp/opt.out" "$tmp/env.out" | head -10
fi

# A malformed RDMA tree still gives a table, and a warning pointing at gd_devinfo.
"$tool" --sysfs-root "$top_srcdir/tests/fixtures/sysfs/broken" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "^NIC1 " "$tmp/out" && grep -q "missing or malformed.*gd_devinfo" "$tmp/err"; then
	echo "ok: broken RDMA tree"
else
	fail "broken RDMA tree: exit $rc: $(cat "$tmp/err")"
fi

# Nothing to show is the environment's fault (3), with the fix; --export still writes.
expect_error "no GPU and no NIC" 3 "no NVIDIA GPU and no RDMA device under .*empty: nothing to show" \
	--sysfs-root "$top_srcdir/tests/fixtures/sysfs/empty" --json
# stdout: one topo_summary record saying so (newcomer 11: there was none; this assertion
# said stdout was empty before)
[ "$(wc -l <"$tmp/out")" = 1 ] && grep -q '"type":"topo_summary","gpus":0,"nics":0' "$tmp/out" ||
	fail "no GPU and no NIC: stdout is not one topo_summary record: $(cat "$tmp/out")"
grep -q "load the GPU and NIC drivers" "$tmp/err" || fail "no GPU and no NIC: no fix named"

# A report that cannot be written is exit 3 with a message, not a silent 0.
if [ -w /dev/full ]; then
	for fmt in compact json; do
		"$tool" --topology "$fx/h20/topology.xml" --format $fmt >/dev/full 2>"$tmp/err"
		rc=$?
		if [ $rc -ne 3 ] || ! grep -q "cannot write the report to standard output" "$tmp/err"; then
			fail "full disk ($fmt): exit $rc: $(cat "$tmp/err")"
		else
			echo "ok: full disk ($fmt)"
		fi
	done
fi

# --export writes XML + NVLink file that replay to the same table.
"$tool" --topology "$fx/h20/topology.xml" --nvlinks "$fx/h20/nvlinks.txt" \
	--export "$tmp/exp.xml" >/dev/null 2>"$tmp/err" || fail "export: $(cat "$tmp/err")"
if "$tool" --topology "$tmp/exp.xml" --nvlinks "$tmp/exp.xml.nvlinks" --format compact >"$tmp/replay" 2>/dev/null &&
	cmp -s "$tmp/replay" "$fx/h20/expected.compact"; then
	echo "ok: export and replay"
else
	fail "export and replay differ from the H20 table"
fi

[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
exit 0
