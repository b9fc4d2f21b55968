#!/bin/bash
# s36's third call: proxy-ofi.sh of the final pack (the 64 KiB rule), its log
# as one tarball in $OUT.
set -u
O=${OUT:-/tmp/out}
mkdir -p "$O/tier3"
t0=$(date +%s)
GD_RESULTS=$O/tier3 timeout -s KILL 280 gdperf-gpu/tests/gpu/run-all.sh proxy-ofi >"$O/tier3/tier.txt" 2>&1
echo "proxy-ofi: exit $? in $(( $(date +%s) - t0 )) s"
tar -C "$O" -czf "$O/tier3.tgz" tier3 && rm -rf "$O/tier3"
tar -xzOf "$O/tier3.tgz" tier3/tier.txt | grep -E '(cuda +ofi/shm +gpu)|FAIL|^cells|^GPU tier'
