#!/bin/sh
# The generated-spec corpus (tests/hostile/spec-corpus.py): every 8th case here;
# tests/hostile/spec-corpus.py --all runs all of them (issue 19's ASan+UBSan pass).
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib/python.sh"
command -v "$PY" >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
exec "$PY" "$top_srcdir/tests/hostile/spec-corpus.py" "$@"
