# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The GPU tier's table of cells, one rule in one place (sourced by the tier's
# scripts; run-all.sh collects the rows and prints the table):
#   cell TOOL INITIATOR MEMORY TRANSPORT PRODUCER STATUS REASON [REQ_S] [P50_US] [COMPL_REQ_S]
# prints one machine-readable row
#   CELL|tool|initiator|memory|transport|producer|status|reason|req/s|p50 us|completion req/s
# STATUS: ran (exit 0), refused (exit 2 or 3: the tool said it cannot run
# this, REASON is its message), failed (exit 1 or a deadline), skipped (the
# script could not even try: REASON says why). A figure is "-" when none.
# TRANSPORT names the fabric and provider ("ofi/shm", "ofi/tcp", "verbs",
# "sw test double"); MEMORY is host or cuda.

cell() {
	local f=("$@") i
	for i in 7 8 9; do [ -n "${f[$i]:-}" ] || f[$i]=-; done
	# the reason is one line without the separator
	f[6]=$(printf '%s' "${f[6]}" | tr '|\n' '/ ' | cut -c1-160)
	printf 'CELL|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "${f[@]:0:10}"
}

# cell_status RC: ran, refused or failed
cell_status() {
	case $1 in
	0) echo ran ;;
	2 | 3) echo refused ;;
	*) echo failed ;;
	esac
}

# cell_reason FILE...: the first error line the tools printed, else "exit RC"
cell_reason() {
	grep -h -m1 -iE 'error|cannot|refus|not |no ' "$@" 2>/dev/null | head -1 | sed 's/^[^:]*: //'
}

# cell_json FILE KEY: a figure from the first JSON record of a tool's output
# (results.KEY of a bw record, latency.KEY of a lat record), "-" when absent
cell_json() {
	python3 - "$1" "$2" <<'EOF' 2>/dev/null || echo -
import json, sys
for line in open(sys.argv[1]):
    line = line.strip()
    if not line.startswith("{"):
        continue
    r = json.loads(line)
    for part in ("results", "latency", "local_results"):
        v = r.get(part, {}).get(sys.argv[2]) if isinstance(r.get(part), dict) else None
        if v is not None:
            print(v)
            sys.exit(0)
    v = r.get(sys.argv[2])
    if v is not None:
        print(v)
        sys.exit(0)
print("-")
EOF
}
