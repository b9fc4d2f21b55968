#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Hostile-input table test: every case in tests/hostile/cases runs under
`timeout 5` (30 with ASan; hitting it is a failure: a read blocked or never ended), must end
with the exit code the table documents, print strictly valid JSON Lines where
JSON was asked for (strict UTF-8; NaN and Infinity rejected), and match the
stderr/stdout patterns given. The hostile inputs (FIFOs, /dev/zero links,
self-referencing links, non-finite and non-UTF-8 values, bad bond values,
garbled hwloc XML, contradictory NVLink lists) are made here, in a temporary
directory, from the committed fixtures (git cannot hold a FIFO).

Usage: run.py [-v] [-k SUBSTRING]   (top_srcdir/top_builddir from the environment, and
GD_FEATURES, the tools' features line: tests/hostile/hostile.sh sets it)
"""
import base64
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

SRC = os.environ.get("top_srcdir") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("top_builddir") or os.getcwd()
TOOLS = os.path.join(BUILD, "tools")
FX = os.path.join(SRC, "tests", "fixtures")
BENCH = ["gd_send_bw", "gd_send_lat", "gd_write_bw", "gd_write_lat",
         "gd_read_bw", "gd_read_lat", "gd_atomic_bw", "gd_atomic_lat"]
GROUPS = {"@bench": BENCH, "@lat": [t for t in BENCH if t.endswith("_lat")],
          "@bw": [t for t in BENCH if t.endswith("_bw")],
          "@sysfs": ["gd_devinfo", "gd_topo", "gd_doctor"]}
GROUPS["@all"] = GROUPS["@sysfs"] + BENCH
# tools added later (gd_check) join @all by adding their name here when built
for extra in ("gd_check",):
    if os.path.exists(os.path.join(TOOLS, extra)):
        GROUPS["@all"].append(extra)


# ---- the hostile inputs ----


_LIMIT = []


def asan_build(tool):
    """True when TOOL was built with AddressSanitizer, its runtime shared (ldd would name
    libasan) or linked in (-static-libasan, as scripts/gd-vm-tests --sanitizer-logs needs:
    ldd names nothing). Either way the binary holds the name __asan_init."""
    try:
        with open(tool, "rb") as f:
            return b"__asan_init" in f.read()
    except OSError:
        return False


def hang_limit():
    """Seconds after which a case counts as hung: 5, or 30 for tools built with
    ASan (make distcheck), which run 10-50x slower on a loaded 2-core machine.
    A blocked or endless read still hits it; the bound is not a speed test."""
    if not _LIMIT:
        _LIMIT.append(30 if asan_build(os.path.join(TOOLS, "gd_check")) else 5)
    return _LIMIT[0]

def files(tree, pattern):
    """Regular files under tree whose path (relative) matches the regex."""
    rx = re.compile(pattern)
    out = []
    for d, _, names in os.walk(tree):
        for n in names:
            p = os.path.join(d, n)
            if os.path.isfile(p) and not os.path.islink(p) and rx.search(os.path.relpath(p, tree)):
                out.append(p)
    return out


def mutate(tree, pattern, how, content=b"", must=True):
    hit = files(tree, pattern)
    if not hit and must:
        raise SystemExit("hostile setup: no file matches %r in %s" % (pattern, tree))
    for p in hit:
        os.unlink(p)
        if how == "fifo":
            os.mkfifo(p)
        elif how == "zero":
            os.symlink("/dev/zero", p)
        elif how == "loop":
            os.symlink(os.path.basename(p), p)
        elif how == "write":
            with open(p, "wb") as f:
                f.write(content)
        elif how == "big":
            with open(p, "wb") as f:
                f.truncate(content)


# files every reader touches: PCI class/speed, the RDMA device, port, GID, bond, procfs
READ_TARGETS = [r"/class$", r"current_link_speed$", r"infiniband/[^/]+/node_type$",
                r"infiniband/[^/]+/fw_ver$", r"ports/1/state$", r"ports/1/rate$",
                r"gids/0$", r"bonding/mode$", r"proc/modules$",
                r"proc/driver/nvidia/version$", r"proc/self/limits$",
                r"sys/kernel/osrelease$", r"/operstate$", r"/mtu$", r"numa_node$"]


def ibdev(tree):
    """The RDMA device's directory in a tree (created files land there)."""
    return os.path.realpath(os.path.join(tree, "sys/class/infiniband/mlx5_bond_0"))


def put(path, content):
    if os.path.lexists(path):
        os.unlink(path)
    with open(path, "wb") as f:
        f.write(content)


def make_trees(tmp):
    good = os.path.join(FX, "doctor", "good")
    trees = {}

    def tree(name):
        t = os.path.join(tmp, name)
        shutil.copytree(good, t, symlinks=True)
        trees[name] = t
        return t

    for how in ("fifo", "zero", "loop"):
        t = tree(how)
        for pat in READ_TARGETS:
            mutate(t, pat, how, must=False)
    t = tree("loopdev")  # a self-referencing device link in sys/class
    os.symlink("loopnet", os.path.join(t, "sys/class/net/loopnet"))
    os.symlink("loopib", os.path.join(t, "sys/class/infiniband/loopib"))
    os.symlink("0000:77:00.0", os.path.join(t, "sys/bus/pci/devices/0000:77:00.0"))
    t = tree("nan")
    mutate(t, r"current_link_speed$", "write", b"nan GT/s\n")
    mutate(t, r"max_link_speed$", "write", b"1e999 GT/s\n")
    mutate(t, r"ports/1/rate$", "write", b"nan Gb/sec (4X HDR)\n")
    mutate(t, r"numa_node$", "write", b"inf\n")
    t = tree("utf8")
    put(os.path.join(ibdev(t), "fw_ver"), b"\xff\xfe28.39\x1b[31m\n")
    put(os.path.join(ibdev(t), "node_desc"), b"host\xc0\x80 \xed\xa0\x80 mlx5\n")
    put(os.path.join(ibdev(t), "hca_type"), b"MT\xf5\x80\x80\x80\n")
    put(os.path.join(ibdev(t), "board_id"), b"MT_\x80\x81\n")
    mutate(t, r"bonding/mode$", "write", b"802.3ad\xff 4\n")
    t = tree("bond")
    bdir = os.path.join(t, "sys/devices/virtual/net/bond0/bonding")
    for name, val in (("miimon", b"-5\n"), ("xmit_hash_policy", b"layer9 7\n"),
                      ("lacp_rate", b"turbo 3\n"), ("mii_status", b"sideways\n"),
                      ("mode", b"802.3ad 4\n")):
        with open(os.path.join(bdir, name), "wb") as f:
            f.write(val)
    t = tree("huge")
    put(os.path.join(ibdev(t), "fw_ver"), b"")
    mutate(t, r"infiniband/[^/]+/fw_ver$", "big", 2 << 20)
    mutate(t, r"proc/modules$", "big", 20 << 20)
    # files given to options
    os.mkfifo(os.path.join(tmp, "pipe"))
    with open(os.path.join(tmp, "big.txt"), "wb") as f:
        f.truncate(2 << 20)
    with open(os.path.join(tmp, "big.xml"), "wb") as f:
        f.truncate(65 << 20)
    with open(os.path.join(tmp, "nul.txt"), "wb") as f:
        f.write(b"0000:18:00.0 FFFFFFFF:FF:FF.0 18\n\0\n")
    h20 = os.path.join(FX, "topo", "h20")
    with open(os.path.join(h20, "topology.xml")) as f:
        xml = f.read()
    # garbage PCI ids: hwloc drops the GPUs, which must not vanish silently
    with open(os.path.join(tmp, "garbled.xml"), "w") as f:
        f.write(xml.replace("[10de:2329]", "[10de:zz]"))
    # the NIC list gd_topo --export records (hwloc userdata of the root object, base64):
    # control bytes, a NUL, counts that do not fit; each is the file's fault (exit 2)
    def recs(*items):
        out = ""
        for name, data in items:
            out += '<userdata name="%s" length="%d" encoding="base64">%s</userdata>' % (
                name, len(data), base64.b64encode(data).decode())
        return out
    machine_end = xml.index(">", xml.index('<object type="Machine"')) + 1
    records = {
        "esc": recs(("gdperf.nics", b"1"), ("gdperf.nic", b"rxe0\n\n\x1b[31mRED")),
        "nul": recs(("gdperf.nics", b"1"), ("gdperf.nic", b"rxe0\n\nno PCI\0device")),
        "count": recs(("gdperf.nics", b"5000")),
        "nocount": recs(("gdperf.nic", b"rxe0\n\nno PCI device")),
        "busid": recs(("gdperf.nics", b"1"), ("gdperf.nic", b"rxe0\nzz:00\nlegend")),
    }
    for name, rec in records.items():
        with open(os.path.join(tmp, "rec-%s.xml" % name), "w") as f:
            f.write(xml[:machine_end] + rec + xml[machine_end:])
    with open(os.path.join(h20, "nvlinks.txt")) as f:
        nv = f.read()
    lists = {
        "nonGPU": nv + "0000:29:00.0 0000:2a:00.0 2\n",  # a NIC named as a GPU
        "repeat": nv + "0000:18:00.0 FFFFFFFF:FF:FF.0 18\n",
        "disagree": "0000:18:00.0 0000:2a:00.0 4\n0000:2a:00.0 0000:18:00.0 2\n",
        "foreign": "0000:99:00.0 FFFFFFFF:FF:FF.0 18\n",
        "selflink": "0000:18:00.0 0000:18:00.0 4\n",
        "hexcount": "0000:18:00.0 FFFFFFFF:FF:FF.0 0x12\n",
    }
    for name, text in lists.items():
        with open(os.path.join(tmp, "nv-%s.txt" % name), "w") as f:
            f.write(text)
    with open(os.path.join(tmp, "nv-badbytes.txt"), "wb") as f:
        f.write(b"\xff\xfe FFFFFFFF:FF:FF.0 18\n")
    # gd_check specs: deep nesting (libyaml's flow scanner is quadratic in it), two documents
    specs = {
        "deep.yaml": "version: 1\nname: " + "[" * 200000 + "]" * 200000 + "\n",
        "deepmap.yaml": "version: 1\nname: " + "{a: " * 50000 + "}" * 50000 + "\n",
        "twodoc.yaml": "version: 1\n---\nversion: 2\n",
        "baddoctor.yaml": "version: 1\ndoctor:\n  must_pass: [nosuch.check, \"1\"]\n",
        "latqps.yaml": "version: 1\ntests:\n  - {name: l, op: write, type: lat, qps: 4}\n",
        "atomic4.yaml": "version: 1\ntests:\n  - {name: a, op: atomic, size: 4}\n",
        "share.yaml": "version: 1\ntests:\n  - {name: s, op: write, min_slave_share: 5%}\n",
        "esc.yaml": "version: 1\ntests:\n  - name: \"a\\e[31mred\"\n    op: write\n    fabric: verbs\n",
    }
    for name, text in specs.items():
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    return trees


# ---- the checks ----

def strict_json_lines(data, need):
    """None if data is strict JSON Lines (at least one record if need), else why not."""
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        return "stdout is not valid UTF-8: %s" % e

    def bad_constant(name):
        raise ValueError("non-finite number %s" % name)

    n = 0
    for i, line in enumerate(text.splitlines(), 1):
        try:
            json.loads(line, parse_constant=bad_constant)
        except ValueError as e:
            return "stdout line %d is not strict JSON: %s: %.120r" % (i, e, line)
        n += 1
    if need and n == 0:
        return "no JSON record on stdout"
    return None


def substitute(word, tmp):
    return (word.replace("@T@", tmp).replace("@FX@", FX).replace("@SRC@", SRC)
            .replace("@ESC@", "\x1b[31m").replace("@BAD@", "\udcff\udcfe"))


def run_case(tool, code, checks, pattern, args, tmp, verbose):
    words = [] if args == "-" else shlex.split(args)
    env = dict(os.environ)
    env.pop("GDPERF_SYSFS_ROOT", None)
    while words and re.match(r"^[A-Z_]+=", words[0]):  # leading VAR=value: the environment
        var, _, val = words.pop(0).partition("=")
        env[var] = substitute(val, tmp)
    argv = [os.path.join(TOOLS, tool)] + [substitute(a, tmp) for a in words]
    stdout = subprocess.PIPE
    if "full" in checks:
        stdout = open("/dev/full", "wb")
    t0 = time.monotonic()
    p = subprocess.run(["timeout", str(hang_limit())] + argv, stdout=stdout, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, env=env)
    dt = time.monotonic() - t0
    out = p.stdout or b""
    err = p.stderr.decode("utf-8", errors="replace")
    why = None
    if p.returncode in (124, 137):
        why = "still running after %d s (killed): a blocking or endless read?" % hang_limit()
    elif p.returncode != code:
        why = "exit %d, expected %d" % (p.returncode, code)
    elif "json" in checks or "json+" in checks:
        why = strict_json_lines(out, "json+" in checks)
    if not why and pattern:
        where = out.decode("utf-8", errors="replace") if pattern.startswith("out:") else err
        rx = pattern[4:] if pattern.startswith(("out:", "err:")) else pattern
        if not re.search(rx, where):
            why = "%s lacks /%s/" % ("stdout" if pattern.startswith("out:") else "stderr", rx)
    if not why and "noraw" in checks and ("\x1b" in err or "\ufffd" in err):
        why = "stderr echoes raw control or non-UTF-8 bytes of the input"
    if not why and "noesc" in checks and (b"\x1b" in out or "\x1b" in err):
        why = "an escape sequence read from the machine reached the terminal"
    if not why and "nopass" in checks and re.search(rb"PASS +pcie\.link", out):
        why = "a non-finite link speed PASSed"
    return why, dt, err


def main():
    verbose = "-v" in sys.argv
    only = sys.argv[sys.argv.index("-k") + 1] if "-k" in sys.argv else None
    if not os.path.exists(os.path.join(TOOLS, "gd_devinfo")):
        print("SKIP: tools not built in %s" % BUILD)
        return 77
    has_rdma = bool(os.path.isdir("/sys/class/infiniband") and os.listdir("/sys/class/infiniband"))
    # what the tools were built with: their --version features line, asked by
    # tests/lib/features.sh in hostile.sh (one helper for every test)
    features = os.environ.get("GD_FEATURES")
    if features is None:
        print("error: GD_FEATURES is not set: run this through tests/hostile/hostile.sh")
        return 2
    has_ofi = "libfabric=yes" in features.split()
    tmp = tempfile.mkdtemp(prefix="gd-hostile-")
    try:
        make_trees(tmp)
        fails = ran = 0
        slowest = (0.0, "")
        classes = {}
        with open(os.path.join(SRC, "tests", "hostile", "cases")) as f:
            rows = [l.rstrip("\n") for l in f if l.strip() and not l.lstrip().startswith("#")]
        for row in rows:
            fields = [x.strip() for x in row.split(" | ")]
            if len(fields) != 6:
                print("FAIL: malformed table row: %s" % row)
                fails += 1
                continue
            cls, tools, code, checks, pattern, args = fields
            checks = checks.split(",")
            if "nodev" in checks and has_rdma:
                continue  # only meaningful where this machine has no RDMA device
            if "dev" in checks and not has_rdma:
                continue  # only meaningful where this machine has an RDMA device
            if ("ofi" in checks and not has_ofi) or ("noofi" in checks and has_ofi):
                continue  # a refusal of the build with libfabric, or of the one without
            for tool in GROUPS.get(tools, tools.split(",")):
                name = "%s: %s %s" % (cls, tool, args)
                if only and only not in name:
                    continue
                why, dt, err = run_case(tool, int(code), checks,
                                        "" if pattern == "-" else pattern, args, tmp, verbose)
                ran += 1
                classes[cls] = classes.get(cls, 0) + 1
                slowest = max(slowest, (dt, name))
                if why:
                    fails += 1
                    print("FAIL: %s: %s" % (name, why))
                    for line in err.splitlines()[:6]:
                        print("      | " + line)
                elif verbose:
                    print("ok: %s (%.2f s)" % (name, dt))
        print("%d cases (%s), %d failed; slowest %.2f s: %s" % (
            ran, ", ".join("%s %d" % kv for kv in sorted(classes.items())), fails,
            slowest[0], slowest[1]))
        return 1 if fails else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
