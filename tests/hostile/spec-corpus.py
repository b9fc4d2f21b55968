#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The generated-spec corpus of issue 19: every key of every gd_check spec
section (with fleet, manifest and its nic/gpu entries, and a pairs: all-nics test)
x hostile values, plus whole-file oddities, each run through
`gd_check --dry-run --topology H20.xml` (the h20 fixture). A case passes when
gd_check ends within the hang bound with 0, 1 or 2, a refusal (2) names
FILE:LINE:COL of the spec, and stderr holds no sanitizer report (ASan, UBSan,
LeakSanitizer: run it on an ASan+UBSan build for the full check).

Usage: spec-corpus.py [--all] [--list] [-k SUBSTRING] [-v]
  default: every 8th case (make check, and make distcheck under ASan: about a
  minute); --all: the whole corpus (2,328 specs; run it on an ASan+UBSan build).
top_srcdir/top_builddir from the environment (default: this tree).
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import asan_build  # noqa: E402 (beside this file: one test of "built with ASan")

SRC = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("top_builddir", SRC)
CHECK = os.path.join(BUILD, "tools", "gd_check")
XML = os.path.join(SRC, "tests", "fixtures", "topo", "h20", "topology.xml")

BASE = {
    "top": [("version", "1"), ("name", "corpus"), ("retries", "1")],
    "topology": [("gpus", "8"), ("nics", "4"), ("worst_gpu_nic_class", "PXB"),
                 ("gpu_nic_same_numa", "true")],
    "devices": [("name", "mlx5_0"), ("state", "ACTIVE"), ("port", "1"), ("min_rate", "200 Gb/s"),
                ("mtu", "4096"), ("firmware", "28.39.1002"), ("gid_type", "RoCE v2"),
                ("bond_mode", "802.3ad"), ("bond_slaves_up", "2")],
    "doctor": [("must_pass", "[rdma.devices]")],
    "tests": [("name", "t"), ("op", "write"), ("type", "bw"), ("size", "64K"),
              ("iterations", "100"), ("qps", "1"), ("memory", "host"), ("initiator", "cpu"),
              ("retries", "1"), ("device", "mlx5_0"), ("pairs", "each-nic-loopback"),
              ("duration", "1s"), ("sweep", "[4K, 8K]"), ("rung", "p2p"), ("fabric", "verbs"),
              ("expect", "{fabric: verbs}")],
    "thresholds": [("min_bw", "1 Gb/s"), ("min_peak_bw", "1 Gb/s"), ("min_msg_rate", "1 pps"),
                   ("max_lat", "10 ms"), ("max_lat_avg", "10 ms"), ("max_lat_p50", "10 ms"),
                   ("max_lat_p99", "10 ms"), ("max_lat_p999", "10 ms"), ("max_lat_max", "10 ms")],
    "fleet": [("outlier", "10%")],
    "manifest": [("gpus", "8"), ("nics", "4")],
    "manifest_nic": [("name", "mlx5_bond_0"), ("port", "1"), ("firmware", "'28\\.39\\..*'"),
                     ("rate", "200 Gb/s"), ("numa", "0")],
    "manifest_gpu": [("busid", "0000:0f:00.0"), ("numa", "0")],
    "allnics": [("name", "a"), ("op", "write"), ("size", "1M"), ("duration", "1s"),
                ("memory", "gpu"), ("pairs", "all-nics"), ("thresholds", "{min_bw: 70% line}")],
}

# the hostile values (YAML text as written after "key: ")
VALUES = [".nan", ".inf", "-.inf", "~", "null", "1e999", "99999999999999999999999", "0x10",
          "+5", "\" 5\"", "\"\\u0000\"", "!!binary aGVsbG8=", "&a 5", "*undefined", "[1, 2]",
          "{a: 1}", "[]", "{}", "\"\"", "-1", "0", "true", "'x'", "\"\\x07bell\\x1b[31m\"",
          "1.5K", "1e2% pcie", "90 % line", "0% line", "100.0000001% pcie", "|\n    block",
          "x" * 5000, "\"\\xff\\xfe\"", "1 Tb/s", "-0", "NaN Gb/s"]


def render(over_section=None, over_key=None, value=None):
    """The base spec with one key of one section set to value (or added)."""
    def kv(section, items, indent):
        out = []
        seen = False
        for k, v in items:
            if section == over_section and k == over_key:
                v, seen = value, True
            out.append("%s%s: %s" % (indent, k, v))
        if section == over_section and not seen:
            out.append("%s%s: %s" % (indent, over_key, value))
        return out
    lines = kv("top", BASE["top"], "")
    lines.append("topology:")
    lines += kv("topology", BASE["topology"], "  ")
    lines.append("devices:")
    dev = kv("devices", BASE["devices"], "    ")
    lines.append("  - " + dev[0].strip())
    lines += dev[1:]
    lines.append("doctor:")
    lines += kv("doctor", BASE["doctor"], "  ")
    # fleet, manifest and the all-nics test before test t (whose mix of keys is refused):
    # the loader reaches their hostile values first
    lines.append("fleet:")
    lines += kv("fleet", BASE["fleet"], "  ")
    lines.append("manifest:")
    lines += kv("manifest", BASE["manifest"], "  ")
    for name in ("nic", "gpu"):
        lines.append("  %s:" % name)
        ent = kv("manifest_" + name, BASE["manifest_" + name], "      ")
        lines.append("    - " + ent[0].strip())
        lines += ent[1:]
    lines.append("tests:")
    alln = kv("allnics", BASE["allnics"], "    ")
    lines.append("  - " + alln[0].strip())
    lines += alln[1:]
    tst = kv("tests", BASE["tests"], "    ")
    lines.append("  - " + tst[0].strip())
    lines += tst[1:]
    lines.append("    thresholds:")
    lines += kv("thresholds", BASE["thresholds"], "      ")
    return "\n".join(lines) + "\n"


def whole_files():
    base = render()
    deep = "a: " + "[" * 400 + "]" * 400 + "\n"
    many = "version: 1\ntests:\n" + "".join(
        "  - {name: t%d, op: write, size: 4K, iterations: 10}\n" % i for i in range(1000))
    return [
        ("empty", ""), ("dashes", "---\n"), ("dots", "...\n"), ("bom", "\ufeff" + base),
        ("crlf", base.replace("\n", "\r\n")), ("nul", base[:40] + "\0" + base[40:]),
        ("c0", base[:40] + "\x01\x02\x1b" + base[40:]), ("directive", "%YAML 1.1\n---\n" + base),
        ("two-docs", base + "---\nversion: 2\n"), ("deep", deep), ("many-tests", many),
        ("self-alias", "version: 1\ntests: &t [*t]\n"),
        ("alias-topology", "version: 1\ntopology: &t {gpus: *t}\n"),
        ("dup-top", base + "version: 1\n"), ("tab", base.replace("  ", "\t", 1)),
        ("not-map", "- a\n- b\n"), ("scalar", "hello\n"), ("binary", "\x89PNG\r\n\x1a\n\0\0"),
    ]


def corpus():
    cases = []
    for section, items in BASE.items():
        keys = [k for k, _ in items] + ["no_such_key"]
        for k in keys:
            for i, v in enumerate(VALUES):
                cases.append(("%s.%s=%d" % (section, k, i), render(section, k, v)))
    return cases + [("file:" + n, t) for n, t in whole_files()]


def hang_limit():
    return 60 if asan_build(CHECK) else 10


SANITIZER = re.compile(r"runtime error|AddressSanitizer|LeakSanitizer|UndefinedBehavior")


def run_case(name, text, tmp, limit):
    path = os.path.join(tmp, "spec.yaml")
    with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
        f.write(text)
    try:
        p = subprocess.run([CHECK, "--dry-run", "--topology", XML, path], capture_output=True,
                           timeout=limit, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "still running after %d s" % limit
    err = p.stderr.decode("utf-8", errors="replace")
    if SANITIZER.search(err):
        return "sanitizer report: " + err[:400]
    if p.returncode not in (0, 1, 2):
        return "exit %d: %s" % (p.returncode, err[:300])
    if p.returncode == 2 and not re.search(re.escape(path) + r":\d+:\d+: ", err):
        return "refused without FILE:LINE:COL: " + err[:300]
    return None


def main(argv):
    every = 1 if "--all" in argv else 8
    verbose = "-v" in argv
    sub = argv[argv.index("-k") + 1] if "-k" in argv else None
    cases = corpus()
    if "--list" in argv:
        for n, _ in cases:
            print(n)
        return 0
    if not os.access(CHECK, os.X_OK):
        print("SKIP: %s not built" % CHECK)
        return 77
    if not os.path.exists(XML):
        print("SKIP: %s missing" % XML)
        return 77
    limit = hang_limit()
    picked = [c for i, c in enumerate(cases) if i % every == 0 and (not sub or sub in c[0])]
    failed = 0
    counts = {0: 0, 2: 0}
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in picked:
            why = run_case(name, text, tmp, limit)
            if why:
                failed += 1
                print("FAIL: %s: %s" % (name, why))
            elif verbose:
                print("ok: %s" % name)
    print("%d of %d generated specs (%s), %d failed" %
          (len(picked), len(cases), "all" if every == 1 else "every %dth" % every, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
