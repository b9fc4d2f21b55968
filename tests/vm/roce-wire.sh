#!/bin/bash
# Soft-RoCE guest: what the RoCE options ask shows on the wire (issue 35 item 1).
# Two rxe devices in one namespace never put a packet on a link: rxe routes a packet for a
# local address through lo, where no rxe device receives it (bench-roce.sh: RTR ETIMEDOUT).
# Here the route is made to cross a veth pair of its own (wire0 10.0.7.1, wire1 10.0.7.2),
# an rxe device on each end (gdwire0, gdwire1; rxe refuses a VLAN netdev: EPERM), and policy
# rules so that the locally made packets for the other end leave through its veth ('iif lo
# from A to B': only locally made packets; the local table moved behind them; accept_local
# and no rp_filter on the pair so the other end takes a packet from a local source).
# tcpdump captures UDP 4791 on wire0; roce-pcap.py reads the RoCE v2 packets.
#  1. --tclass 106 -S 3 (gd_write_bw, both sides): every RoCE v2 packet, both directions,
#     carries IPv4 TOS 0x6a (DSCP 26, ECT(0)); a second run with --tclass 184 carries 0xb8
#     (DSCP 46, not ECN-capable): the byte follows the option. The SL has no field in an
#     untagged RoCE v2 packet (a NIC puts it in the VLAN priority, and rxe takes no VLAN
#     netdev): a tagged packet must carry PCP 3; untagged ones say so (not judged). Each
#     side reads QP 1's address vector back (header "QP addr. vector"): the traffic class
#     asked, and SL 3 or, where the device kept another (rxe keeps none: 0), the tool's
#     warning that -S has no effect there.
#  1b. rdma_cm (-R) with -T 106 and -T 184 (the ids' type of service): the RC packets of both
#     directions carry TOS 0x6a / 0xb8, and each side's QP reads back that traffic class.
#  2. --rate_limit 1 --rate_units M --rate_limit_type SW over the wire, 4 KiB writes for 4 s:
#     the tool's bandwidth and the RDMA WRITE payload rate on the wire (bytes between the
#     first and last write packet) each within -20 %/+5 % of 1 MiB/s.
# Cannot capture (no tcpdump, no veth, no rxe device, no packet on the veth): SKIP, never ok.
# Run: flock /tmp/gd-vm.lock scripts/gd-vm-tests --builddir $PWD tests/vm/roce-wire.sh
. "$(dirname "$0")/bench-lib.sh"
. "$(dirname "$0")/lib.sh"
need_guest
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
PCAP=$top_srcdir/tests/vm/roce-pcap.py
command -v tcpdump >/dev/null || { echo "SKIP: no tcpdump (apt-get install tcpdump on the host: the guest mounts /)"; exit 77; }
A=10.0.7.1 B=10.0.7.2 D0=gdwire0 D1=gdwire1
skip() { echo "SKIP: $*"; restore; rm -rf "$WORK"; exit 77; }
restore() {
	rdma link delete $D0 2>/dev/null; rdma link delete $D1 2>/dev/null
	ip rule del pref 10 2>/dev/null; ip rule del pref 11 2>/dev/null
	ip rule show | grep -q '^0:' || ip rule add pref 0 lookup local
	ip rule del pref 100 lookup local 2>/dev/null
	ip link del wire0 2>/dev/null
}
trap restore EXIT

ip link add wire0 type veth peer name wire1 2>"$WORK/setup.err" || skip "no veth pair: $(cat "$WORK/setup.err")"
ip -batch - <<IP 2>"$WORK/setup.err" || skip "addresses/rules: $(cat "$WORK/setup.err")"
addr add $A/24 dev wire0
addr add $B/24 dev wire1
link set wire0 up
link set wire1 up
route add $B/32 dev wire0 table 107
route add $A/32 dev wire1 table 108
rule add pref 10 iif lo from $A to $B lookup 107
rule add pref 11 iif lo from $B to $A lookup 108
rule add pref 100 lookup local
rule del pref 0
IP
for k in all wire0 wire1; do
	echo 1 >"/proc/sys/net/ipv4/conf/$k/accept_local" && echo 0 >"/proc/sys/net/ipv4/conf/$k/rp_filter" ||
		skip "cannot set net.ipv4.conf.$k.accept_local/rp_filter"
done
rdma link add $D0 type rxe netdev wire0 2>"$WORK/setup.err" &&
	rdma link add $D1 type rxe netdev wire1 2>>"$WORK/setup.err" ||
	skip "cannot add rxe devices on wire0/wire1: $(cat "$WORK/setup.err")"
# each device's RoCE v2 GID of its address (-x on both sides: no rule to second-guess)
for _ in $(seq 50); do
	x0=$(vm_roce_v2_gid $D0 $A) && x1=$(vm_roce_v2_gid $D1 $B) && break
	sleep 0.2
done
[ -n "${x0:-}" ] && [ -n "${x1:-}" ] || skip "no RoCE v2 GID of $A on $D0 or of $B on $D1"
ip route get $B from $A 2>&1 | head -n 1
ip route get $B from $A 2>/dev/null | grep -q "dev wire0" ||
	skip "the route from $A to $B does not leave through wire0"

# capture NAME TOOL "SERVER ARGS" "CLIENT ARGS": a pair (server on gdwire1, client on
# gdwire0 towards $B) under tcpdump on wire0; the flows in $WORK/NAME.flows
capture() {
	local name=$1 tool=$2 tpid
	timeout 120 tcpdump -i wire0 -nn -U -s 128 -w "$WORK/$name.pcap" \
		'udp port 4791 or (vlan and udp port 4791)' 2>"$WORK/$name.tcpdump" &
	tpid=$!
	for _ in $(seq 100); do grep -q 'listening on' "$WORK/$name.tcpdump" && break; sleep 0.1; done
	run_pair "$name" "$tool" "-d $D1 -x $x1 $3" "-d $D0 -x $x0 $4 $B" 0 0 90
	local rc=$?
	sleep 1
	kill -INT $tpid 2>/dev/null; wait $tpid
	grep -E 'captured|dropped' "$WORK/$name.tcpdump" | sed 's/^/    /'
	"$py" "$PCAP" "$WORK/$name.pcap" >"$WORK/$name.flows" || ko "$name: the capture does not parse"
	sed 's/^/    /' "$WORK/$name.flows"
	return $rc
}
# flow NAME SRC DST FIELD: a field of one direction's line
flow() { sed -n "s/^$2>$3 .*$4=\([^ ]*\).*/\1/p" "$WORK/$1.flows"; } # RC: no /ud

# av NAME SIDE: the "QP addr. vector" header line of one side (s, c): "SL n, traffic class n"
av() { sed -n 's/^ QP addr. vector : \(SL [0-9]*, traffic class [0-9]*\) .*/\1/p' "$WORK/$1.$2" | head -n 1; }
# tos_seen NAME TOS HOW: every RC packet of both directions carries TOS (0x..), else ko
tos_seen() {
	local n back t1 t2
	n=$(flow $1 $A $B packets) back=$(flow $1 $B $A packets)
	[ -n "$n" ] && [ "$n" -gt 0 ] || skip "the pair ran, but no RoCE v2 packet crossed wire0 (tcpdump: $(tail -n 2 "$WORK/$1.tcpdump" | tr '\n' ' '))"
	t1=$(flow $1 $A $B tos) t2=$(flow $1 $B $A tos)
	if [ "$t1" = "$2" ] && [ "$t2" = "$2" ]; then
		ok "$3: $n RC packet(s) $A>$B and ${back:-0} back, every one TOS $2"
	else
		ko "$3: TOS seen $A>$B '$t1', $B>$A '$t2', asked $2"
	fi
}

# 1. the DS byte (and the SL as PCP) on the wire, two values; what each side's device kept
# of -S and --tclass (read back from QP 1, the header's "QP addr. vector")
for tc in 106:0x6a 184:0xb8; do
	c="-n 50 -s 4096 --tclass ${tc%%:*} -S 3"
	capture tc${tc%%:*} gd_write_bw "$c" "$c" || continue
	tos_seen tc${tc%%:*} ${tc#*:} "--tclass ${tc%%:*}"
	p=$(flow tc${tc%%:*} $A $B pcp)
	case $p in
	3) ok "-S 3: VLAN priority 3 on every packet $A>$B" ;;
	none) echo "note: -S 3: the packets are untagged (rxe takes no VLAN netdev): an untagged RoCE v2 packet has no field for the SL (not judged)" ;;
	*) ko "-S 3: VLAN priorities seen '$p'" ;;
	esac
	for side in s c; do
		v=$(av tc${tc%%:*} $side)
		case $v in
		"SL 3, traffic class ${tc%%:*}") ok "tc${tc%%:*} ($side): the device kept SL 3 and traffic class ${tc%%:*} ($v)" ;;
		"SL "*", traffic class ${tc%%:*}")
			sl=${v%%,*}
			if grep -q -e "warning: -S 3: QP .* reads back service level ${sl#SL } .*-S has no effect there" \
				"$WORK/tc${tc%%:*}.$side"; then
				ok "tc${tc%%:*} ($side): traffic class ${tc%%:*} read back; the device kept ${v%%,*} for -S 3, and the tool warns that -S has no effect"
			else
				ko "tc${tc%%:*} ($side): '$v' read back for -S 3, and no warning"
				sed 's/^/    /' "$WORK/tc${tc%%:*}.$side" | head -n 30
			fi ;;
		*) ko "tc${tc%%:*} ($side): QP addr. vector '$v', asked SL 3, traffic class ${tc%%:*}"
			sed 's/^/    /' "$WORK/tc${tc%%:*}.$side" | head -n 30 ;;
		esac
	done
done

# 1b. rdma_cm (-R) with -T: the ids' type of service on the RC packets of both directions,
# two values, and read back from QP 1 of each side (the client bound to A so that its route
# is the wire's; the connection manager's own UD MADs are shown, not judged). The SL is the
# one rdma_cm took from the route (the netdev's priority map; none here: 0), shown.
for tc in 106:0x6a 184:0xb8; do
	c="-R -n 50 -s 4096 -T ${tc%%:*}"
	capture cm${tc%%:*} gd_write_bw "$c" "$c --bind_source_ip $A" || continue
	tos_seen cm${tc%%:*} ${tc#*:} "-R -T ${tc%%:*}"
	for side in s c; do
		v=$(av cm${tc%%:*} $side)
		case $v in
		*", traffic class ${tc%%:*}") ok "cm${tc%%:*} ($side): traffic class ${tc%%:*} read back (rdma_cm's ${v%%,*})" ;;
		*) ko "cm${tc%%:*} ($side): QP addr. vector '$v', asked -T ${tc%%:*}"
			sed 's/^/    /' "$WORK/cm${tc%%:*}.$side" | head -n 30 ;;
		esac
	done
done

# 2. a software rate limit, measured by the tool and on the wire
c="-s 4096 -D 4 --rate_limit 1 --rate_units M --rate_limit_type SW --json"
if capture rate gd_write_bw "$c" "$c"; then
	bw=$(sed -n 's/.*"results":{[^}]*"bw_avg_mib_per_s":\([0-9.e+-]*\).*/\1/p' "$WORK/rate.c" | tail -n 1)
	read -r bytes first last <<<"$(flow rate $A $B write_bytes) $(flow rate $A $B first) $(flow rate $A $B last)"
	wire=$(awk -v b="${bytes:-0}" -v f="${first:-0}" -v l="${last:-0}" \
		'BEGIN { if (l > f) printf "%.3f", b / (l - f) / 1048576; else print "none" }')
	in_tol() { awk -v b="$1" 'BEGIN { exit !(b + 0 == b && b >= 0.8 && b <= 1.05) }'; }
	in_tol "$bw" && ok "SW rate limit 1 MiB/s: the tool measured $bw MiB/s (-20 %/+5 %)" ||
		ko "SW rate limit 1 MiB/s: the tool measured '$bw' MiB/s"
	drop=$(sed -n 's/^\([0-9]*\) packets dropped by kernel.*/\1/p' "$WORK/rate.tcpdump")
	if [ "${drop:-0}" != 0 ]; then # a capture that lost packets cannot give the rate
		echo "skip: SW rate limit on the wire: tcpdump dropped $drop packet(s) (tool: $bw MiB/s)"
	elif in_tol "$wire"; then
		ok "SW rate limit 1 MiB/s on the wire: $wire MiB/s of RDMA WRITE payload ($bytes bytes, -20 %/+5 %)"
	else
		ko "SW rate limit 1 MiB/s on the wire: '$wire' MiB/s ($bytes bytes from $first to $last)"
	fi
fi
if [ $nfail -gt 0 ]; then
	ip rule show; ip neigh show; dmesg | tail -n 15
fi
finish
