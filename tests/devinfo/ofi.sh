#!/bin/sh
# gd_devinfo --fabric ofi against libfabric's own fi_info on this machine (no
# fixture: both read the live libfabric). The registered providers must be
# fi_info -l's; for tcp and shm, every entry (provider, fabric, domain,
# endpoint type, caps, mr_mode, max_msg_size) must be one of fi_info -p P -v's,
# in the same number. SKIP (77) without libfabric in this build or without
# fi_info (Debian: libfabric-bin).
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${top_builddir:-$src}
. "$src/tests/lib/python.sh"
devinfo=$build/tools/gd_devinfo
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
unset GDPERF_SYSFS_ROOT
fail=0

[ -x "$devinfo" ] || { echo "no $devinfo"; exit 99; }
command -v "$PY" > /dev/null || { echo "SKIP: no python3"; exit 77; }
. "$src/tests/lib/features.sh" # built_with
if ! top_builddir=$build built_with libfabric; then
	"$devinfo" --fabric ofi > /dev/null 2> "$tmp/err"
	rc=$?
	# a build without libfabric says so, naming the build option, exit 3
	[ $rc = 3 ] && grep -q -- '--with-libfabric' "$tmp/err" ||
		{ echo "FAIL: --fabric ofi without libfabric: exit $rc"; cat "$tmp/err"; exit 1; }
	echo "SKIP: built without libfabric (--fabric ofi exits 3 naming --with-libfabric, checked)"
	exit 77
fi
command -v fi_info > /dev/null || { echo "SKIP: no fi_info (apt-get install libfabric-bin)"; exit 77; }

# the providers registered
fi_info -l | sed -n 's/^\([^ ].*\):$/\1/p' | sort > "$tmp/fi-l"
"$devinfo" --fabric ofi --json > "$tmp/all.json" || { echo "FAIL: --fabric ofi --json exit $?"; fail=1; }
"$PY" -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "ofi_provider":
        print(r["provider"])' "$tmp/all.json" | sort > "$tmp/gd-l"
[ -s "$tmp/fi-l" ] && diff -u "$tmp/fi-l" "$tmp/gd-l" ||
	{ echo "FAIL: registered providers differ from fi_info -l"; fail=1; }

# one provider's entries, field by field (fi_info -v's YAML-like text parsed here)
cat > "$tmp/cmp.py" <<'EOF'
import json, re, sys

def fi_entries(path):
    out, cur, sect = [], None, None
    for line in open(path):
        if line.startswith("fi_info:"):
            cur = {}
            out.append(cur)
            continue
        m = re.match(r"^( *)([a-z_]+): ?(.*)$", line.rstrip("\n"))
        if not m or cur is None:
            continue
        depth, key, val = len(m.group(1)) // 4, m.group(2), m.group(3)
        if depth == 1:
            sect = key if val == "" else None
            if key == "caps":
                cur["caps"] = val
            continue
        if depth == 2 and sect:
            cur.setdefault(sect + "." + key, val)
    return [(e["fi_fabric_attr.prov_name"], e["fi_fabric_attr.name"], e["fi_domain_attr.name"],
             e["fi_ep_attr.type"], " ".join(sorted(re.findall(r"FI_\w+", e["caps"]))),
             " ".join(sorted(re.findall(r"FI_\w+", e["fi_domain_attr.mr_mode"]))),
             no_limit(int(e["fi_ep_attr.max_msg_size"]))) for e in out]

def no_limit(v):
    # doc/json.md, Exact integers: a limit of 2^53 bytes or more is null (no limit)
    return None if v >= 2 ** 53 else v

def gd_entries(path):
    out = []
    for line in open(path):
        r = json.loads(line)
        if r["type"] == "ofi_info":
            out.append((r["provider"], r["fabric"], r["domain"], r["ep_type"],
                        " ".join(sorted(r["caps"])), " ".join(sorted(r["mr_mode"])),
                        r["max_msg_size"]))
    return out

a, b = sorted(fi_entries(sys.argv[1])), sorted(gd_entries(sys.argv[2]))
for x in a:
    if x not in b:
        print("fi_info only:", x)
for x in b:
    if x not in a:
        print("gd_devinfo only:", x)
print("%d fi_info entries, %d gd_devinfo entries" % (len(a), len(b)))
sys.exit(0 if a == b and a else 1)
EOF
for p in tcp shm; do
	fi_info -p "$p" -v > "$tmp/fi-$p" 2>&1 || { echo "FAIL: fi_info -p $p failed"; cat "$tmp/fi-$p"; fail=1; continue; }
	"$devinfo" --fabric ofi --provider "$p" --json > "$tmp/gd-$p.json" ||
		{ echo "FAIL: --provider $p exit $?"; fail=1; continue; }
	"$PY" "$tmp/cmp.py" "$tmp/fi-$p" "$tmp/gd-$p.json" ||
		{ echo "FAIL: --provider $p differs from fi_info -p $p -v"; fail=1; }
	"$devinfo" --fabric ofi --provider "$p" > "$tmp/gd-$p.txt" &&
		grep -q "^$p" "$tmp/gd-$p.txt" || { echo "FAIL: text report of $p"; fail=1; }
done

# every entry, as plain fi_info (no hints) lists them (newcomer 3: 72 of fi_info's 97)
n_fi=$(fi_info 2>/dev/null | grep -c '^provider:')
n_gd=$("$PY" -c '
import json, sys
print([json.loads(l) for l in open(sys.argv[1]) if "ofi_summary" in l][0]["entries"])' "$tmp/all.json")
[ "$n_fi" = "$n_gd" ] || { echo "FAIL: gd_devinfo --fabric ofi lists $n_gd entries, fi_info $n_fi"; fail=1; }
# atomics offered only when asked for (tcp;ofi_rxm): marked, as fi_info -c FI_ATOMIC shows
# them (newcomer 3: ATOMIC "no" for tcp;ofi_rxm, yet gd_atomic_bw --provider tcp runs)
if fi_info -p tcp -c FI_ATOMIC 2>/dev/null | grep -q '^provider:'; then
	"$PY" -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
e = [r for r in recs if r["type"] == "ofi_info"]
sys.exit(0 if e and all(r["atomic"] or r["atomic_asked"] for r in e if r["provider"] == "tcp;ofi_rxm") else 1)' \
		"$tmp/gd-tcp.json" ||
		{ echo "FAIL: tcp;ofi_rxm entries say no atomics, fi_info -p tcp -c FI_ATOMIC has them"; fail=1; }
	grep -q "ATOMIC ask: " "$tmp/gd-tcp.txt" || { echo "FAIL: the text does not explain ATOMIC ask"; fail=1; }
fi

# bad input: exit 2 with the cause
"$devinfo" --fabric ofi --provider no-such-prov > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "no-such-prov" "$tmp/err" || { echo "FAIL: unknown provider"; cat "$tmp/err"; fail=1; }
"$devinfo" --fabric bogus > /dev/null 2>&1
[ $? = 2 ] || { echo "FAIL: --fabric bogus should exit 2"; fail=1; }
# --provider implies --fabric ofi, as in the bench tools (newcomer 5: it exited 2);
# with --fabric verbs it is refused with the bench tools' message
"$devinfo" --provider shm --json > "$tmp/implied.json" 2> "$tmp/err"
[ $? = 0 ] && "$devinfo" --fabric ofi --provider shm --json | cmp -s - "$tmp/implied.json" ||
	{ echo "FAIL: --provider shm without --fabric is not --fabric ofi --provider shm"; cat "$tmp/err"; fail=1; }
"$devinfo" --fabric verbs --provider tcp > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q -- "add --fabric ofi" "$tmp/err" ||
	{ echo "FAIL: --fabric verbs --provider tcp should exit 2 naming --fabric ofi"; cat "$tmp/err"; fail=1; }
# FI_PROVIDER limits libfabric to its list: the message names it (hostile D12)
FI_PROVIDER=shm "$devinfo" --fabric ofi --provider tcp > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "FI_PROVIDER=shm in the environment limits libfabric" "$tmp/err" ||
	{ echo "FAIL: FI_PROVIDER not named"; cat "$tmp/err"; fail=1; }
# no RDMA device here: the message points at libfabric's report too (newcomer 2)
if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	GDPERF_SYSFS_ROOT= "$devinfo" > /dev/null 2> "$tmp/err"
	[ $? = 3 ] && grep -q -- "--fabric ofi lists them" "$tmp/err" ||
		{ echo "FAIL: the no-device message does not name --fabric ofi"; cat "$tmp/err"; fail=1; }
fi

[ $fail = 0 ] && echo "gd_devinfo --fabric ofi: matches fi_info -l, fi_info -p tcp|shm -v"
exit $fail
