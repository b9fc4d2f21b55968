#!/bin/bash
# Every tool's --help and its man page list the same long options.
# A tool without a man page, or an option in one but not the other, fails.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
status=0 checked=0

help_opts() { "$1" --help 2>&1 | grep -oE -- '--[a-zA-Z0-9][a-zA-Z0-9_-]*' | sort -u; }
man_page() { # follow ".so" redirections and symbolic links (the bench family's names)
	local page=$top_srcdir/man/$1.1 target
	[ -f "$page" ] || return 1
	target=$(sed -n 's/^\.so *\(man1\/\)\{0,1\}//p' "$page" | head -n 1)
	[ -n "$target" ] && page=$top_srcdir/man/$(basename "$target")
	page=$(readlink -f "$page")
	# a tarball carries the family's alias pages as copies (make dist copies what a link
	# points to): a page is the one its .TH names
	target=$(sed -n 's/^\.TH "\{0,1\}\([A-Za-z0-9_]*\).*/\1/p' "$page" | head -n 1 | tr 'A-Z' 'a-z')
	[ -n "$target" ] && [ -f "$top_srcdir/man/$target.1" ] && page=$(readlink -f "$top_srcdir/man/$target.1")
	echo "$page"
}
man_opts() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$1" | grep -oE -- '--[a-zA-Z0-9][a-zA-Z0-9_-]*' | sort -u; }
# Short options: --help's "-X, --long" entries, and the page's option headings (the
# tag line after a .TP that starts with an option: "\-V" standing alone, not
# "\-\-long"; perftest's flags quoted in prose are not headings).
help_shorts() { "$1" --help 2>&1 | grep -oE -- '(^|[[:space:]])-[a-zA-Z0-9],' | tr -d ' ,\t' | sort -u; }
man_shorts() {
	awk 'tp && /^\.(B|BR|BI) \\-/ { print } { tp = /^\.TP/ }' "$1" |
		grep -oE -- '(^|[ "])\\-[a-zA-Z0-9]($|[ "])' | tr -d ' "\\' | sort -u
}

# A page may cover a family of tools (".so" links): each tool's options must be
# on the page, and every option on the page must be in some tool's --help.
declare -A union shorts
for tool in "$top_builddir"/tools/gd_*; do
	[ -x "$tool" ] && [ ! -d "$tool" ] || continue
	case $tool in *.o|*.c) continue ;; esac
	name=$(basename "$tool")
	checked=$((checked + 1))
	if ! page=$(man_page "$name"); then
		echo "FAIL: $name has no man page man/$name.1"; status=1; continue
	fi
	only_help=$(comm -23 <(help_opts "$tool") <(man_opts "$page"))
	if [ -n "$only_help" ]; then
		echo "FAIL: $name --help lists options missing from $(basename "$page"):" $only_help; status=1
	fi
	union[$page]+="$(help_opts "$tool")"$'\n'
	shorts[$page]+="$(help_shorts "$tool")"$'\n'
done
for page in "${!union[@]}"; do
	only_man=$(comm -13 <(printf '%s' "${union[$page]}" | grep . | sort -u) <(man_opts "$page"))
	if [ -n "$only_man" ]; then
		echo "FAIL: $(basename "$page") documents options no tool's --help lists:" $only_man; status=1
	fi
	# a short option on the page that no tool of the page takes (gd_check -V was)
	only_man=$(comm -13 <(printf '%s' "${shorts[$page]}" | grep . | sort -u) <(man_shorts "$page"))
	if [ -n "$only_man" ]; then
		echo "FAIL: $(basename "$page") lists short options no tool's --help has:" $only_man; status=1
	fi
done
[ $checked = 0 ] && { echo "SKIP: no tools built"; exit 77; }
echo "checked $checked tools"
exit $status
