#!/usr/bin/env python3
"""roce-pcap.py FILE.pcap: the RoCE v2 packets (UDP port 4791) of a libpcap capture, per
direction (source > destination): packets, the IPv4 TOS bytes seen, the 802.1Q priorities
(PCP; 'none' when untagged), and for RC RDMA WRITE packets their payload bytes and the times
of the first and last one. One line per direction (SRC>DST/ud: its UD packets, the
connection manager's MADs):
  SRC>DST packets=N tos=0x6a[,..] pcp=3[,..] write_bytes=B first=T last=T
A helper of tests/vm/roce-wire.sh (not a test). Exit 2 when FILE is not a pcap."""
import struct
import sys

# RC RDMA WRITE opcodes (IBTA): FIRST, MIDDLE, LAST, LAST_IMM, ONLY, ONLY_IMM
WRITE_OPS = {0x06: 16, 0x07: 0, 0x08: 0, 0x09: 4, 0x0A: 16, 0x0B: 20}  # header bytes after BTH


def packets(f):
    head = f.read(24)
    if len(head) < 24:
        print("not a pcap file (short header)", file=sys.stderr)
        sys.exit(2)
    magic = struct.unpack("<I", head[:4])[0]
    order = {0xA1B2C3D4: "<", 0xA1B23C4D: "<", 0xD4C3B2A1: ">", 0x4D3CB2A1: ">"}.get(magic)
    if not order:
        print("not a pcap file", file=sys.stderr)
        sys.exit(2)
    nano = magic in (0xA1B23C4D, 0x4D3CB2A1)
    link = struct.unpack(order + "I", head[20:24])[0]
    while True:
        rec = f.read(16)
        if len(rec) < 16:
            return
        sec, frac, caplen, _ = struct.unpack(order + "IIII", rec)
        data = f.read(caplen)
        yield sec + frac / (1e9 if nano else 1e6), link, data


def parse(link, data):
    """(pcp or None, ip bytes) of an Ethernet (1) or Linux cooked (113) frame, else None."""
    if link == 1:
        off, etype = 14, struct.unpack(">H", data[12:14])[0]
    elif link == 113:
        off, etype = 16, struct.unpack(">H", data[14:16])[0]
    else:
        return None
    pcp = None
    if etype == 0x8100:
        tci = struct.unpack(">H", data[off:off + 2])[0]
        pcp, etype, off = tci >> 13, struct.unpack(">H", data[off + 2:off + 4])[0], off + 4
    return (pcp, data[off:]) if etype == 0x0800 else None


def main():
    flows = {}
    with open(sys.argv[1], "rb") as f:
        for ts, link, data in packets(f):
            got = parse(link, data)
            if not got:
                continue
            pcp, ip = got
            ihl = (ip[0] & 0x0F) * 4
            if len(ip) < ihl + 8 + 12 or ip[9] != 17:
                continue
            dport, ulen = struct.unpack(">H", ip[ihl + 2:ihl + 4])[0], struct.unpack(">H", ip[ihl + 4:ihl + 6])[0]
            if dport != 4791:
                continue
            key = "%s>%s" % (".".join(map(str, ip[12:16])), ".".join(map(str, ip[16:20])))
            if ip[ihl + 8] >> 5 == 3:  # UD opcodes 0x60-0x7f (rdma_cm's MADs on QP1): apart
                key += "/ud"
            fl = flows.setdefault(key, {"n": 0, "tos": set(), "pcp": set(), "bytes": 0, "first": None, "last": None})
            fl["n"] += 1
            fl["tos"].add(ip[1])
            fl["pcp"].add("none" if pcp is None else str(pcp))
            op = ip[ihl + 8]
            if op in WRITE_OPS:  # UDP payload: BTH 12, extra headers, data, ICRC 4
                fl["bytes"] += ulen - 8 - 12 - WRITE_OPS[op] - 4
                fl["first"] = ts if fl["first"] is None else fl["first"]
                fl["last"] = ts
    for key, fl in sorted(flows.items()):
        print("%s packets=%d tos=%s pcp=%s write_bytes=%d first=%s last=%s" % (
            key, fl["n"], ",".join("0x%02x" % t for t in sorted(fl["tos"])),
            ",".join(sorted(fl["pcp"])), fl["bytes"],
            "-" if fl["first"] is None else "%.6f" % fl["first"],
            "-" if fl["last"] is None else "%.6f" % fl["last"]))


main()
