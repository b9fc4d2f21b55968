# shellcheck shell=sh
# PY: the python3 the shell tests run, chosen here once: Debian's /usr/bin/python3 when it
# is there, else the first python3 on PATH. A pyenv shim first on PATH (as on the development
# machine) costs ~0.7 CPU-s per start (bash and pyenv's own scripts, and its site's imports)
# against 0.05 s for /usr/bin/python3; tests/topo/locality-agree.sh started one per fixture
# machine (35). The tests' scripts use only the standard library (json, re, sys...).
# Sourced as tests/lib/ports.sh is.
# shellcheck disable=SC2034 # PY is the sourcing script's
if [ -x /usr/bin/python3 ]; then
	PY=/usr/bin/python3
else
	PY=python3
fi
# py_first DIR: the scripts a test runs (scripts/*.sh start python3 from PATH, the user's
# choice) start $PY too: DIR/python3 is a link to it, and DIR goes first in PATH.
py_first() {
	mkdir -p "$1" && ln -sf "$(command -v "$PY")" "$1/python3" && PATH=$1:$PATH && export PATH
}
