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
	check "$m compact" "$dir/expected.compact" "$@"
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
expect_error "missing nvlinks" 2 "cannot open NVLink file" \
	--topology "$fx/h20/topology.xml" --nvlinks "$tmp/none.txt"
expect_error "missing topology" 2 "cannot read topology file" --topology "$tmp/none.xml"
echo '<topology>' >"$tmp/bad.xml"
expect_error "malformed topology" 2 "is not an hwloc XML topology" --topology "$tmp/bad.xml"
expect_error "bad format" 2 "expected one of compact, nvidia-smi, json" --format csv

# --export writes XML + NVLink file that replay to the same table.
"$tool" --topology "$fx/h20/topology.xml" --nvlinks "$fx/h20/nvlinks.txt" \
	--export "$tmp/exp.xml" >/dev/null 2>"$tmp/err" || fail "export: $(cat "$tmp/err")"
if "$tool" --topology "$tmp/exp.xml" --nvlinks "$tmp/exp.xml.nvlinks" >"$tmp/replay" 2>/dev/null &&
	cmp -s "$tmp/replay" "$fx/h20/expected.compact"; then
	echo "ok: export and replay"
else
	fail "export and replay differ from the H20 table"
fi

[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
exit 0
