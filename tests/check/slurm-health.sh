#!/bin/bash
# contrib/slurm/gd-healthcheck as the HealthCheckProgram of a real one-node Slurm cluster
# (Debian's slurmctld and slurmd on this host, tests/vm/slurm-lib.sh): a node whose gd_check
# FAILs is drained with a reason naming the rung and the check; a passing node is not; a node
# that gdperf drained is resumed when it passes again, and a drain of someone else's is left.
# gd_check judges the H20 fixture tree (--sysfs-root, -t) against a spec that expects 8 GPUs
# (the fixture has 8) or 9 (a GPU missing).
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: slurmd runs as root here"; exit 77; }
command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v scontrol >/dev/null ||
	{ echo "SKIP: no slurmctld/slurmd (apt-get install slurmctld slurmd slurm-client)"; exit 77; }
pgrep -x slurmctld >/dev/null && { echo "SKIP: a slurmctld already runs on this host"; exit 77; }
. "$top_srcdir/tests/vm/slurm-lib.sh"
HC=$top_srcdir/contrib/slurm/gd-healthcheck
tmp=$(mktemp -d) || exit 99
trap 'slurm_stop; rm -rf "$tmp"' EXIT
node=$(hostname)
printf 'version: 1\ntopology: {gpus: 8}\n' >"$tmp/spec.yaml"
# the program slurmd runs (no arguments): gd-healthcheck on the fixture with $tmp/spec.yaml
# (slurmd gives it no SLURM_CONF: this cluster's slurm.conf is not at the default path)
cat >"$tmp/hc" <<HC
#!/bin/sh
export SLURM_CONF='$tmp/slurm/slurm.conf'
echo ran >>'$tmp/ran'
GD_CHECK='$GD_CHECK' exec '$HC' --node '$node' -- --sysfs-root '$H20_SYSFS' -t '$H20_XML' '$tmp/spec.yaml'
HC
chmod +x "$tmp/hc"
# the node's state and reason, as sinfo prints them
state() { sinfo -h -N -n "$node" -o '%T|%E' 2>/dev/null; }
# wait_state PATTERN: until the state matches (grep -E), 40 s at most; 0 or 1
wait_state() {
	local end=$((SECONDS + 40))
	until state | grep -Eq "$1"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 1
	done
}
SLURM_EXTRA_CONF="HealthCheckProgram=$tmp/hc
HealthCheckInterval=2
HealthCheckNodeState=ANY"
slurm_start "$tmp/slurm" || { fail "slurm did not start"; finish; }
sleep 5 # a few health checks on a good node
[ "$(wc -l <"$tmp/ran" 2>/dev/null || echo 0)" -ge 2 ] && state | grep -Eq '^(idle|mixed)\|' &&
	ok "a passing node stays up after $(wc -l <"$tmp/ran") health checks: $(state)" ||
	fail "a passing node: $(state)"
printf 'version: 1\ntopology: {gpus: 9}\n' >"$tmp/spec.yaml"
wait_state '^drain.*\|gdperf: rung 3 \(topology\) gpus: measured 8, expected == 9' &&
	ok "a FAILing node is drained with the rung and the check: $(state)" ||
	fail "a FAILing node: $(state)"
printf 'version: 1\ntopology: {gpus: 8}\n' >"$tmp/spec.yaml"
wait_state '^(idle|mixed)\|' && ok "the node gdperf drained is resumed once it passes: $(state)" ||
	fail "resume after a pass: $(state)"
scontrol update nodename="$node" state=drain reason="maintenance by hand"
sleep 5
state | grep -q '^drain.*|maintenance by hand' && ok "someone else's drain is left: $(state)" ||
	fail "someone else's drain: $(state)"
scontrol update nodename="$node" state=resume
# a gd_check that cannot run (a spec that does not exist) drains with that cause, not green
rm -f "$tmp/spec.yaml"
wait_state '^drain.*\|gdperf: gd_check could not run \(exit 2\)' &&
	ok "gd_check that cannot run drains the node: $(state)" ||
	fail "gd_check that cannot run: $(state)"
finish
