#!/bin/sh
# The hostile-input table test (tests/hostile/cases, run by tests/hostile/run.py).
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib/python.sh"
command -v "$PY" >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
command -v timeout >/dev/null 2>&1 || { echo "SKIP: timeout (coreutils) not installed"; exit 77; }
. "$top_srcdir/tests/lib/features.sh" # lf_features: what the tools were built with
GD_FEATURES=$(lf_features)
export GD_FEATURES
exec "$PY" "$top_srcdir/tests/hostile/run.py" "$@"
