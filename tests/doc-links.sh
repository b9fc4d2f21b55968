#!/bin/bash
# Every relative link of the Markdown docs and every path of the tree a doc or a man
# page names exists, and no doc names a path of one machine (tests/doc_links.py).
# The docs describe the repository: a release tarball carries only some of them and
# of the files they name, so outside a git checkout this is skipped.
set -u
: "${top_srcdir:=.}"
. "$top_srcdir/tests/lib/python.sh"
command -v "$PY" > /dev/null || { echo "SKIP: no python3"; exit 77; }
[ -e "$top_srcdir/.git" ] || { echo "SKIP: $top_srcdir is not a git checkout (a release tarball)"; exit 77; }
"$PY" "$top_srcdir/tests/doc_links.py" "$top_srcdir"
