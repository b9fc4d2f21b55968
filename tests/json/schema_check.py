#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Hold the JSON Lines the tools print against doc/json.md.

doc/json.md documents each record as a section '### <tool> <type>' (or
'### <tool> *' for a record of every type of that tool, e.g. gd_devinfo's
common fields) followed by a table whose rows are

    | `field.path` | type | null? | meaning |

A section's tool may be a comma-separated list of globs
('### gd_*_bw,gd_*_lat *' for the fields every benchmark record has).
Nested fields are dotted and array elements are written '[]'
(`ports[].gids[].index`). Types: string, integer, number, boolean, object,
array; 'null?' is 'yes' when the field may be null.

  schema_check.py DOC FILE...            check every record of the files
  schema_check.py --complete TOOLS ...   also fail on documented fields of
                                         TOOLS (comma list) that no record had
  schema_check.py --draft FILE...        print tables for undocumented fields
  schema_check.py --exempt MARK ...      with --complete: also skip documented
                                         fields whose meaning holds "(MARK)"
                                         (repeatable, e.g. --exempt "guest only")
  schema_check.py --exempt-record 'TOOL TYPE' ...
                                         with --complete: also skip every field of
                                         that record (repeatable: a record only a
                                         run prints, where nothing can run)

A field whose meaning holds "(hardware only)" (a GPU, a ConnectX),
"(launcher only)" (printed only under mpirun/srun: tests/vm/check-suites-mpi.sh
checks those records) or "(rare)" (a corner no test reaches) is never
required by --complete: neither
the fixtures nor the Soft-RoCE guest print it. Fixture runs pass --exempt "guest only" for fields that need a real RDMA
device (the Soft-RoCE guest prints them) and --exempt "run only" for fields of a test
that ran (no fixture runs one; the guest does).

Exit 0 when every emitted field is documented with the right type, else 1.
Strictness: NaN/Infinity, invalid UTF-8 and an integer beyond +-2^53 (not
exact for a reader that holds numbers as doubles: doc/json.md, Exact
integers) are errors too.
"""
import fnmatch
import json
import re
import sys

TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool,
         "object": dict, "array": list}


def parse_doc(path):
    doc, section = {}, None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^###\s+(\S+)\s+(\S+)\s*$", line)
        if m:
            section = doc.setdefault((m.group(1), m.group(2)), {})
            continue
        if line.startswith("#"):
            section = None
            continue
        m = re.match(r"^\|\s*`([^`]+)`\s*\|\s*([a-z|\\]+)\s*\|\s*(yes|no)\s*\|(.*)\|\s*$", line)
        if m and section is not None:
            section[m.group(1)] = (m.group(2).replace("\\", "").split("|"), m.group(3) == "yes",
                                   set(re.findall(r"\(([a-z ]+)\)", m.group(4))))
    return doc


def flatten(obj, prefix=""):
    """(path, value) for every field, arrays as [] (each element visited)."""
    for k, v in obj.items():
        path = prefix + k
        yield path, v
        if isinstance(v, dict):
            yield from flatten(v, path + ".")
        elif isinstance(v, list):
            for e in v:
                if isinstance(e, dict):
                    yield from flatten(e, path + "[].")


def type_ok(value, types):
    if isinstance(value, bool):
        return "boolean" in types
    return any(isinstance(value, TYPES[t]) for t in types if t in TYPES)


def tool_matches(tool, pattern):
    """A section's tool is a name, '*', or comma-separated globs (gd_*_bw)."""
    return any(fnmatch.fnmatchcase(tool or "", p) for p in pattern.split(","))


def matching(doc, tool, typ):
    """The sections a record of (tool, typ) takes fields from, general first:
    '* *', then the tool's '*' sections, then its typ sections."""
    keys = [k for k in doc if tool_matches(tool, k[0]) and k[1] in ("*", typ)]
    return sorted(keys, key=lambda k: (k[0] != "*", k[1] != "*"))


EXACT_MAX = 2 ** 53


def inexact_ok(value):
    """False for an integer (or an array holding one) a double cannot hold exactly."""
    if isinstance(value, list):
        return all(inexact_ok(v) for v in value)
    return isinstance(value, bool) or not isinstance(value, int) or abs(value) <= EXACT_MAX


# gd_check's `check` records: a `measured` text holding a number (a quantity: digits
# standing alone, not part of a name such as rxe0 or GPU3, a version such as 20.31.1014,
# a bus id or a ratio such as 2/2) carries that number in `value` (doc/json.md, gd_check
# check: issue 30 item 8). The kinds whose text holds a number that is not one value, each
# with its reason (doc/json.md names the same):
QUANTITY = re.compile(r"(?<![\w.:/-])\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.:/-])")
NOT_ONE_VALUE = [
    (re.compile(r" numa$"), "a NUMA node: an id, not a quantity"),
    (re.compile(r" pcie$"), "a PCIe link: two numbers, its width and its speed"),
    (re.compile(r": expect$"), "how a run ran: several keys"),
    (re.compile(r"manifest (kernel|nvidia_driver|cuda|rdma_core|libfabric|gdperf)$"),
     "a version"),
]


def value_holes(rec):
    """Why a gd_check check record's `value` (or an attempt's) is null where its text has a
    number: a list of reasons, empty when none."""
    if rec.get("tool") != "gd_check" or rec.get("type") != "check":
        return []
    name = rec.get("check") or ""
    if any(p.search(name) for p, _ in NOT_ONE_VALUE):
        return []
    holes = []
    for where, o in [("", rec)] + [("attempt %s: " % a.get("attempt"), a)
                                  for a in rec.get("attempts") or [] if isinstance(a, dict)]:
        text = o.get("measured") or ""
        if o.get("value") is None and QUANTITY.search(text):
            holes.append("%s'measured' is '%s' (a number) but 'value' is null (check '%s')"
                         % (where, text, name))
    return holes


def reject_constant(name):
    raise ValueError("non-finite number %s" % name)


def check(doc, files, complete_tools, draft, exempt=(), exempt_records=()):
    errors, seen, undocumented = [], set(), {}
    for f in files:
        raw = open(f, "rb").read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            errors.append("%s: not UTF-8: %s" % (f, e))
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line, parse_constant=reject_constant)
            except ValueError as e:
                errors.append("%s:%d: not strict JSON: %s" % (f, n, e))
                continue
            tool, typ = rec.get("tool"), rec.get("type")
            sections = matching(doc, tool, typ)
            fields = {}
            for key in sections:
                fields.update({p: (spec, key) for p, spec in doc[key].items()})
            if not any(k[1] == typ for k in sections) and not draft:
                errors.append("%s:%d: record %s %s is not documented" % (f, n, tool, typ))
                continue
            for hole in value_holes(rec):
                errors.append("%s:%d: gd_check check: %s" % (f, n, hole))
            for path, value in flatten(rec):
                if not inexact_ok(value):
                    errors.append("%s:%d: %s %s: '%s' is %d, beyond +-2^53 (not exact as a double)"
                                  % (f, n, tool, typ, path, value))
                spec = fields.get(path)
                if spec is None:
                    undocumented.setdefault((tool, typ), {}).setdefault(path, []).append(value)
                    errors.append("%s:%d: %s %s: field '%s' is not in doc/json.md"
                                  % (f, n, tool, typ, path))
                    continue
                (types, nullable, _), key = spec
                seen.add((key, path))
                if value is None and not nullable:
                    errors.append("%s:%d: %s %s: '%s' is null, documented not nullable"
                                  % (f, n, tool, typ, path))
                elif value is not None and not type_ok(value, types):
                    errors.append("%s:%d: %s %s: '%s' is %s, documented %s"
                                  % (f, n, tool, typ, path, type(value).__name__, "|".join(types)))
    for key, fields in doc.items():
        if not any(tool_matches(t, key[0]) for t in complete_tools):
            continue
        if "%s %s" % key in exempt_records:
            continue
        for path, (_, _, marks) in fields.items():
            if marks & ({"hardware only", "rare", "launcher only"} | set(exempt)):
                continue
            if (key, path) not in seen:
                errors.append("doc/json.md: %s %s: '%s' is documented but no record had it"
                              % (key[0], key[1], path))
    if draft:
        for (tool, typ), fields in sorted(undocumented.items()):
            print("### %s %s\n\n| field | type | null? | meaning |\n|---|---|---|---|" % (tool, typ))
            for path, vals in fields.items():
                ts = sorted({next(k for k in TYPES if type_ok(v, [k]))
                             for v in vals if v is not None}) or ["string"]
                if ts == ["integer", "number"]:
                    ts = ["number"]
                null = "yes" if any(v is None for v in vals) else "no"
                print("| `%s` | %s | %s | |" % (path, "|".join(ts), null))
            print()
        return 0
    for e in errors[:200]:
        print(e)
    if len(errors) > 200:
        print("... and %d more" % (len(errors) - 200))
    return 1 if errors else 0


def main(argv):
    complete, draft, exempt, exempt_records = set(), False, [], []
    args = argv[1:]
    while args and args[0].startswith("--"):
        if args[0] == "--complete":
            complete = set(args[1].split(","))
            args = args[2:]
        elif args[0] == "--exempt":
            exempt.append(args[1])
            args = args[2:]
        elif args[0] == "--exempt-record":
            exempt_records.append(args[1])
            args = args[2:]
        elif args[0] == "--draft":
            draft = True
            args = args[1:]
        else:
            print("usage: schema_check.py [--complete TOOLS] [--exempt MARK] [--exempt-record 'TOOL TYPE'] [--draft] DOC FILE...")
            return 2
    if len(args) < 2:
        print("usage: schema_check.py [--complete TOOLS] [--exempt MARK] [--exempt-record 'TOOL TYPE'] [--draft] DOC FILE...")
        return 2
    return check(parse_doc(args[0]), args[1:], complete, draft, exempt, exempt_records)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
