#!/bin/bash
# gd_check's port counters with real induced loss in the Soft-RoCE guest. rxe hands a packet
# for its own address back to itself before any qdisc (tests/vm/check-fleet.sh says how that
# was measured), so a loopback run cannot lose a packet: this test makes a second device,
# rxe_p0 over peer0 (veth0's peer), and policy routes that send 10.0.0.1 <-> 10.0.0.2 through
# the veth pair instead of lo (the local table after rules "to PEER iif lo", accept_local).
# A gd_write_bw pair rxe0 -> rxe_p0 then crosses veth0 for real, and runs through gd_check's
# loopback test on rxe0: the port's counters are the port's, whatever traffic moves them.
#  - gd_check's loopback alone: the counters item PASSes (rxe's ACK-timer retransmissions
#    under TCG are reported, not judged: a software device's timer, port_counters.h), and it
#    sampled veth0's ethtool statistics too (peer_ifindex: the ioctl, live);
#  - the pair without a qdisc: PASS (the softnet backlog is raised: a burst of the pair's
#    send queue, 128 x 64 packets, can overflow its 1000 packets and lose packets for real;
#    and one CPU takes every packet off the veths (RPS), or the two vCPUs' backlogs reorder
#    them: measured 2026-11-29 with RPS as the guest has it, no qdisc, no veth drop:
#    rxe0 rcvd_seq_err +22 and rxe_p0 out_of_seq_request +29, the judge's FAIL; with RPS on
#    one CPU none, only the ACK timer's duplicate_request and completer_retry_err, which a
#    software device reports and does not judge; the run prints what moved);
#  - under 'tc qdisc add dev veth0 root netem loss 2%' (and peer0): the run FAILs its
#    counters item naming rxe0 port 1, an rxe error counter and its change (exit 1); the spec
#    has no threshold (the run's 'runs' item passes), so nothing else can fail it.
# SKIP (77) where the pair across the veths does not run here (no netem module, or a kernel
# whose rxe does not take the routes).
#   flock /tmp/gd-vm.lock scripts/gd-vm-tests --builddir $PWD tests/vm/check-counters.sh
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}" "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/vm/lib.sh"
vm_require_guest
ck=$top_builddir/tools/gd_check
bw=$top_builddir/tools/gd_write_bw
py=/usr/bin/python3
tmp=$(mktemp -d)
pair_pids=
# everything it changes is undone at exit: a second rxe device, policy rules and routes
# left behind broke every later guest test (device counts, GID choice, rdma_cm routes)
saved_sysctl=$(sysctl -n net.ipv4.conf.all.accept_local net.ipv4.conf.all.rp_filter \
	net.core.netdev_max_backlog 2>/dev/null | tr '\n' ' ')
saved_rps=
for d in veth0 peer0; do saved_rps="$saved_rps $d=$(cat /sys/class/net/$d/queues/rx-0/rps_cpus 2>/dev/null)"; done
cleanup() {
	for p in $pair_pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	tc qdisc del dev veth0 root 2>/dev/null; tc qdisc del dev peer0 root 2>/dev/null
	rdma link delete rxe_p0 2>/dev/null
	ip rule del pref 100 2>/dev/null; ip rule del pref 101 2>/dev/null
	ip route flush table 100 2>/dev/null; ip route flush table 101 2>/dev/null
	if ! ip rule show pref 0 | grep -q 'lookup local'; then
		ip rule add pref 0 lookup local 2>/dev/null && ip rule del pref 1000 lookup local 2>/dev/null
	fi
	# shellcheck disable=SC2086 # three words
	set -- $saved_sysctl
	[ $# = 3 ] && sysctl -qw net.ipv4.conf.all.accept_local="$1" net.ipv4.conf.all.rp_filter="$2" \
		net.core.netdev_max_backlog="$3" 2>/dev/null
	for d in $saved_rps; do echo "${d#*=}" >"/sys/class/net/${d%%=*}/queues/rx-0/rps_cpus" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

modprobe sch_netem 2>/dev/null
tc qdisc add dev veth0 root netem loss 0% 2>/dev/null && tc qdisc del dev veth0 root ||
	{ echo "SKIP: no netem qdisc in this guest (sch_netem)"; exit 77; }
# 10.0.0.1 <-> 10.0.0.2 over the veth pair: locally made packets to the other address take
# the veth (rule 100/101, iif lo), packets arriving on it are local (the local table at 1000)
sysctl -qw net.ipv4.conf.all.accept_local=1 net.ipv4.conf.veth0.accept_local=1 \
	net.ipv4.conf.peer0.accept_local=1 net.ipv4.conf.all.rp_filter=0 \
	net.ipv4.conf.veth0.rp_filter=0 net.ipv4.conf.peer0.rp_filter=0
ip -batch - <<'IP' || { echo "SKIP: policy routes over the veth pair refused"; exit 77; }
rule add pref 1000 lookup local
rule del pref 0 lookup local
route add 10.0.0.2 dev veth0 src 10.0.0.1 table 100
route add 10.0.0.1 dev peer0 src 10.0.0.2 table 101
rule add pref 100 to 10.0.0.2 iif lo lookup 100
rule add pref 101 to 10.0.0.1 iif lo lookup 101
IP
# One CPU takes every packet off the veths (RPS): a veth hands a packet to the backlog of the
# CPU that sent it, and rxe sends a QP's packets from a tasklet (Linux 6.1) or a work item that
# runs on either CPU, so two CPUs' backlogs can deliver them out of order: the responder NAKs
# the gap and the sequence-error counters move with no packet lost (GD_VM_COUNTERS_RPS=0 leaves
# RPS as it was, to see it)
if [ "${GD_VM_COUNTERS_RPS:-1}" != 0 ]; then
	for d in veth0 peer0; do
		echo 1 >"/sys/class/net/$d/queues/rx-0/rps_cpus" ||
			{ echo "SKIP: no RPS on $d (rps_cpus)"; exit 77; }
	done
fi
# a 64 KiB message is 64 packets and the send queue holds 128: a burst to the veth's peer
# can overflow the softnet backlog (1000) under TCG and drop packets for real
sysctl -qw net.core.netdev_max_backlog=300000
ip route get 10.0.0.2 | grep -q 'dev veth0' || { echo "SKIP: 10.0.0.2 is not routed over veth0"; exit 77; }
rdma link add rxe_p0 type rxe netdev peer0 || { echo "SKIP: rdma link add rxe_p0 (peer0) failed"; exit 77; }
for _ in $(seq 100); do grep -q ACTIVE /sys/class/infiniband/rxe_p0/ports/1/state && break; sleep 0.1; done
g0=$(vm_roce_v2_gid rxe0 10.0.0.1) && g1=$(vm_roce_v2_gid rxe_p0 10.0.0.2) ||
	{ echo "SKIP: no RoCE v2 GIDs of 10.0.0.1 and 10.0.0.2"; exit 77; }

# pair SECONDS PORT: gd_write_bw rxe0 -> rxe_p0 over the veths, in the background, with a
# 1 s ACK timeout (-u 18): under TCG a busy guest answers late, and the default 67 ms
# timeout retransmits without any loss (seen: duplicate_request +1250)
pair() {
	local o="-D $1 -p $2 -u 18"
	# shellcheck disable=SC2086
	timeout -k 5 $(($1 + 60)) "$bw" -d rxe_p0 -x "$g1" $o >"$tmp/srv$2" 2>&1 &
	pair_pids="$pair_pids $!"
	sleep 1
	# shellcheck disable=SC2086
	timeout -k 5 $(($1 + 60)) "$bw" -d rxe0 -x "$g0" $o 10.0.0.2 >"$tmp/cli$2" 2>&1 &
	pair_pids="$pair_pids $!"
}

# the pair alone, without a qdisc: does it run across the veths here?
tx0=$(cat /sys/class/net/veth0/statistics/tx_packets)
pair 3 33100
wait
tx1=$(cat /sys/class/net/veth0/statistics/tx_packets)
cat "$tmp/cli33100"
grep -Eq '^ *65536 ' "$tmp/cli33100" ||
	{ echo "SKIP: the pair rxe0 -> rxe_p0 across the veths does not run here"; cat "$tmp/srv33100"; exit 77; }
vm_check "the pair crossed veth0 ($((tx1 - tx0)) packets)" test $((tx1 - tx0)) -gt 100
pair_pids=

cat >"$tmp/spec.yaml" <<'EOS'
name: rxe0 counters
tests:
  - name: bw
    op: write
    size: 64K
    duration: 4
    device: rxe0
    retries: 0
EOS
# judged SECONDS PORT NAME: gd_check's run on rxe0 while the pair runs across the veths
judged() {
	pair "$1" "$2"
	"$ck" -p $(($2 + 10)) --json "$tmp/spec.yaml" >"$tmp/$3.json" 2>"$tmp/$3.err"
	rc=$?
	wait
	pair_pids=
	grep '"type":"check"' "$tmp/$3.json"
	cat "$tmp/$3.err"
}
# gd_check's loopback on rxe0 alone, as every other guest test runs it: nothing crosses a
# veth, no error counter may move
"$ck" -p 33150 --json "$tmp/spec.yaml" >"$tmp/alone.json" 2>"$tmp/alone.err"
rc=$?
grep '"type":"check"' "$tmp/alone.json"; cat "$tmp/alone.err"
vm_check "loopback alone: exit 0" test $rc -eq 0
vm_check "loopback alone: the counters item PASSes" grep -q '"check":"bw rxe0 host: counters","status":"PASS"' "$tmp/alone.json"
# the netdev's ethtool statistics, read live (SIOCETHTOOL): a veth's are peer_ifindex and its
# queues' (rx_queue_0_*, tx_queue_0_*: left out), so the item samples rxe0's hw_counters (but
# lifespan, a setting), veth0's statistics and peer_ifindex: one more than sysfs alone
want=$(($(ls /sys/class/infiniband/rxe0/ports/1/hw_counters | grep -cvx lifespan) + $(ls /sys/class/net/veth0/statistics | wc -l) + 1))
vm_check "loopback alone: $want counters sampled, veth0's ethtool statistics among them" "$py" - "$tmp/alone.json" "$want" <<'PYEOF'
import json, sys
c = [r for r in map(json.loads, open(sys.argv[1])) if r.get("check") == "bw rxe0 host: counters"]
assert len(c) == 1 and c[0]["counters"]["sampled"] == int(sys.argv[2]), (c, sys.argv[2])
assert c[0]["counters"]["unreadable"] is None, c
PYEOF

# snap FILE: every counter that can say where packets went (both rxe ports' counters, the
# veths' statistics, the backlog's drops); moved A B: what changed between two snaps
snap() {
	{ for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/* /sys/class/infiniband/rxe_p0/ports/1/hw_counters/* \
		/sys/class/net/veth0/statistics/* /sys/class/net/peer0/statistics/*; do
		echo "$f $(cat "$f" 2>/dev/null)"; done
	echo "softnet_dropped $(drops)"; } >"$1"
}
moved() { awk 'NR == FNR { a[$1] = $2; next } $2 != a[$1] && $1 !~ /(bytes|packets|pkts)$/ {
	d = $2 - a[$1]; sub("/sys/class/", "", $1); print "  " $1 " +" d }' "$1" "$2"; }
# the softnet backlog's drops, every CPU's (the second column, hex; the guest's awk is mawk:
# no strtonum, which printed nothing here and made every difference 0)
drops() {
	local d n=0
	while read -r _ d _; do n=$((n + 16#$d)); done </proc/net/softnet_stat
	echo $n
}
d0=$(drops)
snap "$tmp/c0"
judged 12 33200 clean
snap "$tmp/c1"
echo "softnet backlog drops during the run: $(($(drops) - d0)); counters that moved (RPS ${GD_VM_COUNTERS_RPS:-1}):"
moved "$tmp/c0" "$tmp/c1"
vm_check "no qdisc: exit 0" test $rc -eq 0
vm_check "no qdisc: the counters item PASSes" "$py" - "$tmp/clean.json" <<'PYEOF'
import json, sys
c = [r for r in map(json.loads, open(sys.argv[1])) if r.get("check") == "bw rxe0 host: counters"]
assert len(c) == 1 and c[0]["status"] == "PASS", c
assert c[0]["counters"]["device"] == "rxe0" and c[0]["counters"]["sampled"] > 0, c
PYEOF

tc qdisc add dev veth0 root netem loss 2% && tc qdisc add dev peer0 root netem loss 2% ||
	vm_fail "tc qdisc add ... netem loss 2%"
judged 12 33300 lossy
tc -s qdisc show dev veth0
vm_check "netem loss 2%: exit 1" test $rc -eq 1
vm_check "netem loss 2%: the counters item FAILs naming rxe0 port 1 and an rxe error counter" \
	"$py" - "$tmp/lossy.json" <<'PYEOF'
import json, re, sys
recs = [r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "check"]
c = [r for r in recs if r["check"] == "bw rxe0 host: counters"]
assert len(c) == 1 and c[0]["status"] == "FAIL", c
err = [m for m in c[0]["counters"]["moved"] if m["class"] == "error"]
assert err and all(m["delta"] > 0 for m in err), c
m = re.search(r"rxe0 port 1 (\w+) \+(\d+) during bw \(write bw, 65536 bytes\)", c[0]["message"])
assert m and m.group(1) in [e["counter"] for e in err], c[0]["message"]
print("named:", m.group(0))
PYEOF
vm_exit
