#!/bin/bash
# gd_devinfo on the guest's real rxe devices and bond: its facts (text and
# --json) agree with ibv_devinfo -v, rdma link and /proc/net/bonding/bond0
# read on the same guest: device names, port state, link layer, MTUs, the GID
# table (GID, type, netdev), the netdev map, bond mode, hash policy, slaves.
set -u
. "${top_srcdir:?}/tests/vm/lib.sh"
vm_require_guest
devinfo=${top_builddir:?}/tools/gd_devinfo
if [ ! -x "$devinfo" ]; then
	echo "SKIP: $devinfo is not built (make first)"
	exit 77
fi
# Debian's python3 first: a pyenv shim costs many execs under TCG.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { # run NAME CMD...: stdout, stderr and exit status into $work/NAME.*
	local name=$1; shift
	"$@" >"$work/$name.out" 2>"$work/$name.err"
	echo "$name $?" >>"$work/rc"
}
run text "$devinfo"
run json "$devinfo" --json
run json_dev "$devinfo" --json -d rxe0
run nodev "$devinfo" -d no_such_dev
run ibv ibv_devinfo -v
run rdma rdma link show
run bond cat /proc/net/bonding/bond0

"$py" - "$work" <<'PY'
import ipaddress, json, os, re, sys

w = sys.argv[1]
fails = 0


def check(cond, what, detail=""):
    global fails
    if cond:
        print("ok:", what)
    else:
        fails += 1
        print("FAIL:", what, detail)


def eq(got, want, what):
    check(got == want, what, "(gd_devinfo: %r, reference: %r)" % (got, want))


def read(name):
    with open(os.path.join(w, name)) as f:
        return f.read()


def norm(state):  # "PORT_ACTIVE", "ACTIVE", "LinkUp", "LINK_UP" -> comparable words
    return state.replace("PORT_", "").replace("_", "").lower()


def num(text):  # "PORT_ACTIVE (4)" -> 4, "1024 (3)" -> 1024 first number
    m = re.search(r"\((\d+)\)", text)
    return int(m.group(1)) if m else None


rc = dict((k, int(v)) for k, v in (l.split() for l in read("rc").splitlines()))
for name in ("ibv", "rdma", "bond"):
    check(rc[name] == 0, "reference command %s ran" % name, read(name + ".err"))
eq(rc["text"], 0, "gd_devinfo exits 0")
eq(rc["json"], 0, "gd_devinfo --json exits 0")
eq(rc["json_dev"], 0, "gd_devinfo --json -d rxe0 exits 0")
eq(rc["nodev"], 2, "gd_devinfo -d no_such_dev exits 2 (usage)")
check("no_such_dev" in read("nodev.err"), "the unknown -d is named in the error", read("nodev.err"))

# ---- the references
ibv, dev, port = {}, None, None
for line in read("ibv.out").splitlines():
    m = re.match(r"hca_id:\s*(\S+)", line)
    if m:
        dev = ibv[m.group(1)] = {"ports": {}}
        port = None
        continue
    if dev is None:
        continue
    m = re.match(r"\s+port:\s*(\d+)", line)
    if m:
        port = dev["ports"][int(m.group(1))] = {"gids": {}}
        continue
    m = re.match(r"\s+GID\[\s*(\d+)\]:\s*([0-9a-fA-F:.]+),\s*(.+?)\s*$", line)
    if m and port is not None:
        gid = ipaddress.IPv6Address(m.group(2)).exploded
        port["gids"][int(m.group(1))] = (gid, m.group(3))
        continue
    m = re.match(r"\s+(\w+):\s*(.*?)\s*$", line)
    if m:
        (port if port is not None else dev)[m.group(1)] = m.group(2)

links = {}
for line in read("rdma.out").splitlines():
    m = re.match(r"link (\S+)/(\d+) state (\S+) physical_state (\S+)(?: netdev (\S+))?", line)
    if m:
        links[(m.group(1), int(m.group(2)))] = {
            "state": m.group(3), "phys": m.group(4), "netdev": m.group(5)}

MODES = {
    "IEEE 802.3ad Dynamic link aggregation": "802.3ad",
    "load balancing (xor)": "balance-xor",
    "load balancing (round-robin)": "balance-rr",
    "fault-tolerance (active-backup)": "active-backup",
    "fault-tolerance (broadcast)": "broadcast",
    "transmit load balancing": "balance-tlb",
    "adaptive load balancing": "balance-alb",
}
bond, slaves, section = {}, [], "top"
for line in read("bond.out").splitlines():
    m = re.match(r"Slave Interface: (\S+)", line)
    if m:
        slaves.append({"name": m.group(1)})
        section = "slave"
        continue
    if line.startswith("Active Aggregator Info:"):
        section = "aggregator"
        continue
    m = re.match(r"(\t?)([^\t:][^:]*): (.*)$", line)
    if not m:
        continue
    indented, key, value = m.group(1), m.group(2), m.group(3).strip()
    if section == "slave" and not indented and not line.startswith(" "):
        slaves[-1].setdefault(key, value)
    elif section == "aggregator" and indented:
        bond.setdefault("active " + key, value)
    elif section == "top" or not indented:
        bond.setdefault(key, value)

# ---- gd_devinfo --json
recs = []
for i, line in enumerate(read("json.out").splitlines()):
    try:
        recs.append(json.loads(line))
    except ValueError as e:
        check(False, "JSON line %d parses" % (i + 1), str(e))
check(recs and all(r.get("schema") == 1 and r.get("tool") == "gd_devinfo" for r in recs),
      "every JSON record has schema 1 and tool gd_devinfo")
devs = dict((r["name"], r) for r in recs if r.get("type") == "device")
bonds = dict((r["name"], r) for r in recs if r.get("type") == "bond")
summary = [r for r in recs if r.get("type") == "summary"]

eq(sorted(devs), sorted(ibv), "device names equal ibv_devinfo's")
eq(sorted(devs), sorted(set(d for d, p in links)), "device names equal rdma link's")
check({"rxe0", "rxe_bond0"} <= set(devs), "rxe0 and rxe_bond0 reported", sorted(devs))
check(len(summary) == 1, "one summary record")
if summary:
    eq(summary[0].get("devices"), len(ibv), "summary: device count")
    eq(summary[0].get("errors"), 0, "summary: no errors")
    eq(summary[0].get("verbs"), "queried", "summary: verbs were queried")

want_ip = {"rxe0": os.environ.get("GD_VM_IP", "10.0.0.1"),
           "rxe_bond0": os.environ.get("GD_VM_BOND_IP", "10.0.1.1")}
text = read("text.out")
for name in sorted(set(devs) & set(ibv)):
    d, ref = devs[name], ibv[name]
    eq(d.get("node_guid"), ref.get("node_guid"), name + ": node GUID")
    eq(d.get("sys_image_guid"), ref.get("sys_image_guid"), name + ": sys image GUID")
    eq(d.get("fw_ver"), ref.get("fw_ver"), name + ": firmware")
    eq(d.get("transport"), ref.get("transport", "").split(" (")[0], name + ": transport")
    ports = dict((p["port"], p) for p in d.get("ports", []))
    eq(sorted(ports), sorted(ref["ports"]), name + ": port numbers")
    for pn in sorted(set(ports) & set(ref["ports"])):
        p, rp, rl = ports[pn], ref["ports"][pn], links.get((name, pn), {})
        what = "%s port %d: " % (name, pn)
        eq(p.get("state_num"), num(rp.get("state", "")), what + "state number (ibv_devinfo)")
        eq(norm(p.get("state", "")), norm(rp.get("state", "").split(" (")[0]), what + "state (ibv_devinfo)")
        eq(norm(p.get("state", "")), norm(rl.get("state", "")), what + "state (rdma link)")
        eq(p.get("phys_state_num"), num(rp.get("phys_state", "")), what + "physical state (ibv_devinfo)")
        eq(norm(p.get("phys_state", "")), norm(rl.get("phys", "")), what + "physical state (rdma link)")
        eq(p.get("link_layer"), rp.get("link_layer"), what + "link layer")
        eq(p.get("active_mtu_bytes"), int(rp.get("active_mtu", "0").split()[0]), what + "active MTU")
        eq(p.get("max_mtu_bytes"), int(rp.get("max_mtu", "0").split()[0]), what + "max MTU")
        eq(p.get("netdev"), rl.get("netdev"), what + "netdev (rdma link)")
        eq(d.get("parent_netdev"), rl.get("netdev"), name + ": parent netdev (rdma link)")
        gids = dict((g["index"], (g["gid"], g["type"])) for g in p.get("gids", []))
        eq(gids, rp["gids"], what + "GID table: index, GID, type")
        for g in p.get("gids", []):
            eq(g.get("netdev"), rl.get("netdev"), what + "GID %d netdev" % g["index"])
            check(re.search(r"^\s*%d\b.*%s\s+%s\s+%s\b" % (g["index"], g["gid"], re.escape(g["type"]), g.get("netdev")),
                            text, re.M) is not None, what + "GID %d in the text output" % g["index"])
        mapped = ipaddress.IPv6Address("::ffff:" + want_ip.get(name, "0.0.0.0")).exploded
        v2 = [i for i, (gid, t) in rp["gids"].items() if gid == mapped and t == "RoCE v2"]
        check(len(v2) == 1, what + "ibv_devinfo lists one RoCE v2 GID for " + want_ip.get(name, "?"))
        if v2:
            eq(p.get("default_roce_v2_gid_index"), v2[0], what + "default RoCE v2 GID index")
        line = "%s port %d ==> %s (Up)" % (name, pn, rl.get("netdev"))
        check(line in text.splitlines(), "netdev map line: " + line)

recs_dev = [json.loads(l) for l in read("json_dev.out").splitlines() if l.strip()]
eq([r["name"] for r in recs_dev if r.get("type") == "device"], ["rxe0"], "-d rxe0 selects rxe0 alone")

b = bonds.get("bond0")
check(b is not None, "bond0 reported", sorted(bonds))
if b:
    mode = MODES.get(bond.get("Bonding Mode"), bond.get("Bonding Mode"))
    eq(b.get("mode"), mode, "bond0: mode")
    eq(b.get("mode"), os.environ.get("GD_VM_BOND_MODE"), "bond0: mode as the bed set it up")
    eq(b.get("xmit_hash_policy"), bond.get("Transmit Hash Policy", "").split(" (")[0], "bond0: hash policy")
    eq(b.get("mii_status"), bond.get("MII Status"), "bond0: MII status")
    eq(str(b.get("miimon_ms")), bond.get("MII Polling Interval (ms)"), "bond0: miimon")
    eq(b.get("rdma_devices"), ["rxe_bond0"], "bond0: RDMA device")
    if mode == "802.3ad":
        eq(b.get("lacp_rate"), bond.get("LACP rate"), "bond0: LACP rate")
        eq(str(b.get("active_aggregator")), bond.get("active Aggregator ID"), "bond0: active aggregator")
    gs = b.get("slaves", [])
    eq([s.get("name") for s in gs], [s["name"] for s in slaves], "bond0: slaves")
    for s, r in zip(gs, slaves):
        what = "bond0 slave %s: " % r["name"]
        eq(s.get("mii_status"), r.get("MII Status"), what + "MII status")
        eq("%s Mbps" % s.get("speed_mbps"), r.get("Speed"), what + "speed")
        eq(s.get("duplex"), r.get("Duplex"), what + "duplex")
        eq(str(s.get("link_failures")), r.get("Link Failure Count"), what + "failure count")
        if mode == "802.3ad":
            eq(str(s.get("aggregator_id")), r.get("Aggregator ID"), what + "aggregator")
    check(re.search(r"^\s*mode:\s+%s\b" % re.escape(mode or "?"), text, re.M) is not None,
          "bond0 mode in the text output")

print("%d check(s) failed" % fails if fails else "all checks passed")
sys.exit(1 if fails else 0)
PY
rc=$?
if [ $rc != 0 ]; then
	for f in text.out text.err json.out json.err rdma.out bond.out; do
		echo "===== $f"
		cat "$work/$f"
	done
fi
exit $rc
