#!/bin/bash
# Soft-RoCE tier: the GID index `gd_devinfo --peer HOST` marks is the one
# `gd_write_bw HOST` uses (its --json, client side), for several addresses on
# the guest's netdevs: the first IPv4 of veth0, a second IPv4, an IPv6 one,
# the bond's address on rxe_bond0, and the bond's address through the
# default device (not routed: the default GID); then IPv6 link-local with a
# zone and rdma_cm over IPv6 and IPv4. Server and client run on one
# rxe device, as the other tests do. Both tools call gd_dev_choose and
# gd_gid_choose, so this checks that verbs carries out what sysfs decided.
# Needs the QEMU guest (scripts/gd-vm); skips (77) elsewhere.
. "$(dirname "$0")/bench-lib.sh"
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/lib.sh"
need_guest
DEVINFO=$BIN/gd_devinfo
IP2=10.0.5.1
IP6=fd00:5::1

cleanup() {
	ip addr del $IP2/24 dev veth0 2>/dev/null
	ip -6 addr del $IP6/64 dev veth0 2>/dev/null
}
trap cleanup EXIT

# wait_gid DEV SYSFS-GID-TEXT: until the GID table of DEV port 1 lists it (10 s)
wait_gid() {
	local i
	for i in $(seq 1 100); do
		grep -qxF "$2" /sys/class/infiniband/"$1"/ports/1/gids/* 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# fields DEVINFO CLIENT: "GID_INDEX DEVICE CHOICE" of DEVINFO's peer record, then
# "GID_INDEX DEVICE" of the first record with a gid_index in CLIENT ("-" for one not there);
# one python start for both files (each costs a second or more under TCG)
fields() {
	"$py" - "$@" <<'PY'
import json, sys
def first(path, typ, keys):
    try:
        lines = open(path).readlines()
    except OSError:
        lines = []
    for line in lines:
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if keys[0] in r and (not typ or r.get("type") == typ):
            return [str(r.get(k, "-")) for k in keys]
    return ["-"] * len(keys)
print(*first(sys.argv[1], "peer", ["gid_index", "device", "choice"]),
      *first(sys.argv[2], "", ["gid_index", "device"]))
PY
}

# case NAME HOST DEVARG WANT_CHOICE [WANT_INDEX]
peer_case() {
	local name=$1 host=$2 devarg=$3 want=$4 wantidx=${5:-} mark used dev udev choice
	# shellcheck disable=SC2086 # devarg is zero or two words
	"$DEVINFO" $devarg --peer "$host" --json >"$WORK/$name.devinfo" 2>"$WORK/$name.devinfo.err"
	sed -n '/"peer"/p' "$WORK/$name.devinfo"
	run_pair "$name" gd_write_bw "$devarg -n 100 --json" "$devarg -n 100 --json $host" || return
	# (a here-string, not < <(...): the guest has no /dev/fd)
	read -r mark dev choice used udev <<<"$(fields "$WORK/$name.devinfo" "$WORK/$name.c")"
	echo "    $name: gd_devinfo --peer $host marks $dev GID $mark ($choice); gd_write_bw used $udev GID $used"
	if [ -n "$mark" ] && [ "$mark" != - ] && [ "$mark" = "$used" ] && [ "$dev" = "$udev" ]; then
		ok "$name: the marked GID index is the one gd_write_bw used ($dev $mark)"
	else
		ko "$name: gd_devinfo marks '$dev' '$mark', gd_write_bw used '$udev' '$used'"
	fi
	if [ "$choice" = "$want" ]; then ok "$name: chosen by $want"; else ko "$name: chosen by '$choice', want $want"; fi
	if [ -n "$wantidx" ]; then
		if [ "$mark" = "$wantidx" ]; then ok "$name: index $mark is the kernel's GID of $host"
		else ko "$name: index '$mark', the kernel's GID of $host is $wantidx"; fi
	fi
}

# the addresses this test adds (they follow the netdev into rxe0's GID table)
ip addr add $IP2/24 dev veth0 || ko "cannot add $IP2 to veth0"
ip -6 addr add $IP6/64 dev veth0 nodad || ko "cannot add $IP6 to veth0"
wait_gid "$DEV" "0000:0000:0000:0000:0000:ffff:0a00:0501" || ko "no GID for $IP2 on $DEV"
wait_gid "$DEV" "fd00:0005:0000:0000:0000:0000:0000:0001" || ko "no GID for $IP6 on $DEV"

peer_case ipv4 "$IP" "-d $DEV" route "$(vm_roce_v2_gid $DEV "$IP")"
peer_case ipv4-second "$IP2" "-d $DEV" route "$(vm_roce_v2_gid $DEV "$IP2")"
peer_case ipv6 "$IP6" "-d $DEV" route
# IPv6 as users give it: a link-local address with its zone (no global address
# needed), and rdma_cm (-R) to an IPv6 address while the server was started
# without --ipv6 (its listener takes both families, as the TCP side channel does)
LL=$(ip -6 -o addr show dev veth0 scope link | awk '{ print $4 }' | cut -d/ -f1 | head -n 1)
if [ -n "$LL" ]; then
	run_pair ipv6-link-local gd_write_bw "-d $DEV -n 100" "-d $DEV -n 100 $LL%veth0"
else
	ko "ipv6-link-local: veth0 has no link-local IPv6 address"
fi
run_pair ipv6-rdma-cm gd_write_lat "-d $DEV -R -n 100" "-d $DEV -R -n 100 $IP6"
run_pair ipv4-rdma-cm gd_write_lat "-d $DEV -R -n 100" "-d $DEV -R -n 100 $IP"
peer_case bond "$BOND_IP" "-d $BOND_DEV" route "$(vm_roce_v2_gid $BOND_DEV "$BOND_IP")"
# no -d: the device rule picks the device; the bond's address is not among
# its GIDs, so both fall back to the same default
peer_case default-dev "$BOND_IP" "" default
finish
