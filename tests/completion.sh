#!/bin/bash
# The bash completion reads each tool's own option table: check that
# --completion=options lists exactly the options --help prints, and that the
# installed completion script completes options, device names (from discovery
# on a fixture tree), --use_cuda values and files.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

help_opts() { grep -oE -- '^  (-[a-zA-Z], |    )--[a-zA-Z0-9_-]+' <<<"$1" | grep -oE -- '--[a-zA-Z0-9_-]+' | sort -u; }
comp_opts() { awk '$1 ~ /^--/ { print $1 }' <<<"$1" | sort -u; }

ntools=0
for tool in "$top_builddir"/tools/gd_*; do
	case $tool in *.o | *.c) continue ;; esac
	[ -x "$tool" ] && [ -f "$tool" ] || continue
	ntools=$((ntools + 1))
	# each tool's --help and --completion=options once (a start of an ASan build costs)
	help=$("$tool" --help) table=$("$tool" --completion=options)
	d=$(diff <(help_opts "$help") <(comp_opts "$table")) &&
		ok "$(basename "$tool"): --completion=options = --help" ||
		bad "$(basename "$tool"): --completion=options and --help differ: $d"
	# every short letter in --help is in the table too
	for l in $(grep -oE '^  -[a-zA-Z],' <<<"$help" | tr -d ' ,'); do
		grep -q -- "^$l " <<<"$table" || bad "$(basename "$tool"): $l missing"
	done
done
[ "$ntools" -ge 10 ] || bad "only $ntools tools found under $top_builddir/tools"

"$top_builddir/tools/gd_write_bw" --completion=bogus >/dev/null 2>&1
[ $? = 2 ] && ok "--completion=bogus is a usage error" || bad "--completion=bogus not exit 2"

# The completion script itself, as bash runs it on TAB
if ! bash -c 'type compgen' >/dev/null 2>&1; then echo "SKIP: no compgen"; exit 77; fi
root=$top_srcdir/tests/fixtures/sysfs/h20
[ -d "$root" ] || root=$(ls -d "$top_srcdir"/tests/fixtures/*/h20 2>/dev/null | head -n 1)
complete_words() { # TOOL WORD... : what TAB after the last word offers
	PATH="$top_builddir/tools:$PATH" GDPERF_SYSFS_ROOT="$root" bash -c '
		source "$1/contrib/bash-completion/gdperf"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_gdperf "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$top_srcdir" "$@"
}
expect_offer() { # WANT TOOL WORDS...
	local want=$1; shift
	if complete_words "$@" | grep -qx -- "$want"; then ok "complete '$*' offers $want"
	else bad "complete '$*' does not offer $want: $(complete_words "$@" | head -5 | tr '\n' ' ')"; fi
}
expect_offer --ib-dev gd_write_bw --ib-d
expect_offer --use_cuda gd_send_lat --use_cu
expect_offer --sysfs-root gd_devinfo --sysfs
expect_offer auto gd_write_bw --use_cuda ""
expect_offer auto gd_write_bw --use_cuda=
if [ -n "$root" ]; then
	expect_offer mlx5_bond_0 gd_write_bw -d ""
	expect_offer mlx5_bond_2 gd_devinfo --ib-dev=mlx5_bond_
fi
# the values of choices and named lists (newcomer 53: none were completed)
expect_offer ofi gd_write_bw --fabric ""
expect_offer proxy gd_write_bw --initiator=
expect_offer host gd_read_lat --producer h
expect_offer quick gd_check --suite ""
expect_offer nvidia-smi gd_topo --format n
expect_offer ofi gd_devinfo --fabric o
expect_offer cuda.driver gd_doctor --check cuda
expect_offer g gd_write_bw --rate_units ""
. "$top_srcdir/tests/lib/features.sh" # built_with
if built_with libfabric && command -v fi_info >/dev/null &&
	fi_info -p tcp >/dev/null 2>&1; then
	expect_offer tcp gd_write_bw --provider ""
	expect_offer tcp gd_devinfo --provider=t
fi
expect_offer "$top_srcdir/tests/completion.sh" gd_topo --topology "$top_srcdir/tests/completion"
exit $fail
